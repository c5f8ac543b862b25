//! The quickest reasonable move, shared by the players and by the session's safety net: what
//! is played when a player panics, breaks its contract or has no time at all. Legality itself
//! is decided by the rules core ([`Board::is_legal`], [`Board::is_foul`]).

use crate::core::{Board, Color, Pos, ThreatClass};

/// The stones that stop every five point of `color` (in caro also the far end of a five
/// blocked on its near end); when none does, the five points themselves (the game is lost
/// anyway, but a block still makes the opponent find the other one).
pub fn five_blocks(board: &mut Board, color: Color) -> Vec<Pos> {
    let stops: Vec<Pos> = board.five_stoppers(color).into_iter().collect();
    if stops.is_empty() {
        board
            .threat_cells(color, ThreatClass::Five)
            .iter()
            .collect()
    } else {
        stops
    }
}

/// The centre cell (`width / 2`, `height / 2`), the usual first move.
pub fn centre(board: &Board) -> Pos {
    Pos::new(board.width() / 2, board.height() / 2)
}

/// Squared distance of `p` from the board centre, doubled so that even boards are symmetric.
pub fn centre_distance(board: &Board, p: Pos) -> usize {
    let dx = (2 * p.x()).abs_diff(board.width() - 1);
    let dy = (2 * p.y()).abs_diff(board.height() - 1);
    dx * dx + dy * dy
}

/// The quickest reasonable move, for when nothing better is available (a player panicked, broke
/// its contract or missed the deadline): an own five, else a non-foul block of the opponent's five,
/// else the non-foul candidate (or empty cell) nearest the centre, else any empty cell even if it is
/// a foul. `None` only on a full board.
pub fn fallback_move(board: &mut Board) -> Option<Pos> {
    let me = board.side_to_move();
    if let Some(p) = board.threat_cells(me, ThreatClass::Five).first() {
        return Some(p);
    }
    let blocks = five_blocks(board, me.opponent());
    if let Some(p) = blocks.into_iter().find(|&p| !board.is_foul(p)) {
        return Some(p);
    }
    let mut pool: Vec<Pos> = board.candidates().iter().collect();
    if pool.is_empty() {
        pool = board.empty_cells().iter().collect();
    }
    pool.sort_by_key(|&p| centre_distance(board, p));
    if let Some(p) = pool.iter().copied().find(|&p| !board.is_foul(p)) {
        return Some(p);
    }
    let mut all = board.legal_moves();
    all.sort_by_key(|&p| centre_distance(board, p));
    all.first().copied().or_else(|| board.empty_cells().first())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;

    fn board(rule: Rule, moves: &str) -> Board {
        Board::from_pos_string(15, 15, rule, moves).expect("position")
    }

    #[test]
    fn fallback_wins_blocks_and_avoids_fouls() {
        // Black to move with an open four: take the five.
        let mut b = board(Rule::Freestyle, "h8h9i8i9j8j9k8k9");
        let p = fallback_move(&mut b).expect("move");
        assert!(p == Pos::new(6, 7) || p == Pos::new(11, 7), "{p:?}");
        // Renju, black to move; g9 (6,8) is a double-three foul: never chosen.
        let mut b = board(Rule::Renju, "h8h9i7i9h10i6i11i12");
        assert!(b.is_foul(Pos::new(6, 8)));
        let p = fallback_move(&mut b).expect("move");
        assert!(!b.is_foul(p) && b.is_empty(p));
        assert!(b.legal_moves().iter().all(|&q| q != Pos::new(6, 8)));
        // Empty board: the centre.
        let mut b = Board::new(15, 15, Rule::Freestyle).expect("board");
        assert_eq!(fallback_move(&mut b), Some(Pos::new(7, 7)));
        assert!(b.may_play(0, 0));
        assert!(!b.may_play(15, 0));
    }

    #[test]
    fn fallback_on_full_and_nearly_full_boards() {
        let mut b = Board::new(5, 5, Rule::Freestyle).expect("board");
        // Fill the board in a pattern without five in a row (rows shifted by two).
        let mut cells = Vec::new();
        for y in 0..5 {
            for x in 0..5 {
                cells.push((x, y, (x + 2 * y) % 4 < 2));
            }
        }
        for &(x, y, black) in &cells[..24] {
            let color = if black { Color::Black } else { Color::White };
            b.place(Pos::new(x, y), color);
        }
        assert_eq!(fallback_move(&mut b), Some(Pos::new(4, 4)));
        let (x, y, black) = cells[24];
        b.place(
            Pos::new(x, y),
            if black { Color::Black } else { Color::White },
        );
        assert!(b.is_full());
        assert_eq!(fallback_move(&mut b), None);
    }
}
