//! Node and time limits shared by the solvers, and their answer type.

use crate::core::Pos;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When a solver must give up.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum nodes (0 = no limit).
    pub max_nodes: u64,
    /// Wall-clock deadline.
    pub deadline: Option<Instant>,
    /// Set from another thread to stop at once.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Limits of `max_nodes` nodes and no deadline.
    pub fn nodes(max_nodes: u64) -> Limits {
        Limits {
            max_nodes,
            ..Limits::default()
        }
    }

    /// Whether the search must stop after `nodes` nodes (the caller reads the clock only every
    /// so many nodes: 64 in the VCT search, 1024 in the VCF solver).
    #[inline]
    pub fn exceeded(&self, nodes: u64, check_clock: bool) -> bool {
        self.exceeded_before(nodes, check_clock, Duration::ZERO)
    }

    /// [`Limits::exceeded`] for a caller about to pause for `pause` (e.g. to grow a table):
    /// the deadline counts as passed when the pause would end after it.
    #[inline]
    pub fn exceeded_before(&self, nodes: u64, check_clock: bool, pause: Duration) -> bool {
        if self.max_nodes != 0 && nodes >= self.max_nodes {
            return true;
        }
        if check_clock {
            if self.deadline.is_some_and(|d| Instant::now() + pause >= d) {
                return true;
            }
            if self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                return true;
            }
        }
        false
    }
}

/// A solver's answer for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveOutcome {
    /// A forced win; the line alternates attacker, defender, …, and ends with the five or the
    /// move that leaves no defence.
    Win(Vec<Pos>),
    /// No win exists within the solver's depth.
    NoWin,
    /// A limit stopped the search first.
    Unknown,
}

impl SolveOutcome {
    /// Whether this is a proven win.
    pub fn is_win(&self) -> bool {
        matches!(self, SolveOutcome::Win(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pause that would end after the deadline stops the search before it starts.
    #[test]
    fn a_pause_past_the_deadline_counts_as_exceeded() {
        let limits = Limits {
            deadline: Some(Instant::now() + Duration::from_secs(60)),
            ..Limits::default()
        };
        assert!(!limits.exceeded(1, true));
        assert!(!limits.exceeded_before(1, true, Duration::from_secs(1)));
        assert!(limits.exceeded_before(1, true, Duration::from_secs(120)));
        // The clock is not read between checks.
        assert!(!limits.exceeded_before(1, false, Duration::from_secs(120)));
    }
}
