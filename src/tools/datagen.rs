//! `datagen`: training positions from games of the engine against itself.
//!
//! Each game starts from an opening (a file's, turned by one of the eight board symmetries, or
//! a random one) and is played by the main search at a fixed node budget per move, so that a
//! run is the same on every machine. Every position after the opening where the side to move
//! is not forced (no five point for either side) and the search found no mate is written as
//! one [`Record`]: the stones in play order, the result of the game and the search's value,
//! both for the side to move.
//!
//! **Adjudication by the VCT solver** (`--vct-nodes N`). Before each move where neither side
//! has a five point, the side to move's forced win by threats (VCT) is searched within `N`
//! solver nodes; a proof ends the game as its win. The node-limited search misses most long
//! forced wins, so without the solver a game goes on past a won position and its result may
//! say the opposite; with it, the positions before get the result that the threats decide,
//! which is what the evaluation should learn to foresee. The proved position itself is not
//! written (its value would be the solver's, not the search's).
//!
//! **Random moves** (`--random-moves P`). At each move where neither side has a five point,
//! with probability `P` % the side to move plays a random empty cell near the stones instead
//! of the search's move (the search's move if the cell drawn is a renju foul), and the
//! position it was played from is not written (its result would be the random move's, not the
//! position's; the positions before it keep the game's result, so fit such sets to the
//! search's values, `tune --score-weight 1`). The positions after it are: a
//! search spends most of its nodes after moves it would never play, and an evaluation fitted
//! to good moves only has never seen such positions. The draws depend only on the seed and the
//! game, as the openings do.
//!
//! **Shards.** Game `g` of a run of `--games G` belongs to shard `g mod n`; its opening and
//! symmetry depend only on the seed and `g`. So `--shard i/n` runs on n machines give, once
//! their files are concatenated, the same positions as one run.
//!
//! **Duplicates.** A position is written once per run: its key is the same under the eight
//! symmetries of the board ([`canonical_key`]), so a position and its mirror image count as one.
//! (Shards are deduplicated again when the fitting reads them.)
//!
//! **Record line:** `<rule code> <size> <stones> <result> <value>`, the stones two letters each
//! (column then row, `a` = 0, in play order, black first), the result `1` / `0` / `-1` (win,
//! draw, loss of the side to move), the value in evaluation units. Example:
//! `0 15 hhihgi 1 85`.

use std::collections::HashSet;
use std::fmt;
use std::io::Write;
use std::time::Instant;

use crate::core::{Board, Color, Rule};
use crate::player::win_probe::{PLAY_MAX_THREATS, PLAY_THREAT_LIMIT};
use crate::search::value::is_mate;
use crate::search::{SearchControl, Searcher};
use crate::tactics::{Limits, VctSolver};
use crate::tools::openings::Opening;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Mixed into a game's seed for its random moves, so that they are not its opening's draws.
const RANDOM_MOVE_SALT: u64 = 0x5241_4E44;

/// Stones in play order.
type Stones = Vec<(usize, usize)>;

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The rule the game was played under.
    pub rule: Rule,
    /// The board's side length.
    pub size: usize,
    /// The stones, in play order (black first).
    pub stones: Vec<(usize, usize)>,
    /// The game's result for the side to move: 1 win, 0 draw, −1 loss.
    pub result: i8,
    /// The search's value for the side to move.
    pub value: i32,
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ", self.rule.gomocup_code(), self.size)?;
        for &(x, y) in &self.stones {
            write!(
                f,
                "{}{}",
                (b'a' + x as u8) as char,
                (b'a' + y as u8) as char
            )?;
        }
        write!(f, " {} {}", self.result, self.value)
    }
}

impl Record {
    /// Reads a record line (see the module's documentation).
    pub fn parse(line: &str) -> Result<Record, String> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [rule, size, stones, result, value] = fields[..] else {
            return Err(format!("not a record (5 fields): {line:?}"));
        };
        let rule = rule
            .parse::<i64>()
            .ok()
            .and_then(Rule::from_gomocup_code)
            .ok_or_else(|| format!("bad rule in {line:?}"))?;
        let size: usize = size.parse().map_err(|_| format!("bad size in {line:?}"))?;
        if !(5..=22).contains(&size) || stones.len() % 2 != 0 {
            return Err(format!("bad size or stones in {line:?}"));
        }
        let coord = |b: u8| -> Result<usize, String> {
            let v = b.wrapping_sub(b'a') as usize;
            (v < size)
                .then_some(v)
                .ok_or_else(|| format!("stone off the board in {line:?}"))
        };
        let stones = stones
            .as_bytes()
            .chunks(2)
            .map(|c| Ok((coord(c[0])?, coord(c[1])?)))
            .collect::<Result<Vec<_>, String>>()?;
        let result: i8 = result
            .parse()
            .ok()
            .filter(|r: &i8| (-1..=1).contains(r))
            .ok_or_else(|| format!("bad result in {line:?}"))?;
        let value = value
            .parse()
            .map_err(|_| format!("bad value in {line:?}"))?;
        Ok(Record {
            rule,
            size,
            stones,
            result,
            value,
        })
    }

    /// The position on a board (every stone replayed under the record's rule).
    pub fn board(&self) -> Result<Board, String> {
        let mut board =
            Board::new(self.size, self.size, self.rule).map_err(|e| format!("{e:?}"))?;
        for &(x, y) in &self.stones {
            board.try_play(x, y).map_err(|e| format!("{e:?}"))?;
        }
        Ok(board)
    }

    /// The record turned by symmetry `sym` (0–7) of the square board.
    pub fn transformed(&self, sym: u8) -> Record {
        Record {
            stones: Opening::new(self.stones.clone())
                .transformed(sym, self.size)
                .moves,
            ..self.clone()
        }
    }
}

/// A key of the position made by `stones` (black first, alternating) on a `size` board that is
/// the same for all eight symmetries of it: the least over the symmetries of an order-free hash
/// of (cell, colour).
pub fn canonical_key(stones: &[(usize, usize)], size: usize) -> u64 {
    let opening = Opening::new(stones.to_vec());
    (0..8u8)
        .map(|sym| {
            opening
                .transformed(sym, size)
                .moves
                .iter()
                .enumerate()
                .fold(0u64, |acc, (i, &(x, y))| {
                    acc ^ mix(((x * 32 + y) * 2 + i % 2) as u64)
                })
        })
        .min()
        .unwrap_or(0)
}

/// SplitMix64's finaliser: a well-spread 64-bit hash of a small number.
fn mix(v: u64) -> u64 {
    let mut z = v.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Where the games start.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// Game `g` plays opening `g mod len` of the list, turned by a symmetry chosen from the
    /// seed and `g`.
    List(Vec<Opening>),
    /// Game `g` plays `stones` random stones within `radius` of the centre (seed and `g`).
    Random {
        /// Stones of each opening.
        stones: usize,
        /// Their largest distance from the centre (in each direction).
        radius: usize,
    },
}

/// What a data generation run does.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// The rule of every game.
    pub rule: Rule,
    /// The board's side length.
    pub size: usize,
    /// Games in the whole run (over all shards).
    pub games: usize,
    /// Search nodes per move.
    pub nodes: u64,
    /// The openings.
    pub openings: OpeningSource,
    /// The run's seed.
    pub seed: u64,
    /// This shard's index and the number of shards (`0, 1` for the whole run).
    pub shard: (usize, usize),
    /// Transposition table bytes of each side's search.
    pub table_bytes: u64,
    /// Node budget of the VCT solver before each move (0: no adjudication).
    pub vct_nodes: u64,
    /// Percentage of moves played at random (see the module docs).
    pub random_moves: u32,
}

/// The adjudicating solver's table size: its VCF table holds `2^(bits − 2)` entries (2 MiB);
/// its df-pn table grows as the proofs need, up to the solver's default bound of 2 M positions
/// (a few hundred MiB at most, and emptied for each game).
const ADJUDICATION_TABLE_BITS: u32 = 20;

/// Counters of a run, for the progress line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatagenProgress {
    /// Games of this shard played so far.
    pub games: usize,
    /// Games this shard plays in all.
    pub shard_games: usize,
    /// Positions written.
    pub positions: u64,
    /// Positions left out as a repeat of one written before.
    pub duplicates: u64,
    /// Black wins, white wins and draws so far.
    pub black_wins: usize,
    /// See `black_wins`.
    pub white_wins: usize,
    /// See `black_wins`.
    pub draws: usize,
    /// Games ended by a win the VCT solver proved.
    pub vct_wins: usize,
    /// Moves played at random (`--random-moves`).
    pub random_moves: u64,
}

/// The opening of game `g` of the run.
fn opening_for(config: &DatagenConfig, g: usize) -> Opening {
    let game_seed = mix(config.seed ^ mix(g as u64));
    match &config.openings {
        OpeningSource::List(list) => {
            let base = &list[g % list.len()];
            base.transformed((game_seed % 8) as u8, config.size)
        }
        OpeningSource::Random { stones, radius } => {
            crate::tools::openings::random_openings(1, *stones, config.size, *radius, game_seed)
                .remove(0)
        }
    }
}

/// Plays this shard's games and writes their records to `out`, calling `progress` after each
/// game. Returns the final counters.
pub fn run(
    config: &DatagenConfig,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&DatagenProgress),
) -> anyhow::Result<DatagenProgress> {
    let (index, count) = config.shard;
    anyhow::ensure!(count >= 1 && index < count, "bad shard {index}/{count}");
    let mut seen = HashSet::new();
    let mut stats = DatagenProgress {
        shard_games: (index..config.games).step_by(count).count(),
        ..Default::default()
    };
    let mut searchers = [
        Searcher::new(config.table_bytes),
        Searcher::new(config.table_bytes),
    ];
    // A threat, and the bound on the attacker's moves, are what they are for the players'
    // own probe.
    let mut adjudicator = (config.vct_nodes > 0).then(|| {
        let mut solver = VctSolver::new(ADJUDICATION_TABLE_BITS);
        solver.set_threat_limit(PLAY_THREAT_LIMIT);
        solver
    });
    for g in (index..config.games).step_by(count) {
        let opening = opening_for(config, g);
        let mut board = Board::new(config.size, config.size, config.rule)
            .map_err(|e| anyhow::anyhow!("{e:?}"))?;
        let mut playable = true;
        for &(x, y) in &opening.moves {
            if board.try_play(x, y).is_err() || board.last_move_wins() {
                playable = false;
                break;
            }
        }
        if !playable {
            // A random opening that already holds a five or an illegal stone: skipped (the
            // same on every machine).
            stats.games += 1;
            progress(&stats);
            continue;
        }
        for s in &mut searchers {
            s.clear();
        }
        // Each game starts from empty tables, so that a shard's games are the whole run's.
        if let Some(solver) = adjudicator.as_mut() {
            solver.clear();
        }
        // Positions of this game waiting for its result: stones, side to move, value.
        let mut pending: Vec<(Stones, Color, i32)> = Vec::new();
        let mut rng = StdRng::seed_from_u64(mix(config.seed ^ mix(g as u64) ^ RANDOM_MOVE_SALT));
        let winner = loop {
            if board.is_full() {
                break None;
            }
            let me = board.side_to_move();
            // A side with a five point plays it (or must stop it): nothing to adjudicate, and
            // such positions are never written anyway.
            let five_on_board = board.has_five_point(me) || board.has_five_point(me.opponent());
            if let (Some(solver), false) = (adjudicator.as_mut(), five_on_board) {
                let limits = Limits::nodes(config.vct_nodes);
                if solver
                    .solve_first_move(&mut board, PLAY_MAX_THREATS, limits)
                    .is_win()
                {
                    stats.vct_wins += 1;
                    break Some(me);
                }
            }
            // A random move instead of the search's (its position is not written).
            let draw = !five_on_board
                && config.random_moves > 0
                && rng.gen_range(0..100) < config.random_moves;
            let random = draw
                .then(|| board.random_near_cell(&mut rng))
                .filter(|&p| board.is_legal(p, me));
            if let Some(p) = random {
                board.make_move(p);
                stats.random_moves += 1;
                if board.last_move_wins() {
                    break Some(me);
                }
                continue;
            }
            // No clock: the node budget alone ends the search, the same on every machine.
            let control = SearchControl::for_nodes(config.nodes);
            let result = searchers[me as usize].search_move(&board, &control, &mut |_| {});
            let Some(best) = result
                .best
                .filter(|&p| board.is_legal(p, me))
                .or_else(|| board.legal_moves().first().copied())
            else {
                break None;
            };
            let forced = board.has_five_point(me) || board.has_five_point(me.opponent());
            if !forced && result.last.depth > 0 && !is_mate(result.last.value) {
                let stones: Vec<(usize, usize)> =
                    board.history().iter().map(|p| (p.x(), p.y())).collect();
                let key = canonical_key(&stones, config.size) ^ config.rule.gomocup_code() as u64;
                if seen.insert(key) {
                    pending.push((stones, me, result.last.value));
                } else {
                    stats.duplicates += 1;
                }
            }
            board.make_move(best);
            if board.last_move_wins() {
                break Some(me);
            }
        };
        match winner {
            Some(Color::Black) => stats.black_wins += 1,
            Some(Color::White) => stats.white_wins += 1,
            None => stats.draws += 1,
        }
        for (stones, mover, value) in pending {
            let result = match winner {
                None => 0,
                Some(w) if w == mover => 1,
                Some(_) => -1,
            };
            let record = Record {
                rule: config.rule,
                size: config.size,
                stones,
                result,
                value,
            };
            writeln!(out, "{record}")?;
            stats.positions += 1;
        }
        stats.games += 1;
        progress(&stats);
    }
    out.flush()?;
    Ok(stats)
}

/// The progress line: games, positions, their rate, the results so far.
pub fn progress_line(p: &DatagenProgress, started: Instant) -> String {
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    format!(
        "[datagen] games {}/{}  positions {} ({:.1}/s, {} repeats left out)  black-white-draw {}-{}-{} ({} by a proved VCT)  random moves {}",
        p.games,
        p.shard_games,
        p.positions,
        p.positions as f64 / secs,
        p.duplicates,
        p.black_wins,
        p.white_wins,
        p.draws,
        p.vct_wins,
        p.random_moves
    )
}

/// Arguments of `datagen`.
#[derive(Clone, Debug, clap::Args)]
pub struct DatagenArgs {
    /// The rule: freestyle, standard, renju, caro8, caro9 or a Gomocup code.
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// The board's side length (5–22).
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Games of the whole run (over all shards).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Search nodes per move.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// An opening file (c-gomoku-cli `pos` / `offset` or corpus lines); without it, random
    /// openings.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Stones of a random opening.
    #[arg(long, default_value_t = 3)]
    pub random_stones: usize,
    /// Largest distance of a random opening's stones from the centre.
    #[arg(long, default_value_t = 3)]
    pub radius: usize,
    /// The run's seed (the same seed gives the same games on every machine).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// This run's shard `i/n` (0-based i): it plays games i, i+n, i+2n, …
    #[arg(long, default_value = "0/1")]
    pub shard: String,
    /// Transposition table of each side, MiB.
    #[arg(long, default_value_t = 16)]
    pub hash_mib: u64,
    /// The output file (appended to), or `-` for stdout.
    #[arg(long, default_value = "-")]
    pub out: String,
    /// Adjudicate by the VCT solver: its node budget before each move (0: off).
    #[arg(long, default_value_t = 0)]
    pub vct_nodes: u64,
    /// Percentage of moves played at random instead of the search's (0–100).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub random_moves: u32,
}

/// Reads a `--shard` value `i/n` (0-based `i < n`).
pub fn parse_shard(text: &str) -> anyhow::Result<(usize, usize)> {
    text.split_once('/')
        .and_then(|(i, n)| Some((i.parse().ok()?, n.parse().ok()?)))
        .filter(|&(i, n): &(usize, usize)| n >= 1 && i < n)
        .ok_or_else(|| anyhow::anyhow!("--shard wants i/n with i < n, not {text}"))
}

/// The records' output: `-` for stdout, else the file `path` appended to.
pub fn open_output(path: &str) -> anyhow::Result<Box<dyn Write>> {
    use anyhow::Context;
    Ok(if path == "-" {
        Box::new(std::io::BufWriter::new(std::io::stdout().lock()))
    } else {
        Box::new(std::io::BufWriter::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open {path}"))?,
        ))
    })
}

/// Runs `datagen`: records to `--out`, the progress line on stderr.
pub fn run_command(args: &DatagenArgs) -> anyhow::Result<()> {
    use anyhow::Context;
    let rule = Rule::parse(&args.rule).with_context(|| format!("unknown rule {}", args.rule))?;
    anyhow::ensure!((5..=22).contains(&args.size), "size must be 5..22");
    let shard = parse_shard(&args.shard)?;
    let openings = match &args.openings {
        Some(path) => OpeningSource::List(
            crate::tools::openings::load_openings(
                path,
                args.size,
                args.size,
                crate::tools::openings::OpeningFormat::Auto,
                crate::tools::openings::SizePolicy::Reject,
            )
            .map_err(|e| anyhow::anyhow!(e.message))?,
        ),
        None => OpeningSource::Random {
            stones: args.random_stones,
            radius: args.radius,
        },
    };
    let config = DatagenConfig {
        rule,
        size: args.size,
        games: args.games,
        nodes: args.nodes,
        openings,
        seed: args.seed,
        shard,
        table_bytes: args.hash_mib.max(1) << 20,
        vct_nodes: args.vct_nodes,
        random_moves: args.random_moves,
    };
    let mut out = open_output(&args.out)?;
    let started = Instant::now();
    let mut stderr = std::io::stderr();
    let stats = run(&config, &mut out, &mut |p| {
        let _ = write!(stderr, "\r{}", progress_line(p, started));
    })?;
    let _ = writeln!(stderr, "\r{}", progress_line(&stats, started));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(shard: (usize, usize)) -> DatagenConfig {
        DatagenConfig {
            rule: Rule::Freestyle,
            size: 15,
            games: 4,
            nodes: 3000,
            openings: OpeningSource::Random {
                stones: 3,
                radius: 3,
            },
            seed: 5,
            shard,
            table_bytes: 1 << 20,
            vct_nodes: 0,
            random_moves: 0,
        }
    }

    fn records(shard: (usize, usize)) -> Vec<String> {
        let mut out = Vec::new();
        run(&config(shard), &mut out, &mut |_| {}).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    #[test]
    fn records_round_trip_and_replay() {
        let lines = records((0, 1));
        assert!(lines.len() > 20, "{} records", lines.len());
        for line in &lines {
            let r = Record::parse(line).unwrap();
            assert_eq!(&r.to_string(), line);
            let board = r.board().unwrap();
            let me = board.side_to_move();
            assert!(!board.has_five_point(me) && !board.has_five_point(me.opponent()));
            assert!(!is_mate(r.value));
        }
    }

    #[test]
    fn a_run_is_seeded_and_its_shards_concatenate_to_it() {
        let whole = records((0, 1));
        assert_eq!(whole, records((0, 1)), "the same run twice");
        let mut shards = records((0, 2));
        shards.extend(records((1, 2)));
        let mut a = whole.clone();
        a.sort();
        shards.sort();
        // Each shard drops only its own repeats; the whole run drops repeats across games too.
        let set: HashSet<_> = shards.iter().cloned().collect();
        assert!(a.iter().all(|l| set.contains(l)));
    }

    /// With random moves the run is still the seed's alone, its games leave the plain run's
    /// paths, and what it writes is still only unforced positions of legal games.
    #[test]
    fn random_moves_are_seeded_and_change_the_games() {
        let mut c = config((0, 1));
        c.random_moves = 30;
        let play = |c: &DatagenConfig| {
            let mut out = Vec::new();
            let stats = run(c, &mut out, &mut |_| {}).unwrap();
            (String::from_utf8(out).unwrap(), stats)
        };
        let (text, stats) = play(&c);
        assert_eq!(text, play(&c).0, "the same run twice");
        assert!(stats.random_moves > 0, "no random move at 30 %");
        assert_eq!(stats.games, 4);
        let plain = records((0, 1));
        let lines: Vec<&str> = text.lines().collect();
        assert_ne!(lines, plain, "the random moves changed nothing");
        assert!(!lines.is_empty());
        for line in lines {
            let board = Record::parse(line).unwrap().board().unwrap();
            let me = board.side_to_move();
            assert!(!board.has_five_point(me) && !board.has_five_point(me.opponent()));
        }
    }

    #[test]
    fn the_canonical_key_is_the_same_under_every_symmetry_and_differs_otherwise() {
        let r = Record::parse("0 15 hhihgijj 0 10").unwrap();
        let k = canonical_key(&r.stones, 15);
        for sym in 0..8 {
            assert_eq!(canonical_key(&r.transformed(sym).stones, 15), k);
        }
        // The same cells with the colours swapped are another position.
        let swapped = Record::parse("0 15 ihhhjjgi 0 10").unwrap();
        assert_ne!(canonical_key(&swapped.stones, 15), k);
    }

    #[test]
    fn results_follow_the_side_to_move_of_one_game() {
        // One game: every position with black to move has the same result, and every one with
        // white to move the opposite (0 for both in a draw).
        let mut out = Vec::new();
        let one = DatagenConfig {
            games: 1,
            ..config((0, 1))
        };
        run(&one, &mut out, &mut |_| {}).unwrap();
        let records: Vec<Record> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| Record::parse(l).unwrap())
            .collect();
        assert!(records.len() > 5);
        let black = |r: &Record| r.stones.len() % 2 == 0;
        let rb = records.iter().find(|r| black(r)).unwrap().result;
        for r in &records {
            assert_eq!(r.result, if black(r) { rb } else { -rb }, "{r}");
        }
    }

    #[test]
    fn vct_adjudication_ends_games_where_a_win_is_proved_and_changes_nothing_before() {
        let plain = records((0, 1));
        let judged = DatagenConfig {
            vct_nodes: 20_000,
            random_moves: 0,
            ..config((0, 1))
        };
        let mut out = Vec::new();
        let stats = run(&judged, &mut out, &mut |_| {}).unwrap();
        assert!(stats.vct_wins > 0, "{stats:?}");
        let lines: Vec<String> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        assert!(!lines.is_empty());
        // The solver does not touch the players' searches: the judged games are the plain
        // games cut short, position for position and value for value. (The run is seeded, so
        // this holds or fails the same way every time.)
        let positions = |ls: &[String]| -> HashSet<(Vec<(usize, usize)>, i32)> {
            ls.iter()
                .map(|l| {
                    let r = Record::parse(l).unwrap();
                    (r.stones, r.value)
                })
                .collect()
        };
        let before = positions(&plain);
        let after = positions(&lines);
        assert!(after.is_subset(&before));
        assert!(after.len() < before.len());
    }

    #[test]
    fn a_proved_vct_ends_the_game_as_the_attackers_win() {
        // Openings where the side to move has an open three and the other side nothing:
        // black to move in the first, white in the second.
        let three = [(5, 7), (6, 7), (7, 7)];
        let far = [(0, 0), (0, 2), (0, 4), (0, 6)];
        let black_to_move: Vec<(usize, usize)> = (0..6)
            .map(|i| if i % 2 == 0 { three[i / 2] } else { far[i / 2] })
            .collect();
        let white_to_move: Vec<(usize, usize)> = (0..7)
            .map(|i| if i % 2 == 0 { far[i / 2] } else { three[i / 2] })
            .collect();
        for (opening, expected) in [(black_to_move, (1, 0)), (white_to_move, (0, 1))] {
            let judged = DatagenConfig {
                games: 1,
                openings: OpeningSource::List(vec![Opening::new(opening)]),
                vct_nodes: 20_000,
                random_moves: 0,
                ..config((0, 1))
            };
            let mut out = Vec::new();
            let stats = run(&judged, &mut out, &mut |_| {}).unwrap();
            assert_eq!(
                (stats.black_wins, stats.white_wins, stats.vct_wins),
                (expected.0, expected.1, 1),
                "{stats:?}"
            );
            assert!(
                out.is_empty(),
                "the game ends at its opening: nothing is written"
            );
        }
    }
}
