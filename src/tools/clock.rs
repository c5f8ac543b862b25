//! Time control and the per-player game clock, timed as the referees do.
//!
//! * A time control is `TURN/MATCH+INC` in milliseconds ([`TimeControl::parse`]): a per-move
//!   limit, a whole-game limit and a Fischer increment. `0` means "no limit" for the turn and
//!   for the match, but at least one of them must be set, so every wait has a deadline and a
//!   hung brain is always killed.
//! * Before each move the increment is added to the match clock (as c-gomoku-cli does), and
//!   the brain receives `INFO time_left` (2147483647 when the match time is unlimited).
//! * The brain may use `min(timeout_turn, time_left) + tolerance` for the move, counted from the
//!   moment the command was written (GomocupJudge's rule, `client/new_protocol.py`). A reply
//!   within the tolerance is accepted; the time is still charged, so `time_left` may go
//!   negative and the next move gets only what is left of the tolerance. No reply by then is a
//!   time-out: the process is killed.

use std::fmt;
use std::time::Duration;

/// `INFO time_left` value that means "unlimited" (c-gomoku-cli, Piskvork).
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;

/// A time control: per-move limit, per-game limit and increment, all in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControl {
    /// Per-move limit in ms (`INFO timeout_turn`); 0 = none.
    pub turn_ms: u64,
    /// Whole-game limit in ms (`INFO timeout_match`); 0 = none.
    pub match_ms: u64,
    /// Added to the match clock before every move, in ms (`INFO time_increment`).
    pub increment_ms: u64,
}

impl TimeControl {
    /// Parses `TURN`, `TURN/MATCH` or `TURN/MATCH+INC` (milliseconds), e.g. `1000/60000` or
    /// `0/120000+500`. At least one of the turn and match limits must be non-zero.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let bad =
            |why: &str| format!("bad time control `{text}`: {why} (expected TURN/MATCH+INC in ms)");
        let (main, inc) = match text.trim().split_once('+') {
            Some((m, i)) => (m, Some(i)),
            None => (text.trim(), None),
        };
        let num = |s: &str| {
            s.trim()
                .parse::<u64>()
                .map_err(|_| bad(&format!("`{s}` is not a number")))
        };
        let (turn_ms, match_ms) = match main.split_once('/') {
            Some((t, m)) => (num(t)?, num(m)?),
            None => (num(main)?, 0),
        };
        let increment_ms = match inc {
            Some(i) => num(i)?,
            None => 0,
        };
        if turn_ms == 0 && match_ms == 0 {
            return Err(bad("the turn and the match time cannot both be unlimited"));
        }
        if increment_ms > 0 && match_ms == 0 {
            return Err(bad("an increment needs a match time"));
        }
        Ok(TimeControl {
            turn_ms,
            match_ms,
            increment_ms,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.turn_ms, self.match_ms)?;
        if self.increment_ms > 0 {
            write!(f, "+{}", self.increment_ms)?;
        }
        Ok(())
    }
}

/// One player's clock for one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    tc: TimeControl,
    tolerance_ms: u64,
    left_ms: i64,
}

impl Clock {
    /// A fresh clock: the full match time left.
    pub fn new(tc: TimeControl, tolerance: Duration) -> Clock {
        Clock {
            tc,
            tolerance_ms: tolerance.as_millis().min(u64::MAX as u128) as u64,
            left_ms: tc.match_ms.min(i64::MAX as u64) as i64,
        }
    }

    /// Adds the increment (call once before each move).
    pub fn add_increment(&mut self) {
        if self.tc.match_ms > 0 {
            self.left_ms = self.left_ms.saturating_add(self.tc.increment_ms as i64);
        }
    }

    /// The value for `INFO time_left`: what is left of the match time, or
    /// [`UNLIMITED_TIME_LEFT`].
    pub fn time_left_info(&self) -> i64 {
        if self.tc.match_ms > 0 {
            self.left_ms
        } else {
            UNLIMITED_TIME_LEFT
        }
    }

    /// The time budget of a move without the tolerance: `min(turn, time_left)` (either may be
    /// unlimited), possibly negative once the match clock has run over.
    pub fn budget_ms(&self) -> i64 {
        let turn = (self.tc.turn_ms > 0).then_some(self.tc.turn_ms.min(i64::MAX as u64) as i64);
        let left = (self.tc.match_ms > 0).then_some(self.left_ms);
        match (turn, left) {
            (Some(t), Some(l)) => t.min(l),
            (Some(t), None) => t,
            (None, Some(l)) => l,
            (None, None) => i64::MAX / 4,
        }
    }

    /// How long the brain may take for this move, tolerance included; `None` if nothing is
    /// left (the move is a time-out without being asked).
    pub fn allowance(&self) -> Option<Duration> {
        let ms = self.budget_ms().saturating_add(self.tolerance_ms as i64);
        (ms > 0).then(|| Duration::from_millis(ms as u64))
    }

    /// Charges the time a move (or START) took to the match clock.
    pub fn charge(&mut self, used: Duration) {
        if self.tc.match_ms > 0 {
            let ms = used.as_millis().min(i64::MAX as u128) as i64;
            self.left_ms = self.left_ms.saturating_sub(ms);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn parse_forms() {
        let tc = TimeControl::parse("1000/60000").unwrap();
        assert_eq!((tc.turn_ms, tc.match_ms, tc.increment_ms), (1000, 60000, 0));
        let tc = TimeControl::parse("0/120000+500").unwrap();
        assert_eq!((tc.turn_ms, tc.match_ms, tc.increment_ms), (0, 120000, 500));
        assert_eq!(tc.to_string(), "0/120000+500");
        let tc = TimeControl::parse("300").unwrap();
        assert_eq!((tc.turn_ms, tc.match_ms), (300, 0));
        assert!(TimeControl::parse("0/0").is_err());
        assert!(TimeControl::parse("0").is_err());
        assert!(TimeControl::parse("100+5").is_err());
        assert!(TimeControl::parse("a/5").is_err());
        assert!(TimeControl::parse("").is_err());
    }

    #[test]
    fn turn_only_clock() {
        let c = Clock::new(TimeControl::parse("500").unwrap(), ms(1000));
        assert_eq!(c.time_left_info(), UNLIMITED_TIME_LEFT);
        assert_eq!(c.allowance(), Some(ms(1500)));
    }

    #[test]
    fn match_clock_runs_down_into_the_tolerance() {
        let mut c = Clock::new(TimeControl::parse("1000/2500+100").unwrap(), ms(300));
        c.add_increment();
        assert_eq!(c.time_left_info(), 2600);
        assert_eq!(c.allowance(), Some(ms(1300)), "turn limit binds");
        c.charge(ms(2000));
        assert_eq!(c.time_left_info(), 600);
        assert_eq!(c.allowance(), Some(ms(900)), "match clock binds");
        c.charge(ms(800)); // 200 ms into the tolerance: accepted, but charged
        assert_eq!(c.time_left_info(), -200);
        assert_eq!(c.allowance(), Some(ms(100)));
        c.charge(ms(100));
        assert_eq!(c.allowance(), None, "nothing left: time-out at once");
        c.add_increment();
        assert_eq!(c.allowance(), Some(ms(100)));
    }
}
