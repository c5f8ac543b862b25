//! `pbrain-tianyuan protocol-bench`: the brain's protocol latencies, measured from outside.
//!
//! Copies of this executable are started as brains and timed through their pipes:
//!
//! 1. **START → OK**: a fresh process gets `START 15` right after spawning (process start-up
//!    included), then the same process gets further `START 15` lines (warm).
//! 2. **END → exit during a search**: a 10 s budget search is started with a `BOARD`, `END`
//!    follows 200 ms later, and the time until the process has exited is taken. The same for
//!    **YXSTOP → move**.
//! 3. **Time overshoot**: for each per-move limit `T` (`INFO timeout_turn T`, unlimited match time)
//!    a fresh brain plays games against a random opponent, thinking as long as the time manager
//!    allows (`--think-ms` raised to an hour). For every move the time from writing `TURN` to
//!    reading the move is compared with the budget's hard limit (`protocol::budget::compute_budget`):
//!    `overshoot = elapsed − hard`; the margin `T − elapsed` must stay positive, since that is what
//!    managers check. The process's first move is reported apart: it also builds the rule's line
//!    tables (covered by the time manager's first-search reserve).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::core::{Board, Rule};
use crate::protocol::budget::compute_budget;
use crate::protocol::Settings;
use crate::search::TimeInput;
use crate::tools::engine_process::{EngineConfig, EngineProcess, ReplyPolicy};

/// Options of the `protocol-bench` subcommand.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchOptions {
    /// Fresh processes for the START→OK measurement.
    #[arg(long, default_value_t = 20)]
    pub starts: usize,
    /// Processes for the END→exit and YXSTOP→move measurements (each).
    #[arg(long, default_value_t = 10)]
    pub ends: usize,
    /// Moves measured per per-move limit.
    #[arg(long, default_value_t = 30)]
    pub moves: usize,
    /// Per-move limits (ms), comma separated.
    #[arg(long, default_value = "50,100,200,500", value_delimiter = ',')]
    pub budgets: Vec<u64>,
    /// The brain executable (default: this one).
    #[arg(long)]
    pub brain: Option<PathBuf>,
}

/// Summary of a sample of durations in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stats {
    /// Number of values.
    pub n: usize,
    /// Smallest.
    pub min: f64,
    /// Median.
    pub median: f64,
    /// Mean.
    pub mean: f64,
    /// Largest.
    pub max: f64,
}

impl Stats {
    /// Summarises `values` (ms); `None` when empty.
    pub fn of(values: &[f64]) -> Option<Stats> {
        if values.is_empty() {
            return None;
        }
        let mut v = values.to_vec();
        v.sort_by(|a, b| a.total_cmp(b));
        Some(Stats {
            n: v.len(),
            min: v[0],
            median: v[v.len() / 2],
            mean: v.iter().sum::<f64>() / v.len() as f64,
            max: v[v.len() - 1],
        })
    }
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "n={:<3} min {:>7.2}  median {:>7.2}  mean {:>7.2}  max {:>7.2} ms",
            self.n, self.min, self.median, self.mean, self.max
        )
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

struct Brain {
    cmd: String,
}

impl Brain {
    fn spawn(&self, args: &str) -> Result<EngineProcess> {
        EngineProcess::spawn(&EngineConfig::new(format!("{} {args}", self.cmd)))
            .context("starting the brain")
    }
}

fn wait_exit(e: &mut EngineProcess, limit: Duration) -> Option<Duration> {
    let t = Instant::now();
    while t.elapsed() < limit {
        if !e.is_alive() {
            return Some(t.elapsed());
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    None
}

/// Runs every measurement and prints the results.
pub fn run(opts: &BenchOptions) -> Result<()> {
    let exe = match &opts.brain {
        Some(p) => p.clone(),
        None => std::env::current_exe().context("locating this executable")?,
    };
    let brain = Brain {
        cmd: format!("\"{}\"", exe.display()),
    };
    println!("protocol-bench of {}", exe.display());

    // 1. START -> OK.
    let (mut cold, mut warm) = (Vec::new(), Vec::new());
    for _ in 0..opts.starts {
        let mut e = brain.spawn("")?;
        for i in 0..5 {
            let t = Instant::now();
            e.send("START 15")?;
            e.wait_for_ok(t + Duration::from_secs(5), ReplyPolicy::Strict)?;
            if i == 0 {
                cold.push(ms(t.elapsed()));
            } else {
                warm.push(ms(t.elapsed()));
            }
        }
        e.shutdown(Duration::from_millis(500));
    }
    println!("START->OK, fresh process (spawn included): {}", show(&cold));
    println!("START->OK, repeated START:                 {}", show(&warm));

    // 2. END -> exit and YXSTOP -> move during a 10 s search.
    let (mut ends, mut stops) = (Vec::new(), Vec::new());
    for _ in 0..opts.ends {
        for stop in [false, true] {
            let mut e = brain.spawn("--think-ms 3600000")?;
            for line in [
                "START 15",
                "INFO timeout_turn 10000",
                "INFO time_left 2147483647",
                "BOARD",
                "7,7,1",
                "8,8,2",
                "DONE",
            ] {
                e.send(line)?;
            }
            e.wait_for_ok(Instant::now() + Duration::from_secs(5), ReplyPolicy::Strict)?;
            std::thread::sleep(Duration::from_millis(200));
            let t = Instant::now();
            if stop {
                e.send("YXSTOP")?;
                e.read_move(t + Duration::from_secs(5), ReplyPolicy::Strict)
                    .context("move after YXSTOP")?;
                stops.push(ms(t.elapsed()));
                e.shutdown(Duration::from_millis(500));
            } else {
                e.send("END")?;
                match wait_exit(&mut e, Duration::from_secs(5)) {
                    Some(d) => ends.push(ms(d)),
                    None => bail!("the brain did not exit within 5 s of END"),
                }
                e.kill();
            }
        }
    }
    println!("END->exit during a search:                 {}", show(&ends));
    println!(
        "YXSTOP->move during a search:              {}",
        show(&stops)
    );

    // 3. Overshoot.
    println!(
        "Time per move, INFO timeout_turn T, unlimited match time, brain thinking to its budget \
         (hard = the time manager's hard limit; instant = answered in under 1 ms: forced moves such as wins and blocks, or a zero budget):"
    );
    println!(
        "{:>6} {:>6} {:>7} {:>12} {:>12} {:>15} {:>15} {:>22}",
        "T ms",
        "moves",
        "instant",
        "median ms",
        "max ms",
        "max overshoot",
        "min margin T-t",
        "1st move of process"
    );
    let mut rng = StdRng::seed_from_u64(1);
    for &turn in &opts.budgets {
        let r = overshoot(&brain, turn, opts.moves, &mut rng)?;
        let el = Stats::of(&r.elapsed).context("no moves")?;
        let over = r.overshoot.iter().copied().fold(f64::MIN, f64::max);
        let margin = r
            .elapsed
            .iter()
            .map(|e| turn as f64 - e)
            .fold(f64::MAX, f64::min);
        println!(
            "{:>6} {:>6} {:>7} {:>12.2} {:>12.2} {:>15.2} {:>15.2} {:>11.2} (hard {:>3.0})",
            turn, el.n, r.forced, el.median, el.max, over, margin, r.first.0, r.first.1
        );
    }
    Ok(())
}

fn show(v: &[f64]) -> String {
    Stats::of(v).map_or_else(|| "no data".to_owned(), |s| s.to_string())
}

/// Timings of one per-move limit.
struct Overshoot {
    /// Elapsed ms of every move after the process's first.
    elapsed: Vec<f64>,
    /// `elapsed - hard` of the same moves.
    overshoot: Vec<f64>,
    /// Moves answered in under a millisecond (forced answers, or no time at all).
    forced: usize,
    /// The process's first move: elapsed ms (line tables built then) and its hard budget.
    first: (f64, f64),
}

/// Plays games until `moves` brain moves (after the first) were timed under
/// `timeout_turn = turn`.
fn overshoot(brain: &Brain, turn: u64, moves: usize, rng: &mut StdRng) -> Result<Overshoot> {
    let mut settings = Settings::new();
    settings.apply("timeout_turn", &turn.to_string());
    settings.apply("time_left", "2147483647");
    let mut r = Overshoot {
        elapsed: Vec::new(),
        overshoot: Vec::new(),
        forced: 0,
        first: (0.0, 0.0),
    };
    let mut e = brain.spawn("--think-ms 3600000")?;
    let mut first_think = true;
    while r.elapsed.len() < moves {
        e.send("START 15")?;
        e.wait_for_ok(Instant::now() + Duration::from_secs(5), ReplyPolicy::Strict)?;
        e.send(&format!("INFO timeout_turn {turn}"))?;
        e.send("INFO time_left 2147483647")?;
        let mut board = Board::new(15, 15, Rule::Freestyle).map_err(anyhow::Error::msg)?;
        while r.elapsed.len() < moves && !board.is_full() && !board.last_move_wins() {
            // The opponent: a random cell next to the stones (the centre first).
            let pool: Vec<_> = board.candidates().iter().collect();
            let p = if pool.is_empty() {
                crate::player::fallback::centre(&board)
            } else {
                pool[rng.gen_range(0..pool.len())]
            };
            board.make_move(p);
            if board.last_move_wins() || board.is_full() {
                break;
            }
            let budget = compute_budget(
                &settings,
                &TimeInput {
                    received: Instant::now(),
                    stones: board.stone_count(),
                    cells: 225,
                    first_think,
                },
            );
            let t = Instant::now();
            e.send(&format!("TURN {},{}", p.x(), p.y()))?;
            let (x, y) = e
                .read_move(t + Duration::from_millis(turn + 2000), ReplyPolicy::Strict)
                .context("brain move")?;
            let d = ms(t.elapsed());
            let q = board
                .pos(x as usize, y as usize)
                .filter(|&q| board.is_empty(q))
                .with_context(|| format!("illegal move {x},{y}"))?;
            board.make_move(q);
            if first_think {
                r.first = (d, ms(budget.hard));
                first_think = false;
                continue;
            }
            if d < 1.0 {
                r.forced += 1;
            }
            r.elapsed.push(d);
            r.overshoot.push(d - ms(budget.hard));
        }
    }
    e.shutdown(Duration::from_millis(500));
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_summary() {
        let s = Stats::of(&[3.0, 1.0, 2.0, 10.0]).expect("stats");
        assert_eq!((s.n, s.min, s.median, s.max), (4, 1.0, 3.0, 10.0));
        assert!((s.mean - 4.0).abs() < 1e-9);
        assert!(Stats::of(&[]).is_none());
    }
}
