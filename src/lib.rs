//! Tianyuan (天元): a Gomoku / Renju engine.

pub mod tools;
