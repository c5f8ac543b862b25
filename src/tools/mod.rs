//! The subcommands for people, and the match runner they share.
//!
//! Subcommands: [`solve`] (VCF / VCT over corpus positions or move lists), [`bench`](mod@bench) (fixed
//! workloads: the rules core's speed), [`demo`] (watch the brain play itself),
//! [`protocol_bench`] (hidden: protocol latencies and time overshoot), `match` / `selfplay`
//! ([`match_runner`]), the data tools `datagen`, `relabel` and `tune` ([`datagen`],
//! [`relabel`], [`tune`]) and the search constants' tuner [`spsa`].
//!
//! The match runner's building blocks other than [`adjudication`] know nothing of the rules;
//! adjudication judges moves with the rules core, and the match runner puts them together.
//!
//! * [`stats`]: Elo, LOS, pentanomial statistics and SPRT.
//! * [`openings`]: reading opening files (c-gomoku-cli `offset` / `pos`
//!   formats and the project corpora line format).
//! * [`opening_balance`]: random openings kept when our search values them near level.
//! * [`records`]: game records written as SGF (c-gomoku-cli style) and PGN
//!   (for BayesElo / Ordo).
//! * [`engine_process`]: spawning and driving one external brain process with
//!   deadlines, crash detection and kill-on-drop.
//! * [`clock`]: time controls and per-player clocks with tolerance.
//! * [`seat`]: one engine seat (process started, restarted, driven per game).
//! * [`adjudication`]: the referee's decisions on replies and draws.
//! * [`game`]: one game between two brains.
//! * [`schedule`]: pairings, colours and openings of every game.
//! * [`report`]: per-pairing statistics, progress line and final report.
//! * [`match_options`]: command-line options of `match` / `selfplay`.
//! * [`match_runner`]: the tournament (workers, output files, SPRT).

pub mod adjudication;
pub mod bench;
pub mod clock;
pub mod datagen;
pub mod demo;
pub mod disputed;
pub mod engine_process;
pub mod game;
#[cfg(windows)]
pub mod job;
pub mod match_options;
pub mod match_runner;
pub mod opening_balance;
pub mod openings;
pub mod protocol_bench;
pub mod records;
pub mod relabel;
pub mod report;
pub mod schedule;
pub mod seat;
pub mod solve;
pub mod spsa;
pub mod stats;
pub mod tune;
