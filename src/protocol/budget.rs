//! The manager's `INFO` keys as the plain budgets the search takes: [`Settings::time_control`]
//! (steps 1–2 of the time formula in `search::timeman`), [`Settings::memory_budget`] and
//! [`compute_budget`] (the time budget of the next move).

use super::settings::{Settings, UNLIMITED_TIME_LEFT};
use crate::search::timeman::{
    budget_for, Limit, TimeBudget, TimeControl, TimeInput, DEFAULT_TURN_MS,
};
use crate::search::MemoryBudget;

impl Settings {
    /// The time limits in force: `time_left` if received (`≥ 2147483647` → unlimited, `≤ 0` →
    /// move at once), else `timeout_match` (`≤ 0` → unlimited); `timeout_turn` (`≤ 0` → move
    /// at once; missing → no per-move limit if the match time is finite, else 5 s).
    pub fn time_control(&self) -> TimeControl {
        let match_left = match self.time_left {
            Some(v) if v >= UNLIMITED_TIME_LEFT => Limit::Unlimited,
            Some(v) if v <= 0 => Limit::Immediate,
            Some(v) => Limit::Ms(v.unsigned_abs()),
            None => match self.timeout_match {
                Some(m) if m > 0 => Limit::Ms(m.unsigned_abs()),
                _ => Limit::Unlimited,
            },
        };
        let turn = match self.timeout_turn {
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
            increment: self.time_increment.max(0).unsigned_abs(),
        }
    }

    /// The table memory allowed by `max_memory` (350 MiB when never sent, 0 = no limit) and
    /// `hash_size`.
    pub fn memory_budget(&self) -> MemoryBudget {
        MemoryBudget::new(self.memory_limit(), self.hash_size_kib)
    }
}

/// The time budget of the next move under `settings`.
pub fn compute_budget(settings: &Settings, input: &TimeInput) -> TimeBudget {
    budget_for(&settings.time_control(), input)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::timeman::MAX_LIMIT_MS;
    use crate::search::{TimeBudget, TimeInput};
    use std::time::{Duration, Instant};

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
        assert_eq!(ms(&b), (4835, 4835));
        assert_eq!(b.deadline, inp.received + b.hard);
        // First think of the process: 100 ms more reserve.
        assert_eq!(ms(&compute_budget(&s, &input(0, true))), (4735, 4735));
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
        assert!(late.hard <= Duration::from_millis(299_460));
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
        let s = settings(&[("timeout_turn", "30")]);
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
        assert_eq!(ms(&compute_budget(&s, &input(0, false))), (935, 935));
        let tc = s.time_control();
        assert_eq!(tc.match_left, Limit::Unlimited);
        // timeout_match 0 without time_left is unlimited too.
        let s = settings(&[("timeout_turn", "1000"), ("timeout_match", "0")]);
        assert_eq!(s.time_control().match_left, Limit::Unlimited);
    }

    #[test]
    fn missing_keys_defaults() {
        // Nothing known: default 5 s per move.
        let s = Settings::new();
        let tc = s.time_control();
        assert_eq!(tc.turn, Limit::Ms(DEFAULT_TURN_MS));
        assert_eq!(tc.match_left, Limit::Unlimited);
        assert_eq!(ms(&compute_budget(&s, &input(0, false))), (4835, 4835));
        // Only match time known (c-gomoku-cli without a per-move cap): no turn cap.
        let s = settings(&[("timeout_match", "60000"), ("time_left", "60000")]);
        let tc = s.time_control();
        assert_eq!(tc.turn, Limit::Unlimited);
        // reserve(60000) = 550 → 59450 / 22 = 2702, hard 8106.
        assert_eq!(ms(&compute_budget(&s, &input(0, false))), (2702, 8106));
        // time_left missing but timeout_match given: assume the full match time is left.
        let s = settings(&[("timeout_turn", "30000"), ("timeout_match", "180000")]);
        assert_eq!(s.time_control().match_left, Limit::Ms(180000));
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
        // 935 ms from receipt, 400 of them gone.
        assert!(b.remaining(Instant::now()) <= Duration::from_millis(535));
        assert_eq!(
            b.remaining(received + Duration::from_secs(5)),
            Duration::ZERO
        );
    }

    #[test]
    fn memory_budget_reads_both_keys() {
        let mut s = Settings::new();
        let roomy = MemoryBudget::new(None, None).table_bytes >= 128 << 20;
        if roomy {
            assert_eq!(s.memory_budget().table_bytes, 128 << 20);
        }
        s.apply("max_memory", "16777216");
        assert_eq!(s.memory_budget().limit, Some(16 << 20));
        s.apply("max_memory", "0");
        s.apply("hash_size", "4096");
        assert_eq!(s.memory_budget().table_bytes, 4 << 20);
    }
}
