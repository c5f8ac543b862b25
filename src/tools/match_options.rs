//! Command-line options of `pbrain-tianyuan match` and `selfplay`, and their checked form
//! ([`MatchConfig`]).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;

use crate::core::{Board, MoveVerdict, Rule};

use super::adjudication::default_draw_after;
use super::clock::TimeControl;
use super::game::GameSettings;
use super::opening_balance::{OpeningJudge, DEFAULT_BALANCE_NODES};
use super::openings::{
    load_openings, order_openings, random_openings, Opening, OpeningFormat, OpeningOrder,
    SizePolicy,
};
use super::seat::EngineSpec;
use super::stats::Sprt;

/// Options shared by `match` and `selfplay`.
#[derive(Args, Debug, Clone)]
pub struct CommonArgs {
    /// Rule: 0 freestyle, 1 standard (exact five), 4 renju, 8 caro (overlines win), 9 caro
    /// (exact five); names (`renju`, ...) are accepted too.
    #[arg(long, default_value = "0")]
    pub rule: String,
    /// Board size (5..22).
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Time control TURN/MATCH+INC in milliseconds (0 = no limit for the turn or the match,
    /// not both), e.g. 1000/60000 or 0/120000+500.
    #[arg(long, default_value = "1000/60000")]
    pub tc: String,
    /// Extra milliseconds a reply may take beyond its budget; a brain silent after that is
    /// killed and loses on time.
    #[arg(long, default_value_t = 1000)]
    pub tolerance: u64,
    /// `INFO max_memory` in bytes (0 = no limit; informational, as in c-gomoku-cli).
    #[arg(long, default_value_t = 367_001_600)]
    pub max_memory: u64,
    /// Games per pairing and round (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Rounds (the whole schedule is repeated; openings continue).
    #[arg(long, default_value_t = 1)]
    pub rounds: usize,
    /// Opening file: c-gomoku-cli `offset` (`0,0, 1,0`) or `pos` (`h8i9`) lines, or corpus
    /// lines (`ID moves=h8,i9 ...`).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Format of the opening file: auto, offset, pos or corpus.
    #[arg(long, default_value = "auto")]
    pub openings_format: String,
    /// Order of the openings: sequential or random (seeded by --seed).
    #[arg(long, default_value = "sequential")]
    pub openings_order: String,
    /// Without an opening file: play random openings of this many stones near the centre
    /// (0 = empty board, the first brain gets BEGIN).
    #[arg(long, default_value_t = 0)]
    pub random_openings: usize,
    /// With --random-openings: keep only the openings that a search of this engine (at
    /// --balance-nodes) values within this many evaluation units of level for the side to
    /// move, and finds no forced result in (100 units is about a 62 % winning chance).
    #[arg(long, value_name = "UNITS")]
    pub balanced_within: Option<i32>,
    /// Nodes of the search that values each random opening for --balanced-within.
    #[arg(long, default_value_t = DEFAULT_BALANCE_NODES)]
    pub balance_nodes: u64,
    /// Seed for --openings-order random and --random-openings (default: from the clock,
    /// printed in the header).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Games played at the same time (one pair of processes each).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Draw once this many stones are on the board, opening included (0 = full board).
    /// Default: width*height-25 in renju (200 on 15x15, as Gomocup), full board otherwise.
    #[arg(long)]
    pub draw_after: Option<usize>,
    /// SPRT `elo0,elo1[,alpha,beta]` (two engines only; alpha = beta = 0.05 by default):
    /// stops as soon as H0 or H1 is accepted.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Append every game to this SGF file (c-gomoku-cli layout).
    #[arg(long)]
    pub sgf: Option<PathBuf>,
    /// Append every game to this PGN file (for BayesElo / Ordo).
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Extra `INFO KEY VALUE` for engine N (1-based) as `N:KEY=VALUE`, or for every engine as
    /// `KEY=VALUE`; repeatable.
    #[arg(long = "info", value_name = "[N:]KEY=VALUE")]
    pub info: Vec<String>,
    /// Skip lines that are not moves while waiting for one (GomocupJudge, c-gomoku-cli)
    /// instead of losing the game at once (Piskvork, the default).
    #[arg(long)]
    pub lenient: bool,
    /// Swap2 openings (Gomocup's `SWAP2BOARD`): the brain scheduled as black places three
    /// stones, the other swaps, plays the fourth move or places two more, and so on; the colours
    /// follow the choices. Excludes --openings and --random-openings.
    #[arg(long)]
    pub swap2: bool,
    /// With --swap2: send the `SWAP2BOARD` rows as `x,y,field` (1 = a stone of the side to
    /// move, 2 = the other side's), as Rapfi reads them, instead of the spec's plain `x,y`.
    #[arg(long)]
    pub swap2_fields: bool,
    /// Stop the run after a game lost by a crash or a time-out instead of restarting the
    /// engine for the next game.
    #[arg(long)]
    pub no_restart: bool,
    /// Print the board after every move (best with --concurrency 1).
    #[arg(long)]
    pub show: bool,
    /// No live progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// `pbrain-tianyuan match`: a tournament between Gomocup brains.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// An engine's command line (quote it when it has arguments); at least two.
    #[arg(long = "engine", value_name = "CMD", required = true)]
    pub engines: Vec<String>,
    /// Engine names, in the order of --engine (default: ABOUT's name, else the file name).
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
    /// The first engine plays each of the others (instead of a round robin).
    #[arg(long)]
    pub gauntlet: bool,
    /// Options shared with selfplay.
    #[command(flatten)]
    pub common: CommonArgs,
}

/// `pbrain-tianyuan selfplay`: this binary against itself or against an older build.
#[derive(Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// The other engine: an older build of Tianyuan (default: this binary again).
    #[arg(long, value_name = "OTHER_BINARY")]
    pub baseline: Option<PathBuf>,
    /// Arguments given to this binary when it plays (e.g. `--weak random`).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub args: String,
    /// Arguments given to the baseline (default: the same as --args).
    #[arg(long, allow_hyphen_values = true)]
    pub baseline_args: Option<String>,
    /// Options shared with match.
    #[command(flatten)]
    pub common: CommonArgs,
}

/// A checked, ready-to-run match.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// The engines (names not final until probed, see the runner).
    pub engines: Vec<EngineSpec>,
    /// Which engines had their name given on the command line (by index; missing = no).
    pub fixed_names: Vec<bool>,
    /// How games are played.
    pub settings: GameSettings,
    /// Openings, in the order used (empty = every game from the empty board).
    pub openings: Vec<Opening>,
    /// Gauntlet instead of round robin.
    pub gauntlet: bool,
    /// Games per pairing and round.
    pub games: usize,
    /// Rounds.
    pub rounds: usize,
    /// Parallel games.
    pub concurrency: usize,
    /// SPRT, if any.
    pub sprt: Option<Sprt>,
    /// SGF output file.
    pub sgf: Option<PathBuf>,
    /// PGN output file.
    pub pgn: Option<PathBuf>,
    /// Restart crashed / killed engines (else stop the run).
    pub restart: bool,
    /// Live progress line on stderr.
    pub progress: bool,
    /// Seed used for the opening order / random openings.
    pub seed: u64,
    /// How the openings were chosen, when the count alone does not say it (printed after it
    /// in the header; empty otherwise).
    pub openings_note: String,
}

/// Parses `elo0,elo1[,alpha,beta]`.
pub fn parse_sprt(text: &str) -> Result<Sprt> {
    let v: Vec<f64> = text
        .split(',')
        .map(|s| s.trim().parse::<f64>())
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| anyhow!("bad --sprt `{text}`: expected elo0,elo1[,alpha,beta]"))?;
    let (e0, e1, a, b) = match v.as_slice() {
        [e0, e1] => (*e0, *e1, 0.05, 0.05),
        [e0, e1, a, b] => (*e0, *e1, *a, *b),
        _ => bail!("bad --sprt `{text}`: expected elo0,elo1[,alpha,beta]"),
    };
    Sprt::new(e0, e1, a, b).map_err(|e| anyhow!(e))
}

/// Parses `--info` values into per-engine `(key, value)` lists for `engines` engines.
pub fn parse_info(items: &[String], engines: usize) -> Result<Vec<Vec<(String, String)>>> {
    let mut out = vec![Vec::new(); engines];
    for item in items {
        let (target, kv) = match item.split_once(':') {
            Some((n, rest)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => {
                let n: usize = n.parse()?;
                if n == 0 || n > engines {
                    bail!("--info {item}: engine {n} does not exist (1..{engines})");
                }
                (Some(n - 1), rest)
            }
            _ => (None, item.as_str()),
        };
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| anyhow!("--info {item}: expected [N:]KEY=VALUE"))?;
        let k = k.trim();
        if k.is_empty() || k.contains(char::is_whitespace) {
            bail!("--info {item}: bad key");
        }
        let pair = (k.to_string(), v.trim().to_string());
        match target {
            Some(i) => out[i].push(pair),
            None => out.iter_mut().for_each(|o| o.push(pair.clone())),
        }
    }
    Ok(out)
}

/// Checks that `opening` fits the board and neither wins nor fouls on the way (the game must
/// still be open after it).
pub fn check_opening(opening: &Opening, size: usize, rule: Rule) -> Result<()> {
    let mut b = Board::new(size, size, rule).map_err(|e| anyhow!("{e}"))?;
    for (i, &(x, y)) in opening.moves.iter().enumerate() {
        let p = b
            .pos(x, y)
            .filter(|&p| b.is_empty(p))
            .ok_or_else(|| anyhow!("stone {} at {x},{y} is off the board or repeated", i + 1))?;
        if b.verdict(p) != MoveVerdict::Continues {
            bail!(
                "stone {} at {x},{y} already ends the game under rule {}",
                i + 1,
                rule.gomocup_code()
            );
        }
        b.make_move(p);
    }
    if b.is_full() {
        bail!("the opening fills the board");
    }
    Ok(())
}

/// The file name of a command's program, as a default engine name.
pub fn default_name(command: &str) -> String {
    let first = super::engine_process::split_command_line(command)
        .ok()
        .and_then(|w| w.into_iter().next())
        .unwrap_or_else(|| command.to_string());
    std::path::Path::new(&first)
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or(first)
}

impl MatchConfig {
    /// Builds and checks a configuration from engine commands, optional fixed names and the
    /// shared options.
    pub fn build(
        commands: Vec<String>,
        names: &[String],
        gauntlet: bool,
        c: &CommonArgs,
    ) -> Result<MatchConfig> {
        if commands.len() < 2 {
            bail!("a match needs at least two engines");
        }
        if names.len() > commands.len() {
            bail!("{} names for {} engines", names.len(), commands.len());
        }
        let numeric_ok = c
            .rule
            .trim()
            .parse::<i64>()
            .map_or(true, |n| [0, 1, 4, 8, 9].contains(&n));
        let rule = Rule::parse(c.rule.trim())
            .filter(|_| numeric_ok)
            .ok_or_else(|| anyhow!("unknown rule `{}` (0, 1, 4, 8 or 9)", c.rule))?;
        if !(5..=22).contains(&c.size) {
            bail!("board size {} is outside 5..22", c.size);
        }
        let tc = TimeControl::parse(&c.tc).map_err(|e| anyhow!(e))?;
        if c.games == 0 || c.rounds == 0 || c.concurrency == 0 {
            bail!("--games, --rounds and --concurrency must be at least 1");
        }
        let seed = c.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0)
        });
        let order = match c.openings_order.as_str() {
            "sequential" => OpeningOrder::Sequential,
            "random" => OpeningOrder::Random { seed },
            o => bail!("unknown --openings-order `{o}` (sequential or random)"),
        };
        let format = match c.openings_format.as_str() {
            "auto" => OpeningFormat::Auto,
            "offset" => OpeningFormat::Offset,
            "pos" => OpeningFormat::Pos,
            "corpus" => OpeningFormat::Corpus,
            f => bail!("unknown --openings-format `{f}` (auto, offset, pos or corpus)"),
        };
        if c.swap2 && (c.openings.is_some() || c.random_openings > 0) {
            bail!("--swap2 plays its own openings: it excludes --openings and --random-openings");
        }
        if c.balanced_within.is_some() && c.random_openings == 0 {
            bail!("--balanced-within keeps some of the --random-openings: it needs them");
        }
        if c.balanced_within.is_some_and(|v| v < 0) {
            bail!("--balanced-within must be at least 0");
        }
        let mut judge = c
            .balanced_within
            .map(|within| (OpeningJudge::new(c.size, rule, c.balance_nodes), within));
        let mut drawn = 0usize;
        let mut openings = match &c.openings {
            Some(path) => {
                if c.random_openings > 0 {
                    bail!("--openings and --random-openings exclude each other");
                }
                load_openings(path, c.size, c.size, format, SizePolicy::Reject)
                    .map_err(|e| anyhow!("{e}"))?
            }
            None if c.random_openings > 0 => {
                let pairs = (c.games * c.rounds).div_ceil(2);
                let mut v = Vec::new();
                let mut s = seed;
                // Openings that already decide the game are redrawn; some requests (say, as
                // many stones as the board has cells) can never be met.
                let mut fruitless = 0;
                while v.len() < pairs {
                    let before = v.len();
                    for o in random_openings(pairs - v.len(), c.random_openings, c.size, 3, s) {
                        drawn += 1;
                        if check_opening(&o, c.size, rule).is_ok()
                            && judge
                                .as_mut()
                                .is_none_or(|(judge, within)| judge.is_balanced(&o, *within))
                        {
                            v.push(o);
                        }
                    }
                    fruitless = if v.len() == before { fruitless + 1 } else { 0 };
                    if fruitless >= 100 {
                        bail!(
                            "cannot draw {pairs} playable{} openings of {} stones on {}x{}",
                            if judge.is_some() { " and balanced" } else { "" },
                            c.random_openings,
                            c.size,
                            c.size
                        );
                    }
                    s = s.wrapping_add(1);
                }
                v
            }
            None => Vec::new(),
        };
        for o in &openings {
            check_opening(o, c.size, rule)
                .with_context(|| format!("opening on line {}", o.line))?;
        }
        order_openings(&mut openings, order);
        let sprt = c.sprt.as_deref().map(parse_sprt).transpose()?;
        if sprt.is_some() && commands.len() != 2 {
            bail!("--sprt needs exactly two engines");
        }
        let infos = parse_info(&c.info, commands.len())?;
        let engines = commands
            .into_iter()
            .zip(infos)
            .enumerate()
            .map(|(i, (command, info))| EngineSpec {
                name: names
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| default_name(&command)),
                command,
                info,
            })
            .collect();
        Ok(MatchConfig {
            engines,
            fixed_names: vec![true; names.len()],
            settings: GameSettings {
                size: c.size,
                rule,
                tc,
                tolerance: Duration::from_millis(c.tolerance),
                max_memory: c.max_memory,
                draw_after: c
                    .draw_after
                    .unwrap_or_else(|| default_draw_after(rule, c.size, c.size)),
                strict: !c.lenient,
                show: c.show,
                swap2: c.swap2,
                swap2_fields: c.swap2_fields,
            },
            openings,
            gauntlet,
            games: c.games,
            rounds: c.rounds,
            concurrency: c.concurrency,
            sprt,
            sgf: c.sgf.clone(),
            pgn: c.pgn.clone(),
            restart: !c.no_restart,
            progress: !c.quiet,
            seed,
            openings_note: match c.balanced_within {
                Some(within) => format!(
                    " (kept {} of {drawn} random ones: a search of {} nodes values them within \u{b1}{within})",
                    (c.games * c.rounds).div_ceil(2),
                    c.balance_nodes
                ),
                None => String::new(),
            },
        })
    }

    /// The configuration of `pbrain-tianyuan match`.
    pub fn from_match_args(a: &MatchArgs) -> Result<MatchConfig> {
        MatchConfig::build(a.engines.clone(), &a.names, a.gauntlet, &a.common)
    }

    /// The configuration of `pbrain-tianyuan selfplay`: `this_binary` (normally
    /// `std::env::current_exe()`) against the baseline or itself.
    pub fn from_selfplay_args(
        a: &SelfplayArgs,
        this_binary: &std::path::Path,
    ) -> Result<MatchConfig> {
        let quote =
            |p: &std::path::Path| format!("'{}'", p.display().to_string().replace('\'', r"'\''"));
        let with_args = |bin: String, args: &str| {
            if args.trim().is_empty() {
                bin
            } else {
                format!("{bin} {args}")
            }
        };
        let me = with_args(quote(this_binary), &a.args);
        let other_args = a.baseline_args.as_deref().unwrap_or(&a.args);
        let (other, names) = match &a.baseline {
            Some(b) => (
                with_args(quote(b), other_args),
                vec!["tianyuan".to_string(), "baseline".to_string()],
            ),
            None => (
                with_args(quote(this_binary), other_args),
                vec!["tianyuan-1".to_string(), "tianyuan-2".to_string()],
            ),
        };
        MatchConfig::build(vec![me, other], &names, false, &a.common)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        m: MatchArgs,
    }

    fn cfg(args: &[&str]) -> Result<MatchConfig> {
        let mut v = vec!["x"];
        v.extend_from_slice(args);
        let cli = Cli::try_parse_from(v).map_err(|e| anyhow!("{e}"))?;
        MatchConfig::from_match_args(&cli.m)
    }

    #[test]
    fn defaults_and_options() {
        let c = cfg(&[
            "--engine",
            "./a",
            "--engine",
            "./b --x 1",
            "--rule",
            "4",
            "--seed",
            "3",
        ])
        .unwrap();
        assert_eq!(c.engines[0].name, "a");
        assert_eq!(c.engines[1].name, "b");
        assert_eq!(c.settings.rule, Rule::Renju);
        assert_eq!(c.settings.draw_after, 200);
        assert!(c.settings.strict && c.restart);
        let c = cfg(&[
            "--engine",
            "a",
            "--engine",
            "b",
            "--rule",
            "9",
            "--draw-after",
            "100",
            "--sprt",
            "0,5",
            "--info",
            "2:thread_num=2",
            "--info",
            "hash_size=1024",
        ])
        .unwrap();
        assert_eq!(c.settings.rule, Rule::Caro9);
        assert_eq!(c.settings.draw_after, 100);
        let s = c.sprt.unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.05));
        assert_eq!(
            c.engines[0].info,
            vec![("hash_size".to_string(), "1024".to_string())]
        );
        assert_eq!(
            c.engines[1].info,
            vec![
                ("thread_num".to_string(), "2".to_string()),
                ("hash_size".to_string(), "1024".to_string())
            ]
        );
    }

    #[test]
    fn errors() {
        assert!(cfg(&["--engine", "a"]).is_err());
        assert!(cfg(&["--engine", "a", "--engine", "b", "--rule", "2"]).is_err());
        assert!(cfg(&["--engine", "a", "--engine", "b", "--rule", "3"]).is_err());
        assert!(cfg(&["--engine", "a", "--engine", "b", "--size", "23"]).is_err());
        assert!(cfg(&["--engine", "a", "--engine", "b", "--tc", "0/0"]).is_err());
        assert!(
            cfg(&["--engine", "a", "--engine", "b", "--engine", "c", "--sprt", "0,5"]).is_err()
        );
        assert!(cfg(&["--engine", "a", "--engine", "b", "--sprt", "5,0"]).is_err());
        assert!(cfg(&["--engine", "a", "--engine", "b", "--info", "3:x=1"]).is_err());
        assert!(cfg(&["--engine", "a", "--engine", "b", "--info", "x"]).is_err());
        assert!(cfg(&[
            "--engine",
            "a",
            "--engine",
            "b",
            "--openings",
            "/nonexistent/o.txt"
        ])
        .is_err());
    }

    #[test]
    fn openings_are_checked_against_the_rule() {
        let o = Opening::new(vec![
            (7, 7),
            (0, 0),
            (8, 7),
            (0, 1),
            (9, 7),
            (0, 2),
            (10, 7),
            (0, 3),
            (11, 7),
        ]);
        assert!(
            check_opening(&o, 15, Rule::Freestyle).is_err(),
            "black five inside the opening"
        );
        let o = Opening::new(vec![(7, 7), (8, 8)]);
        assert!(check_opening(&o, 15, Rule::Freestyle).is_ok());
        let o = Opening::new(vec![(7, 7), (7, 7)]);
        assert!(check_opening(&o, 15, Rule::Freestyle).is_err());
    }

    #[test]
    fn random_openings_cover_the_games() {
        let c = cfg(&[
            "--engine",
            "a",
            "--engine",
            "b",
            "--random-openings",
            "3",
            "--games",
            "10",
            "--seed",
            "1",
        ])
        .unwrap();
        assert_eq!(c.openings.len(), 5);
        assert!(c.openings.iter().all(|o| o.len() == 3));
    }

    #[test]
    fn balanced_random_openings_are_kept_by_their_value() {
        let args = |within: &str| {
            cfg(&[
                "--engine",
                "a",
                "--engine",
                "b",
                "--random-openings",
                "3",
                "--games",
                "8",
                "--seed",
                "7",
                &format!("--balanced-within={within}"),
                "--balance-nodes",
                "500",
            ])
        };
        let c = args("60").unwrap();
        assert_eq!(c.openings.len(), 4);
        let mut judge = OpeningJudge::new(15, Rule::Freestyle, 500);
        for o in &c.openings {
            let v = judge.value(o).expect("a value");
            assert!(v.abs() <= 60, "{v}");
        }
        assert!(c.openings_note.contains("kept 4 of"), "{}", c.openings_note);
        // Without --random-openings, or below zero: an error.
        assert!(cfg(&["--engine", "a", "--engine", "b", "--balanced-within", "60"]).is_err());
        assert!(args("-1").is_err());
    }

    #[test]
    fn impossible_random_openings_are_an_error_not_a_hang() {
        // 25 stones fill a 5x5 board: no such opening leaves a game to play.
        let c = cfg(&[
            "--engine",
            "a",
            "--engine",
            "b",
            "--size",
            "5",
            "--random-openings",
            "25",
        ]);
        assert!(c.is_err());
    }
}
