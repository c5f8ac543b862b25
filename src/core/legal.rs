//! Which moves may be played, and what a move does to the game: the one place where legality
//! and renju fouls are decided for every player, solver, referee and tool.
//!
//! A move is *legal* for a colour when it is an empty cell of the playing area and, under renju,
//! not a foul for black (overline, double four, double three with the recursive false-three
//! cases: [`Board::is_forbidden`]). Five beats a foul: a move that makes an exact five is never a
//! foul.

use super::board::Board;
use super::pattern::ThreatClass;
use super::pos::Pos;
use super::rule::Color;

/// The referee's verdict on a move before it is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveVerdict {
    /// The move completes a winning line for the mover.
    Wins,
    /// Renju: black's move is a foul and loses.
    Foul,
    /// The game goes on.
    Continues,
}

impl Board {
    /// The verdict on the side to move playing the empty cell `p` (five beats a foul).
    pub fn verdict(&mut self, p: Pos) -> MoveVerdict {
        let color = self.side_to_move();
        if self.threat(p, color) == ThreatClass::Five {
            MoveVerdict::Wins
        } else if color == Color::Black && self.is_forbidden(p) {
            MoveVerdict::Foul
        } else {
            MoveVerdict::Continues
        }
    }

    /// Whether `color` may play `p`: an empty cell of the playing area that is not a renju foul
    /// for black. Cheap unless the board marks `p` as a possible foul.
    #[inline]
    pub fn is_legal(&mut self, p: Pos, color: Color) -> bool {
        self.is_empty(p) && !(color == Color::Black && self.is_forbidden(p))
    }

    /// Whether the side to move playing the empty cell `p` would commit a renju foul.
    #[inline]
    pub fn is_foul(&mut self, p: Pos) -> bool {
        self.side_to_move() == Color::Black && self.is_forbidden(p)
    }

    /// Whether the cell `(x, y)` is one the side to move may play: on the board, empty, no foul.
    pub fn may_play(&mut self, x: usize, y: usize) -> bool {
        let color = self.side_to_move();
        self.pos(x, y).is_some_and(|p| self.is_legal(p, color))
    }

    /// Every legal move of the side to move, in index order (row by row, top first).
    pub fn legal_moves(&mut self) -> Vec<Pos> {
        let color = self.side_to_move();
        let empty: Vec<Pos> = self.empty_cells().iter().collect();
        empty
            .into_iter()
            .filter(|&p| self.is_legal(p, color))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;

    /// A board from a referee `pos` string (letters = x, numbers = y + 1 from the top), moves
    /// alternating from black.
    fn board(rule: Rule, moves: &str) -> Board {
        Board::from_pos_string(15, 15, rule, moves).expect("position")
    }

    fn at(x: usize, y: usize) -> Pos {
        Pos::new(x, y)
    }

    /// protocol-reference §8: `h8h9i8i9j8j9k8k9`, black wins at g8 or l8 under every rule.
    #[test]
    fn referee_all_rules_black_wins_at_either_end() {
        for rule in Rule::ALL {
            let mut b = board(rule, "h8h9i8i9j8j9k8k9");
            assert_eq!(b.verdict(at(6, 7)), MoveVerdict::Wins, "{rule}");
            assert_eq!(b.verdict(at(11, 7)), MoveVerdict::Wins, "{rule}");
            assert_eq!(b.verdict(at(7, 10)), MoveVerdict::Continues, "{rule}");
            assert_eq!(b.threat_count(Color::Black, ThreatClass::Five), 2, "{rule}");
        }
    }

    /// §8 standard: white's h13 would make six (no win); white must stop black's three at f8/j8.
    #[test]
    fn referee_standard_overline_is_no_win() {
        let mut b = board(Rule::Standard, "h8h9i8h10g8h11j13h12g14h14i15");
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(b.verdict(at(7, 12)), MoveVerdict::Continues);
        assert_eq!(b.threat(at(5, 7), Color::Black), ThreatClass::Flex4);
        assert_eq!(b.threat(at(9, 7), Color::Black), ThreatClass::Flex4);
        let mut free = board(Rule::Freestyle, "h8h9i8h10g8h11j13h12g14h14i15");
        assert_eq!(free.verdict(at(7, 12)), MoveVerdict::Wins);
    }

    /// §8 renju: black must not play g9 (a double three).
    #[test]
    fn referee_renju_double_three() {
        let mut b = board(Rule::Renju, "h8h9i7i9h10i6i11i12");
        assert_eq!(b.verdict(at(6, 8)), MoveVerdict::Foul);
        assert!(b.forbidden_points().contains(&at(6, 8)));
        let mut free = board(Rule::Freestyle, "h8h9i7i9h10i6i11i12");
        assert_eq!(free.verdict(at(6, 8)), MoveVerdict::Continues);
    }

    /// §8 caro: k8 would be a five blocked at both ends; white's open three must be stopped.
    #[test]
    fn referee_caro_doubly_blocked_five() {
        for rule in [Rule::Caro8, Rule::Caro9] {
            let mut b = board(rule, "h8f8g8f9i8f7j8l8");
            assert_eq!(b.verdict(at(10, 7)), MoveVerdict::Continues, "{rule}");
            assert!(!b.has_five_point(Color::Black), "{rule}");
            assert_eq!(
                b.threat(at(5, 5), Color::White),
                ThreatClass::Flex4,
                "{rule}"
            );
            assert_eq!(
                b.threat(at(5, 9), Color::White),
                ThreatClass::Flex4,
                "{rule}"
            );
        }
        let mut free = board(Rule::Freestyle, "h8f8g8f9i8f7j8l8");
        assert_eq!(free.verdict(at(10, 7)), MoveVerdict::Wins);
    }

    /// Places black stones on row 7 at the given columns and white stones at others.
    fn row(rule: Rule, black: &[usize], white: &[usize]) -> Board {
        let mut b = Board::new(15, 15, rule).unwrap();
        for &x in black {
            b.place(at(x, 7), Color::Black);
        }
        for &x in white {
            b.place(at(x, 7), Color::White);
        }
        if b.side_to_move() != Color::Black {
            b.pass();
        }
        b
    }

    #[test]
    fn six_in_a_row_per_rule() {
        // Black X X X _ X X: filling the gap makes six.
        let expect = [
            (Rule::Freestyle, MoveVerdict::Wins),
            (Rule::Standard, MoveVerdict::Continues),
            (Rule::Renju, MoveVerdict::Foul),
            (Rule::Caro8, MoveVerdict::Wins),
            (Rule::Caro9, MoveVerdict::Continues),
        ];
        for (rule, verdict) in expect {
            let mut b = row(rule, &[3, 4, 5, 7, 8], &[]);
            assert_eq!(b.verdict(at(6, 7)), verdict, "{rule}");
            b.make_move(at(6, 7));
            assert_eq!(b.last_move_wins(), verdict == MoveVerdict::Wins, "{rule}");
        }
        // White's six wins in renju.
        let mut b = row(Rule::Renju, &[], &[3, 4, 5, 7, 8]);
        b.pass();
        assert_eq!(b.verdict(at(6, 7)), MoveVerdict::Wins);
    }

    #[test]
    fn caro_blocks_by_opponent_and_edge() {
        for rule in [Rule::Caro8, Rule::Caro9] {
            // Five against the edge: the edge is never a block.
            let mut b = row(rule, &[0, 1, 2, 3], &[5]);
            assert_eq!(b.verdict(at(4, 7)), MoveVerdict::Wins, "{rule} edge");
            // One end blocked by the opponent: still a five.
            let mut b = row(rule, &[3, 4, 5, 6], &[2]);
            assert_eq!(b.verdict(at(7, 7)), MoveVerdict::Wins, "{rule} one block");
            // Both ends blocked: no win, and the four is dead.
            let mut b = row(rule, &[3, 4, 5, 6], &[2, 8]);
            assert_eq!(
                b.verdict(at(7, 7)),
                MoveVerdict::Continues,
                "{rule} two blocks"
            );
            b.make_move(at(7, 7));
            assert!(!b.last_move_wins());
        }
        // The same doubly blocked five wins in freestyle and standard.
        for rule in [Rule::Freestyle, Rule::Standard] {
            let mut b = row(rule, &[3, 4, 5, 6], &[2, 8]);
            assert_eq!(b.verdict(at(7, 7)), MoveVerdict::Wins, "{rule}");
        }
    }
}
