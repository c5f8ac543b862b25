//! Tianyuan (天元): a Gomoku / Renju engine.
//!
//! The crate is split the way the engine is: [`core`] is the rules core (board, incremental
//! patterns, exact rules) on which everything else stands.

#![warn(missing_docs)]

pub mod bench;
pub mod core;
pub mod corpus;
