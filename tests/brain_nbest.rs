//! Yixin-Board's analysis commands: `YXNBEST n` (multi-PV: the n best root moves, each with its
//! value and line, then the best move), `YXBLOCK` / `YXBLOCKUNDO` / `YXBLOCKRESET` (moves kept
//! out of the search) and, with `INFO show_detail` ≥ 2, the raw `INFO PV …` lines and
//! `MESSAGE REALTIME BEST` the GUI draws on the board.

mod common;

use common::{secs, strict_move, Brain};

/// A new game whose position is black's open three h8-i8-j8 (x 7..9, y 7) against three
/// white stones far away: the two open-four points 6,7 and 10,7 win.
fn open_three(b: &mut Brain) {
    new_game(b);
    set_open_three(b);
}

/// `START 15` with a one-second turn and no match clock.
fn new_game(b: &mut Brain) {
    b.send("START 15");
    assert_eq!(b.expect(secs(5)), "OK");
    b.send_all(&["INFO timeout_turn 1000", "INFO time_left 2147483647"]);
}

/// The open-three position again (Yixin-Board sends the position before every analysis: the
/// engine's answer to the last one was played on its board).
fn set_open_three(b: &mut Brain) {
    b.send_all(&[
        "YXBOARD", "7,7,1", "0,0,2", "8,7,1", "0,2,2", "9,7,1", "0,4,2", "DONE",
    ]);
}

/// Every raw line up to and including the move.
fn lines_until_move(b: &mut Brain) -> Vec<String> {
    let mut out = Vec::new();
    loop {
        let line = b.raw_line(secs(5)).expect("a line").text;
        let done = strict_move(&line).is_some();
        out.push(line);
        if done {
            return out;
        }
    }
}

#[test]
fn nbest_reports_each_line_then_moves() {
    let mut b = Brain::start(&[]);
    open_three(&mut b);
    b.send("YXNBEST 3");
    let lines = lines_until_move(&mut b);
    let mv = strict_move(lines.last().unwrap()).unwrap();
    assert!(mv == (6, 7) || mv == (10, 7), "{mv:?}");
    // The last completed iteration's three lines, numbered, each with its own first move.
    let numbered: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("MESSAGE depth ") && l.contains(" multipv "))
        .collect();
    assert!(numbered.len() >= 3, "{lines:?}");
    let last3 = &numbered[numbered.len() - 3..];
    for (k, l) in last3.iter().enumerate() {
        assert!(l.contains(&format!(" multipv {} ", k + 1)), "{l}");
    }
    // Nothing raw without show_detail.
    assert!(lines.iter().all(|l| !l.starts_with("INFO ")), "{lines:?}");
    // The next plain search reports one line again.
    b.send("YXBOARD");
    b.send("DONE");
    b.send("BEGIN");
    let lines = lines_until_move(&mut b);
    assert!(lines.iter().all(|l| !l.contains(" multipv ")), "{lines:?}");
    b.finish();
}

#[test]
fn blocked_moves_are_not_played_until_undone() {
    let mut b = Brain::start(&[]);
    open_three(&mut b);
    b.send_all(&["YXBLOCK", "6,7", "DONE"]);
    b.send("YXNBEST 1");
    assert_eq!(b.expect_move(secs(5)), (10, 7));
    // Both open-four points blocked: another move.
    set_open_three(&mut b);
    b.send_all(&["YXBLOCK", "10,7", "DONE", "YXNBEST 1"]);
    let mv = b.expect_move(secs(5));
    assert!(mv != (6, 7) && mv != (10, 7), "{mv:?}");
    set_open_three(&mut b);
    b.send_all(&["YXBLOCKUNDO", "6,7", "DONE", "YXNBEST 1"]);
    assert_eq!(b.expect_move(secs(5)), (6, 7));
    set_open_three(&mut b);
    b.send_all(&["YXBLOCKRESET", "YXNBEST 2"]);
    let mv = b.expect_move(secs(5));
    assert!(mv == (6, 7) || mv == (10, 7), "{mv:?}");
    b.finish();
}

#[test]
fn show_detail_adds_the_guis_analysis_lines() {
    let mut b = Brain::start(&[]);
    b.send("INFO show_detail 3");
    open_three(&mut b);
    b.send("YXNBEST 2");
    let lines = lines_until_move(&mut b);
    let mv = strict_move(lines.last().unwrap()).unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l == &format!("MESSAGE REALTIME BEST {},{}", mv.0, mv.1)),
        "{lines:?}"
    );
    // Each PV: INFO PV k … INFO PV DONE, with a BESTLINE starting with a move and a win rate.
    let done = lines.iter().filter(|l| *l == "INFO PV DONE").count();
    assert!(done >= 2, "{lines:?}");
    for l in lines.iter().filter(|l| l.starts_with("INFO ")) {
        // Never an INFO line without a value (the GUI crashes on one).
        assert!(l.split(' ').count() >= 3, "{l}");
    }
    let rates: Vec<f64> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("INFO WINRATE "))
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(rates.iter().all(|r| (0.0..=1.0).contains(r)), "{rates:?}");
    assert!(lines.iter().any(|l| l
        .strip_prefix("INFO BESTLINE ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(strict_move)
        .is_some()));
    b.finish();
}

#[test]
fn realtime_marks_follow_the_root_search() {
    let mut b = Brain::start(&[]);
    b.send("INFO show_detail 3");
    new_game(&mut b);
    // A quiet middle game position: the search runs its whole second.
    b.send_all(&[
        "YXBOARD", "7,7,1", "8,8,2", "8,7,1", "6,7,2", "7,9,1", "9,9,2", "DONE",
    ]);
    b.send("YXNBEST 1");
    let lines = lines_until_move(&mut b);
    let marks: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("MESSAGE REALTIME "))
        .collect();
    // Live root marks after the quiet start: each DONE follows its own POS.
    let pos: Vec<&String> = marks
        .iter()
        .filter(|l| l.starts_with("MESSAGE REALTIME POS "))
        .copied()
        .collect();
    assert!(!pos.is_empty(), "{lines:?}");
    let mut open: Option<String> = None;
    for l in &marks {
        if let Some(at) = l.strip_prefix("MESSAGE REALTIME POS ") {
            open = Some(at.to_owned());
        } else if let Some(at) = l.strip_prefix("MESSAGE REALTIME DONE ") {
            assert_eq!(open.take().as_deref(), Some(at), "{marks:?}");
        }
    }
    // Rate-limited: at most one POS per 25 ms of a one-second search.
    assert!(pos.len() <= 1000 / 25 + 1, "{} POS lines", pos.len());
    // Each completed iteration clears the marks and shows its best move.
    let refresh = lines
        .iter()
        .position(|l| l == "MESSAGE REALTIME REFRESH")
        .expect("REFRESH");
    assert!(lines[refresh + 1].starts_with("MESSAGE REALTIME BEST "));
    // None of it without show_detail.
    b.send("INFO show_detail 0");
    set_open_three(&mut b);
    b.send("YXNBEST 1");
    let lines = lines_until_move(&mut b);
    assert!(lines.iter().all(|l| !l.contains("REALTIME")), "{lines:?}");
    b.finish();
}

/// Yixin-Board's Defend button: `yxsearchdefend` after the position. Against an open three the
/// defences are the four cells that stop it (and the attacker's own fours, none here): each
/// gets a line, then one of them is played.
#[test]
fn search_defend_lists_the_defences_then_moves() {
    let mut b = Brain::start(&[]);
    new_game(&mut b);
    // White (the brain, to move) faces black's open three h8-i8-j8 with a stone of its own far
    // away: f8 (5,7), g8 (6,7), k8 (10,7) and l8 (11,7) are the defences of an open three.
    b.send_all(&[
        "YXBOARD",
        "7,7,2",
        "0,0,1",
        "8,7,2",
        "0,2,1",
        "9,7,2",
        "DONE",
        "yxsearchdefend",
    ]);
    let lines = lines_until_move(&mut b);
    let mv = strict_move(lines.last().unwrap()).unwrap();
    let defences = [(5, 7), (6, 7), (10, 7), (11, 7)];
    assert!(defences.contains(&mv), "{mv:?} {lines:?}");
    let numbered = lines.iter().filter(|l| l.contains(" multipv ")).count();
    assert!(numbered >= 2, "{lines:?}");
    b.finish();
}

/// Yixin-Board asks its opening database at every position (`yxquerydatabaseallt`, stones,
/// `done`), even while the engine thinks: the answers of an empty database, nothing else.
#[test]
fn database_queries_get_empty_answers() {
    let mut b = Brain::start(&[]);
    new_game(&mut b);
    b.send_all(&["yxquerydatabaseallt", "7,7", "8,8", "done"]);
    for want in [
        "MESSAGE DATABASE REFRESH",
        "MESSAGE DATABASE DONE",
        "MESSAGE DATABASE TEXT \"\"",
    ] {
        assert_eq!(b.raw_line(secs(2)).expect("a line").text, want);
    }
    b.send_all(&["yxquerydatabaseone", "7,7", "done"]);
    assert_eq!(
        b.raw_line(secs(2)).expect("a line").text,
        "MESSAGE DATABASE ONE 0 0 0 0"
    );
    b.send_all(&["yxquerydatabasetext", "done"]);
    assert_eq!(
        b.raw_line(secs(2)).expect("a line").text,
        "MESSAGE DATABASE TEXT \"\""
    );
    b.send_all(&["yxquerydatabaseall", "done"]);
    assert_eq!(
        b.raw_line(secs(2)).unwrap().text,
        "MESSAGE DATABASE REFRESH"
    );
    assert_eq!(b.raw_line(secs(2)).unwrap().text, "MESSAGE DATABASE DONE");
    // Sent while the engine thinks: the move first, then the answers, and no UNKNOWN anywhere.
    b.send_all(&[
        "INFO timeout_turn 300",
        "BEGIN",
        "yxquerydatabaseallt",
        "7,7",
        "done",
    ]);
    let mut lines = Vec::new();
    while lines.len() < 8 {
        match b.raw_line(secs(2)) {
            Some(r) => lines.push(r.text),
            None => break,
        }
        if lines
            .last()
            .is_some_and(|l| l.starts_with("MESSAGE DATABASE TEXT"))
        {
            break;
        }
    }
    assert!(
        lines
            .iter()
            .all(|l| !l.starts_with("UNKNOWN") && !l.starts_with("ERROR")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| strict_move(l).is_some()), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "MESSAGE DATABASE TEXT \"\"");
    b.finish();
}
