//! The referee's rule positions (protocol-reference §8, from GomocupJudge's `test_zip_rules.py`)
//! sent through the protocol as a manager would (START, INFO rule, BOARD in move order): the
//! brain must take the win, find the only defence, or avoid the renju foul.

mod common;

use common::{secs, Brain};
use tianyuan::core::notation::parse_pos_string;
use tianyuan::core::{Board, Pos, Rule};

/// Sends the position `moves` (pos notation, black first) as a BOARD for the side to move and
/// returns the brain's answer. The side to move follows from the parity, as in the referee.
fn answer(rule_code: i64, moves: &str, size: usize) -> (usize, usize) {
    let stones = parse_pos_string(moves, size, size).expect("pos string");
    let mut b = Brain::start(&[]);
    b.send_all(&[
        &format!("START {size}"),
        &format!("INFO rule {rule_code}"),
        "INFO timeout_turn 1000",
        "INFO timeout_match 100000",
        "INFO time_left 100000",
    ]);
    assert_eq!(b.expect(secs(5)), "OK");
    b.send("BOARD");
    let to_move = stones.len() % 2; // 0: black to move
    for (i, (x, y)) in stones.iter().enumerate() {
        let field = if i % 2 == to_move { 1 } else { 2 };
        b.send(&format!("{x},{y},{field}"));
    }
    b.send("DONE");
    let (x, y) = b.expect_move(secs(5));
    b.finish();
    (x as usize, y as usize)
}

fn at(name: &str) -> (usize, usize) {
    parse_pos_string(name, 15, 15).expect("pos")[0]
}

#[test]
fn every_rule_black_takes_the_win() {
    for code in [0, 1, 2, 4, 8, 9] {
        let m = answer(code, "h8h9i8i9j8j9k8k9", 15);
        assert!(m == at("g8") || m == at("l8"), "rule {code}: {m:?}");
    }
    // The same on 20x20 (fastgame / freestyle board).
    let m = answer(0, "h8h9i8i9j8j9k8k9", 20);
    assert!(m == (6, 7) || m == (11, 7), "{m:?}");
}

#[test]
fn standard_white_blocks_the_three_not_the_overline() {
    let m = answer(1, "h8h9i8h10g8h11j13h12g14h14i15", 15);
    assert!(m == at("f8") || m == at("j8"), "{m:?}");
}

#[test]
fn renju_black_avoids_the_foul() {
    let moves = "h8h9i7i9h10i6i11i12";
    let m = answer(4, moves, 15);
    assert_ne!(m, at("g9"));
    let mut board = Board::new(15, 15, Rule::Renju).expect("board");
    for (x, y) in parse_pos_string(moves, 15, 15).expect("pos") {
        board.try_play(x, y).expect("legal");
    }
    let p = Pos::new(m.0, m.1);
    assert!(board.is_empty(p));
    assert!(!board.is_forbidden(p), "{m:?} is a foul");
}

#[test]
fn caro_black_defends_instead_of_a_blocked_five() {
    for code in [8, 9] {
        let m = answer(code, "h8f8g8f9i8f7j8l8", 15);
        let ok = ["f5", "f6", "f10", "f11"].map(at);
        assert!(ok.contains(&m), "rule {code}: {m:?}");
    }
}
