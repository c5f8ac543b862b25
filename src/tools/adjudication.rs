//! The referee's decisions: what a brain's reply does to the game (GomocupJudge / Piskvork
//! rules, `protocol-reference.md` §8 and §10), and when a game is drawn.
//!
//! * A reply that is not `x,y` is an unparseable move (Piskvork: "has not returned
//!   coordinates"), a point off the board or already occupied is an illegal move; each loses.
//! * On an empty point the rules core decides ([`Board::verdict`]): a five for the rule wins
//!   (exact five in standard, caro's doubly-blocked five does not count, the edge never
//!   blocks), a renju foul by black loses, five beating a foul.
//! * After a move that goes on, the game is drawn when the board is full, or when it holds
//!   `draw_after` stones (opening included), as the judge's 200-stone renju rule and
//!   c-gomoku-cli's `-drawafter`.

use crate::core::{Board, MoveVerdict, Pos, Rule};

use super::records::{IllegalKind, ResultReason};
use super::seat::MoveReply;

/// The referee's reading of a reply before the move is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judgement {
    /// A legal point; the verdict tells whether it wins, fouls or goes on.
    Legal(Pos, MoveVerdict),
    /// The mover loses for an illegal reply.
    Illegal(IllegalKind),
}

/// Judges `reply` for the side to move on `board` (the board is not changed).
pub fn judge(board: &mut Board, reply: &MoveReply) -> Judgement {
    let (x, y) = match *reply {
        MoveReply::Move(x, y) => (x, y),
        MoveReply::Unparseable(_) => return Judgement::Illegal(IllegalKind::Unparseable),
    };
    let on_board =
        x >= 0 && y >= 0 && (x as u64) < board.width() as u64 && (y as u64) < board.height() as u64;
    let Some(p) = on_board
        .then(|| board.pos(x as usize, y as usize))
        .flatten()
    else {
        return Judgement::Illegal(IllegalKind::OffBoard);
    };
    if !board.is_empty(p) {
        return Judgement::Illegal(IllegalKind::Occupied);
    }
    Judgement::Legal(p, board.verdict(p))
}

/// The default draw threshold: `width * height - 25` stones in renju (200 on 15x15, the
/// Gomocup renju rule), none (play to a full board) otherwise.
pub fn default_draw_after(rule: Rule, width: usize, height: usize) -> usize {
    match rule {
        Rule::Renju => (width * height).saturating_sub(25),
        _ => 0,
    }
}

/// Whether the game is drawn after a move that went on: full board, or at least `draw_after`
/// stones when `draw_after > 0`.
pub fn draw_reason(board: &Board, draw_after: usize) -> Option<ResultReason> {
    if board.is_full() {
        Some(ResultReason::BoardFull)
    } else if draw_after > 0 && board.stone_count() >= draw_after {
        Some(ResultReason::DrawAfter(draw_after))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rule: Rule, moves: &str) -> Board {
        Board::from_pos_string(15, 15, rule, moves).expect("position")
    }

    fn mv(x: i64, y: i64) -> MoveReply {
        MoveReply::Move(x, y)
    }

    #[test]
    fn illegal_replies() {
        let mut b = board(Rule::Freestyle, "h8");
        let u = MoveReply::Unparseable("OK".into());
        assert_eq!(
            judge(&mut b, &u),
            Judgement::Illegal(IllegalKind::Unparseable)
        );
        for (x, y) in [(-1, 5), (15, 0), (0, 15), (3, -7), (i64::MAX, 0)] {
            assert_eq!(
                judge(&mut b, &mv(x, y)),
                Judgement::Illegal(IllegalKind::OffBoard),
                "{x},{y}"
            );
        }
        assert_eq!(
            judge(&mut b, &mv(7, 7)),
            Judgement::Illegal(IllegalKind::Occupied)
        );
        assert!(matches!(
            judge(&mut b, &mv(14, 14)),
            Judgement::Legal(_, MoveVerdict::Continues)
        ));
    }

    /// The referee test positions of protocol-reference §8.
    #[test]
    fn referee_positions() {
        for rule in Rule::ALL {
            let mut b = board(rule, "h8h9i8i9j8j9k8k9");
            assert!(
                matches!(
                    judge(&mut b, &mv(6, 7)),
                    Judgement::Legal(_, MoveVerdict::Wins)
                ),
                "{rule}"
            );
        }
        // Standard: h13 would make white an overline, not a win.
        let mut b = board(Rule::Standard, "h8h9i8h10g8h11j13h12g14h14i15");
        assert!(matches!(
            judge(&mut b, &mv(7, 12)),
            Judgement::Legal(_, MoveVerdict::Continues)
        ));
        let mut b = board(Rule::Freestyle, "h8h9i8h10g8h11j13h12g14h14i15");
        assert!(matches!(
            judge(&mut b, &mv(7, 12)),
            Judgement::Legal(_, MoveVerdict::Wins)
        ));
        // Renju: g9 is a foul for black.
        let mut b = board(Rule::Renju, "h8h9i7i9h10i6i11i12");
        assert!(matches!(
            judge(&mut b, &mv(6, 8)),
            Judgement::Legal(_, MoveVerdict::Foul)
        ));
        // Caro: k8 is a five blocked at both ends.
        for rule in [Rule::Caro8, Rule::Caro9] {
            let mut b = board(rule, "h8f8g8f9i8f7j8l8");
            assert!(
                matches!(
                    judge(&mut b, &mv(10, 7)),
                    Judgement::Legal(_, MoveVerdict::Continues)
                ),
                "{rule}"
            );
        }
        let mut b = board(Rule::Freestyle, "h8f8g8f9i8f7j8l8");
        assert!(matches!(
            judge(&mut b, &mv(10, 7)),
            Judgement::Legal(_, MoveVerdict::Wins)
        ));
    }

    #[test]
    fn draws() {
        assert_eq!(default_draw_after(Rule::Renju, 15, 15), 200);
        assert_eq!(default_draw_after(Rule::Freestyle, 15, 15), 0);
        let b = board(Rule::Freestyle, "h8h9i8");
        assert_eq!(draw_reason(&b, 0), None);
        assert_eq!(draw_reason(&b, 4), None);
        assert_eq!(draw_reason(&b, 3), Some(ResultReason::DrawAfter(3)));
    }
}
