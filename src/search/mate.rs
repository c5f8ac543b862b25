//! Static mate detection: wins and losses that the threat classes prove without a search,
//! checked at every node before anything else.
//!
//! For the side to move (`me`, opponent `opp`):
//! 1. `me` has a five point: win with the next stone (1 ply).
//! 2. `opp` has five points and no legal stone of `me` stops them all (two five points, or a
//!    renju block that is a foul for black): loss in 2.
//! 3. `me` can make an open four (or two fours) and `opp` has no five point: win in 3 — whatever
//!    `opp` does, one of the two five points stays (a four of his only delays by one stone he
//!    must spend, and then `me` plays the five instead of blocking).
//! 4. `opp` has no move that makes a four, and `me` has a four-three whose forced block leaves
//!    `me` an open-four point (checked by playing both stones: under renju the follow-up must be
//!    legal for black), or two open threes: win in 5.
//!
//! Caro is left to the search after step 2 (a five blocked at both ends fails there, so an
//! open four can be stopped).

use crate::core::{Board, Color, ThreatClass};
use crate::tactics::moves::has_four_move;

/// A game-theoretic result found statically, in plies from the node (the winning five is the
/// last ply counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaticMate {
    /// The side to move wins in this many plies.
    Win(i32),
    /// The side to move loses in this many plies.
    Loss(i32),
}

/// How many four-three cells are verified by playing them out (the rest are left to search).
const FOUR_THREE_PROBES: usize = 4;

/// The static result of the position, if the classes prove one (see the module docs).
pub fn static_mate(board: &mut Board) -> Option<StaticMate> {
    let me = board.side_to_move();
    let opp = me.opponent();
    if board.has_five_point(me) {
        return Some(StaticMate::Win(1));
    }
    if board.has_five_point(opp) {
        let stops = board.five_stoppers(opp);
        if !stops.iter().any(|&s| board.is_legal(s, me)) {
            return Some(StaticMate::Loss(2));
        }
        return None;
    }
    if board.rule().blocked_fives_fail() {
        return None;
    }
    if board.threat_count(me, ThreatClass::Flex4) > 0 {
        return Some(StaticMate::Win(3));
    }
    if has_four_move(board, opp) {
        return None;
    }
    if board.threat_count(me, ThreatClass::Flex3x2) > 0 {
        return Some(StaticMate::Win(5));
    }
    if board.threat_count(me, ThreatClass::Block4Flex3) > 0 && four_three_wins(board, me) {
        return Some(StaticMate::Win(5));
    }
    None
}

/// Whether one of `me`'s four-three cells (to move) wins: after it and the forced block, `me`
/// has an open-four point and the opponent no five point.
fn four_three_wins(board: &mut Board, me: Color) -> bool {
    let cells: Vec<_> = board
        .threat_cells(me, ThreatClass::Block4Flex3)
        .iter()
        .take(FOUR_THREE_PROBES)
        .collect();
    let opp = me.opponent();
    for c in cells {
        board.make_move(c);
        let block = board.threat_cells(me, ThreatClass::Five).first();
        let wins = match block {
            // The four's five point is the only block; a foul block loses at once.
            Some(b) if board.threat_count(me, ThreatClass::Five) == 1 => {
                if board.is_legal(b, opp) {
                    board.make_move(b);
                    let open_four = board.threat_count(me, ThreatClass::Flex4) > 0
                        && !board.has_five_point(opp);
                    board.undo();
                    open_four
                } else {
                    true
                }
            }
            _ => false,
        };
        board.undo();
        if wins {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;

    fn board(rule: Rule, moves: &str) -> Board {
        Board::from_pos_string(15, 15, rule, moves).unwrap()
    }

    #[test]
    fn the_classes_prove_short_wins_and_losses() {
        // Black to move with an open four point (h8 i8 j8 open three, white far away): win in 3.
        let mut b = board(Rule::Freestyle, "h8a1i8a3j8a5");
        assert_eq!(static_mate(&mut b), Some(StaticMate::Win(3)));
        // White to move there: nothing proved (white can block).
        b.pass();
        assert_eq!(static_mate(&mut b), None);
        // Black four (h8..k8 blocked at g8): black to move wins in 1; white to move must block.
        let mut b = board(Rule::Freestyle, "h8g8i8a1j8a3k8");
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(static_mate(&mut b), None);
        b.pass();
        assert_eq!(static_mate(&mut b), Some(StaticMate::Win(1)));
        // An open four on the board: the side to move (white) cannot stop both ends.
        let mut b = board(Rule::Freestyle, "h8a1i8a3j8a5k8");
        assert_eq!(static_mate(&mut b), Some(StaticMate::Loss(2)));
    }

    #[test]
    fn double_threes_and_four_threes() {
        // Black: h8 i8 (row) and j10 j11 (column): j8 makes two open threes; white's stones
        // in the corners make no four.
        let mut b = board(Rule::Freestyle, "h8a1i8o1j10a15j11o15");
        assert_eq!(b.side_to_move(), Color::Black);
        assert!(b.threat_count(Color::Black, ThreatClass::Flex3x2) > 0);
        assert_eq!(static_mate(&mut b), Some(StaticMate::Win(5)));
        // Renju: the same is a foul for black: no static win.
        let mut r = board(Rule::Renju, "h8a1i8o1j10a15j11o15");
        assert_eq!(static_mate(&mut r), None);
        // If white can make a four, the double three proves nothing.
        let mut b = board(Rule::Freestyle, "h8a1i8a2j10a3j11o15");
        assert_eq!(b.side_to_move(), Color::Black);
        assert_eq!(static_mate(&mut b), None);
    }
}
