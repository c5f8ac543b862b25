//! Time management: how long to think for one move.
//!
//! The budget is computed from the limits in force ([`TimeControl`], which the brain's protocol
//! reads from the manager's `INFO` time keys, steps 1–2 below) and the [`Instant`] at which the
//! line that triggered the search (`BEGIN`, `TURN`, the `DONE` of `BOARD`, `SWAP2BOARD`…) was
//! **received** by the reader thread (protocol-reference §7.5, §9.12). Wall time that passed before that
//! line arrived (e.g. while GomocupJudge kept the process suspended) never counts.
//!
//! # Formula
//!
//! All values in milliseconds.
//!
//! 1. **Per-move limit `T`** from `timeout_turn`:
//!    `≤ 0` → move at once; `> 0` → `T = timeout_turn`; missing → no per-move limit if the match time
//!    is finite, otherwise [`DEFAULT_TURN_MS`] (5 s). (c-gomoku-cli omits `timeout_turn` when there is no
//!    per-move cap, protocol-reference §4.)
//! 2. **Match time left `M`**: `time_left` if received (`≥ 2147483647` → unlimited, `≤ 0` → move at
//!    once); otherwise `timeout_match` (`≤ 0` → unlimited); if neither arrived → unlimited.
//! 3. **Safety reserves**, taken from the nominal limits: for the match clock
//!    `reserve(M) = 50 + min(M / 20, 500)`, for the per-move limit
//!    `turn_reserve(T) = 40 + min(T / 40, 500)`; both plus [`FIRST_THINK_RESERVE_MS`] (100) on the
//!    first search of the process (GomocupJudge charges the process start-up and `START` to move 1,
//!    §6.3/§7.2). c-gomoku-cli forfeits a negative match clock with **no** tolerance (§7.3) and the
//!    judge's tolerance does not refill (§7.2), hence the larger match reserve; a move's own limit
//!    is only ever judged with a tolerance (1 s in every manager, §7), so its reserve is smaller
//!    (at 0.3 s a move the search gets 253 ms instead of 235). The proportional terms absorb
//!    scheduling noise on a loaded machine; the floors cover pipe latency, the search's polling
//!    of the clock and Windows' 15.6 ms timer granularity.
//! 4. `avail_turn = T − turn_reserve(T)`, `avail_match = M − reserve(M)`. Either `≤ 0` → move at
//!    once.
//! 5. **Moves to go**: `n = clamp(22 − stones/4, 7, 22)`, then `n = min(n, max(1, empty/2))`
//!    (Rapfi's `MatchSpace = 22`, `MatchSpaceMin = 7`).
//! 6. `soft_match = min(avail_match, avail_match / n + time_increment)`;
//!    `hard_match = min(avail_match, 3 · soft_match)`.
//! 7. `soft = min(soft_match, avail_turn)`, `hard = min(hard_match, avail_turn)` (so `soft ≤ hard`),
//!    `deadline = received + hard`.
//!
//! **Meaning for the search:** `soft` is the time the move should take (do not start a new iteration
//! that is unlikely to finish before it); `hard` is absolute — stop and print the best move found by
//! `deadline`. A zero budget ([`TimeBudget::is_immediate`]) means "answer at once with the quickest
//! reasonable move".
//!
//! Worked examples (first think, empty 20×20 board, no first-think reserve):
//! * Fastgame `5000 / 120000`: `avail_turn = 4835`, `avail_match = 119450`, `n = 22` →
//!   soft = hard = 4835.
//! * Gomocup 1 `300000 / 1000000`: `avail_turn = 299460`, `avail_match = 999450` → soft = 45429,
//!   hard = 136287.
//! * c-gomoku-cli `tc=0/1` (`timeout_turn 1000`, `time_left 2147483647`): soft = hard = 935.

use std::time::{Duration, Instant};

/// Per-move limit assumed when no limit at all is known (no `timeout_turn`, unlimited match).
pub const DEFAULT_TURN_MS: u64 = 5_000;
/// Fixed part of the match clock's safety reserve.
pub const BASE_RESERVE_MS: u64 = 50;
/// The proportional part of the match clock's reserve is `limit / RESERVE_DIVISOR` …
pub const RESERVE_DIVISOR: u64 = 20;
/// … capped at this (the per-move limit's reserve too).
pub const RESERVE_CAP_MS: u64 = 500;
/// Fixed part of the per-move limit's reserve.
pub const TURN_BASE_RESERVE_MS: u64 = 40;
/// The proportional part of the per-move limit's reserve is `limit / TURN_RESERVE_DIVISOR`
/// (capped at [`RESERVE_CAP_MS`]).
pub const TURN_RESERVE_DIVISOR: u64 = 40;
/// Extra reserve on the first search of the process (start-up charged to move 1 by GomocupJudge).
pub const FIRST_THINK_RESERVE_MS: u64 = 100;
/// Number of own moves the remaining match time is spread over at the start of a game.
pub const MATCH_SPACE: u64 = 22;
/// Lower bound for that number late in a game.
pub const MATCH_SPACE_MIN: u64 = 7;
/// `hard_match` may exceed `soft_match` by at most this factor.
pub const HARD_FACTOR: u64 = 3;
/// Limits above this (30 days) are clamped to it, so that `received + hard` can never overflow.
pub const MAX_LIMIT_MS: u64 = 30 * 24 * 3600 * 1000;

/// A time limit as understood by the manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// Move at once (limit 0 or already exceeded).
    Immediate,
    /// A finite number of milliseconds (> 0).
    Ms(u64),
    /// No limit.
    Unlimited,
}

/// The time limits in force for the next move (steps 1–2 of the formula).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControl {
    /// Per-move limit.
    pub turn: Limit,
    /// Match time left.
    pub match_left: Limit,
    /// Increment added after each move (Yixin `time_increment`), ms.
    pub increment: u64,
}

/// Facts about the position and the process needed for the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeInput {
    /// When the line that triggered the search was received ([`crate::protocol::ReaderEvent`]).
    pub received: Instant,
    /// Stones on the board (opening stones included).
    pub stones: usize,
    /// Squares on the board (`width * height`).
    pub cells: usize,
    /// True for the first search since the process started (adds [`FIRST_THINK_RESERVE_MS`]).
    pub first_think: bool,
}

/// How long the search may run for one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeBudget {
    /// Target thinking time, counted from `received`.
    pub soft: Duration,
    /// Absolute maximum thinking time, counted from `received` (`soft ≤ hard`).
    pub hard: Duration,
    /// `received + hard`: the move must be printed by then.
    pub deadline: Instant,
}

impl TimeBudget {
    /// A zero budget: move at once.
    pub fn immediate(received: Instant) -> Self {
        TimeBudget {
            soft: Duration::ZERO,
            hard: Duration::ZERO,
            deadline: received,
        }
    }

    /// True when the budget is zero (answer with the quickest reasonable move).
    pub fn is_immediate(&self) -> bool {
        self.hard.is_zero()
    }

    /// `received + soft`.
    pub fn soft_deadline(&self) -> Instant {
        self.deadline - (self.hard - self.soft)
    }

    /// Time left before the hard deadline, as seen at `now` (zero once passed).
    pub fn remaining(&self, now: Instant) -> Duration {
        self.deadline.saturating_duration_since(now)
    }
}

/// The safety reserve for `limit`: a per-move limit (`turn`) or the match clock.
fn reserve(limit: u64, turn: bool, first_think: bool) -> u64 {
    let extra = if first_think {
        FIRST_THINK_RESERVE_MS
    } else {
        0
    };
    let (base, divisor) = if turn {
        (TURN_BASE_RESERVE_MS, TURN_RESERVE_DIVISOR)
    } else {
        (BASE_RESERVE_MS, RESERVE_DIVISOR)
    };
    base + (limit / divisor).min(RESERVE_CAP_MS) + extra
}

/// Computes the budget from already extracted limits (steps 3–7 of the formula).
pub fn budget_for(tc: &TimeControl, input: &TimeInput) -> TimeBudget {
    let immediate = TimeBudget::immediate(input.received);
    // Step 4: available time under each limit (None = unlimited).
    let avail = |limit: Limit, turn: bool| -> Result<Option<u64>, ()> {
        match limit {
            Limit::Immediate => Err(()),
            Limit::Unlimited => Ok(None),
            Limit::Ms(ms) => {
                match ms
                    .min(MAX_LIMIT_MS)
                    .checked_sub(reserve(ms, turn, input.first_think))
                {
                    Some(a) if a > 0 => Ok(Some(a)),
                    _ => Err(()),
                }
            }
        }
    };
    let (Ok(avail_turn), Ok(avail_match)) = (avail(tc.turn, true), avail(tc.match_left, false))
    else {
        return immediate;
    };
    // Steps 5-6.
    let (soft_match, hard_match) = match avail_match {
        None => (u64::MAX, u64::MAX),
        Some(a) => {
            let stones = input.stones as u64;
            let empty = input.cells.saturating_sub(input.stones) as u64;
            let n = MATCH_SPACE
                .saturating_sub(stones / 4)
                .clamp(MATCH_SPACE_MIN, MATCH_SPACE)
                .min((empty / 2).max(1));
            let soft = (a / n).saturating_add(tc.increment).min(a);
            (soft, soft.saturating_mul(HARD_FACTOR).min(a))
        }
    };
    // Step 7.
    let turn_cap = avail_turn.unwrap_or(u64::MAX);
    let soft = soft_match.min(turn_cap);
    let hard = hard_match.min(turn_cap);
    if hard == u64::MAX {
        // Unreachable: an unlimited turn implies a finite match (TimeControl::from_settings) unless
        // built by hand; fall back to the default per-move time.
        let d = Duration::from_millis(DEFAULT_TURN_MS);
        return TimeBudget {
            soft: d,
            hard: d,
            deadline: input.received + d,
        };
    }
    let soft = Duration::from_millis(soft.min(MAX_LIMIT_MS));
    let hard = Duration::from_millis(hard.min(MAX_LIMIT_MS));
    TimeBudget {
        soft,
        hard,
        deadline: input.received.checked_add(hard).unwrap_or(input.received),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(stones: usize, first_think: bool) -> TimeInput {
        TimeInput {
            received: Instant::now(),
            stones,
            cells: 400,
            first_think,
        }
    }

    #[test]
    fn hand_built_unlimited_control_falls_back_to_default() {
        let tc = TimeControl {
            turn: Limit::Unlimited,
            match_left: Limit::Unlimited,
            increment: 0,
        };
        let b = budget_for(&tc, &input(0, false));
        assert_eq!(b.hard, Duration::from_millis(DEFAULT_TURN_MS));
    }

    #[test]
    fn a_turn_limit_caps_an_ample_match() {
        let tc = TimeControl {
            turn: Limit::Ms(1000),
            match_left: Limit::Unlimited,
            increment: 0,
        };
        let b = budget_for(&tc, &input(0, false));
        assert_eq!((b.soft.as_millis(), b.hard.as_millis()), (935, 935));
        let tc = TimeControl {
            turn: Limit::Immediate,
            ..tc
        };
        assert!(budget_for(&tc, &input(0, false)).is_immediate());
    }
}
