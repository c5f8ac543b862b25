//! Random openings kept only when our own search finds them near level (`match
//! --random-openings N --balanced-within V`).
//!
//! Why: a fixed-node match between two builds of this engine replays its games (the search at
//! a fixed node count depends only on the position), so it needs a new opening for every pair
//! of games; but a random opening often already decides the game, and a pair that the opening
//! decides (one win each) says nothing about the engines. Keeping only the openings that a
//! short search values within ±V gives openings that are both many and close to level.

use crate::core::{Board, Rule};
use crate::search::value::is_mate;
use crate::search::{SearchControl, Searcher};

use super::openings::Opening;

/// Node count of the search that values an opening, unless `--balance-nodes` says otherwise.
pub const DEFAULT_BALANCE_NODES: u64 = 20_000;

/// Table of the valuing search (cleared before each opening, so that a value depends only
/// on the opening).
const BALANCE_TABLE_BYTES: u64 = 16 << 20;

/// Values openings with a fixed-node search of this engine.
pub struct OpeningJudge {
    searcher: Searcher,
    nodes: u64,
    size: usize,
    rule: Rule,
}

impl OpeningJudge {
    /// A judge for `rule` on a `size` x `size` board searching `nodes` nodes an opening.
    pub fn new(size: usize, rule: Rule, nodes: u64) -> OpeningJudge {
        OpeningJudge {
            searcher: Searcher::new(BALANCE_TABLE_BYTES),
            nodes: nodes.max(1),
            size,
            rule,
        }
    }

    /// The search's value of the position after `opening` for the side to move (evaluation
    /// units), or `None` when the opening cannot be played or the search finds a forced win
    /// or loss.
    pub fn value(&mut self, opening: &Opening) -> Option<i32> {
        let mut board = Board::new(self.size, self.size, self.rule).ok()?;
        for &(x, y) in &opening.moves {
            if board.try_play(x, y).is_err() || board.last_move_wins() {
                return None;
            }
        }
        self.searcher.clear();
        let control = SearchControl::for_nodes(self.nodes);
        let result = self.searcher.search_move(&board, &control, &mut |_| {});
        let value = result.last.value;
        (result.last.depth > 0 && !is_mate(value)).then_some(value)
    }

    /// Whether the search values `opening` within `±within` (and finds no forced result).
    pub fn is_balanced(&mut self, opening: &Opening, within: i32) -> bool {
        self.value(opening).is_some_and(|v| v.abs() <= within)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decided_opening_is_not_balanced_and_a_quiet_one_is() {
        let mut judge = OpeningJudge::new(15, Rule::Freestyle, 3_000);
        // Black has an open four's point (three in a row, open, black to move after white's
        // far stone): decided.
        let won = Opening::new(vec![(7, 7), (0, 0), (8, 7), (0, 14), (9, 7), (14, 0)]);
        assert_eq!(judge.value(&won), None);
        assert!(!judge.is_balanced(&won, 10_000));
        // One stone each in the centre: close to level.
        let quiet = Opening::new(vec![(7, 7), (8, 8)]);
        let v = judge.value(&quiet).expect("a value");
        assert!(v.abs() < 300, "{v}");
        assert!(judge.is_balanced(&quiet, 300));
        assert!(!judge.is_balanced(&quiet, -1));
    }

    #[test]
    fn a_value_depends_only_on_the_opening() {
        let mut judge = OpeningJudge::new(15, Rule::Standard, 2_000);
        let a = Opening::new(vec![(7, 7), (8, 8), (6, 8)]);
        let b = Opening::new(vec![(7, 7), (6, 6), (8, 6), (9, 9)]);
        let first = judge.value(&a);
        judge.value(&b);
        assert_eq!(judge.value(&a), first);
        assert!(first.is_some());
    }

    #[test]
    fn an_unplayable_opening_has_no_value() {
        let mut judge = OpeningJudge::new(15, Rule::Freestyle, 1_000);
        assert_eq!(judge.value(&Opening::new(vec![(7, 7), (7, 7)])), None);
        assert_eq!(judge.value(&Opening::new(vec![(20, 7)])), None);
    }
}
