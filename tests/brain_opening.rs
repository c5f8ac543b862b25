//! The opening protocols, driven through the real binary: Gomocup's `SWAP2BOARD` (ref §3.12),
//! swap after three (`SWAPBOARD`), Yixin-Board's Swap2 and Soosorv-8 flows (`yxswap2step1..3`,
//! `yxsoosorvstep1..6`, replies as the GUI parses them), the balance commands, and pondering
//! (`INFO pondering 1`: thinking on the opponent's time, never a line while doing so).

mod common;

use common::{ms, secs, strict_move, Brain};

/// `START 15` with a 400 ms turn and no match clock, under `rule`.
fn new_game(rule: u32) -> Brain {
    let mut b = Brain::start(&[]);
    b.send("START 15");
    assert_eq!(b.expect(secs(5)), "OK");
    b.send_all(&[
        "INFO timeout_turn 400",
        "INFO time_left 2147483647",
        &format!("INFO rule {rule}"),
    ]);
    b
}

/// Every raw line (MESSAGE included) until one satisfies `last`.
fn lines_until(b: &mut Brain, last: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    loop {
        let line = b.raw_line(secs(5)).expect("a line").text;
        let done = last(&line);
        out.push(line);
        if done {
            return out;
        }
    }
}

/// The lines of a Yixin opening reply that start with `prefix` (the GUI's branches), in order,
/// up to and including the first line that satisfies `last`. Other MESSAGE lines (the
/// decision's summary) may come before; nothing else may.
fn yixin_reply(b: &mut Brain, prefix: &str, last: impl Fn(&str) -> bool) -> Vec<String> {
    let lines = lines_until(b, last);
    let mut ours = Vec::new();
    for l in lines {
        if l.starts_with(prefix) {
            ours.push(l);
        } else {
            assert!(l.starts_with("MESSAGE opening: "), "unexpected line {l:?}");
        }
    }
    ours
}

/// `x y` after `MESSAGE … MOVEk ` (Yixin's space-separated coordinates).
fn spaced_move(line: &str, tag: &str) -> (i32, i32) {
    let rest = line
        .strip_prefix(tag)
        .unwrap_or_else(|| panic!("{line:?} should start with {tag:?}"));
    let v: Vec<i32> = rest
        .split(' ')
        .map(|t| t.parse().expect("a number"))
        .collect();
    assert_eq!(v.len(), 2, "{line:?}");
    (v[0], v[1])
}

/// Yixin-Board's way of setting a position: `start 15`, `kind` (`yxboard` or `board`), the
/// rows, `done`, then `then` (a step command, or nothing); the `OK` of the `start` is read.
fn gui_position(b: &mut Brain, kind: &str, rows: &[&str], then: &[&str]) {
    b.send_all(&["start 15", kind]);
    b.send_all(rows);
    b.send("done");
    b.send_all(then);
    assert_eq!(b.expect(secs(5)), "OK");
}

/// A Soosorv step with its stones, and the first `MESSAGE SOOSORV …` line of the reply.
fn soosorv_step(b: &mut Brain, step: &str, stones: &[&str]) -> Vec<String> {
    b.send(step);
    b.send_all(stones);
    b.send("done");
    yixin_reply(b, "MESSAGE SOOSORV ", |l| l.starts_with("MESSAGE SOOSORV "))
}

fn moves_line(line: &str) -> Vec<(i32, i32)> {
    line.split(' ')
        .map(|m| strict_move(m).unwrap_or_else(|| panic!("x,y expected in {line:?}")))
        .collect()
}

#[test]
fn swap2board_decides_by_search() {
    let mut b = new_game(1);
    // Black's connected pair against a white stone in the corner: white to move is worse, so
    // the second player takes black.
    b.send_all(&["SWAP2BOARD", "7,7", "0,0", "8,7", "DONE"]);
    assert_eq!(b.expect(secs(5)), "SWAP");
    // Five stones with white's connected pair and black's stones in three corners: white to
    // move is better, so the chooser stays white and plays.
    b.send_all(&["SWAP2BOARD", "0,0", "7,7", "0,14", "8,7", "14,0", "DONE"]);
    let m = b.expect_move(secs(5));
    assert!(
        ![(0, 0), (7, 7), (0, 14), (8, 7), (14, 0)].contains(&m),
        "{m:?}"
    );
    // Swap after three: the same choice without the two-stone option.
    b.send_all(&["SWAPBOARD", "7,7", "0,0", "8,7", "DONE"]);
    assert_eq!(b.expect(secs(5)), "SWAP");
    b.send_all(&["SWAPBOARD", "DONE"]);
    let stones = moves_line(&b.expect(secs(5)));
    assert_eq!(stones.len(), 3);
    assert_eq!(stones[0], (7, 7), "black's first stone in the centre");
    b.send_all(&["SWAPBOARD", "7,7", "8,7", "DONE"]);
    assert!(b.expect(secs(2)).starts_with("ERROR SWAPBOARD"));
    b.finish();
}

#[test]
fn yixin_swap2_flow() {
    let mut b = new_game(1);
    // Step 1 (the engine is black, empty board, no START first): three stones.
    b.send("yxswap2step1");
    let lines = yixin_reply(&mut b, "MESSAGE SWAP2 ", |l| {
        l.starts_with("MESSAGE SWAP2 MOVE3")
    });
    assert_eq!(lines.len(), 3, "{lines:?}");
    let stones: Vec<(i32, i32)> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| spaced_move(l, &format!("MESSAGE SWAP2 MOVE{} ", i + 1)))
        .collect();
    assert_eq!(stones[0], (7, 7));
    assert!(stones[1] != stones[2] && stones[2] != stones[0]);
    // Step 2 (the engine is white; YXBOARD: 1 = the side to move, white): black's connected
    // pair against a white corner stone: take black.
    gui_position(
        &mut b,
        "yxboard",
        &["7,7,2", "0,0,1", "8,7,2"],
        &["yxswap2step2"],
    );
    let lines = yixin_reply(&mut b, "MESSAGE SWAP2 ", |l| {
        l.starts_with("MESSAGE SWAP2 ")
    });
    assert_eq!(lines, ["MESSAGE SWAP2 SWAP1 YES"]);
    // Step 2 on the usual opening: one of the three answers, in the GUI's spelling.
    gui_position(
        &mut b,
        "yxboard",
        &["7,7,2", "8,7,1", "9,9,2"],
        &["yxswap2step2"],
    );
    let lines = yixin_reply(&mut b, "MESSAGE SWAP2 ", |l| {
        l.starts_with("MESSAGE SWAP2 SWAP1 ") || l.starts_with("MESSAGE SWAP2 MOVE5 ")
    });
    match lines.as_slice() {
        [one] if one == "MESSAGE SWAP2 SWAP1 YES" || one == "MESSAGE SWAP2 SWAP1 NO" => {}
        [four, five] => {
            let a = spaced_move(four, "MESSAGE SWAP2 MOVE4 ");
            let c = spaced_move(five, "MESSAGE SWAP2 MOVE5 ");
            assert!(a != c && ![(7, 7), (8, 7), (9, 9)].contains(&a));
        }
        other => panic!("{other:?}"),
    }
    // Step 3 (five stones, white to move, the engine chooses): white's pair against black's
    // corner stones: stay white (NO), and the GUI's BOARD then gets a move.
    let five = ["0,0,2", "7,7,1", "0,14,2", "8,7,1", "14,0,2"];
    gui_position(&mut b, "yxboard", &five, &["yxswap2step3"]);
    let lines = yixin_reply(&mut b, "MESSAGE SWAP2 ", |l| {
        l.starts_with("MESSAGE SWAP2 ")
    });
    assert_eq!(lines, ["MESSAGE SWAP2 SWAP2 NO"]);
    gui_position(&mut b, "board", &five, &[]);
    b.expect_move(secs(5));
    // Errors keep the engine working.
    gui_position(&mut b, "yxboard", &["7,7,1"], &["yxswap2step3"]);
    assert!(b.expect(secs(2)).starts_with("ERROR YXSWAP2STEP3"));
    b.finish();
}

#[test]
fn yixin_soosorv_flow() {
    let mut b = new_game(2);
    // Step 1: one of the 26 openings (black h8; white next to it; black within two cells).
    b.send("yxsoosorvstep1");
    let lines = yixin_reply(&mut b, "MESSAGE SOOSORV ", |l| {
        l.starts_with("MESSAGE SOOSORV MOVE3")
    });
    let s: Vec<(i32, i32)> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| spaced_move(l, &format!("MESSAGE SOOSORV MOVE{} ", i + 1)))
        .collect();
    assert_eq!(s[0], (7, 7));
    assert_eq!((s[1].0 - 7).abs().max((s[1].1 - 7).abs()), 1);
    assert!((s[2].0 - 7).abs().max((s[2].1 - 7).abs()) <= 2 && s[2] != s[1]);
    // Step 2: swap or not.
    let three = ["7,7", "8,7", "9,9"];
    let four = ["7,7", "8,7", "9,9", "8,8"];
    let lines = soosorv_step(&mut b, "yxsoosorvstep2", &three);
    assert!(
        lines == ["MESSAGE SOOSORV SWAP1 YES"] || lines == ["MESSAGE SOOSORV SWAP1 NO"],
        "{lines:?}"
    );
    // Step 3: the fourth move and the number of fifth-move offers.
    let lines = soosorv_step(&mut b, "yxsoosorvstep3", &three);
    let v: Vec<i32> = lines[0]
        .strip_prefix("MESSAGE SOOSORV MOVE4 ")
        .expect("MOVE4")
        .split(' ')
        .map(|t| t.parse().expect("number"))
        .collect();
    assert_eq!(v.len(), 3, "{lines:?}");
    assert!(![(7, 7), (8, 7), (9, 9)].contains(&(v[0], v[1])));
    assert!((1..=8).contains(&v[2]));
    // Step 4: keep black or swap, after white asked for 3 offers.
    let lines = soosorv_step(&mut b, "yxsoosorvstep4 3", &four);
    assert!(
        lines == ["MESSAGE SOOSORV SWAP2 YES"] || lines == ["MESSAGE SOOSORV SWAP2 NO"],
        "{lines:?}"
    );
    // Step 5: REFRESH, three distinct offers, DONE (the symmetry filter has its unit test).
    b.send("yxsoosorvstep5 3");
    b.send_all(&four);
    b.send("done");
    let lines = yixin_reply(&mut b, "MESSAGE SOOSORV ", |l| {
        l == "MESSAGE SOOSORV MOVE5 DONE"
    });
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[0], "MESSAGE SOOSORV MOVE5 REFRESH");
    let offers: Vec<(i32, i32)> = lines[1..4]
        .iter()
        .map(|l| spaced_move(l, "MESSAGE SOOSORV MOVE5 "))
        .collect();
    assert!(offers[0] != offers[1] && offers[1] != offers[2] && offers[0] != offers[2]);
    assert!(offers
        .iter()
        .all(|o| ![(7, 7), (8, 7), (9, 9), (8, 8)].contains(o)));
    // Step 6: white picks one of black's offers (MOVE5C, the C glued to MOVE5), then plays
    // the sixth move from the GUI's BOARD.
    let offered = ["7,7", "8,7", "9,9", "8,8", "7,9", "3,3"];
    let lines = soosorv_step(&mut b, "yxsoosorvstep6", &offered);
    let chosen = spaced_move(&lines[0], "MESSAGE SOOSORV MOVE5C ");
    assert!(chosen == (7, 9) || chosen == (3, 3), "{lines:?}");
    // A bad count is an error; the stones that follow are then lines of their own.
    b.send_all(&["yxsoosorvstep5 9", "7,7", "done"]);
    assert!(b.expect(secs(2)).starts_with("ERROR YXSOOSORVSTEP5"));
    assert_eq!(b.expect(secs(2)), "UNKNOWN 7,7");
    b.finish();
}

#[test]
fn balance_moves_are_legal_and_placed() {
    let mut b = new_game(0);
    let two_stones = ["7,7,2", "8,8,1"];
    gui_position(&mut b, "yxboard", &two_stones, &["yxbalanceone 0"]);
    let one = moves_line(&b.expect(secs(5)));
    assert_eq!(one.len(), 1);
    assert!(![(7, 7), (8, 8)].contains(&one[0]));
    // The move is on the engine's board now (the GUI plays it).
    b.send(&format!("TURN {},{}", one[0].0, one[0].1));
    assert!(b.expect(secs(2)).starts_with("ERROR TURN"));
    gui_position(&mut b, "yxboard", &two_stones, &["yxbalancetwo 0"]);
    let two = moves_line(&b.expect(secs(5)));
    assert_eq!(two.len(), 2);
    assert!(two[0] != two[1] && two.iter().all(|m| ![(7, 7), (8, 8)].contains(m)));
    b.finish();
}

/// The process's user and system CPU time in clock ticks (`/proc/<pid>/stat`, 100 per second).
fn cpu_ticks(pid: u32) -> i64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc stat");
    // The fields after the command name (which is in parentheses and may contain spaces).
    let rest = &stat[stat.rfind(')').expect("comm") + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    f[11].parse::<i64>().expect("utime") + f[12].parse::<i64>().expect("stime")
}

#[test]
fn pondering_thinks_silently_and_stops_at_once() {
    let mut b = new_game(0);
    // Without `INFO pondering 1` the engine idles between moves.
    b.send_all(&["board", "7,7,2", "done"]);
    b.expect_move(secs(5));
    std::thread::sleep(ms(100));
    let before = cpu_ticks(b.pid());
    b.expect_quiet(ms(500));
    assert!(cpu_ticks(b.pid()) - before < 10, "busy without pondering");
    b.send("INFO pondering 1");
    b.send_all(&["board", "7,7,2", "done"]);
    let m = b.expect_move(secs(5));
    // Pondering: no line at all, however long the opponent thinks, and the engine works.
    let before = cpu_ticks(b.pid());
    b.expect_quiet(ms(700));
    let used = cpu_ticks(b.pid()) - before;
    assert!(used >= 30, "{used} ticks of CPU in 700 ms: not pondering");
    // An idle-style stop while pondering prints nothing either.
    b.send("yxstop");
    b.expect_quiet(ms(300));
    // The opponent's move: answered within the turn, as without pondering.
    let free = if m == (8, 8) { (6, 6) } else { (8, 8) };
    b.send("INFO pondering 1");
    b.send(&format!("turn {},{}", free.0, free.1));
    let t = std::time::Instant::now();
    b.expect_move(secs(2));
    assert!(t.elapsed() < ms(700), "{:?}", t.elapsed());
    b.expect_quiet(ms(300));
    // A won game leaves nothing to ponder: after our five the engine idles.
    b.send_all(&[
        "start 15", "board", "3,3,1", "10,10,2", "4,3,1", "12,12,2", "5,3,1", "14,14,2", "6,3,1",
        "10,14,2", "done",
    ]);
    assert_eq!(b.expect(secs(5)), "OK");
    let five = b.expect_move(secs(5));
    assert!(five == (2, 3) || five == (7, 3), "{five:?}");
    std::thread::sleep(ms(100));
    let before = cpu_ticks(b.pid());
    b.expect_quiet(ms(500));
    assert!(
        cpu_ticks(b.pid()) - before < 10,
        "pondering a finished game"
    );
    // END while pondering exits at once.
    b.send_all(&["start 15", "board", "7,7,2", "done"]);
    assert_eq!(b.expect(secs(5)), "OK");
    b.expect_move(secs(5));
    b.expect_quiet(ms(200));
    b.send("END");
    assert!(b.wait_exit(secs(2)).is_some(), "still running after END");
}
