//! Which stones stop a five: the question every forcing search asks after a four.
//!
//! In freestyle, standard and renju a five point is stopped only by taking it, so one five
//! point has one stopper and two have none. In caro a five blocked at both ends by the opponent
//! does not win, so a stone at the far end of a five whose near end is already blocked stops
//! it too, and both five points of a straight four can fall to one stone: the answer is found
//! by trying each cell that could matter.

use super::{Board, CellSet, Color, Pos, ThreatClass};
use smallvec::SmallVec;

/// A few cells.
pub type Stoppers = SmallVec<[Pos; 8]>;

impl Board {
    /// The empty cells where a stone of `color`'s opponent leaves `color` without a five point
    /// (whether that stone is legal for him is not checked). Empty when `color` has no five
    /// point, or when no single stone stops them all.
    pub fn five_stoppers(&self, color: Color) -> Stoppers {
        let fives = self.threat_cells(color, ThreatClass::Five);
        let count = self.threat_count(color, ThreatClass::Five);
        if !self.rule().blocked_fives_fail() {
            return if count == 1 {
                fives.first().into_iter().collect()
            } else {
                Stoppers::new()
            };
        }
        if count == 0 {
            return Stoppers::new();
        }
        // A stone that matters takes a five point or an end of its five: both lie on a line
        // through the five point, at most five cells away.
        let points: Stoppers = fives.iter().collect();
        let mut candidates = CellSet::EMPTY;
        for &f in &points {
            for dir in 0..4 {
                for s in -5..=5 {
                    let q = f.step(dir, s);
                    if self.is_empty(q) {
                        candidates.insert(q);
                    }
                }
            }
        }
        // Each candidate is tried by re-reading the patterns its stone would change, without
        // making the move: a move and its undo per candidate had caro's search place four
        // to five stones for every node it counted.
        candidates
            .iter()
            .filter(|&q| self.stone_leaves_none(q, color, &[ThreatClass::Five]))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::{format_renju, parse_renju};
    use crate::core::Rule;

    fn cell(b: &Board, name: &str) -> Pos {
        let (x, y) = parse_renju(name, 15, 15).unwrap();
        b.pos(x, y).unwrap()
    }

    fn board(rule: Rule, black: &[&str], white: &[&str]) -> Board {
        let mut b = Board::new(15, 15, rule).unwrap();
        for m in black {
            b.place(cell(&b, m), Color::Black);
        }
        for m in white {
            b.place(cell(&b, m), Color::White);
        }
        b
    }

    /// A straight four with an opponent stone beyond one end: in caro the far five point stops
    /// both fives (its five would be blocked at both ends); elsewhere nothing does.
    #[test]
    fn caro_straight_four_blocked_beyond_one_end() {
        for rule in [Rule::Caro8, Rule::Caro9] {
            let b = board(rule, &["e8", "f8", "g8", "h8"], &["c8"]);
            assert_eq!(b.threat_count(Color::Black, ThreatClass::Five), 2, "{rule}");
            let stoppers: Vec<String> = b
                .five_stoppers(Color::Black)
                .iter()
                .map(|&p| format_renju(p.x(), p.y(), 15))
                .collect();
            assert_eq!(stoppers, ["i8"], "{rule}");
        }
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let b = board(rule, &["e8", "f8", "g8", "h8"], &["c8"]);
            assert!(b.five_stoppers(Color::Black).is_empty(), "{rule}");
        }
    }

    /// Every rule, random positions: the stoppers are exactly the empty cells where an
    /// opponent stone leaves no five point (checked on every empty cell).
    #[test]
    fn stoppers_match_every_cell() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut with_fives = 0;
        for rule in Rule::ALL {
            for _ in 0..1000 {
                let mut b = Board::new(15, 15, rule).unwrap();
                for _ in 0..rng.gen_range(20..90) {
                    let empty: Vec<Pos> = b.empty_cells().iter().collect();
                    let p = empty[rng.gen_range(0..empty.len())];
                    let c = if rng.gen_bool(0.5) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    b.place(p, c);
                }
                for color in [Color::Black, Color::White] {
                    if !b.has_five_point(color) {
                        continue;
                    }
                    with_fives += 1;
                    let got: Vec<Pos> = b.five_stoppers(color).into_iter().collect();
                    let mut want = Vec::new();
                    for q in b.empty_cells().clone().iter() {
                        b.place(q, color.opponent());
                        if !b.has_five_point(color) {
                            want.push(q);
                        }
                        b.undo();
                    }
                    let mut got_sorted = got.clone();
                    got_sorted.sort_by_key(|p| p.0);
                    want.sort_by_key(|p| p.0);
                    assert_eq!(got_sorted, want, "{rule}\n{}", b.to_text());
                }
            }
        }
        assert!(
            with_fives > 1000,
            "only {with_fives} positions with a five point"
        );
    }
}
