//! `pbrain-tianyuan`: the Gomocup brain (no arguments) and the tools for people (subcommands).
//!
//! * no arguments: the brain, speaking the Gomocup protocol on stdin / stdout (`protocol.md`).
//!   Hidden flags for tests and the match runner: `--player one-ply` (the one-ply baseline
//!   instead of the search), `--weak random` (uniformly random legal moves), `--seed N` (its
//!   seed; default from the clock), `--think-ms N` (longest time a move may take; the one-ply
//!   player keeps a non-forced move 250 ms by default), `--no-threat-probe` (the one-ply player without its
//!   VCF/VCT win probe), `--threat-probe` (the search with a VCF/VCT probe at the root).
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
use tianyuan::search::searcher::SearchParams;

/// Makes every large allocation a mapping of its own that `free` gives back to the system.
///
/// glibc's default threshold for that is dynamic: freeing a mapped block of up to 32 MiB raises
/// it to the block's size, so the next table of that size comes from the heap of the search
/// thread's arena, whose freed pages are not returned. After the manager lowered
/// `max_memory`, the process kept the pages of tables it had dropped and stayed above the new
/// limit. A fixed threshold switches that adjustment off.
fn return_freed_tables_to_the_system() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets an allocator parameter; called before any thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 * 1024);
    }
}

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
    /// Search steps to switch off, comma-separated (rfp, razoring, nullmove, lmp, lmr, iir,
    /// tteval, threatext, qsnarrow): the baseline of the match that measures each.
    #[arg(long, hide = true, default_value = "")]
    search_off: String,
    /// Search constants to set, `name=value` comma-separated (the tuner's `spsa` plays the
    /// engine with them; `pbrain-tianyuan spsa --list` lists the names).
    #[arg(long, hide = true, default_value = "")]
    search_param: String,
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
    /// The one-ply player without its VCF / VCT win probe (the baseline of the match that
    /// proves it).
    #[arg(long, hide = true)]
    no_threat_probe: bool,
    /// The search with a VCF / VCT probe at the root before it (off by default: it lost a
    /// match).
    #[arg(long, hide = true)]
    threat_probe: bool,
    /// Evaluate with the weights of this file (written by `tune`) for its rule instead of the
    /// built-in ones (repeatable: one file per rule), to match two weight sets without a
    /// rebuild.
    #[arg(long, hide = true)]
    eval_file: Vec<std::path::PathBuf>,
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

/// Options of `bench`.
#[derive(clap::Args)]
struct BenchOptions {
    /// Print one JSON object (move_pairs_per_s, search_nodes, search_nps, signature, …).
    #[arg(long)]
    json: bool,
    /// Search depth (default: the bench's own, whose node total is the signature).
    #[arg(long)]
    depth: Option<i32>,
    /// Also time make+unmake over middle games per rule and size (the criterion workload).
    #[arg(long)]
    board: bool,
    /// Milliseconds per (rule, size) set of `--board`.
    #[arg(long, default_value_t = 1000)]
    millis: u64,
    /// Only the move bench, this many make+unmake pairs (fixed work, for instruction counts
    /// under callgrind).
    #[arg(long, hide = true)]
    move_pairs: Option<u64>,
    /// Only the search bench (profiling).
    #[arg(long, hide = true)]
    search_only: bool,
    /// Only the thread bench: nodes/s of the search on this many threads against one thread,
    /// each bench position searched for `--millis` milliseconds (with `--depth`: to that depth,
    /// within `--millis`, so the time is the time to depth).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(Subcommand)]
enum Command {
    /// Measure: make+unmake on Rapfi's bench positions, and the search bench (fixed positions
    /// of every rule, fixed depth; its node total is the signature of the search's behaviour).
    Bench(BenchOptions),
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
    /// Training positions from games of the engine against itself at a fixed node budget
    /// (seeded, shardable; one record line per position).
    Datagen(tianyuan::tools::datagen::DatagenArgs),
    /// Search datagen records' positions again at a larger node budget and write them with
    /// the new values (a stronger teacher for `tune`).
    Relabel(tianyuan::tools::relabel::RelabelArgs),
    /// Fit the evaluation's weights to datagen records (logistic regression; writes a weight
    /// file that the hidden brain flag --eval-file loads).
    Tune(tianyuan::tools::tune::TuneArgs),
    /// Tune the search's constants by SPSA: games of this binary against itself with the
    /// constants moved up and down, fixed nodes a move.
    Spsa(tianyuan::tools::spsa::SpsaArgs),
}

fn main() -> ExitCode {
    return_freed_tables_to_the_system();
    let cli = Cli::parse();
    match cli.command {
        None => {
            for path in &cli.eval_file {
                let installed = std::fs::read_to_string(path)
                    .map_err(|e| e.to_string())
                    .and_then(|text| tianyuan::eval::EvalTables::from_text(&text))
                    .and_then(|(rule, tables)| tianyuan::eval::EvalTables::install(rule, tables));
                if let Err(e) = installed {
                    let _ = writeln!(std::io::stdout(), "error: {}: {e}", path.display());
                    return ExitCode::from(2);
                }
            }
            let params = match SearchParams::default()
                .without(&cli.search_off)
                .and_then(|p| p.with_values(&cli.search_param))
            {
                Ok(p) => p,
                Err(e) => {
                    let _ = writeln!(std::io::stdout(), "error: {e}");
                    return ExitCode::from(2);
                }
            };
            brain(
                cli.player,
                params,
                cli.weak,
                cli.seed,
                cli.think_ms,
                cli.no_threat_probe,
                cli.threat_probe,
            );
            ExitCode::SUCCESS
        }
        Some(Command::Bench(opts)) => report(run_bench(opts)),
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
        Some(Command::Datagen(args)) => report(tianyuan::tools::datagen::run_command(&args)),
        Some(Command::Relabel(args)) => report(tianyuan::tools::relabel::run_command(&args)),
        Some(Command::Tune(args)) => report(tianyuan::tools::tune::run_command(&args)),
        Some(Command::Spsa(args)) => report(tianyuan::tools::spsa::run_command(&args)),
    }
}

/// The brain: protocol on stdin / stdout, nothing ever on stderr.
fn brain(
    kind: PlayerKind,
    params: SearchParams,
    weak: Option<Weak>,
    seed: Option<u64>,
    think_ms: Option<u64>,
    no_threat_probe: bool,
    threat_probe: bool,
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
            let mut player = SearchPlayer::new().with_params(params);
            if threat_probe {
                player = player.with_probe();
            }
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

fn run_bench(opts: BenchOptions) -> anyhow::Result<()> {
    use tianyuan::tools::bench;
    if let Some(threads) = opts.threads {
        let table = bench::SEARCH_BENCH_TABLE_BYTES * 4;
        let (n1, s1, d1) = bench::thread_bench(1, opts.millis, opts.depth, table)?;
        let (nt, st, dt) = bench::thread_bench(threads, opts.millis, opts.depth, table)?;
        let (r1, rt) = (n1 as f64 / s1.max(1e-9), nt as f64 / st.max(1e-9));
        println!(
            "Thread bench: {} ms a position{}, {} MiB table: 1 thread {r1:.0} nodes/s (mean depth {d1:.2}, {s1:.2} s), {} threads {rt:.0} nodes/s (mean depth {dt:.2}, {st:.2} s; {:.2}x the nodes; the machine has {} logical processors)",
            opts.millis,
            opts.depth.map_or(String::new(), |d| format!(" up to depth {d}")),
            table >> 20,
            threads.clamp(1, tianyuan::search::searcher::max_threads()),
            rt / r1.max(1e-9),
            tianyuan::search::searcher::max_threads()
        );
        return Ok(());
    }
    let games = bench::rapfi_games()?;
    let pairs = match (opts.move_pairs, opts.search_only) {
        (Some(n), _) => n,
        (None, true) => 1,
        (None, false) => 2_000_000,
    };
    let moves = bench::replay_bench(&games, pairs)?;
    if opts.move_pairs.is_some() {
        println!(
            "move bench: {} pairs in {:.3} s = {:.0} pairs/s, checksum {:016x}",
            moves.work,
            moves.secs,
            moves.rate(),
            moves.checksum
        );
        return Ok(());
    }
    let depth = opts.depth.unwrap_or(bench::SEARCH_BENCH_DEPTH);
    let lines = bench::search_bench(depth, bench::SEARCH_BENCH_TABLE_BYTES)?;
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let secs: f64 = lines.iter().map(|l| l.secs).sum();
    let nps = nodes as f64 / secs.max(1e-9);
    if opts.json {
        println!(
            "{{\"move_pairs_per_s\": {:.0}, \"move_checksum\": \"{:016x}\", \"search_depth\": {depth}, \"search_nodes\": {nodes}, \"search_secs\": {secs:.3}, \"search_nps\": {nps:.0}, \"signature\": {nodes}, \"evaluation\": \"{}\"}}",
            moves.rate(),
            moves.checksum,
            tianyuan::eval::EvalTables::built_in_version()
        );
        return Ok(());
    }
    println!(
        "Move bench (Rapfi's positions, make+unmake with patterns and evaluation): {:.0} pairs/s ({} pairs in {:.3} s, checksum {:016x})",
        moves.rate(),
        moves.work,
        moves.secs,
        moves.checksum
    );
    println!(
        "Evaluation: {}",
        tianyuan::eval::EvalTables::built_in_version()
    );
    println!(
        "Search bench: depth {depth}, {} MiB table, one thread",
        bench::SEARCH_BENCH_TABLE_BYTES >> 20
    );
    for l in &lines {
        let best = l.best.map_or("-".to_owned(), |p| {
            tianyuan::core::notation::format_renju(p.x(), p.y(), l.size)
        });
        println!(
            "  {:<24} {:<9} {:>2}  nodes {:>10}  ev {:>6}  best {:<4} {:>8.3} s",
            l.id,
            l.rule.to_string(),
            l.size,
            l.nodes,
            tianyuan::search::value::describe(l.value),
            best,
            l.secs
        );
    }
    println!("Nodes: {nodes}  time {secs:.3} s  nodes/s {nps:.0}");
    println!("Bench: {nodes}");
    if opts.board {
        println!(
            "{:<10} {:>5} {:>16} {:>18}",
            "rule", "size", "make+unmake/s", "checksum"
        );
        for r in bench::move_bench(opts.millis)? {
            println!(
                "{:<10} {:>5} {:>16.0} {:>18x}",
                r.rule.to_string(),
                r.size,
                r.pairs_per_sec,
                r.checksum
            );
        }
    }
    Ok(())
}
