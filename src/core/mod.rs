//! The rules core: board, incremental line patterns, threat classes and exact rules for
//! freestyle, standard, renju and caro. Everything else in Tianyuan stands on this module.

pub mod bitset;
pub mod board;
pub mod five_stop;
pub mod legal;
pub mod line;
pub mod notation;
pub mod pattern;
pub mod pos;
pub mod renju;
pub mod rule;
pub mod zobrist;

pub use bitset::CellSet;
pub use board::Board;
pub use legal::MoveVerdict;
pub use line::LinePattern;
pub use pattern::ThreatClass;
pub use pos::Pos;
pub use rule::{Color, Rule};
