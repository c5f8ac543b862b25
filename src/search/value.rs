//! Search values: static evaluations (within ±[`EVAL_MAX`]) and mate scores above them.
//!
//! A win found by the search is `MATE − plies` (plies from the root to the winning five), a
//! loss `−MATE + plies`: shorter wins and longer defences score better. In the transposition
//! table a mate is stored relative to the node that stores it ([`to_tt`], [`from_tt`]), so the
//! same entry means the same distance wherever the position is met again.

pub use crate::eval::EVAL_MAX;

/// A search value (side to move's point of view).
pub type Value = i32;

/// The value of a five on the board: the mover has just won.
pub const MATE: Value = 30_000;
/// Beyond every value.
pub const INFINITE: Value = 31_000;
/// Values at or beyond this (either sign) are mates.
pub const MATE_BOUND: Value = MATE - 1000;
/// The value of a draw (a full board).
pub const DRAW: Value = 0;

/// The value of winning `ply` plies from the root (the five is the `ply`-th move).
#[inline]
pub const fn mate_in(ply: i32) -> Value {
    MATE - ply
}

/// The value of losing `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: i32) -> Value {
    -MATE + ply
}

/// Whether `v` is a mate score (won or lost).
#[inline]
pub const fn is_mate(v: Value) -> bool {
    v >= MATE_BOUND || v <= -MATE_BOUND
}

/// A root-relative value as stored in the table at a node `ply` plies from the root.
#[inline]
pub const fn to_tt(v: Value, ply: i32) -> Value {
    if v >= MATE_BOUND {
        v + ply
    } else if v <= -MATE_BOUND {
        v - ply
    } else {
        v
    }
}

/// A stored value, read at a node `ply` plies from the root.
#[inline]
pub const fn from_tt(v: Value, ply: i32) -> Value {
    if v >= MATE_BOUND {
        v - ply
    } else if v <= -MATE_BOUND {
        v + ply
    } else {
        v
    }
}

/// `v` as people read it: `+M5` (win with the fifth ply from here), `-M4`, or the value.
pub fn describe(v: Value) -> String {
    if v >= MATE_BOUND {
        format!("+M{}", MATE - v)
    } else if v <= -MATE_BOUND {
        format!("-M{}", MATE + v)
    } else {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_survive_the_table_at_any_ply() {
        for ply in [0, 1, 7, 40] {
            for v in [mate_in(ply + 3), mated_in(ply + 2), 0, 153, -EVAL_MAX] {
                assert_eq!(from_tt(to_tt(v, ply), ply), v);
            }
            // Stored at `ply`, met again two plies deeper: five plies from there, two more from the root.
            assert_eq!(
                from_tt(to_tt(mate_in(ply + 5), ply), ply + 2),
                mate_in(ply + 5) - 2
            );
        }
        assert!(is_mate(mate_in(100)) && is_mate(mated_in(100)) && !is_mate(EVAL_MAX));
        assert_eq!(describe(mate_in(5)), "+M5");
        assert_eq!(describe(mated_in(4)), "-M4");
        assert_eq!(describe(-35), "-35");
    }
}
