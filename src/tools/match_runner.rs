//! `pbrain-tianyuan match` / `selfplay`: runs a whole tournament.
//!
//! * Every engine is started once up front and asked `ABOUT` (which proves its command works
//!   before any game); its ABOUT name is used unless a name was given.
//! * `concurrency` worker threads take the [`schedule`](super::schedule) jobs in order; each
//!   keeps its own processes, reusing them from game to game (START again, as c-gomoku-cli) and
//!   restarting one that crashed or was killed for a time-out. Every wait of a worker has a
//!   deadline, so the last games of a run end like all the others.
//! * The main thread collects finished games: one log line per game and the final report on
//!   the output (stdout), the live progress line on stderr (rewritten in place on a terminal),
//!   SGF / PGN appended as games finish, and the SPRT, which stops the run (games in flight are
//!   abandoned and not counted).

use std::collections::VecDeque;
use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};

use super::engine_process::{EngineConfig, EngineProcess, StderrMode};
use super::game::{play_game, Aborted, GameReport, GameSettings};
use super::match_options::{MatchArgs, MatchConfig, SelfplayArgs};
use super::openings::{cyclic, Opening};
use super::report::PairStats;
use super::schedule::{jobs, pairings, Job};
use super::seat::{EngineSpec, Seat};
use super::stats::SprtDecision;

/// Time statistics of the manager itself.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Overhead {
    /// Moves measured (every move after a game's first reply).
    pub moves: u64,
    /// Sum over those moves of the time from a reply being read to the next request written.
    pub total: Duration,
    /// The largest such time.
    pub max: Duration,
    /// Sum of the engines' thinking times (request written to reply read), all moves.
    pub think: Duration,
}

impl Overhead {
    /// Mean per-move overhead, zero without moves.
    pub fn mean(&self) -> Duration {
        if self.moves == 0 {
            Duration::ZERO
        } else {
            self.total / self.moves as u32
        }
    }

    fn add(&mut self, r: &GameReport) {
        for &d in &r.overhead {
            self.moves += 1;
            self.total += d;
            self.max = self.max.max(d);
        }
        self.think += r.think_time;
    }
}

/// What a run did.
#[derive(Debug, Clone)]
pub struct MatchSummary {
    /// Final names of the engines.
    pub names: Vec<String>,
    /// Results per pairing.
    pub pairs: Vec<PairStats>,
    /// Games finished and counted.
    pub games: usize,
    /// Games scheduled.
    pub planned: usize,
    /// The SPRT's conclusion, if one ran.
    pub sprt: Option<SprtDecision>,
    /// Why the run stopped before the end of the schedule, if it did.
    pub stopped: Option<String>,
    /// Wall time of the run.
    pub wall: Duration,
    /// Manager overhead and engine thinking time.
    pub overhead: Overhead,
    /// Every finished game's report, in finishing order.
    pub reports: Vec<GameReport>,
}

/// Asks a fresh process of `spec` for its ABOUT name (the command must start).
fn probe_name(spec: &EngineSpec, wait: Duration) -> Result<Option<String>> {
    let mut config = EngineConfig::new(spec.command.clone());
    config.stderr = StderrMode::Discard;
    let mut p =
        EngineProcess::spawn(&config).map_err(|e| anyhow!("engine `{}`: {e}", spec.command))?;
    let name = p
        .about(Instant::now() + wait)
        .ok()
        .and_then(|a| a.get("name").cloned());
    p.shutdown(Duration::from_millis(500));
    Ok(name.filter(|n| !n.trim().is_empty()))
}

/// Makes names unique by appending `#N` (1-based engine number) to repeated ones.
pub fn unique_names(names: &mut [String]) {
    let original: Vec<String> = names.to_vec();
    for (i, n) in names.iter_mut().enumerate() {
        if original.iter().filter(|m| *m == n).count() > 1 {
            *n = format!("{n}#{}", i + 1);
        }
    }
}

fn open_append(path: &Option<std::path::PathBuf>) -> Result<Option<File>> {
    path.as_deref()
        .map(|p: &Path| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("cannot open {}", p.display()))
        })
        .transpose()
}

/// A finished (or abandoned) job, from a worker.
struct Finished {
    job: Job,
    game: std::result::Result<GameReport, Aborted>,
}

/// Shared state of the workers.
struct Shared<'a> {
    queue: Mutex<VecDeque<Job>>,
    stop: AtomicBool,
    engines: &'a [EngineSpec],
    openings: &'a [Opening],
    settings: &'a GameSettings,
}

/// Two distinct seats of `seats`, creating them when missing.
fn two_seats<'s>(
    seats: &'s mut [Option<Seat>],
    engines: &[EngineSpec],
    a: usize,
    b: usize,
) -> [&'s mut Seat; 2] {
    for i in [a, b] {
        if seats[i].is_none() {
            seats[i] = Some(Seat::new(engines[i].clone()));
        }
    }
    let (lo, hi) = (a.min(b), a.max(b));
    let (left, right) = seats.split_at_mut(hi);
    let p_lo = left[lo].as_mut().expect("seat created above");
    let p_hi = right[0].as_mut().expect("seat created above");
    if a < b {
        [p_lo, p_hi]
    } else {
        [p_hi, p_lo]
    }
}

fn worker(shared: &Shared<'_>, tx: mpsc::Sender<Finished>) {
    let empty = Opening::new(Vec::new());
    let mut seats: Vec<Option<Seat>> = (0..shared.engines.len()).map(|_| None).collect();
    loop {
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
        let Some(job) = shared
            .queue
            .lock()
            .map(|mut q| q.pop_front())
            .unwrap_or(None)
        else {
            break;
        };
        // Keep only the two processes this game needs (c-gomoku-cli restarts engines when the
        // pairing changes).
        for (i, s) in seats.iter_mut().enumerate() {
            if i != job.black && i != job.white {
                *s = None;
            }
        }
        let players = two_seats(&mut seats, shared.engines, job.black, job.white);
        let opening = cyclic(shared.openings, job.opening).unwrap_or(&empty);
        let game = play_game(players, opening, shared.settings, job.seq + 1, &shared.stop);
        if tx.send(Finished { job, game }).is_err() {
            break;
        }
    }
}

/// Live progress on stderr: rewritten in place on a terminal, one line per game otherwise.
struct Progress {
    enabled: bool,
    tty: bool,
    shown: bool,
}

impl Progress {
    fn clear(&mut self) {
        if self.enabled && self.tty && self.shown {
            eprint!("\r\x1b[2K");
            self.shown = false;
        }
    }

    fn show(&mut self, line: &str) {
        if !self.enabled {
            return;
        }
        if self.tty {
            eprint!("\r\x1b[2K{line}");
            self.shown = true;
        } else {
            eprintln!("{line}");
        }
    }
}

/// Runs the match described by `config`; log lines and the report go to `out`.
pub fn run_match(config: MatchConfig, out: &mut dyn Write) -> Result<MatchSummary> {
    let started = Instant::now();
    let mut engines = config.engines.clone();
    let probe_wait = config.settings.tolerance.max(Duration::from_secs(2));
    for (i, e) in engines.iter_mut().enumerate() {
        let name = probe_name(e, probe_wait)?;
        if !config.fixed_names.get(i).copied().unwrap_or(false) {
            if let Some(n) = name {
                e.name = n;
            }
        }
    }
    let mut names: Vec<String> = engines.iter().map(|e| e.name.clone()).collect();
    unique_names(&mut names);
    for (e, n) in engines.iter_mut().zip(&names) {
        e.name = n.clone();
    }
    let pairs = pairings(engines.len(), config.gauntlet);
    let all_jobs = jobs(&pairs, config.games, config.rounds);
    let planned = all_jobs.len();
    let s = &config.settings;
    writeln!(
        out,
        "Match: {} | rule {} | {}x{} | tc {} ms, tolerance {} ms | {} games ({} per pairing x {} rounds) | {} | concurrency {} | seed {}",
        names.join(" vs "),
        s.rule.gomocup_code(),
        s.size,
        s.size,
        s.tc,
        s.tolerance.as_millis(),
        planned,
        config.games,
        config.rounds,
        if config.openings.is_empty() { "no openings".to_string() } else { format!("{} openings{}", config.openings.len(), config.openings_note) },
        config.concurrency,
        config.seed
    )?;
    let mut sgf = open_append(&config.sgf)?;
    let mut pgn = open_append(&config.pgn)?;
    let mut stats: Vec<PairStats> = pairs
        .iter()
        .map(|&(a, b)| PairStats::new(&names[a], &names[b]))
        .collect();
    let shared = Shared {
        queue: Mutex::new(all_jobs.into_iter().collect()),
        stop: AtomicBool::new(false),
        engines: &engines,
        openings: &config.openings,
        settings: &config.settings,
    };
    let mut progress = Progress {
        enabled: config.progress,
        tty: std::io::stderr().is_terminal(),
        shown: false,
    };
    let mut summary = MatchSummary {
        names: names.clone(),
        pairs: Vec::new(),
        games: 0,
        planned,
        sprt: None,
        stopped: None,
        wall: Duration::ZERO,
        overhead: Overhead::default(),
        reports: Vec::new(),
    };
    let mut io_error: Option<anyhow::Error> = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Finished>();
        for w in 0..config.concurrency.min(planned) {
            let tx = tx.clone();
            let shared = &shared;
            std::thread::Builder::new()
                .name(format!("match-worker-{w}"))
                .spawn_scoped(scope, move || worker(shared, tx))
                .expect("cannot start a worker thread");
        }
        drop(tx);
        for f in rx {
            let Ok(report) = f.game else { continue };
            let (first, _) = pairs[f.job.pair];
            let st = &mut stats[f.job.pair];
            st.add(
                f.job.game_in_pair,
                (f.job.black == first) != report.swapped,
                &report.record,
            );
            summary.games += 1;
            summary.overhead.add(&report);
            progress.clear();
            let mut line = format!(
                "[{}/{}] {}",
                summary.games,
                planned,
                report.record.summary_line()
            );
            if let Some(d) = &report.detail {
                line.push_str(&format!(" [{d}]"));
            }
            let mut write = || -> Result<()> {
                writeln!(out, "{line}")?;
                out.flush()?;
                if let Some(f) = &mut sgf {
                    f.write_all(report.record.to_sgf().as_bytes())?;
                    f.flush()?;
                }
                if let Some(f) = &mut pgn {
                    f.write_all(report.record.to_pgn().as_bytes())?;
                    f.flush()?;
                }
                Ok(())
            };
            if let Err(e) = write() {
                io_error.get_or_insert(e);
                shared.stop.store(true, Ordering::Relaxed);
            }
            if let (Some((color, failure)), false) = (report.failure, config.restart) {
                let who = if color == crate::core::Color::Black {
                    &report.record.black
                } else {
                    &report.record.white
                };
                summary.stopped.get_or_insert(format!(
                    "{who} failed ({failure:?}) and --no-restart was given"
                ));
                shared.stop.store(true, Ordering::Relaxed);
            }
            if let Some(sp) = &config.sprt {
                let d = sp.decide(st.llr(sp));
                if d != SprtDecision::Continue && summary.sprt.is_none() {
                    summary.sprt = Some(d);
                    summary.stopped.get_or_insert(format!(
                        "SPRT: {}",
                        if d == SprtDecision::AcceptH1 {
                            "H1 accepted"
                        } else {
                            "H0 accepted"
                        }
                    ));
                    shared.stop.store(true, Ordering::Relaxed);
                }
            }
            progress.show(&format!(
                "[{}/{}] {}",
                summary.games,
                planned,
                st.progress(config.sprt.as_ref())
            ));
            summary.reports.push(report);
        }
    });
    progress.clear();
    if let Some(e) = io_error {
        return Err(e);
    }
    summary.wall = started.elapsed();
    if summary.sprt.is_none() && config.sprt.is_some() {
        summary.sprt = Some(SprtDecision::Continue);
    }
    writeln!(out)?;
    for st in &stats {
        write!(out, "{}", st.report(config.sprt.as_ref()))?;
        writeln!(out)?;
    }
    if let Some(why) = &summary.stopped {
        writeln!(
            out,
            "Stopped after {} of {} games: {why}",
            summary.games, planned
        )?;
    }
    let o = &summary.overhead;
    writeln!(
        out,
        "Played {} games in {:.1} s; engines thought {:.1} s; manager overhead per move: mean {} µs, max {} µs over {} moves",
        summary.games,
        summary.wall.as_secs_f64(),
        o.think.as_secs_f64(),
        o.mean().as_micros(),
        o.max.as_micros(),
        o.moves
    )?;
    out.flush()?;
    summary.pairs = stats;
    Ok(summary)
}

/// `pbrain-tianyuan match`: runs the match on stdout.
pub fn run_match_command(args: &MatchArgs) -> Result<()> {
    let config = MatchConfig::from_match_args(args)?;
    run_match(config, &mut std::io::stdout()).map(|_| ())
}

/// `pbrain-tianyuan selfplay`: this binary (its path from the OS) against itself or the
/// baseline, on stdout.
pub fn run_selfplay_command(args: &SelfplayArgs) -> Result<()> {
    let me = std::env::current_exe().context("cannot find this binary's path")?;
    let config = MatchConfig::from_selfplay_args(args, &me)?;
    run_match(config, &mut std::io::stdout()).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_made_unique() {
        let mut v = vec!["a".to_string(), "b".to_string(), "a".to_string()];
        unique_names(&mut v);
        assert_eq!(v, vec!["a#1", "b", "a#3"]);
    }
}
