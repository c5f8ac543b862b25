//! The main search's frame: how long a move may take ([`timeman`]), when a running search must
//! stop ([`control`]) and how many bytes its tables may take ([`memory`]). Everything here takes
//! plain values (milliseconds, bytes); the protocol converts its settings into them.

pub mod control;
pub mod memory;
pub mod timeman;

pub use control::SearchControl;
pub use memory::MemoryBudget;
pub use timeman::{budget_for, Limit, TimeBudget, TimeControl, TimeInput};
