//! Move choosers behind one interface, [`Player`]: what the brain's session asks of an engine —
//! a legal move for the side to move of a [`Board`], under a [`SearchControl`] (deadline, stop
//! flag), with tables sized by a [`MemoryBudget`].
//!
//! * [`SearchPlayer`] ([`search_player`]): the main search, the brain's default player.
//! * [`OnePlyPlayer`] ([`one_ply`]): one-ply play by the core's threat classes (wins, blocks
//!   fives, never plays an avoidable renju foul), with a seam for a forced-win probe: the
//!   baseline behind the hidden `--player one-ply` flag.
//! * [`win_probe`]: the [`WinProbe`] seam and [`ThreatProbe`], the VCF/VCT solvers as a probe.
//! * [`RandomPlayer`] ([`random_player`]): a uniformly random legal move (the hidden
//!   `--weak random` mode the match runner's tests use).
//! * [`fallback`]: the quickest reasonable move, shared by the players and the session's
//!   safety net.
//! * [`opening`]: opening decisions (Swap2, swap after three, Soosorv-8, balancing moves) by
//!   any player's [`Player::analyse`].

pub mod fallback;
pub mod one_ply;
pub mod opening;
pub mod random_player;
pub mod search_player;
pub mod win_probe;

pub use one_ply::OnePlyPlayer;
pub use random_player::RandomPlayer;
pub use search_player::SearchPlayer;
pub use win_probe::{ThreatProbe, WinProbe};

use crate::core::{Board, Pos};
use crate::search::{MemoryBudget, SearchControl};

/// Optional facts about a finished search, printed as one `MESSAGE` line before the move.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SearchInfo {
    /// Depth reached (plies).
    pub depth: u32,
    /// Evaluation of the chosen move from the mover's point of view (engine units).
    pub eval: i32,
    /// Positions examined.
    pub nodes: u64,
    /// Principal variation, first move first.
    pub pv: Vec<Pos>,
}

impl SearchInfo {
    /// The `MESSAGE` text (without the `MESSAGE ` prefix) on a board `height` rows tall, in the
    /// search's format (protocol.md §8): `depth <d>-<d> ev <eval> n <nodes> n/s <rate> tm <ms>
    /// pv <h8 i9 …> (<7,7 8,6 …>)`.
    pub fn message(&self, elapsed_ms: u128, height: usize) -> String {
        crate::search::Iteration {
            depth: self.depth as i32,
            seldepth: self.depth as i32,
            // Players' own scales (the one-ply player's) are shown within the evaluation's.
            value: self
                .eval
                .clamp(-crate::eval::EVAL_MAX, crate::eval::EVAL_MAX),
            nodes: self.nodes,
            elapsed: std::time::Duration::from_millis(elapsed_ms as u64),
            pv: self.pv.clone(),
            hashfull: 0,
            lines: Vec::new(),
        }
        .message(height)
    }
}

/// What a [`Player`] returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The move: an empty cell of the board the player was given.
    pub best: Pos,
    /// Statistics for the `MESSAGE` line, if the player has any.
    pub info: Option<SearchInfo>,
}

/// What [`Player::analyse`] finds: the position's value and its best moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The value of the position for the side to move (engine units, the evaluation's scale),
    /// when the player searched one (`None`: it only chose a move).
    pub value: Option<i32>,
    /// The best root moves with their values for the side to move, best first (as many as the
    /// control's `multi_pv` asks and the search completed; at least the chosen move).
    pub lines: Vec<(i32, Pos)>,
}

/// An engine that chooses moves.
///
/// Contract: [`Player::choose`] is called with a board that has at least one empty cell and whose
/// side to move is the engine's colour. It must return an empty cell of that board — under renju a
/// non-foul one for black whenever one exists — and must return promptly (within a few
/// milliseconds) once [`SearchControl::should_stop`] turns true. It may make and undo moves on the
/// board but must leave it as it found it. The session double-checks the move and falls back to
/// [`fallback::fallback_move`] if the contract is broken or the player panics.
pub trait Player: Send {
    /// A short name for messages (`first`, `random`, …).
    fn name(&self) -> &str;

    /// Chooses a move for the side to move.
    fn choose(&mut self, board: &mut Board, control: &SearchControl) -> SearchOutcome;

    /// Searches the position for its value and its best moves (`control.multi_pv` of them),
    /// without the shortcuts of a game move (no root probe): what opening decisions and
    /// pondering ask. Players without a search answer with their move and no value.
    fn analyse(&mut self, board: &mut Board, control: &SearchControl) -> Analysis {
        let best = self.choose(board, control).best;
        Analysis {
            value: None,
            lines: vec![(0, best)],
        }
    }

    /// Sizes the player's tables (transposition table, caches) to `budget`. Called before the
    /// first search and whenever `max_memory` / `hash_size` change. Players without tables keep
    /// nothing to resize and ignore it.
    fn set_memory(&mut self, budget: &MemoryBudget) {
        let _ = budget;
    }

    /// Forgets everything learnt from earlier positions (`YXHASHCLEAR`, a new game). Players that
    /// keep nothing between moves ignore it.
    fn clear(&mut self) {}
}
