//! `pbrain-tianyuan`: the Gomocup brain (no arguments) and the tools for people (subcommands).
//!
//! * no arguments: the brain, speaking the Gomocup protocol on stdin / stdout (`protocol.md`).
//!   Hidden flags for tests and the match runner: `--player one-ply` (the one-ply baseline
//!   instead of the search), `--weak random` (uniformly random legal moves), `--seed N` (its
//!   seed; default from the clock), `--think-ms N` (longest time a move may take; the one-ply
//!   player keeps a non-forced move 250 ms by default), `--no-threat-probe` (the one-ply player without its
//!   VCF/VCT win probe).
//! * `demo`: watch the brain play itself through its own protocol, board printed after each move.
//! * `solve`: the VCF / VCT solvers over corpus positions or move lists.
//! * `match`, `selfplay`: tournaments between Gomocup brains, and this build against itself.
//! * `bench`: the rules core's speed.
//! * `protocol-bench` (hidden): START→OK and END→exit latency, time overshoot.

use clap::{Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tianyuan::player::one_ply::DEFAULT_THINK_CAP_MS;
use tianyuan::player::win_probe::ThreatProbe;
use tianyuan::player::{OnePlyPlayer, Player, RandomPlayer, SearchPlayer};
use tianyuan::protocol::{install_silent_panic_hook, run, stdout_writer, AboutInfo, SessionConfig};

#[derive(Parser)]
#[command(
    name = "pbrain-tianyuan",
    version,
    about = "Tianyuan Gomoku / Renju engine. Without a subcommand: the Gomocup brain on stdin/stdout."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The player: the main search (default) or the one-ply baseline.
    #[arg(long, value_enum, hide = true, default_value = "search")]
    player: PlayerKind,
    /// Play weakly on purpose (match-runner tests): `random` = uniformly random legal moves.
    #[arg(long, value_enum, hide = true)]
    weak: Option<Weak>,
    /// Seed of the `--weak random` player (default: from the clock).
    #[arg(long, hide = true)]
    seed: Option<u64>,
    /// Longest time (ms) a move may take whatever the manager allows (default: the search
    /// uses its budget; the one-ply player keeps a non-forced move 250 ms).
    #[arg(long, hide = true)]
    think_ms: Option<u64>,
    /// Play without the VCF / VCT win probe (the baseline of the match that proves it).
    #[arg(long, hide = true)]
    no_threat_probe: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum PlayerKind {
    /// The main search.
    Search,
    /// One ply plus the VCF/VCT win probe: the first wave's player, kept as a baseline.
    OnePly,
}

#[derive(Clone, Copy, ValueEnum)]
enum Weak {
    /// Uniformly random legal, non-foul moves.
    Random,
}

#[derive(Subcommand)]
enum Command {
    /// Measure the rules core: make+unmake pairs per second for every rule on 15x15 and 20x20.
    Bench {
        /// Milliseconds per (rule, size) set.
        #[arg(long, default_value_t = 1000)]
        millis: u64,
        /// Only the move bench on Rapfi's positions, this many make+unmake pairs (fixed work,
        /// for instruction counts under callgrind).
        #[arg(long, hide = true)]
        move_pairs: Option<u64>,
    },
    /// Solve VCF / VCT positions (corpora line format or plain move lists).
    Solve(tianyuan::tools::solve::SolveArgs),
    /// Watch Tianyuan play itself: two brain processes talk the Gomocup protocol, the board is
    /// printed after every move.
    Demo(tianyuan::tools::demo::DemoOptions),
    /// Measure the protocol: START→OK latency, END→exit latency during a search, and time
    /// overshoot with 50–500 ms budgets.
    #[command(hide = true)]
    ProtocolBench(tianyuan::tools::protocol_bench::BenchOptions),
    /// Play a tournament between Gomocup brains (round robin or gauntlet, SPRT).
    Match(tianyuan::tools::match_options::MatchArgs),
    /// Play this binary against itself or against an older build (--baseline).
    Selfplay(tianyuan::tools::match_options::SelfplayArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            brain(
                cli.player,
                cli.weak,
                cli.seed,
                cli.think_ms,
                cli.no_threat_probe,
            );
            ExitCode::SUCCESS
        }
        Some(Command::Bench { millis, move_pairs }) => report(run_bench(millis, move_pairs)),
        Some(Command::Solve(args)) => {
            let mut out = std::io::stdout().lock();
            match tianyuan::tools::solve::run(&args, &mut out) {
                Ok(true) => ExitCode::SUCCESS,
                Ok(false) => ExitCode::from(1),
                Err(e) => {
                    let _ = writeln!(std::io::stdout(), "error: {e:#}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Demo(opts)) => report(tianyuan::tools::demo::run_demo(&opts)),
        Some(Command::ProtocolBench(opts)) => report(tianyuan::tools::protocol_bench::run(&opts)),
        Some(Command::Match(args)) => {
            report(tianyuan::tools::match_runner::run_match_command(&args))
        }
        Some(Command::Selfplay(args)) => {
            report(tianyuan::tools::match_runner::run_selfplay_command(&args))
        }
    }
}

/// The brain: protocol on stdin / stdout, nothing ever on stderr.
fn brain(
    kind: PlayerKind,
    weak: Option<Weak>,
    seed: Option<u64>,
    think_ms: Option<u64>,
    no_threat_probe: bool,
) {
    install_silent_panic_hook();
    let player: tianyuan::protocol::PlayerFactory = match weak {
        Some(Weak::Random) => {
            let seed = seed.unwrap_or_else(|| {
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64)
            });
            let counter = std::sync::atomic::AtomicU64::new(seed);
            Arc::new(move || {
                // A rebuilt player (after a panic) continues with a different stream.
                let s = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Box::new(RandomPlayer::new(s)) as Box<dyn Player>
            })
        }
        None if matches!(kind, PlayerKind::Search) => Arc::new(move || {
            let player = SearchPlayer::new();
            let player = match think_ms {
                Some(ms) => player.with_think_cap(Duration::from_millis(ms)),
                None => player,
            };
            Box::new(player) as Box<dyn Player>
        }),
        None => Arc::new(move || {
            let cap = think_ms.unwrap_or(DEFAULT_THINK_CAP_MS);
            let player = OnePlyPlayer::new().with_think_cap(Duration::from_millis(cap));
            if no_threat_probe {
                Box::new(player) as Box<dyn Player>
            } else {
                Box::new(player.with_probe(Box::new(ThreatProbe::new()))) as Box<dyn Player>
            }
        }),
    };
    let config = SessionConfig {
        player,
        about: AboutInfo::tianyuan(),
    };
    run(std::io::stdin(), stdout_writer(), config);
}

fn report(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stdout(), "error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run_bench(millis: u64, move_pairs: Option<u64>) -> anyhow::Result<()> {
    if let Some(pairs) = move_pairs {
        let games = tianyuan::tools::bench::rapfi_games()?;
        let t = tianyuan::tools::bench::replay_bench(&games, pairs)?;
        println!(
            "move bench: {} pairs in {:.3} s = {:.0} pairs/s, checksum {:016x}",
            t.work,
            t.secs,
            t.rate(),
            t.checksum
        );
        return Ok(());
    }
    println!(
        "{:<10} {:>5} {:>16} {:>18}",
        "rule", "size", "make+unmake/s", "checksum"
    );
    for r in tianyuan::tools::bench::move_bench(millis)? {
        println!(
            "{:<10} {:>5} {:>16.0} {:>18x}",
            r.rule.to_string(),
            r.size,
            r.pairs_per_sec,
            r.checksum
        );
    }
    Ok(())
}
