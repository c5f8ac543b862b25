//! Time management: how long to think for one move.
//!
//! The budget is computed from the `INFO` time keys ([`Settings`]) and the [`Instant`] at which the
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
//! 3. **Safety reserve** for a limit `L`: `reserve(L) = 50 + min(L / 20, 500)`, plus
//!    [`FIRST_THINK_RESERVE_MS`] (100) on the first search of the process (GomocupJudge charges the
//!    process start-up and `START` to move 1, §6.3/§7.2). Managers allow ~1 s tolerance per move, but
//!    c-gomoku-cli forfeits a negative match clock with **no** tolerance (§7.3) and the judge's tolerance
//!    does not refill (§7.2), so the reserve is taken from the nominal limits. The 5 % term absorbs
//!    scheduling noise on a loaded machine; the 50 ms floor covers pipe latency and Windows' 15.6 ms
//!    timer granularity.
//! 4. `avail_turn = T − reserve(T)`, `avail_match = M − reserve(M)`. Either `≤ 0` → move at once.
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
//! * Fastgame `5000 / 120000`: `avail_turn = 4700`, `avail_match = 119450`, `n = 22` →
//!   soft = hard = 4700.
//! * Gomocup 1 `300000 / 1000000`: `avail_turn = 299450`, `avail_match = 999450` → soft = 45429,
//!   hard = 136287.
//! * c-gomoku-cli `tc=0/1` (`timeout_turn 1000`, `time_left 2147483647`): soft = hard = 900.

use std::time::{Duration, Instant};

use crate::protocol::settings::{Settings, UNLIMITED_TIME_LEFT};

/// Per-move limit assumed when no limit at all is known (no `timeout_turn`, unlimited match).
pub const DEFAULT_TURN_MS: u64 = 5_000;
/// Fixed part of the safety reserve.
pub const BASE_RESERVE_MS: u64 = 50;
/// The proportional part of the reserve is `limit / RESERVE_DIVISOR` …
pub const RESERVE_DIVISOR: u64 = 20;
/// … capped at this.
pub const RESERVE_CAP_MS: u64 = 500;
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

/// The time limits in force for the next move, extracted from [`Settings`] (steps 1–2 of the formula).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControl {
    /// Per-move limit.
    pub turn: Limit,
    /// Match time left.
    pub match_left: Limit,
    /// Increment added after each move (Yixin `time_increment`), ms.
    pub increment: u64,
}

impl TimeControl {
    /// Reads the time keys of `settings` (see the module docs for missing keys).
    pub fn from_settings(settings: &Settings) -> Self {
        let match_left = match settings.time_left {
            Some(v) if v >= UNLIMITED_TIME_LEFT => Limit::Unlimited,
            Some(v) if v <= 0 => Limit::Immediate,
            Some(v) => Limit::Ms(v.unsigned_abs()),
            None => match settings.timeout_match {
                Some(m) if m > 0 => Limit::Ms(m.unsigned_abs()),
                _ => Limit::Unlimited,
            },
        };
        let turn = match settings.timeout_turn {
            Some(t) if t <= 0 => Limit::Immediate,
            Some(t) => Limit::Ms(t.unsigned_abs()),
            None => match match_left {
                Limit::Unlimited => Limit::Ms(DEFAULT_TURN_MS),
                _ => Limit::Unlimited,
            },
        };
        TimeControl {
            turn,
            match_left,
            increment: settings.time_increment.max(0).unsigned_abs(),
        }
    }
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

fn reserve(limit: u64, first_think: bool) -> u64 {
    let extra = if first_think {
        FIRST_THINK_RESERVE_MS
    } else {
        0
    };
    BASE_RESERVE_MS + (limit / RESERVE_DIVISOR).min(RESERVE_CAP_MS) + extra
}

/// Computes the budget for the next move from the settings (see the module docs for the formula).
pub fn compute_budget(settings: &Settings, input: &TimeInput) -> TimeBudget {
    budget_for(&TimeControl::from_settings(settings), input)
}

/// Computes the budget from already extracted limits (steps 3–7 of the formula).
pub fn budget_for(tc: &TimeControl, input: &TimeInput) -> TimeBudget {
    let immediate = TimeBudget::immediate(input.received);
    // Step 4: available time under each limit (None = unlimited).
    let avail = |limit: Limit| -> Result<Option<u64>, ()> {
        match limit {
            Limit::Immediate => Err(()),
            Limit::Unlimited => Ok(None),
            Limit::Ms(ms) => match ms
                .min(MAX_LIMIT_MS)
                .checked_sub(reserve(ms, input.first_think))
            {
                Some(a) if a > 0 => Ok(Some(a)),
                _ => Err(()),
            },
        }
    };
    let (Ok(avail_turn), Ok(avail_match)) = (avail(tc.turn), avail(tc.match_left)) else {
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

    fn settings(pairs: &[(&str, &str)]) -> Settings {
        let mut s = Settings::new();
        for (k, v) in pairs {
            s.apply(k, v);
        }
        s
    }

    fn input(stones: usize, first_think: bool) -> TimeInput {
        TimeInput {
            received: Instant::now(),
            stones,
            cells: 400,
            first_think,
        }
    }

    fn ms(b: &TimeBudget) -> (u128, u128) {
        (b.soft.as_millis(), b.hard.as_millis())
    }

    #[test]
    fn fastgame() {
        let s = settings(&[
            ("timeout_turn", "5000"),
            ("timeout_match", "120000"),
            ("time_left", "120000"),
        ]);
        let inp = input(0, false);
        let b = compute_budget(&s, &inp);
        assert_eq!(ms(&b), (4700, 4700));
        assert_eq!(b.deadline, inp.received + b.hard);
        // First think of the process: 100 ms more reserve.
        assert_eq!(ms(&compute_budget(&s, &input(0, true))), (4600, 4600));
    }

    #[test]
    fn long_game_spreads_match_time() {
        let s = settings(&[
            ("timeout_turn", "300000"),
            ("timeout_match", "1000000"),
            ("time_left", "1000000"),
        ]);
        assert_eq!(ms(&compute_budget(&s, &input(0, false))), (45429, 136287));
        // Late in the game fewer moves to go: a bigger share.
        let late = compute_budget(&s, &input(80, false));
        assert_eq!(late.soft.as_millis(), 999_450 / 7);
        assert!(late.hard <= Duration::from_millis(299_450));
    }

    #[test]
    fn low_time_left_limits_the_move() {
        let s = settings(&[
            ("timeout_turn", "30000"),
            ("timeout_match", "180000"),
            ("time_left", "2000"),
        ]);
        let b = compute_budget(&s, &input(10, false));
        // reserve(2000) = 150 → avail 1850, n = 20 → soft 92, hard 276.
        assert_eq!(ms(&b), (92, 276));
    }

    #[test]
    fn timeout_turn_zero_means_move_now() {
        let s = settings(&[("timeout_turn", "0"), ("time_left", "100000")]);
        let inp = input(5, false);
        let b = compute_budget(&s, &inp);
        assert!(b.is_immediate());
        assert_eq!(b.deadline, inp.received);
        assert_eq!(b.soft_deadline(), inp.received);
    }

    #[test]
    fn negative_or_zero_time_left_means_move_now() {
        for v in ["-1", "-150", "0"] {
            let s = settings(&[("timeout_turn", "5000"), ("time_left", v)]);
            assert!(compute_budget(&s, &input(5, false)).is_immediate(), "{v}");
        }
    }

    #[test]
    fn time_smaller_than_reserve_means_move_now() {
        let s = settings(&[("timeout_turn", "40")]);
        assert!(compute_budget(&s, &input(0, false)).is_immediate());
        let s = settings(&[("timeout_turn", "5000"), ("time_left", "50")]);
        assert!(compute_budget(&s, &input(0, false)).is_immediate());
    }

    #[test]
    fn unlimited_match_uses_turn_limit() {
        // c-gomoku-cli tc=0/1.
        let s = settings(&[
            ("timeout_turn", "1000"),
            ("timeout_match", "0"),
            ("time_left", "2147483647"),
        ]);
        assert_eq!(ms(&compute_budget(&s, &input(0, false))), (900, 900));
        let tc = TimeControl::from_settings(&s);
        assert_eq!(tc.match_left, Limit::Unlimited);
        // timeout_match 0 without time_left is unlimited too.
        let s = settings(&[("timeout_turn", "1000"), ("timeout_match", "0")]);
        assert_eq!(TimeControl::from_settings(&s).match_left, Limit::Unlimited);
    }

    #[test]
    fn missing_keys_defaults() {
        // Nothing known: default 5 s per move.
        let s = Settings::new();
        let tc = TimeControl::from_settings(&s);
        assert_eq!(tc.turn, Limit::Ms(DEFAULT_TURN_MS));
        assert_eq!(tc.match_left, Limit::Unlimited);
        assert_eq!(ms(&compute_budget(&s, &input(0, false))), (4700, 4700));
        // Only match time known (c-gomoku-cli without a per-move cap): no turn cap.
        let s = settings(&[("timeout_match", "60000"), ("time_left", "60000")]);
        let tc = TimeControl::from_settings(&s);
        assert_eq!(tc.turn, Limit::Unlimited);
        // reserve(60000) = 550 → 59450 / 22 = 2702, hard 8106.
        assert_eq!(ms(&compute_budget(&s, &input(0, false))), (2702, 8106));
        // time_left missing but timeout_match given: assume the full match time is left.
        let s = settings(&[("timeout_turn", "30000"), ("timeout_match", "180000")]);
        assert_eq!(TimeControl::from_settings(&s).match_left, Limit::Ms(180000));
        // Unlimited everything but a turn limit of 2000 s (Yixin "unlimited" level).
        let s = settings(&[
            ("timeout_turn", "2000000"),
            ("timeout_match", "100000000"),
            ("time_left", "100000000"),
        ]);
        let b = compute_budget(&s, &input(0, false));
        assert!(b.hard <= Duration::from_millis(2_000_000));
        assert!(b.soft <= b.hard);
    }

    #[test]
    fn increment_is_added_but_never_beyond_available() {
        let mut s = settings(&[("timeout_turn", "30000"), ("time_left", "22550")]);
        let base = compute_budget(&s, &input(0, false));
        s.apply("time_increment", "1000");
        let inc = compute_budget(&s, &input(0, false));
        assert_eq!(inc.soft, base.soft + Duration::from_millis(1000));
        s.apply("time_increment", "100000000");
        let huge = compute_budget(&s, &input(0, false));
        assert!(huge.hard <= Duration::from_millis(22550));
    }

    #[test]
    fn nearly_full_board_uses_remaining_time_wisely() {
        let s = settings(&[("timeout_turn", "100000"), ("time_left", "10000")]);
        let inp = TimeInput {
            received: Instant::now(),
            stones: 223,
            cells: 225,
            first_think: false,
        };
        // One empty square: n = 1, whole available match time.
        let b = compute_budget(&s, &inp);
        assert_eq!(ms(&b), (9450, 9450));
        let full = TimeInput { stones: 225, ..inp };
        assert_eq!(ms(&compute_budget(&s, &full)), (9450, 9450));
    }

    #[test]
    fn soft_never_exceeds_hard_and_hard_never_exceeds_limits() {
        for turn in [0_i64, 1, 60, 200, 1000, 5000, 30000, 300000] {
            for left in [-5_i64, 0, 10, 100, 1000, 20000, 1_000_000, 2_147_483_647] {
                for stones in [0, 3, 50, 200] {
                    let s = settings(&[
                        ("timeout_turn", &turn.to_string()),
                        ("time_left", &left.to_string()),
                    ]);
                    let b = compute_budget(&s, &input(stones, stones == 3));
                    assert!(b.soft <= b.hard, "{turn} {left} {stones}");
                    assert!(b.hard.as_millis() < turn.max(0) as u128 || b.is_immediate());
                    if left < UNLIMITED_TIME_LEFT {
                        assert!(b.hard.as_millis() < left.max(0) as u128 || b.is_immediate());
                    }
                }
            }
        }
    }

    #[test]
    fn huge_values_do_not_overflow() {
        let max = i64::MAX.to_string();
        let s = settings(&[
            ("timeout_turn", &max),
            ("timeout_match", &max),
            ("time_left", "2147483646"),
            ("time_increment", &max),
        ]);
        let b = compute_budget(&s, &input(0, false));
        assert!(b.soft <= b.hard);
        assert!(b.hard < Duration::from_millis(2_147_483_646));
        let s = settings(&[("timeout_turn", &max), ("time_left", "2147483647")]);
        let b = compute_budget(&s, &input(0, false));
        assert!(b.hard <= Duration::from_millis(MAX_LIMIT_MS));
        assert!(b.deadline >= Instant::now());
    }

    #[test]
    fn remaining_counts_from_receipt() {
        let s = settings(&[("timeout_turn", "1000"), ("time_left", "2147483647")]);
        let received = Instant::now() - Duration::from_millis(400);
        let b = compute_budget(
            &s,
            &TimeInput {
                received,
                stones: 0,
                cells: 225,
                first_think: false,
            },
        );
        assert!(b.remaining(Instant::now()) <= Duration::from_millis(500));
        assert_eq!(
            b.remaining(received + Duration::from_secs(5)),
            Duration::ZERO
        );
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
}
