//! What earlier cut-offs teach the move order: a history score per colour and cell (moves
//! that refuted positions before are tried early), the counter-move to the opponent's last
//! stone, and two killer moves per ply (kept in the search stack).

use super::params::Tunables;
use crate::core::pos::NUM_CELLS;
use crate::core::{Color, Pos};

/// Histories saturate towards this magnitude (the gravity formula keeps them within it).
pub const HISTORY_MAX: i32 = 16_384;

/// History and counter-move tables, kept from move to move.
#[derive(Clone)]
pub struct History {
    main: Box<[[i32; NUM_CELLS]; 2]>,
    counter: Box<[[u16; NUM_CELLS]; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            main: Box::new([[0; NUM_CELLS]; 2]),
            counter: Box::new([[0; NUM_CELLS]; 2]),
        }
    }
}

/// The history bonus of a cut-off at `depth` plies: grows with the depth squared, bounded
/// (`hist_quad · depth² + hist_lin · depth`, at most `hist_max`).
pub fn bonus(depth: i32, t: &Tunables) -> i32 {
    (t.hist_quad * depth * depth + t.hist_lin * depth).min(t.hist_max)
}

impl History {
    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// The history score of `color` playing `p`.
    #[inline]
    pub fn score(&self, color: Color, p: Pos) -> i32 {
        self.main[color.index()][p.index()]
    }

    /// Moves `color`'s score for `p` by `delta`, with gravity towards zero (a score never
    /// leaves ±[`HISTORY_MAX`], and old lessons fade as new ones come).
    #[inline]
    pub fn update(&mut self, color: Color, p: Pos, delta: i32) {
        let h = &mut self.main[color.index()][p.index()];
        *h += delta - *h * delta.abs() / HISTORY_MAX;
    }

    /// The move that last refuted the opponent's `last` stone, for `color`.
    #[inline]
    pub fn counter_move(&self, color: Color, last: Pos) -> Option<Pos> {
        let m = self.counter[color.index()][last.index()];
        (m != 0).then_some(Pos(m))
    }

    /// Records `reply` as `color`'s counter to the opponent's `last` stone.
    #[inline]
    pub fn set_counter_move(&mut self, color: Color, last: Pos, reply: Pos) {
        self.counter[color.index()][last.index()] = reply.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_bounds_the_scores() {
        let mut h = History::default();
        let p = Pos::new(3, 4);
        for _ in 0..1000 {
            h.update(Color::Black, p, bonus(30, &Tunables::DEFAULT));
        }
        let s = h.score(Color::Black, p);
        assert!(s > HISTORY_MAX / 2 && s <= HISTORY_MAX, "{s}");
        for _ in 0..1000 {
            h.update(Color::Black, p, -bonus(30, &Tunables::DEFAULT));
        }
        assert!(h.score(Color::Black, p) < 0);
        assert_eq!(h.score(Color::White, p), 0);
        h.set_counter_move(Color::White, p, Pos::new(5, 5));
        assert_eq!(h.counter_move(Color::White, p), Some(Pos::new(5, 5)));
        assert_eq!(h.counter_move(Color::Black, p), None);
    }
}
