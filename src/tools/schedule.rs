//! Who plays whom, with which opening and colours, in which order.
//!
//! * Pairings: round robin (every engine against every later one) or gauntlet (the first
//!   engine against each of the others).
//! * Each pairing plays `games` games per round, `rounds` rounds. Its games are numbered
//!   `k = round * games + g`: the opening is `k / 2` (cycling through the list) and colours
//!   swap with the parity of `k`, so every opening is played twice with colours reversed, and
//!   games `2j`, `2j + 1` form the pair the pentanomial statistics count.
//! * Jobs are ordered round by round, pairing by pairing, as c-gomoku-cli runs them.

/// One game to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// Position in the run (0-based), also the global game number minus one.
    pub seq: usize,
    /// Index of the pairing.
    pub pair: usize,
    /// Number of the game within its pairing (`k` above).
    pub game_in_pair: usize,
    /// Engine index playing black.
    pub black: usize,
    /// Engine index playing white.
    pub white: usize,
    /// Opening slot (`k / 2`; the caller cycles it through the opening list).
    pub opening: usize,
}

/// The pairings `(first, second)` of `engines` engines.
pub fn pairings(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    if gauntlet {
        (1..engines).map(|j| (0, j)).collect()
    } else {
        (0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
            .collect()
    }
}

/// All jobs of a run, in playing order.
pub fn jobs(pairs: &[(usize, usize)], games: usize, rounds: usize) -> Vec<Job> {
    let mut out = Vec::with_capacity(pairs.len() * games * rounds);
    for round in 0..rounds {
        for (p, &(a, b)) in pairs.iter().enumerate() {
            for g in 0..games {
                let k = round * games + g;
                let (black, white) = if k % 2 == 0 { (a, b) } else { (b, a) };
                out.push(Job {
                    seq: out.len(),
                    pair: p,
                    game_in_pair: k,
                    black,
                    white,
                    opening: k / 2,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_and_gauntlet() {
        assert_eq!(pairings(2, false), vec![(0, 1)]);
        assert_eq!(pairings(3, false), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairings(4, true), vec![(0, 1), (0, 2), (0, 3)]);
        assert_eq!(pairings(4, false).len(), 6);
    }

    #[test]
    fn colours_swap_per_opening_across_rounds() {
        let j = jobs(&[(0, 1), (0, 2)], 3, 2);
        assert_eq!(j.len(), 12);
        assert!(j.iter().enumerate().all(|(i, job)| job.seq == i));
        let pair0: Vec<_> = j.iter().filter(|x| x.pair == 0).collect();
        let ks: Vec<usize> = pair0.iter().map(|x| x.game_in_pair).collect();
        assert_eq!(ks, vec![0, 1, 2, 3, 4, 5]);
        let cols: Vec<(usize, usize)> = pair0.iter().map(|x| (x.black, x.white)).collect();
        assert_eq!(cols, vec![(0, 1), (1, 0), (0, 1), (1, 0), (0, 1), (1, 0)]);
        let ops: Vec<usize> = pair0.iter().map(|x| x.opening).collect();
        assert_eq!(ops, vec![0, 0, 1, 1, 2, 2]);
        // Round 0 plays pairing 0 then pairing 1, then round 1 starts.
        assert_eq!((j[2].pair, j[3].pair, j[6].pair), (0, 1, 0));
    }
}
