//! The match runner against scripted brains (`tests/brains/brain.sh`): every adjudication
//! reason, time-outs and the deadline kill in the last games, crashes and restarts, opening
//! formats, the protocol as sent, SPRT stopping, and the command line.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use clap::Parser;
use tianyuan::core::Rule;
use tianyuan::search::params::Tunables;
use tianyuan::tools::match_options::{MatchArgs, MatchConfig};
use tianyuan::tools::match_runner::{run_match, MatchSummary};
use tianyuan::tools::records::{GameResult, IllegalKind, ResultReason};
use tianyuan::tools::stats::SprtDecision;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    m: MatchArgs,
}

/// The scripted brain's command line with `args`.
fn brain(args: &str) -> String {
    format!(
        "sh {}/tests/brains/brain.sh {args}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tianyuan-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs a match from command-line style arguments (without the progress line); returns the
/// summary and what was written.
fn run(args: &[String]) -> (MatchSummary, String) {
    let mut v = vec!["match".to_string(), "--quiet".to_string()];
    v.extend(args.iter().cloned());
    let cli = Cli::try_parse_from(v).unwrap_or_else(|e| panic!("{e}"));
    let config = MatchConfig::from_match_args(&cli.m).unwrap_or_else(|e| panic!("{e:#}"));
    let mut out = Vec::new();
    let summary = run_match(config, &mut out).unwrap_or_else(|e| panic!("{e:#}"));
    (summary, String::from_utf8(out).unwrap())
}

fn args(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Two engines A (first) and B with the given brain options, plus more arguments.
fn ab(a: &str, b: &str, more: &[&str]) -> Vec<String> {
    let mut v = args(&[
        "--engine",
        &brain(&format!("--name A {a}")),
        "--engine",
        &brain(&format!("--name B {b}")),
    ]);
    v.extend(args(more));
    v
}

#[test]
fn fives_log_lines_and_report() {
    let (s, out) = run(&ab("", "", &["--games", "2", "--tc", "2000/30000"]));
    assert_eq!(s.games, 2);
    let r: Vec<_> = s
        .reports
        .iter()
        .map(|r| (r.record.result, r.record.reason))
        .collect();
    assert_eq!(r, vec![(GameResult::BlackWin, ResultReason::Five); 2]);
    assert!(
        out.contains("[1/2] Finished game 1 (A vs B): 1-0 {Black win by five connection}"),
        "{out}"
    );
    assert!(
        out.contains("[2/2] Finished game 2 (B vs A): 1-0 {Black win by five connection}"),
        "{out}"
    );
    assert!(
        out.contains("Score of A vs B: 1 - 1 - 0  [0.500] 2 games"),
        "{out}"
    );
    assert!(
        out.contains("Pentanomial [0, 0.5, 1, 1.5, 2]: [0, 0, 1, 0, 0] over 1 opening pairs"),
        "{out}"
    );
    assert!(
        out.contains("Results by reason: A: five 1, B: five 1"),
        "{out}"
    );
    assert!(out.contains("manager overhead per move"), "{out}");
    assert!(s.overhead.moves > 10);
}

/// X and O cells of a 5x5 board filled without five in a row anywhere.
const X5: &str = "0,0 1,0 4,0 2,1 3,1 0,2 1,2 4,2 2,3 3,3 0,4 1,4 4,4";
const O5: &str = "2,0 3,0 0,1 1,1 4,1 2,2 3,2 0,3 1,3 4,3 2,4 3,4";

#[test]
fn full_board_and_draw_after() {
    let a = format!("--moves '{X5}'");
    let b = format!("--moves '{O5}'");
    let (s, _) = run(&ab(&a, &b, &["--games", "1", "--size", "5"]));
    let rec = &s.reports[0].record;
    assert_eq!(
        (rec.result, rec.reason),
        (GameResult::Draw, ResultReason::BoardFull)
    );
    assert_eq!(rec.moves.len(), 25);
    let (s, _) = run(&ab(
        &a,
        &b,
        &["--games", "1", "--size", "5", "--draw-after", "10"],
    ));
    let rec = &s.reports[0].record;
    assert_eq!(
        (rec.result, rec.reason),
        (GameResult::Draw, ResultReason::DrawAfter(10))
    );
    assert_eq!(rec.moves.len(), 10);
}

#[test]
fn illegal_moves_lose() {
    for (action, kind) in [
        ("occupied", IllegalKind::Occupied),
        ("offboard", IllegalKind::OffBoard),
        ("garbage", IllegalKind::Unparseable),
    ] {
        let (s, out) = run(&ab("", &format!("--at 2 {action}"), &["--games", "1"]));
        let rec = &s.reports[0].record;
        assert_eq!(
            (rec.result, rec.reason),
            (GameResult::BlackWin, ResultReason::IllegalMove(kind)),
            "{action}: {out}"
        );
        assert_eq!(
            rec.moves.len(),
            3,
            "{action}: the illegal move is not recorded"
        );
    }
    // Lenient (GomocupJudge / c-gomoku-cli): the garbage line is skipped and the silent
    // brain loses on time instead.
    let (s, _) = run(&ab(
        "",
        "--at 2 garbage",
        &[
            "--games",
            "1",
            "--lenient",
            "--tc",
            "300",
            "--tolerance",
            "300",
        ],
    ));
    assert_eq!(s.reports[0].record.reason, ResultReason::Timeout);
}

#[test]
fn renju_foul_loses() {
    let dir = scratch("foul");
    let file = dir.join("foul.txt");
    // Black h8 i8 j9 j10, white far away; black to move; j8 (9,7) makes a double three.
    std::fs::write(&file, "h8a1i8c1j9e1j10o15\n").unwrap();
    let (s, out) = run(&ab(
        "--moves 9,7",
        "",
        &[
            "--games",
            "1",
            "--rule",
            "4",
            "--openings",
            file.to_str().unwrap(),
        ],
    ));
    let rec = &s.reports[0].record;
    assert_eq!(
        (rec.result, rec.reason),
        (GameResult::WhiteWin, ResultReason::Foul),
        "{out}"
    );
    assert_eq!(rec.moves.last(), Some(&(9, 7)));
    // The same move is fine in freestyle.
    let (s, _) = run(&ab(
        "--moves 9,7",
        "",
        &[
            "--games",
            "1",
            "--rule",
            "0",
            "--openings",
            file.to_str().unwrap(),
        ],
    ));
    assert_ne!(s.reports[0].record.reason, ResultReason::Foul);
}

#[test]
fn hung_engine_is_killed_in_the_last_games_too() {
    // Both games are the last ones of the run (concurrency 2): c-gomoku-cli would hang here.
    let t0 = Instant::now();
    let (s, out) = run(&ab(
        "",
        "--at 1 hang",
        &[
            "--games",
            "2",
            "--concurrency",
            "2",
            "--tc",
            "300",
            "--tolerance",
            "300",
        ],
    ));
    let took = t0.elapsed();
    assert_eq!(s.games, 2);
    for r in &s.reports {
        assert_eq!(r.record.reason, ResultReason::Timeout, "{out}");
    }
    assert_eq!(s.pairs[0].tri.wins, 2, "A wins both: {out}");
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

#[test]
fn slow_replies_and_the_match_clock() {
    // Beyond turn + tolerance: killed, lost on time.
    let (s, _) = run(&ab(
        "",
        "--at 1 sleep 3",
        &["--games", "1", "--tc", "300", "--tolerance", "300"],
    ));
    assert_eq!(s.reports[0].record.reason, ResultReason::Timeout);
    assert_eq!(s.reports[0].record.result, GameResult::BlackWin);
    // Late but within the tolerance: accepted, the time is recorded.
    let (s, out) = run(&ab(
        "",
        "--at 1 sleep 0.5",
        &["--games", "1", "--tc", "200", "--tolerance", "3000"],
    ));
    let rec = &s.reports[0].record;
    assert_eq!(rec.reason, ResultReason::Five, "{out}");
    assert!(rec.move_times_ms[1] >= 500, "{:?}", rec.move_times_ms);
    // The match clock: 0.4 s per move against 1.5 s for the game, no turn limit.
    let (s, out) = run(&ab(
        "",
        "--every-sleep 0.4",
        &["--games", "1", "--tc", "0/1500", "--tolerance", "200"],
    ));
    let rec = &s.reports[0].record;
    assert_eq!(
        (rec.result, rec.reason),
        (GameResult::BlackWin, ResultReason::Timeout),
        "{out}"
    );
    let b_moves = rec.moves.len() / 2;
    assert!((3..=5).contains(&b_moves), "B made {b_moves} moves: {out}");
    // No OK to START: lost on time at START.
    let (s, out) = run(&ab(
        "",
        "--at 1 no-ok",
        &["--games", "1", "--tc", "300/5000", "--tolerance", "300"],
    ));
    assert_eq!(s.reports[0].record.reason, ResultReason::Timeout, "{out}");
    assert!(
        s.reports[0]
            .detail
            .as_deref()
            .unwrap_or("")
            .contains("START"),
        "{out}"
    );
}

#[test]
fn crashes_and_restarts() {
    for action in ["crash", "kill"] {
        let (s, out) = run(&ab("", &format!("--at 2 {action}"), &["--games", "2"]));
        assert_eq!(s.games, 2);
        for r in &s.reports {
            assert_eq!(r.record.reason, ResultReason::Crash, "{action}: {out}");
        }
        // Game 1: A, B, A, then B dies. Game 2 (B black): the restarted B moves, A, then B
        // dies again.
        assert_eq!(s.reports[0].record.moves.len(), 3, "{action}: {out}");
        assert_eq!(s.reports[1].record.moves.len(), 2, "{action}: {out}");
        assert_eq!(s.pairs[0].tri.wins, 2);
    }
    // Crash once: the restarted process plays the next game normally.
    let dir = scratch("once");
    let once = dir.join("crashed");
    let (s, out) = run(&ab(
        "",
        &format!("--at 2 crash --once {}", once.display()),
        &["--games", "2"],
    ));
    assert_eq!(s.reports[0].record.reason, ResultReason::Crash, "{out}");
    assert_eq!(s.reports[1].record.reason, ResultReason::Five, "{out}");
    // --no-restart stops the run after the first failure.
    let (s, out) = run(&ab("", "--at 2 crash", &["--games", "4", "--no-restart"]));
    assert_eq!(s.games, 1, "{out}");
    assert!(s.stopped.is_some());
    assert!(out.contains("Stopped after 1 of 4 games"), "{out}");
}

#[test]
fn protocol_as_real_managers_send_it() {
    let dir = scratch("protocol");
    let log = dir.join("a.log");
    let openings = dir.join("o.txt");
    std::fs::write(&openings, "0,0, 1,0, 1,3\n").unwrap();
    let (s, out) = run(&ab(
        &format!("--log {}", log.display()),
        "",
        &[
            "--games",
            "2",
            "--tc",
            "1000/20000",
            "--openings",
            openings.to_str().unwrap(),
            "--info",
            "1:hash_size=1024",
            "--info",
            "2:other=1",
        ],
    ));
    assert_eq!(s.games, 2, "{out}");
    assert_eq!(s.reports[0].record.moves[..3], [(7, 7), (8, 7), (8, 10)]);
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Probe process: ABOUT only; then the playing process: ABOUT, START and the INFO set.
    assert_eq!(lines[0], "ABOUT");
    let start = lines.iter().position(|l| l.starts_with("START")).unwrap();
    assert_eq!(
        lines[start - 1..start + 7],
        [
            "ABOUT",
            "START 15",
            "INFO timeout_turn 1000",
            "INFO timeout_match 20000",
            "INFO max_memory 367001600",
            "INFO game_type 1",
            "INFO rule 0",
            "INFO hash_size 1024",
        ]
    );
    // START's time is charged to the match clock (Piskvork), so at most 20000 is left.
    let left: i64 = lines[start + 7]
        .strip_prefix("INFO time_left ")
        .unwrap()
        .parse()
        .unwrap();
    assert!((15000..=20000).contains(&left), "{left}");
    assert!(!text.contains("other"), "engine 2's INFO went to engine 1");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("START")).count(),
        2,
        "START each game, same process"
    );
    assert_eq!(
        lines.iter().filter(|l| **l == "BOARD").count(),
        2,
        "one BOARD per game"
    );
    for (i, l) in lines.iter().enumerate() {
        if *l == "BOARD" || l.starts_with("TURN") || *l == "BEGIN" {
            assert!(
                lines[i - 1].starts_with("INFO time_left "),
                "line {i} `{l}` without time_left before"
            );
        }
    }
    // Game 1: A is black, the opening has 3 stones, so B moves first and A's first command is a
    // BOARD with 4 stones in playing order, its own stones marked 1.
    let board = lines.iter().position(|l| *l == "BOARD").unwrap();
    assert_eq!(lines[board + 1..board + 4], ["7,7,1", "8,7,2", "8,10,1"]);
    assert!(lines[board + 4].ends_with(",2"));
    assert_eq!(lines[board + 5], "DONE");
    assert!(lines[board + 7].starts_with("TURN "));
}

#[test]
fn pos_and_corpus_openings_with_both_colours() {
    let dir = scratch("openings");
    let pos = dir.join("pos.txt");
    std::fs::write(&pos, "h8i9j10\nb2c3\n").unwrap();
    let (s, out) = run(&ab(
        "",
        "",
        &["--games", "4", "--openings", pos.to_str().unwrap()],
    ));
    let starts: Vec<_> = s
        .reports
        .iter()
        .map(|r| (r.record.black.clone(), r.record.moves[..2].to_vec()))
        .collect();
    assert_eq!(starts[0], ("A".to_string(), vec![(7, 7), (8, 8)]), "{out}");
    assert_eq!(starts[1], ("B".to_string(), vec![(7, 7), (8, 8)]));
    assert_eq!(starts[2], ("A".to_string(), vec![(1, 1), (2, 2)]));
    assert_eq!(starts[3], ("B".to_string(), vec![(1, 1), (2, 2)]));
    assert_eq!(s.reports[0].record.opening_len, 3);
    let corpus = dir.join("corpus.txt");
    std::fs::write(
        &corpus,
        "# a corpus line\nop-1 rule=freestyle size=15 moves=h8,i9\n",
    )
    .unwrap();
    let (s, _) = run(&ab(
        "",
        "",
        &["--games", "2", "--openings", corpus.to_str().unwrap()],
    ));
    assert_eq!(s.reports[0].record.moves[..2], [(7, 7), (8, 6)]);
    // A bad opening file is refused before any game.
    std::fs::write(&pos, "h8h8\n").unwrap();
    let cli = Cli::try_parse_from([
        "m",
        "--engine",
        "a",
        "--engine",
        "b",
        "--openings",
        pos.to_str().unwrap(),
    ])
    .unwrap();
    assert!(MatchConfig::from_match_args(&cli.m).is_err());
}

#[test]
fn sprt_stops_when_h1_is_accepted() {
    // B plays off the board in 3 games of 4: opening pairs alternate 2 and 1 points for A.
    // Pentanomial LLR (elo0 0, elo1 100): 2.42 after 6 pairs, 3.46 after 7 > 2.944.
    let (s, out) = run(&ab(
        "",
        "--at 1 offboard --skip-every 4",
        &["--games", "200", "--sprt", "0,100"],
    ));
    assert_eq!(s.sprt, Some(SprtDecision::AcceptH1), "{out}");
    assert_eq!(s.games, 14, "{out}");
    assert!(out.contains("SPRT: LLR = 3.45"), "{out}");
    assert!(out.contains("H1 accepted"), "{out}");
    assert!(
        out.contains("Stopped after 14 of 200 games: SPRT: H1 accepted"),
        "{out}"
    );
}

#[test]
fn round_robin_and_gauntlet() {
    let mut v = ab("", "", &["--games", "2"]);
    v.extend(args(&["--engine", &brain("--name C")]));
    let (s, _) = run(&v);
    assert_eq!(s.games, 6);
    let names: Vec<_> = s
        .pairs
        .iter()
        .map(|p| (p.first.as_str(), p.second.as_str()))
        .collect();
    assert_eq!(names, vec![("A", "B"), ("A", "C"), ("B", "C")]);
    v.push("--gauntlet".into());
    let (s, _) = run(&v);
    assert_eq!(s.games, 4);
    assert_eq!(s.pairs.len(), 2);
}

#[test]
fn command_line_and_output_files() {
    let dir = scratch("cli");
    let sgf = dir.join("g.sgf");
    let pgn = dir.join("g.pgn");
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .args([
            "match",
            "--engine",
            &brain("--name A"),
            "--engine",
            &brain("--name B"),
            "--games",
            "2",
        ])
        .args([
            "--sgf",
            sgf.to_str().unwrap(),
            "--pgn",
            pgn.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("Score of A vs B: 1 - 1 - 0"), "{stdout}");
    assert!(
        stderr.contains("[2/2] A vs B 1-1-0"),
        "progress line on stderr: {stderr}"
    );
    let sgf = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(sgf.matches("(;FF[4]GM[4]").count(), 2);
    assert!(
        sgf.contains("PB[A]PW[B]RE[B+1]TE[Black win by five connection]"),
        "{sgf}"
    );
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        pgn.contains("[White \"B\"]\n[Black \"A\"]\n[Result \"0-1\"]"),
        "{pgn}"
    );
    let bad = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .args([
            "match",
            "--engine",
            "/nonexistent/brain",
            "--engine",
            &brain(""),
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&bad.stdout),
        String::from_utf8_lossy(&bad.stderr)
    );
    assert!(said.contains("/nonexistent/brain"), "{said}");
}

#[test]
fn show_prints_the_board_as_the_game_goes() {
    let a = format!("--moves '{X5}'");
    let b = format!("--moves '{O5}'");
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .args(["match", "--quiet", "--show", "--size", "5", "--games", "1"])
        .args([
            "--engine",
            &brain(&format!("--name A {a}")),
            "--engine",
            &brain(&format!("--name B {b}")),
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("game 1: A (X) vs B (O)"), "{stdout}");
    // Moves in renju notation (column letter, row from the bottom) beside their wire form.
    assert!(stdout.contains("move 1: X a5 (0,0)"), "{stdout}");
    assert!(stdout.contains("move 25: X e1 (4,4)"), "{stdout}");
    // The last picture: the full board, the last stone in lower case.
    assert!(stdout.contains("  1 X X O O x 1\n"), "{stdout}");
    assert_eq!(
        stdout.matches("    a b c d e\n").count(),
        2 * 26,
        "{stdout}"
    );
}

/// Our own binary as a brain, with arguments.
fn tianyuan(args: &str) -> String {
    format!("'{}' {args}", env!("CARGO_BIN_EXE_pbrain-tianyuan"))
}

#[test]
fn full_match_between_two_weak_random_tianyuans() {
    for rule in ["0", "4", "9"] {
        let v = args(&[
            "--engine",
            &tianyuan("--weak random --seed 1"),
            "--engine",
            &tianyuan("--weak random --seed 2"),
            "--rule",
            rule,
            "--games",
            "6",
            "--concurrency",
            "2",
            "--tc",
            "2000/60000",
            "--random-openings",
            "2",
            "--seed",
            "5",
        ]);
        let (s, out) = run(&v);
        assert_eq!(s.games, 6, "{out}");
        assert_eq!(
            s.names,
            vec!["Tianyuan#1", "Tianyuan#2"],
            "ABOUT names, made unique"
        );
        let t = s.pairs[0].tri;
        assert_eq!(t.wins + t.losses + t.draws, 6);
        for r in &s.reports {
            assert!(
                matches!(
                    r.record.reason,
                    ResultReason::Five
                        | ResultReason::Foul
                        | ResultReason::BoardFull
                        | ResultReason::DrawAfter(_)
                ),
                "rule {rule}: a sound brain lost by {:?}: {out}",
                r.record.reason
            );
            assert!(r.failure.is_none());
        }
        if rule == "4" {
            assert!(
                s.reports.iter().all(|r| r.record.moves.len() <= 200),
                "renju: draw at 200 stones"
            );
        }
    }
}

#[test]
fn selfplay_shows_a_game() {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .args([
            "selfplay",
            "--args",
            "--weak random --seed 3",
            "--baseline-args",
            "--weak random --seed 4",
        ])
        .args(["--games", "2", "--show", "--quiet", "--tc", "2000/60000"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("game 1: tianyuan-1 (X) vs tianyuan-2 (O)"),
        "{stdout}"
    );
    assert!(stdout.contains("move 1: X "), "{stdout}");
    assert!(
        stdout.contains("Score of tianyuan-1 vs tianyuan-2: "),
        "{stdout}"
    );
    assert!(
        stdout.contains("[2/2] Finished game 2 (tianyuan-2 vs tianyuan-1)"),
        "{stdout}"
    );
}

/// The tuner plays real games between the engine with its constants moved up and down, one
/// line per iteration, and ends with the tuned constants as `--search-param` takes them; a
/// brain given an unknown or out-of-range constant refuses to start.
#[test]
fn spsa_plays_both_sides_and_prints_the_tuned_constants() {
    let exe = env!("CARGO_BIN_EXE_pbrain-tianyuan");
    let out = Command::new(exe)
        .args(["spsa", "--tune", "rfp_margin,lmp_base", "--iterations", "2"])
        .args([
            "--pairs", "1", "--nodes", "300", "--size", "9", "--tc", "5000/0",
        ])
        .args(["--random-openings", "3", "--seed", "5"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    // The tuner starts from the game's own set (freestyle's on 9×9 here).
    let set = Tunables::for_game(Rule::Freestyle, 9);
    assert!(
        stdout.contains(&format!(
            "start rfp_margin={},lmp_base={}",
            set.rfp_margin, set.lmp_base
        )),
        "{stdout}"
    );
    for k in 1..=2 {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("iter {k} plus ")))
            .unwrap_or_else(|| panic!("no iteration {k}: {stdout}"));
        let total = line
            .split(" total ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let games: u64 = total.split('-').map(|n| n.parse::<u64>().unwrap()).sum();
        assert_eq!(games, 2 * k, "{line}");
    }
    assert!(
        stdout.contains("final --search-param rfp_margin="),
        "{stdout}"
    );
    let list = Command::new(exe).args(["spsa", "--list"]).output().unwrap();
    let listed = String::from_utf8_lossy(&list.stdout);
    assert!(listed.contains("lmr_divisor 180 100 500 15"), "{listed}");
    for bad in ["nosuch=1", "rfp_margin=100000"] {
        let refused = Command::new(exe)
            .args(["--search-param", bad])
            .output()
            .unwrap();
        assert_eq!(refused.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&refused.stdout).starts_with("error: "));
    }
}

#[test]
fn swap2_openings_between_two_real_brains() {
    let exe = env!("CARGO_BIN_EXE_pbrain-tianyuan");
    let (summary, text) = run(&args(&[
        "--engine", exe, "--engine", exe, "--rule", "1", "--tc", "100/0", "--games", "2",
        "--swap2", "--seed", "4",
    ]));
    assert_eq!(summary.games, 2, "{text}");
    // Decided on the board: the opening answers were all understood and legal.
    for reason in ["illegal", "crash", "time", "unparseable"] {
        assert!(!text.contains(reason), "{reason}: {text}");
    }
    // Both forms of the rows are accepted by our brain.
    let (summary, text) = run(&args(&[
        "--engine",
        exe,
        "--engine",
        exe,
        "--rule",
        "1",
        "--tc",
        "100/0",
        "--games",
        "2",
        "--swap2",
        "--swap2-fields",
    ]));
    assert_eq!(summary.games, 2, "{text}");
    assert!(
        !text.contains("illegal") && !text.contains("crash"),
        "{text}"
    );
    // Swap2 plays its own openings.
    let cli = Cli::try_parse_from(args(&[
        "match",
        "--engine",
        exe,
        "--engine",
        exe,
        "--swap2",
        "--random-openings",
        "3",
    ]))
    .unwrap();
    assert!(MatchConfig::from_match_args(&cli.m).is_err());
}
