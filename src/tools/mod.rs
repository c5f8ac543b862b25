//! Board-independent building blocks for running matches between Gomocup
//! protocol brains (the future `pbrain-tianyuan match` / `selfplay`
//! subcommands).
//!
//! Nothing in here knows the rules of the game: win / foul detection comes
//! from the rules core, and the game loop is assembled by the caller.
//!
//! * [`stats`]: Elo, LOS, pentanomial statistics and SPRT.
//! * [`openings`]: reading opening files (c-gomoku-cli `offset` / `pos`
//!   formats and the project corpora line format).
//! * [`records`]: game records written as SGF (c-gomoku-cli style) and PGN
//!   (for BayesElo / Ordo).
//! * [`engine_process`]: spawning and driving one external brain process with
//!   deadlines, crash detection and kill-on-drop.

pub mod engine_process;
pub mod openings;
pub mod records;
pub mod stats;
