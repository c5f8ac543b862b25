//! [`SearchPlayer`]: the brain's default player, the main search ([`Searcher`]).
//!
//! Each completed iteration is reported through the search control (the brain prints it as
//! a `MESSAGE` line before the move: depth, selective depth, value or mate, nodes, nodes per
//! second, time and the principal variation). The table takes the whole of the engine's table
//! memory and lives from move to move; a new game or `YXHASHCLEAR` empties it.

use super::fallback::fallback_move;
use super::win_probe::{ThreatProbe, WinProbe};
use super::{Analysis, Player, SearchInfo, SearchOutcome};
use crate::core::notation::format_renju;
use crate::core::Board;
use crate::search::{MemoryBudget, SearchControl, Searcher};
use std::time::Duration;

/// The table size until the engine's memory budget says otherwise.
const DEFAULT_TABLE_BYTES: u64 = 16 << 20;

/// The main search as a player.
pub struct SearchPlayer {
    searcher: Searcher,
    think_cap: Option<Duration>,
    /// The root's VCF/VCT probe, if on: a threat-space win beyond the search's horizon is
    /// played at once.
    probe: Option<ThreatProbe>,
}

/// The root probe's VCF and VCT searches get this fraction of the soft budget (1/n) when it
/// is on ([`SearchPlayer::with_probe`]). Off by default: the search without it against the
/// search with it, +16.5 Elo over 1,200 games (freestyle 15×15, 150 ms a move) and +25.0 ±
/// 27.4 over 600 (renju): the budget's 3/16 are worth more to the search, whose VCF
/// quiescence and threat extension see most of what the probe found.
const PROBE_SHARES: (u32, u32) = (16, 8);

impl Default for SearchPlayer {
    fn default() -> Self {
        SearchPlayer::new()
    }
}

impl SearchPlayer {
    /// A player with a 16 MiB table and no root probe.
    pub fn new() -> SearchPlayer {
        SearchPlayer {
            searcher: Searcher::new(DEFAULT_TABLE_BYTES),
            think_cap: None,
            probe: None,
        }
    }

    /// Plays with the root's VCF/VCT probe before the search (the variant of the match that
    /// measures it).
    pub fn with_probe(mut self) -> Self {
        self.probe = Some(ThreatProbe::new().with_shares(PROBE_SHARES.0, PROBE_SHARES.1));
        self
    }

    /// Uses `params` for the search's pruning and reduction steps.
    pub fn with_params(mut self, params: crate::search::searcher::SearchParams) -> Self {
        self.searcher.set_params(params);
        self
    }

    /// Sets the longest time a move may take, whatever the manager allows (tests, demos).
    pub fn with_think_cap(mut self, cap: Duration) -> Self {
        self.think_cap = Some(cap);
        self
    }
}

impl Player for SearchPlayer {
    fn name(&self) -> &str {
        "search"
    }

    fn choose(&mut self, board: &mut Board, control: &SearchControl) -> SearchOutcome {
        let height = board.height();
        let capped = self.think_cap.map(|cap| control.capped(cap));
        let control = capped.as_ref().unwrap_or(control);
        // Analysis (several lines, moves kept out) wants the search's answer, not the probe's.
        let analysis = control.multi_pv > 1 || !control.excluded.is_empty();
        if let Some(probe) = self.probe.as_mut().filter(|_| !analysis) {
            if let Some(win) = probe.find_win(board, control) {
                if board.is_legal(win, board.side_to_move()) {
                    control.report(&format!(
                        "depth 0 ev VCT n 0 tm {} pv {} ({},{})",
                        control.elapsed().as_millis(),
                        format_renju(win.x(), win.y(), height),
                        win.x(),
                        win.y()
                    ));
                    return SearchOutcome {
                        best: win,
                        info: None,
                    };
                }
            }
        }
        let mut report = |it: &crate::search::Iteration| {
            for line in it.messages(height) {
                control.report(&line);
            }
            if control.yixin_detail {
                if let Some(best) = it.pv.first() {
                    // The iteration's marks are cleared, its best move shown.
                    control.report("REALTIME REFRESH");
                    control.report(&format!("REALTIME BEST {},{}", best.x(), best.y()));
                }
                for line in it.yixin_info() {
                    control.report(&line);
                }
            }
        };
        let result = self.searcher.search_move(board, control, &mut report);
        let best = result
            .best
            .filter(|&p| board.is_legal(p, board.side_to_move()))
            .or_else(|| fallback_move(board))
            .expect("a board with an empty cell");
        // Every completed iteration has been reported; a search that completed none (no time,
        // a single answer) says what it played.
        let info = (result.last.depth == 0).then(|| SearchInfo {
            depth: 0,
            eval: result.last.value,
            nodes: result.last.nodes,
            pv: vec![best],
        });
        SearchOutcome { best, info }
    }

    fn analyse(&mut self, board: &mut Board, control: &SearchControl) -> Analysis {
        let result = self.searcher.search_move(board, control, &mut |_| {});
        let me = board.side_to_move();
        let mut lines: Vec<(i32, crate::core::Pos)> = result
            .last
            .lines
            .iter()
            .filter_map(|(v, line)| line.first().map(|&m| (*v, m)))
            .collect();
        if lines.is_empty() {
            if let Some(best) = result.best.or_else(|| fallback_move(board)) {
                lines.push((result.last.value, best));
            }
        }
        lines.retain(|&(_, m)| board.is_legal(m, me));
        Analysis {
            // No completed iteration: no value worth deciding on.
            value: (result.last.depth > 0).then_some(result.last.value),
            lines,
        }
    }

    fn set_memory(&mut self, budget: &MemoryBudget) {
        // The probe takes a quarter of the table memory (see ThreatProbe), the search the rest.
        let share = if self.probe.is_some() { 3 } else { 4 };
        self.searcher
            .resize((budget.table_bytes / 4 * share).max(64 << 10));
        if let Some(p) = self.probe.as_mut() {
            p.set_memory(budget);
        }
    }

    fn clear(&mut self) {
        self.searcher.clear();
        if let Some(p) = self.probe.as_mut() {
            p.clear();
        }
    }
}
