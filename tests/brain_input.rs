//! Bad and unusual input through the real binary: every class of malformed or impossible input is
//! answered `ERROR …` / `UNKNOWN …` (never for INFO), leaves the state as it was, and the brain
//! keeps playing correctly afterwards. Also TAKEBACK chains, PLAY, rectangular boards and
//! YXSHOWFORBID. Every test ends with `finish()`: clean exit, no stray reply, empty stderr.

mod common;

use common::{ms, secs, Brain};
use tianyuan::core::notation::parse_pos_string;
use tianyuan::core::{Board, Rule};

fn started(size: u32) -> Brain {
    let mut b = Brain::start(&[]);
    b.send(&format!("START {size}"));
    assert_eq!(b.expect(secs(5)), "OK");
    b.send_all(&["INFO timeout_turn 300", "INFO time_left 2147483647"]);
    b
}

#[test]
fn info_is_never_answered() {
    let mut b = Brain::start(&[]);
    b.send_all(&[
        "INFO rule 77",
        "INFO",
        "INFO time_left -5",
        "INFO time_left 2147483647",
        "INFO max_memory 0",
        "INFO timeout_turn banana",
        "INFO folder C:\\My Documents\\gomoku data",
        "INFO evaluate 3,4",
        "INFO option.hash 128",
        "info Show_Detail 3",
    ]);
    b.send_bytes(b"INFO folder C:\\Dok\xfcmente\n");
    let mut long = b"INFO folder ".to_vec();
    long.extend(std::iter::repeat_n(b'x', 70_000));
    long.push(b'\n');
    b.send_bytes(&long);
    b.expect_quiet(ms(300));
    // Still alive and correct.
    b.send("ABOUT");
    assert!(b.expect(secs(2)).starts_with("name=\"Tianyuan\""));
    b.finish();
}

#[test]
fn garbage_unknown_and_malformed_commands() {
    let mut b = started(15);
    b.send("HELLO WORLD");
    assert_eq!(b.expect(secs(2)), "UNKNOWN HELLO WORLD");
    b.send("7,7,1");
    assert_eq!(b.expect(secs(2)), "UNKNOWN 7,7,1");
    b.send("TURN abc");
    assert!(b.expect(secs(2)).starts_with("ERROR TURN"));
    b.send("TURN 1");
    assert!(b.expect(secs(2)).starts_with("ERROR TURN"));
    b.send("RECTSTART 30x20");
    assert!(b.expect(secs(2)).starts_with("ERROR "));
    b.send("yxhashdump /tmp/x");
    assert_eq!(b.expect(secs(2)), "UNKNOWN yxhashdump /tmp/x");
    b.send_bytes(b"TU\xffRN 7,7\n");
    assert!(b.expect(secs(2)).starts_with("ERROR invalid UTF-8"));
    let mut long = b"TURN ".to_vec();
    long.extend(std::iter::repeat_n(b'7', 70_000));
    long.push(b'\n');
    b.send_bytes(&long);
    assert!(b.expect(secs(2)).starts_with("ERROR line longer than"));
    // Stray DONE and idle YXSTOP: silence.
    b.send_all(&["DONE", "YXSTOP", "STOP"]);
    b.expect_quiet(ms(300));
    // The game still works: an opening move in the centre.
    b.send("BEGIN");
    assert_eq!(b.expect_move(secs(5)), (7, 7));
    b.finish();
}

#[test]
fn off_board_and_occupied_moves_change_nothing() {
    let mut b = started(15);
    b.send("BEGIN");
    let first = b.expect_move(secs(5));
    for bad in ["TURN 15,3", "TURN -1,3", "TURN 3,99999999999", "PLAY 20,20"] {
        b.send(bad);
        let r = b.expect(secs(2));
        assert!(r.starts_with("ERROR "), "{bad}: {r}");
    }
    // Our own stone is occupied: rejected, and it is still there (TAKEBACK succeeds once).
    b.send(&format!("TURN {},{}", first.0, first.1));
    assert!(b.expect(secs(2)).starts_with("ERROR TURN"));
    b.send(&format!("TAKEBACK {},{}", first.0, first.1));
    assert_eq!(b.expect(secs(2)), "OK");
    b.send(&format!("TAKEBACK {},{}", first.0, first.1));
    assert!(b.expect(secs(2)).starts_with("ERROR TAKEBACK"));
    // Off-board squares were never placed: the board is empty again, BEGIN gives the centre.
    b.send("BEGIN");
    assert_eq!(b.expect_move(secs(5)), (7, 7));
    b.finish();
}

#[test]
fn commands_before_start_are_errors() {
    let mut b = Brain::start(&[]);
    for cmd in ["TURN 7,7", "BEGIN", "TAKEBACK 1,1", "RESTART"] {
        b.send(cmd);
        assert!(b.expect(secs(2)).starts_with("ERROR "), "{cmd}");
    }
    b.send_all(&["BOARD", "1,1,1", "DONE"]);
    assert!(b.expect(secs(2)).starts_with("ERROR BOARD"));
    b.send("YXSHOWFORBID");
    assert_eq!(b.expect(secs(2)), "FORBID .");
    b.finish();
}

#[test]
fn bad_board_blocks() {
    let mut b = started(15);
    b.send("BEGIN");
    let first = b.expect_move(secs(5));
    // A bad row: one ERROR at DONE, no move, the position unchanged.
    b.send_all(&["BOARD", "1,1,1", "garbage", "2,2,2", "DONE"]);
    assert!(b.expect(secs(2)).starts_with("ERROR BOARD"));
    b.expect_quiet(ms(200));
    // Off-board and duplicate rows.
    b.send_all(&["BOARD", "1,15,1", "DONE"]);
    assert!(b.expect(secs(2)).starts_with("ERROR BOARD"));
    b.send_all(&["BOARD", "1,1,1", "1,1,2", "DONE"]);
    assert!(b.expect(secs(2)).starts_with("ERROR BOARD"));
    // Invalid UTF-8 and an over-long line inside a block.
    b.send_all(&["BOARD", "1,1,1"]);
    b.send_bytes(b"2,\xff,2\n");
    b.send("DONE");
    assert!(b.expect(secs(2)).starts_with("ERROR "));
    // BOARD without DONE: ERROR when the next command arrives, which is then executed.
    b.send_all(&["BOARD", "3,3,1", "ABOUT"]);
    assert!(b.expect(secs(2)).starts_with("ERROR BOARD: DONE expected"));
    assert!(b.expect(secs(2)).starts_with("name="));
    // After all that the first move is still the only stone: it can be taken back.
    b.send(&format!("TAKEBACK {},{}", first.0, first.1));
    assert_eq!(b.expect(secs(2)), "OK");
    // INFO inside a block is applied, the block continues; an empty BOARD: we are black.
    b.send_all(&["BOARD", "INFO rule 1", "DONE"]);
    assert_eq!(b.expect_move(secs(5)), (7, 7));
    b.finish();
}

#[test]
fn start_sizes_and_rectangles() {
    let mut b = started(15);
    for bad in [
        "START 4",
        "START 23",
        "START 30 20",
        "RECTSTART 30,20",
        "START -1",
    ] {
        b.send(bad);
        assert!(b.expect(secs(2)).starts_with("ERROR "), "{bad}");
    }
    // The 15x15 game is still on.
    b.send("TURN 14,14");
    let m = b.expect_move(secs(5));
    assert!(m.0 < 15 && m.1 < 15 && m != (14, 14));
    // Rectangles: RECTSTART and START w h.
    b.send("RECTSTART 20,10");
    assert_eq!(b.expect(secs(2)), "OK");
    b.send("TURN 5,15");
    assert!(b.expect(secs(2)).starts_with("ERROR TURN"));
    b.send("TURN 19,9");
    let m = b.expect_move(secs(5));
    assert!(m.0 < 20 && m.1 < 10 && m != (19, 9), "{m:?}");
    b.send("START 6 22");
    assert_eq!(b.expect(secs(2)), "OK");
    b.send("BEGIN");
    assert_eq!(b.expect_move(secs(5)), (3, 11));
    b.send("START 15 15");
    assert_eq!(b.expect(secs(2)), "OK");
    b.send("RESTART");
    assert_eq!(b.expect(secs(2)), "OK");
    b.finish();
}

#[test]
fn takeback_chains_and_play() {
    let mut b = started(15);
    b.send("BEGIN");
    let m1 = b.expect_move(secs(5));
    b.send("TURN 0,0");
    let m2 = b.expect_move(secs(5));
    b.send("TURN 14,14");
    let m3 = b.expect_move(secs(5));
    // Newest first, as Piskvork does.
    for (x, y) in [m3, (14, 14), m2, (0, 0)] {
        b.send(&format!("TAKEBACK {x},{y}"));
        assert_eq!(b.expect(secs(2)), "OK", "TAKEBACK {x},{y}");
    }
    b.send("TAKEBACK 0,0");
    assert!(b.expect(secs(2)).starts_with("ERROR TAKEBACK"));
    // Only m1 is left; the opponent (white) plays next to it.
    b.send("TURN 0,14");
    let m = b.expect_move(secs(5));
    assert!(m != m1 && m != (0, 14), "{m:?}");
    // Take everything back: an empty board again, so BEGIN gives the centre.
    for (x, y) in [m, (0, 14), m1] {
        b.send(&format!("TAKEBACK {x},{y}"));
        assert_eq!(b.expect(secs(2)), "OK", "TAKEBACK {x},{y}");
    }
    b.send("BEGIN");
    assert_eq!(b.expect_move(secs(5)), (7, 7));
    b.finish();
}

#[test]
fn play_echoes_and_occupies() {
    let mut b = started(15);
    b.send("TURN 7,7");
    let _ = b.expect_move(secs(5));
    b.send("PLAY 3,3");
    assert_eq!(b.expect(secs(2)), "3,3");
    b.send("TURN 3,3");
    assert!(b.expect(secs(2)).starts_with("ERROR TURN"));
    b.finish();
}

#[test]
fn yxshowforbid_lists_the_renju_fouls() {
    let moves = "h8h9i7i9h10i6i11i12";
    let mut board = Board::new(15, 15, Rule::Renju).expect("board");
    let mut rows = Vec::new();
    for (i, (x, y)) in parse_pos_string(moves, 15, 15)
        .expect("pos")
        .into_iter()
        .enumerate()
    {
        board.try_play(x, y).expect("legal");
        // Black is to move (8 stones): black's stones are "own".
        rows.push(format!("{x},{y},{}", if i % 2 == 0 { 1 } else { 2 }));
    }
    let expected: String = board
        .forbidden_points()
        .iter()
        .map(|p| format!("{:02}{:02}", p.x(), p.y()))
        .collect();
    assert!(expected.contains("0608"), "g9 is a foul: {expected}");
    let mut b = Brain::start(&[]);
    b.send_all(&["info rule 2", "start 15"]);
    assert_eq!(b.expect(secs(2)), "OK");
    b.send("yxboard");
    for r in &rows {
        b.send(r);
    }
    b.send("done");
    b.send("yxshowforbid");
    assert_eq!(b.expect(secs(2)), format!("FORBID {expected}."));
    // Freestyle: no fouls.
    b.send("INFO rule 0");
    b.send("yxshowforbid");
    assert_eq!(b.expect(secs(2)), "FORBID .");
    b.send("yxshowinfo");
    b.send("yxhashclear");
    b.send("ABOUT");
    assert!(b.expect(secs(2)).starts_with("name="));
    b.finish();
}

#[test]
fn swap2board_three_cases() {
    let mut b = started(15);
    // Case 1: propose three distinct opening stones (black, white, black).
    b.send_all(&["SWAP2BOARD", "DONE"]);
    let line = b.expect(secs(2));
    let stones: Vec<(i32, i32)> = line
        .split(' ')
        .map(|m| common::strict_move(m).expect("x,y"))
        .collect();
    assert_eq!(stones.len(), 3, "{line}");
    assert!(stones[0] != stones[1] && stones[1] != stones[2] && stones[0] != stones[2]);
    assert!(stones
        .iter()
        .all(|&(x, y)| (0..15).contains(&x) && (0..15).contains(&y)));
    // Case 2: three stones: SWAP, the fourth move, or the fourth and fifth (free squares).
    b.send_all(&["SWAP2BOARD", "7,7", "8,7", "9,9", "DONE"]);
    let line = b.expect(secs(5));
    if line != "SWAP" {
        let moves: Vec<(i32, i32)> = line
            .split(' ')
            .map(|m| common::strict_move(m).expect("x,y"))
            .collect();
        assert!(moves.len() == 1 || moves.len() == 2, "{line}");
        assert!(moves.iter().all(|m| ![(7, 7), (8, 7), (9, 9)].contains(m)));
    }
    // Case 3: five stones (several per line allowed): SWAP or white's move; after a move
    // the game goes on from the position with it.
    b.send_all(&["SWAP2BOARD", "7,7 8,7 9,9", "8,8", "8,6", "DONE"]);
    let line = b.expect(secs(5));
    if line != "SWAP" {
        let m = common::strict_move(&line).expect("a move or SWAP");
        assert!(
            ![(7, 7), (8, 7), (9, 9), (8, 8), (8, 6)].contains(&m),
            "{m:?}"
        );
        b.send(&format!("TURN {},{}", m.0, m.1));
        assert!(
            b.expect(secs(2)).starts_with("ERROR TURN"),
            "our stone is on the board"
        );
    }
    // Wrong counts and bad rows are errors.
    b.send_all(&["SWAP2BOARD", "7,7", "8,7", "DONE"]);
    assert!(b.expect(secs(2)).starts_with("ERROR SWAP2BOARD"));
    b.send_all(&["SWAP2BOARD", "7,7,1,1", "DONE"]);
    assert!(b.expect(secs(2)).starts_with("ERROR SWAP2BOARD"));
    // Rows with a field (as Rapfi reads them) are stones in move order like plain ones.
    b.send_all(&["SWAP2BOARD", "7,7,2", "8,7,1", "9,9,2", "DONE"]);
    let line = b.expect(secs(5));
    assert!(line == "SWAP" || line.split(' ').all(|m| common::strict_move(m).is_some()));
    b.finish();
}
