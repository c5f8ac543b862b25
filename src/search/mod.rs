//! The main search ([`searcher`]: iterative deepening, PVS, VCF quiescence) with its parts —
//! the transposition table ([`tt`]), the staged move picker ([`movepick`]), static mate
//! detection ([`mate`]), histories ([`history`]), values and mate scores ([`value`]), the steps'
//! switches and constants ([`params`]) — and its
//! frame: how long a move may take ([`timeman`]), when a running search must stop
//! ([`control`]) and how many bytes its tables may take ([`memory`]). Everything here takes
//! plain values (milliseconds, bytes); the protocol converts its settings into them.

pub mod control;
pub mod history;
pub mod mate;
pub mod memory;
pub mod movepick;
pub mod params;
pub mod searcher;
pub mod timeman;
pub mod tt;
pub mod value;

pub use control::SearchControl;
pub use memory::MemoryBudget;
pub use searcher::{Iteration, SearchResult, Searcher};
pub use timeman::{budget_for, Limit, TimeBudget, TimeControl, TimeInput};
