//! Threat move generation from the board's threat classes (no board scan).

use crate::core::{Board, Color, LinePattern, Pos, Rule, ThreatClass};
use smallvec::SmallVec;

/// A short list of moves.
pub type MoveList = SmallVec<[Pos; 32]>;

/// The renju cells black may play that the board marks as possible fouls but are legal, and
/// whose lines satisfy `want`.
fn legal_marked_black(board: &mut Board, want: impl Fn(LinePattern) -> bool, out: &mut MoveList) {
    if board.threat_count(Color::Black, ThreatClass::Forbid) == 0 {
        return;
    }
    let marked: MoveList = board
        .threat_cells(Color::Black, ThreatClass::Forbid)
        .iter()
        .collect();
    for p in marked {
        if (0..4).any(|d| want(board.line_pattern(p, Color::Black, d))) && !board.is_forbidden(p) {
            out.push(p);
        }
    }
}

/// Every legal move of `color` that makes a four (the strongest classes first), excluding
/// fives.
pub fn four_moves(board: &mut Board, color: Color, out: &mut MoveList) {
    for class in [
        ThreatClass::Flex4,
        ThreatClass::Block4Flex3,
        ThreatClass::Block4Plus,
        ThreatClass::Block4,
    ] {
        if board.threat_count(color, class) > 0 {
            out.extend(board.threat_cells(color, class).iter());
        }
    }
    if color == Color::Black && board.rule() == Rule::Renju {
        legal_marked_black(board, LinePattern::is_four, out);
    }
}

/// Whether `color` has any move that makes a four (a VCF needs one). Renju cells marked as
/// possible fouls are counted without the exact check.
pub fn has_four_move(board: &Board, color: Color) -> bool {
    [
        ThreatClass::Flex4,
        ThreatClass::Block4Flex3,
        ThreatClass::Block4Plus,
        ThreatClass::Block4,
        ThreatClass::Forbid,
    ]
    .into_iter()
    .any(|c| board.threat_count(color, c) > 0)
}

/// Every legal move of `color` that makes an open three but no four.
pub fn three_moves(board: &mut Board, color: Color, out: &mut MoveList) {
    for class in [
        ThreatClass::Flex3x2,
        ThreatClass::Flex3Plus,
        ThreatClass::Flex3,
    ] {
        if board.threat_count(color, class) > 0 {
            out.extend(board.threat_cells(color, class).iter());
        }
    }
    if color == Color::Black && board.rule() == Rule::Renju {
        let before = out.len();
        legal_marked_black(board, |p| p.is_flex3() || p.is_four(), out);
        // Marked cells that also make a four were already listed by `four_moves`.
        let mut i = before;
        while i < out.len() {
            if (0..4).any(|d| board.line_pattern(out[i], Color::Black, d).is_four()) {
                out.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }
}

/// The legal stones of `mover` that stop every five point of `fives_of` (the five point
/// itself outside caro; see [`Board::five_stoppers`]). Empty when nothing stops them.
pub fn legal_stops(board: &mut Board, fives_of: Color, mover: Color) -> MoveList {
    let mut stops = MoveList::new();
    for stop in board.five_stoppers(fives_of) {
        if board.is_legal(stop, mover) {
            stops.push(stop);
        }
    }
    stops
}

/// The one cell where `color` completes a five, if it has any.
#[inline]
pub fn five_point(board: &Board, color: Color) -> Option<Pos> {
    if board.has_five_point(color) {
        board.threat_cells(color, ThreatClass::Five).first()
    } else {
        None
    }
}
