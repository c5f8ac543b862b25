//! Tianyuan (天元): a Gomoku / Renju engine.

pub mod protocol;
pub mod timeman;
