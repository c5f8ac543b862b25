//! Fixed benchmark workloads, shared by the `bench` subcommand and the criterion benches so
//! both measure the same thing. The positions are embedded in the binary, so `bench` works from
//! any folder: middle games from real engine games (`board_positions.txt`, 64 per rule file,
//! 15×15; the 20×20 set places the same positions at an offset on the larger board; caro uses
//! the freestyle positions), and Rapfi's own benchmark positions (`rapfi_positions.txt`).

use crate::core::{Board, Color, Pos, Rule};
use crate::corpus::{self, Record};
use anyhow::{Context, Result};
use std::time::Instant;

/// How many positions a workload holds per (rule, size).
pub const POSITIONS_PER_SET: usize = 64;

/// The board workload's positions (see the file's header).
const BOARD_POSITIONS: &str = include_str!("board_positions.txt");

/// The records of the board workload for one rule file (`freestyle`, `standard`, `renju`).
fn board_records(rule: Rule) -> Result<Vec<Record>> {
    let family = match rule {
        Rule::Standard => "standard",
        Rule::Renju => "renju",
        _ => "freestyle",
    };
    let all = corpus::parse_text(BOARD_POSITIONS, "board_positions.txt")?;
    Ok(all
        .into_iter()
        .filter(|r| r.get("rule") == Some(family))
        .collect())
}

/// A record's stones on a `size`×`size` board under `rule`, offset to the centre.
fn place_record(rec: &Record, rule: Rule, size: usize) -> Result<Board> {
    let offset = (size - 15) / 2;
    let mut board = Board::new(size, size, rule).map_err(anyhow::Error::msg)?;
    for (key, color) in [("black", Color::Black), ("white", Color::White)] {
        for (x, y) in rec.points(key).with_context(|| rec.id.clone())? {
            board.place(Pos::new(x + offset, y + offset), color);
        }
    }
    if board.side_to_move() != rec.color("tomove")?.unwrap_or(Color::Black) {
        board.pass();
    }
    Ok(board)
}

/// The middle-game positions of one workload set.
pub fn positions(rule: Rule, size: usize) -> Result<Vec<Board>> {
    board_records(rule)?
        .iter()
        .map(|rec| place_record(rec, rule, size))
        .collect()
}

/// Plays and takes back every candidate move of every position once. Returns the number of
/// make+unmake pairs and a checksum of the threat state seen after each make (so the work
/// cannot be optimised away and a behaviour change shows as a different checksum).
pub fn make_unmake_all(boards: &mut [Board]) -> (u64, u64) {
    let mut pairs = 0;
    let mut checksum = 0u64;
    for board in boards.iter_mut() {
        let moves: Vec<Pos> = board.candidates().iter().collect();
        for p in moves {
            board.make_move(p);
            let side = board.side_to_move();
            checksum = checksum.rotate_left(5).wrapping_add(
                board.hash()
                    ^ board.threat_count(side.opponent(), crate::core::ThreatClass::Five) as u64,
            );
            board.undo();
            pairs += 1;
        }
    }
    (pairs, checksum)
}

/// Runs the full forbidden-point map on every position.
pub fn forbidden_maps(boards: &mut [Board]) -> usize {
    boards.iter_mut().map(|b| b.forbidden_points().len()).sum()
}

/// Rapfi's benchmark positions (`Rapfi/command/benchmark.cpp`, see the file's header).
const RAPFI_POSITIONS: &str = include_str!("rapfi_positions.txt");

/// One benchmark game: its rule, board side and moves from the empty board.
#[derive(Clone, Debug)]
pub struct BenchGame {
    /// The record's id.
    pub id: String,
    /// The rule.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// The moves, black first.
    pub moves: Vec<Pos>,
}

/// Rapfi's ten benchmark positions (freestyle 15 and 20, standard, renju) as move sequences.
pub fn rapfi_games() -> Result<Vec<BenchGame>> {
    corpus::parse_text(RAPFI_POSITIONS, "rapfi_positions.txt")?
        .iter()
        .map(|r| {
            Ok(BenchGame {
                id: r.id.clone(),
                rule: r.rule()?,
                size: r.size()?,
                moves: r
                    .points("moves")?
                    .into_iter()
                    .map(|(x, y)| Pos::new(x, y))
                    .collect(),
            })
        })
        .collect()
}

/// The result of a fixed-work benchmark.
#[derive(Clone, Copy, Debug)]
pub struct Timed {
    /// Units of work done (make+unmake pairs, nodes).
    pub work: u64,
    /// Seconds it took.
    pub secs: f64,
    /// A checksum of what was seen (the work cannot be optimised away, and a change of
    /// behaviour shows).
    pub checksum: u64,
}

impl Timed {
    /// Work per second.
    pub fn rate(&self) -> f64 {
        self.work as f64 / self.secs.max(1e-9)
    }
}

/// The move bench of `pbrain-rapfi bench`, on its own positions: each game's moves are made
/// from the empty board, then undone, over and over until `pairs` make+unmake pairs, with the
/// full incremental update a search pays for (line patterns, classes, pattern codes and the
/// evaluation's sums).
pub fn replay_bench(games: &[BenchGame], pairs: u64) -> Result<Timed> {
    let mut boards: Vec<Board> = games
        .iter()
        .map(|g| {
            let mut b = Board::new(g.size, g.size, g.rule).map_err(anyhow::Error::msg)?;
            crate::eval::prepare(&mut b);
            Ok(b)
        })
        .collect::<Result<_>>()?;
    let start = Instant::now();
    let (mut done, mut checksum) = (0u64, 0u64);
    'outer: loop {
        for (game, board) in games.iter().zip(boards.iter_mut()) {
            for &p in &game.moves {
                board.make_move(p);
            }
            // The linear value: what make and unmake keep (the network is the search's).
            checksum =
                checksum.rotate_left(7) ^ board.hash() ^ crate::eval::evaluate_linear(board) as u64;
            for _ in &game.moves {
                board.undo();
            }
            done += game.moves.len() as u64;
            if done >= pairs {
                break 'outer;
            }
        }
    }
    Ok(Timed {
        work: done,
        secs: start.elapsed().as_secs_f64(),
        checksum,
    })
}

/// The depth of the search bench.
pub const SEARCH_BENCH_DEPTH: i32 = 9;
/// The table of the search bench.
pub const SEARCH_BENCH_TABLE_BYTES: u64 = 16 << 20;

/// The search bench's positions: Rapfi's ten (freestyle 15×15 and 20×20, standard, renju) and
/// two of them under the caro rules (15×15 and 20×20), so that every rule is searched.
pub fn search_games() -> Result<Vec<BenchGame>> {
    let mut games = rapfi_games()?;
    for (from, rule) in [(0, Rule::Caro8), (2, Rule::Caro9)] {
        let mut g = games[from].clone();
        g.id = format!("{}-{rule}", g.id);
        g.rule = rule;
        games.push(g);
    }
    Ok(games)
}

/// One position of the search bench.
#[derive(Clone, Debug)]
pub struct SearchBenchLine {
    /// The game's id.
    pub id: String,
    /// Its rule and size.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// The value found (side to move).
    pub value: i32,
    /// The move chosen.
    pub best: Option<Pos>,
    /// Seconds it took.
    pub secs: f64,
}

/// Searches every bench position to `depth` with an empty table of `table_bytes` and empty
/// histories, one thread: the node counts are the same on every run and every machine.
pub fn search_bench(depth: i32, table_bytes: u64) -> Result<Vec<SearchBenchLine>> {
    let mut out = Vec::new();
    for g in search_games()? {
        let mut board = Board::new(g.size, g.size, g.rule).map_err(anyhow::Error::msg)?;
        for &p in &g.moves {
            board.make_move(p);
        }
        let mut searcher = crate::search::Searcher::new(table_bytes);
        let start = Instant::now();
        let r = searcher.search_depth(&board, depth);
        out.push(SearchBenchLine {
            id: g.id.clone(),
            rule: g.rule,
            size: g.size,
            nodes: r.last.nodes,
            value: r.last.value,
            best: r.best,
            secs: start.elapsed().as_secs_f64(),
        });
    }
    Ok(out)
}

/// Searches every bench position for `millis` milliseconds on `threads` threads with an empty
/// table of `table_bytes` (or to `depth`, within that time); returns the nodes searched on all
/// threads, the seconds taken and the mean depth of the iterations the moves came from.
pub fn thread_bench(
    threads: usize,
    millis: u64,
    depth: Option<i32>,
    table_bytes: u64,
) -> Result<(u64, f64, f64)> {
    let (mut nodes, mut secs, mut depths, mut count) = (0, 0.0, 0, 0);
    for g in search_games()? {
        let mut board = Board::new(g.size, g.size, g.rule).map_err(anyhow::Error::msg)?;
        for &p in &g.moves {
            board.make_move(p);
        }
        let mut searcher = crate::search::Searcher::new(table_bytes);
        let mut control = crate::search::SearchControl::for_millis(millis);
        control.threads = threads;
        control.max_depth = depth.and_then(|d| u32::try_from(d).ok());
        let start = Instant::now();
        let r = searcher.search_move(&board, &control, &mut |_| {});
        secs += start.elapsed().as_secs_f64();
        nodes += searcher.nodes_searched();
        depths += r.last.depth;
        count += 1;
    }
    Ok((nodes, secs, depths as f64 / f64::from(count.max(1))))
}

/// One line of the `bench` report.
pub struct MoveBenchResult {
    /// Rule of the set.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// make+unmake pairs per second.
    pub pairs_per_sec: f64,
    /// Checksum of the run.
    pub checksum: u64,
}

/// Times make+unmake over each (rule, size) set for about `millis` milliseconds each.
pub fn move_bench(millis: u64) -> Result<Vec<MoveBenchResult>> {
    let mut out = Vec::new();
    for size in [15, 20] {
        for rule in Rule::ALL {
            let mut boards = positions(rule, size)?;
            let (_, checksum) = make_unmake_all(&mut boards);
            let start = Instant::now();
            let mut pairs = 0;
            while start.elapsed().as_millis() < millis as u128 {
                pairs += make_unmake_all(&mut boards).0;
            }
            let secs = start.elapsed().as_secs_f64();
            out.push(MoveBenchResult {
                rule,
                size,
                pairs_per_sec: pairs as f64 / secs,
                checksum,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded positions are the corpus selection the header describes.
    #[test]
    fn embedded_positions_are_the_corpus_selection() {
        for (rule, file) in [
            (Rule::Freestyle, "games_freestyle_nowin.txt"),
            (Rule::Standard, "games_standard_nowin.txt"),
            (Rule::Renju, "games_renju_nowin.txt"),
        ] {
            let records: Vec<Record> = corpus::read_corpus("vcf", file)
                .unwrap()
                .into_iter()
                .filter(|r| {
                    let n = |k| r.points(k).map_or(0, |v| v.len());
                    n("black") + n("white") >= 20
                })
                .collect();
            let step = (records.len() / POSITIONS_PER_SET).max(1);
            let want: Vec<u64> = records
                .iter()
                .step_by(step)
                .take(POSITIONS_PER_SET)
                .map(|r| place_record(r, rule, 15).unwrap().hash())
                .collect();
            let got: Vec<u64> = positions(rule, 15)
                .unwrap()
                .iter()
                .map(|b| b.hash())
                .collect();
            assert_eq!(got, want, "{file}");
        }
    }

    #[test]
    fn workloads_are_middle_games_and_restore_the_boards() {
        for rule in Rule::ALL {
            for size in [15, 20] {
                let mut boards = positions(rule, size).unwrap();
                assert_eq!(boards.len(), POSITIONS_PER_SET);
                let before: Vec<u64> = boards.iter().map(|b| b.hash()).collect();
                let (pairs, _) = make_unmake_all(&mut boards);
                assert!(pairs > 64 * 40, "{rule} {size}: only {pairs} pairs");
                assert!(boards.iter().all(|b| b.stone_count() >= 20));
                assert_eq!(boards.iter().map(|b| b.hash()).collect::<Vec<_>>(), before);
            }
        }
    }
}
