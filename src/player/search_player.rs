//! [`SearchPlayer`]: the brain's default player, the main search ([`Searcher`]).
//!
//! Each completed iteration is reported through the search control (the brain prints it as
//! a `MESSAGE` line before the move: depth, selective depth, value or mate, nodes, nodes per
//! second, time and the principal variation). The table takes the whole of the engine's table
//! memory and lives from move to move; a new game or `YXHASHCLEAR` empties it.

use super::fallback::fallback_move;
use super::{Player, SearchInfo, SearchOutcome};
use crate::core::Board;
use crate::search::{MemoryBudget, SearchControl, Searcher};
use std::time::Duration;

/// The table size until the engine's memory budget says otherwise.
const DEFAULT_TABLE_BYTES: u64 = 16 << 20;

/// The main search as a player.
pub struct SearchPlayer {
    searcher: Searcher,
    think_cap: Option<Duration>,
}

impl Default for SearchPlayer {
    fn default() -> Self {
        SearchPlayer::new()
    }
}

impl SearchPlayer {
    /// A player with a 16 MiB table.
    pub fn new() -> SearchPlayer {
        SearchPlayer {
            searcher: Searcher::new(DEFAULT_TABLE_BYTES),
            think_cap: None,
        }
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
        let mut report = |it: &crate::search::Iteration| control.report(&it.message(height));
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

    fn set_memory(&mut self, budget: &MemoryBudget) {
        self.searcher.resize(budget.table_bytes.max(64 << 10));
    }

    fn clear(&mut self) {
        self.searcher.clear();
    }
}
