//! Tianyuan (天元): a Gomoku / Renju engine.
//!
//! The crate is split the way the engine is, and its dependencies point one way, down this list:
//!
//! 1. [`core`]: the rules core — board, incremental line patterns, threat classes, exact rules
//!    and legality for every rule. It knows nothing of searching.
//!    [`corpus`] reads the test-position line format into core boards.
//! 2. [`tactics`]: the threat-space solvers (VCF, VCT by df-pn).
//! 3. [`eval`]: the static evaluation; [`search`]: the main search and its frame (time
//!    budgets, stop control, memory budget).
//! 4. [`player`]: move choosers behind the [`player::Player`] interface.
//! 5. [`protocol`]: the Gomocup brain (stdin/stdout session); [`tools`]: the subcommands for
//!    people (match runner, `solve`, `bench`, `demo`).
//!
//! `tests/layering.rs` checks that no module imports from a layer above its own.

#![warn(missing_docs)]

pub mod core;
pub mod corpus;
pub mod eval;
pub mod player;
pub mod protocol;
pub mod search;
pub mod tactics;
pub mod tools;
