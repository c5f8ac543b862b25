//! Running matches between Gomocup protocol brains: the building blocks and the
//! `pbrain-tianyuan match` / `selfplay` subcommands built from them.
//!
//! The building blocks other than [`adjudication`] know nothing of the rules; adjudication
//! judges moves with the rules core, and the match runner puts them together.
//!
//! * [`stats`]: Elo, LOS, pentanomial statistics and SPRT.
//! * [`openings`]: reading opening files (c-gomoku-cli `offset` / `pos`
//!   formats and the project corpora line format).
//! * [`records`]: game records written as SGF (c-gomoku-cli style) and PGN
//!   (for BayesElo / Ordo).
//! * [`engine_process`]: spawning and driving one external brain process with
//!   deadlines, crash detection and kill-on-drop.
//! * [`clock`]: time controls and per-player clocks with tolerance.
//! * [`player`]: one engine seat (process started, restarted, driven per game).
//! * [`adjudication`]: the referee's decisions on replies and draws.
//! * [`game`]: one game between two brains.
//! * [`schedule`]: pairings, colours and openings of every game.
//! * [`report`]: per-pairing statistics, progress line and final report.
//! * [`match_options`]: command-line options of `match` / `selfplay`.
//! * [`match_runner`]: the tournament (workers, output files, SPRT).

pub mod adjudication;
pub mod clock;
pub mod engine_process;
pub mod game;
pub mod match_options;
pub mod match_runner;
pub mod openings;
pub mod player;
pub mod records;
pub mod report;
pub mod schedule;
pub mod stats;
