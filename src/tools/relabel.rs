//! `pbrain-tianyuan relabel`: training records given a new teacher's value.
//!
//! A record's value is the search's value when its game was played (`datagen`, a few thousand
//! nodes of whatever build played it). The network is fitted to those values, so it can learn
//! no more than that search knew. `relabel` searches each record's position again with this
//! build at a larger node budget and writes the record with the new value: a stronger teacher
//! for the same positions, without playing the games again. Positions where the new search
//! finds a forced win or loss are left out (as `datagen` leaves them out).

use std::io::{BufRead, Write};
use std::time::Instant;

use anyhow::Context;

use super::datagen::{open_output, parse_shard, Record};
use crate::search::value::is_mate;
use crate::search::{SearchControl, Searcher};

/// Arguments of `relabel`.
#[derive(Clone, Debug, clap::Args)]
pub struct RelabelArgs {
    /// The record files to read (`datagen`'s format).
    #[arg(required = true)]
    pub files: Vec<std::path::PathBuf>,
    /// Search nodes per position.
    #[arg(long, default_value_t = 40_000)]
    pub nodes: u64,
    /// Leave out the records with fewer stones than this (they are not searched).
    #[arg(long, default_value_t = 0)]
    pub min_stones: usize,
    /// Leave out the records with more stones than this (they are not searched): a deeper
    /// teacher spent where it is needed, on the first moves after the opening, where the
    /// games against Rapfi are lost (docs/results.md, twenty-fifth session).
    #[arg(long, default_value_t = usize::MAX)]
    pub max_stones: usize,
    /// This run's shard `i/n` (0-based i): it takes the records i, i+n, i+2n, … (counted
    /// over all the files, before the stone range).
    #[arg(long, default_value = "0/1")]
    pub shard: String,
    /// Transposition table, MiB (kept from one record to the next: a game's positions follow
    /// each other in a file).
    #[arg(long, default_value_t = 16)]
    pub hash_mib: u64,
    /// The output file (appended to), or `-` for stdout.
    #[arg(long, default_value = "-")]
    pub out: String,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RelabelCounts {
    /// Records of this shard read.
    pub read: usize,
    /// Records written with their new value.
    pub written: usize,
    /// Records left out: fewer stones than `--min-stones` or more than `--max-stones`.
    pub out_of_range: usize,
    /// Records left out: the new search found a forced result.
    pub decided: usize,
}

/// Searches each record of `records` (this shard's share) at `nodes` nodes and writes it with
/// the search's value to `out`.
pub fn relabel(
    records: impl Iterator<Item = Result<Record, String>>,
    nodes: u64,
    stones: std::ops::RangeInclusive<usize>,
    (index, count): (usize, usize),
    searcher: &mut Searcher,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&RelabelCounts),
) -> anyhow::Result<RelabelCounts> {
    let mut counts = RelabelCounts::default();
    for (i, record) in records.enumerate() {
        if i % count != index {
            continue;
        }
        let mut record = record.map_err(|e| anyhow::anyhow!(e))?;
        counts.read += 1;
        if !stones.contains(&record.stones.len()) {
            counts.out_of_range += 1;
            progress(&counts);
            continue;
        }
        let board = record.board().map_err(|e| anyhow::anyhow!(e))?;
        let control = SearchControl::for_nodes(nodes.max(1));
        let result = searcher.search_move(&board, &control, &mut |_| {});
        if result.last.depth == 0 || is_mate(result.last.value) {
            counts.decided += 1;
        } else {
            record.value = result.last.value;
            writeln!(out, "{record}")?;
            counts.written += 1;
        }
        progress(&counts);
    }
    out.flush()?;
    Ok(counts)
}

/// Runs `relabel`: records to `--out`, a progress line on stderr.
pub fn run_command(args: &RelabelArgs) -> anyhow::Result<()> {
    let shard = parse_shard(&args.shard)?;
    let mut lines = Vec::new();
    for path in &args.files {
        let file = std::fs::File::open(path).with_context(|| format!("{}", path.display()))?;
        for line in std::io::BufReader::new(file).lines() {
            let line = line?;
            if !line.trim().is_empty() {
                lines.push(line);
            }
        }
    }
    let mut out = open_output(&args.out)?;
    let mut searcher = Searcher::new(args.hash_mib.max(1) << 20);
    let started = Instant::now();
    let total = lines.len().div_ceil(shard.1);
    let counts = relabel(
        lines.iter().map(|l| Record::parse(l)),
        args.nodes,
        args.min_stones..=args.max_stones,
        shard,
        &mut searcher,
        &mut out,
        &mut |c| {
            if c.read % 1000 == 0 {
                eprintln!(
                    "[relabel] {}/{} read, {} written, {:.1}/s",
                    c.read,
                    total,
                    c.written,
                    c.read as f64 / started.elapsed().as_secs_f64().max(1e-9)
                );
            }
        },
    )?;
    // The default upper bound is usize::MAX: say "no upper bound" rather than print it.
    let range = if args.max_stones == usize::MAX {
        format!("fewer than {}", args.min_stones)
    } else {
        format!(
            "fewer than {} or more than {}",
            args.min_stones, args.max_stones
        )
    };
    eprintln!(
        "[relabel] done: {} read, {} written, {} with {} stones, {} decided by the search",
        counts.read, counts.written, counts.out_of_range, range, counts.decided
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;

    fn record(stones: &[(usize, usize)], value: i32) -> Record {
        Record {
            rule: Rule::Freestyle,
            size: 15,
            stones: stones.to_vec(),
            result: 0,
            value,
        }
    }

    #[test]
    fn records_get_the_new_search_value_and_decided_or_out_of_range_ones_are_left_out() {
        let quiet = record(&[(7, 7), (8, 8), (6, 8), (8, 6)], 12_345);
        // Black to move with an open three of its own: a forced win, left out.
        let won = record(&[(7, 7), (0, 0), (8, 7), (0, 14), (9, 7), (14, 0)], 0);
        let short = record(&[(7, 7), (8, 8)], 7);
        let long = record(
            &[
                (7, 7),
                (8, 8),
                (6, 8),
                (8, 6),
                (0, 0),
                (14, 14),
                (0, 14),
                (14, 0),
            ],
            7,
        );
        let input = [quiet.clone(), won, short, long];
        let mut out = Vec::new();
        let mut searcher = Searcher::new(1 << 20);
        let counts = relabel(
            input.iter().cloned().map(Ok),
            2_000,
            3..=6,
            (0, 1),
            &mut searcher,
            &mut out,
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(
            counts,
            RelabelCounts {
                read: 4,
                written: 1,
                out_of_range: 2,
                decided: 1
            }
        );
        let text = String::from_utf8(out).unwrap();
        let written = Record::parse(text.trim()).unwrap();
        assert_eq!(written.stones, quiet.stones);
        assert_eq!(written.result, quiet.result);
        assert_ne!(written.value, 12_345, "the old value was kept");
        assert!(written.value.abs() < 1_000, "{}", written.value);
    }

    #[test]
    fn shards_split_the_records() {
        let input: Vec<Record> = (0..5)
            .map(|i| record(&[(7, 7), (8, 8), (10 + i % 3, 4 + i / 3)], 0))
            .collect();
        let mut read = 0;
        for shard in 0..2 {
            let mut searcher = Searcher::new(1 << 20);
            let counts = relabel(
                input.iter().cloned().map(Ok),
                300,
                0..=usize::MAX,
                (shard, 2),
                &mut searcher,
                &mut std::io::sink(),
                &mut |_| {},
            )
            .unwrap();
            read += counts.read;
        }
        assert_eq!(read, 5);
    }
}
