//! [`SearchControl`]: when a search must stop.
//!
//! A search stops at the hard deadline of its [`TimeBudget`] (counted from the receipt of the
//! triggering line) or as soon as the session raises the stop flag (`YXSTOP`, `STOP`,
//! `INFO timeout_turn 0`; `END` ends the whole process at once). Players call [`SearchControl::should_stop`] often — at least
//! every millisecond of work — so that the move is out less than 10 ms after either event.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::search::timeman::TimeBudget;

/// Where a search reports its progress (one line per completed iteration): the brain writes
/// them as `MESSAGE` lines while the move is still due.
pub type Reporter = Arc<dyn Fn(&str) + Send + Sync>;

/// Deadline, stop flag, optional depth / node limits and progress reporter of one search.
#[derive(Clone)]
pub struct SearchControl {
    budget: TimeBudget,
    stop: Arc<AtomicBool>,
    reporter: Option<Reporter>,
    /// `INFO max_depth` (plies), if limited.
    pub max_depth: Option<u32>,
    /// `INFO max_node`, if limited.
    pub max_nodes: Option<u64>,
    /// Search threads (`INFO thread_num`; 1 unless set).
    pub threads: usize,
    /// Root moves to search with full lines (`YXNBEST n`; 1 unless set).
    pub multi_pv: usize,
    /// Root moves not to search (`YXBLOCK`).
    pub excluded: Vec<crate::core::Pos>,
    /// Yixin-Board's analysis lines wanted (`INFO show_detail` ≥ 2): each iteration also
    /// reports `REALTIME BEST` and the raw `INFO PV …` lines (see `Iteration::yixin_info`).
    pub yixin_detail: bool,
}

impl SearchControl {
    /// A control for `budget` watching `stop`.
    pub fn new(budget: TimeBudget, stop: Arc<AtomicBool>) -> Self {
        SearchControl {
            budget,
            stop,
            reporter: None,
            max_depth: None,
            max_nodes: None,
            threads: 1,
            multi_pv: 1,
            excluded: Vec::new(),
            yixin_detail: false,
        }
    }

    /// This control, with progress reported to `reporter`.
    pub fn with_reporter(mut self, reporter: Reporter) -> Self {
        self.reporter = Some(reporter);
        self
    }

    /// This control with both budgets cut to at most `cap` from the triggering command's
    /// receipt (the stop flag, limits and reporter shared).
    pub fn capped(&self, cap: Duration) -> SearchControl {
        let received = self.budget.deadline - self.budget.hard;
        let hard = self.budget.hard.min(cap);
        let mut capped = self.clone();
        capped.budget = TimeBudget {
            soft: self.budget.soft.min(cap),
            hard,
            deadline: received + hard,
        };
        capped
    }

    /// A control for a part of this search's work (an opening decision weighs several
    /// positions): `share` of time from now, never past this control's deadline, the same stop
    /// flag, threads and limits, no reporter, no analysis lines, one line unless `multi_pv` says.
    pub fn slice(&self, share: Duration, multi_pv: usize) -> SearchControl {
        let now = Instant::now();
        let hard = share.min(self.budget.deadline.saturating_duration_since(now));
        SearchControl {
            budget: TimeBudget {
                soft: hard,
                hard,
                deadline: now + hard,
            },
            stop: self.stop.clone(),
            reporter: None,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            threads: self.threads,
            multi_pv: multi_pv.max(1),
            excluded: Vec::new(),
            yixin_detail: false,
        }
    }

    /// The time left of the soft budget (what an opening decision spreads over its searches).
    pub fn soft_left(&self) -> Duration {
        self.budget.soft.saturating_sub(self.elapsed())
    }

    /// The reporter, if any.
    pub fn reporter(&self) -> Option<&Reporter> {
        self.reporter.as_ref()
    }

    /// Reports a line of progress (nothing without a reporter).
    pub fn report(&self, text: &str) {
        if let Some(r) = &self.reporter {
            r(text);
        }
    }

    /// A control with `millis` of soft and hard time from now and its own stop flag (tests, tools).
    pub fn for_millis(millis: u64) -> Self {
        let now = Instant::now();
        let d = Duration::from_millis(millis);
        SearchControl::new(
            TimeBudget {
                soft: d,
                hard: d,
                deadline: now + d,
            },
            Arc::new(AtomicBool::new(false)),
        )
    }

    /// A control that only a node budget ends (its clock is a year): the same search on every
    /// machine, for the data and match tools.
    pub fn for_nodes(nodes: u64) -> Self {
        let mut control = SearchControl::for_millis(365 * 24 * 3600 * 1000);
        control.max_nodes = Some(nodes);
        control
    }

    /// The time budget.
    #[inline]
    pub fn budget(&self) -> &TimeBudget {
        &self.budget
    }

    /// The stop flag shared with the session.
    pub fn stop_flag(&self) -> &Arc<AtomicBool> {
        &self.stop
    }

    /// Raises the stop flag.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Time since the triggering command was received.
    pub fn elapsed(&self) -> Duration {
        let received = self.budget.deadline - self.budget.hard;
        received.elapsed()
    }

    /// True once the stop flag is raised.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// True when the search must end now: stop flag raised or hard deadline reached.
    pub fn should_stop(&self) -> bool {
        self.stop_requested() || Instant::now() >= self.budget.deadline
    }

    /// True once the soft deadline has passed (do not start another iteration) or the search
    /// must stop.
    pub fn soft_expired(&self) -> bool {
        self.should_stop() || Instant::now() >= self.budget.soft_deadline()
    }

    /// True when the budget asks for an answer at once (`timeout_turn 0`, no time left).
    pub fn is_immediate(&self) -> bool {
        self.budget.is_immediate()
    }
}

impl std::fmt::Debug for SearchControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchControl")
            .field("budget", &self.budget)
            .field("stop", &self.stop)
            .field("reporter", &self.reporter.is_some())
            .field("max_depth", &self.max_depth)
            .field("max_nodes", &self.max_nodes)
            .field("threads", &self.threads)
            .field("multi_pv", &self.multi_pv)
            .field("excluded", &self.excluded)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_on_flag_and_deadline() {
        let c = SearchControl::for_millis(10_000);
        assert!(!c.should_stop());
        assert!(!c.soft_expired());
        c.stop();
        assert!(c.should_stop() && c.soft_expired() && c.stop_requested());

        let c = SearchControl::for_millis(0);
        assert!(c.should_stop());
        assert!(c.is_immediate());
        assert!(!c.stop_requested());

        let c = SearchControl::for_millis(20);
        std::thread::sleep(Duration::from_millis(25));
        assert!(c.should_stop());
    }
}
