//! Tianyuan (天元): a Gomoku / Renju engine.
//!
//! The crate is split the way the engine is: [`core`] is the rules core (board, incremental
//! patterns, exact rules) on which everything else stands; [`engine`] chooses moves;
//! [`protocol`] and [`timeman`] are the Gomocup brain's face; [`tools`] holds the match runner's
//! parts; [`demo`] lets people watch the brain play itself; [`bench`](mod@bench), [`protocol_bench`] and
//! [`corpus`] serve measurement and tests.

#![warn(missing_docs)]

pub mod bench;
pub mod core;
pub mod corpus;
pub mod demo;
pub mod engine;
pub mod protocol;
pub mod protocol_bench;
pub mod threat;
pub mod timeman;
pub mod tools;
