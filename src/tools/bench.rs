//! Fixed benchmark workloads, shared by the `bench` subcommand and the criterion benches so
//! both measure the same thing. Positions come from real engine games in the corpora
//! (`vcf/games_*_nowin.txt`, 15×15); the 20×20 set places the same positions at an offset on
//! the larger board; caro uses the freestyle positions.

use crate::core::{Board, Color, Pos, Rule};
use crate::corpus;
use anyhow::{Context, Result};
use std::time::Instant;

/// How many positions a workload holds per (rule, size).
pub const POSITIONS_PER_SET: usize = 64;

/// The middle-game positions of one workload set.
pub fn positions(rule: Rule, size: usize) -> Result<Vec<Board>> {
    let file = match rule {
        Rule::Standard => "games_standard_nowin.txt",
        Rule::Renju => "games_renju_nowin.txt",
        _ => "games_freestyle_nowin.txt",
    };
    let path = corpus::corpora_dir().join("vcf").join(file);
    // Middle games: at least 20 stones on the board.
    let records: Vec<_> = corpus::read_file(&path)?
        .into_iter()
        .filter(|r| {
            r.points("black").map_or(0, |v| v.len()) + r.points("white").map_or(0, |v| v.len())
                >= 20
        })
        .collect();
    let step = (records.len() / POSITIONS_PER_SET).max(1);
    let offset = (size - 15) / 2;
    let mut out = Vec::new();
    for rec in records.iter().step_by(step).take(POSITIONS_PER_SET) {
        let mut board = Board::new(size, size, rule).map_err(anyhow::Error::msg)?;
        for (key, color) in [("black", Color::Black), ("white", Color::White)] {
            for (x, y) in rec.points(key).with_context(|| rec.id.clone())? {
                board.place(Pos::new(x + offset, y + offset), color);
            }
        }
        if board.side_to_move() != rec.color("tomove")?.unwrap_or(Color::Black) {
            board.pass();
        }
        out.push(board);
    }
    Ok(out)
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
