//! [`RandomPlayer`]: a uniformly random legal move that is not a renju foul (any empty cell when
//! every move is a foul). Seeded, so a match can be replayed. The hidden `--weak random` mode of
//! `pbrain-tianyuan`, used by the match runner's tests as a fast, weak opponent.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{Player, SearchControl, SearchOutcome};
use crate::core::Board;

/// Plays uniformly at random among the safe moves, at once.
#[derive(Debug, Clone)]
pub struct RandomPlayer {
    rng: StdRng,
}

impl RandomPlayer {
    /// A player whose moves follow from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomPlayer {
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, board: &mut Board, _control: &SearchControl) -> SearchOutcome {
        let mut pool = board.legal_moves();
        if pool.is_empty() {
            pool = board.empty_cells().iter().collect();
        }
        let best = pool[self.rng.gen_range(0..pool.len())];
        SearchOutcome { best, info: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::parse_pos_string;
    use crate::core::{Pos, Rule};
    use std::collections::HashSet;

    #[test]
    fn legal_seeded_and_spread() {
        let mut b = Board::new(15, 15, Rule::Freestyle).expect("board");
        let ctl = SearchControl::for_millis(100);
        let mut a = RandomPlayer::new(7);
        let mut c = RandomPlayer::new(7);
        let mut seen = HashSet::new();
        for _ in 0..40 {
            let m = a.choose(&mut b, &ctl).best;
            assert_eq!(m, c.choose(&mut b, &ctl).best, "same seed, same moves");
            assert!(b.is_empty(m));
            seen.insert(m);
        }
        assert!(seen.len() > 20, "uniform over the board, not stuck");
        let mut other = RandomPlayer::new(8);
        let moves_a: Vec<Pos> = (0..10).map(|_| a.choose(&mut b, &ctl).best).collect();
        let moves_o: Vec<Pos> = (0..10).map(|_| other.choose(&mut b, &ctl).best).collect();
        assert_ne!(moves_a, moves_o);
    }

    #[test]
    fn never_a_foul_when_a_safe_move_exists() {
        let mut b = Board::new(15, 15, Rule::Renju).expect("board");
        for (x, y) in parse_pos_string("h8h9i7i9h10i6i11i12", 15, 15).expect("pos") {
            b.try_play(x, y).expect("legal");
        }
        assert!(b.is_foul(Pos::new(6, 8)));
        let ctl = SearchControl::for_millis(100);
        let mut r = RandomPlayer::new(1);
        for _ in 0..2000 {
            let m = r.choose(&mut b, &ctl).best;
            assert!(b.is_empty(m) && !b.is_foul(m));
        }
    }
}
