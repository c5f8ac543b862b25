//! The main search: iterative deepening over a principal-variation alpha-beta search with a
//! transposition table, threat-staged moves, static mate detection and a VCF quiescence
//! search. One [`Searcher`] lives for a whole game: its table and histories carry over from
//! move to move.
//!
//! The node function (`Searcher::search`) runs these steps:
//!
//! 1. At the horizon, the quiescence search (`Searcher::qsearch`).
//! 2. Count the node; stop on the limits; a full board is a draw.
//! 3. Mate-distance pruning: no line can beat a mate already found nearer the root.
//! 4. Static mate detection ([`super::mate::static_mate`]).
//! 5. Transposition table: a deep enough entry ends a non-PV node.
//! 6. Static evaluation (from the table when it has one).
//! 7. Pruning before the moves (see each step's comment for what a match measured).
//! 8. The moves, staged by the opponent's threats ([`MovePicker`]): the first with the full
//!    window, the others with a null window and a re-search when they beat alpha; a forced
//!    reply (the block of a four) does not cost depth.
//! 9. Histories, killers and the counter-move learn from a cut-off; the result goes to the table.
//!
//! The quiescence search is a VCF search: the side to move may stand pat on the evaluation or
//! play its fours; the opponent's only answer to a four is its block (a node with a five
//! threat searches nothing else); so at the horizon every continuous-four win is seen.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::control::SearchControl;
use super::history::{bonus, History};
use super::mate::{static_mate, StaticMate};
use super::movepick::{MovePicker, OrderHints, Stage};
use super::tt::{Bound, TranspositionTable};
use super::value::{
    describe, from_tt, is_mate, mate_in, mated_in, to_tt, Value, DRAW, INFINITE, MATE, MATE_BOUND,
};
use crate::core::notation::format_renju;
use crate::core::{Board, Pos, Rule, ThreatClass};
use crate::eval;
use crate::tactics::moves::{four_moves, MoveList};

/// The deepest ply searched.
pub const MAX_PLY: i32 = 96;
/// The table depth of quiescence entries.
const QS_DEPTH: i32 = -1;
/// Own fours the quiescence search plays in a row at most.
const QS_MAX_FOURS: i32 = 24;
/// Nodes between two reads of the clock.
const CHECK_EVERY: u64 = 1024;
/// The share of the soft budget after which a search whose best move has not changed over
/// the last iterations stops.
const STABLE_FACTOR: f64 = 0.8;

/// What one completed iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Depth in plies.
    pub depth: i32,
    /// The deepest ply reached.
    pub seldepth: i32,
    /// The value for the side to move.
    pub value: Value,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started (the triggering command's receipt in play).
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Pos>,
    /// Per mille of the table filled by this search.
    pub hashfull: u32,
}

impl Iteration {
    /// The `MESSAGE` text (without `MESSAGE `) for a board `height` rows tall:
    /// `depth 9-17 ev 35 n 123456 n/s 410000 tm 301 pv h8 i9 j10 (7,7 8,6 9,5)`.
    pub fn message(&self, height: usize) -> String {
        let ms = self.elapsed.as_millis();
        let nps = (self.nodes as u128 * 1000).checked_div(ms).unwrap_or(0);
        let names: Vec<String> = self
            .pv
            .iter()
            .map(|p| format_renju(p.x(), p.y(), height))
            .collect();
        let wire: Vec<String> = self
            .pv
            .iter()
            .map(|p| format!("{},{}", p.x(), p.y()))
            .collect();
        format!(
            "depth {}-{} ev {} n {} n/s {} tm {} pv {} ({})",
            self.depth,
            self.seldepth,
            describe(self.value),
            self.nodes,
            nps,
            ms,
            names.join(" "),
            wire.join(" ")
        )
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`None` only on a board without a legal move).
    pub best: Option<Pos>,
    /// The last completed iteration (depth 0 when none completed: the move is the best-ordered).
    pub last: Iteration,
}

/// One ply of the search stack.
#[derive(Clone, Copy, Default)]
struct Frame {
    killers: [Option<Pos>; 2],
    /// The node's static evaluation (`None`: not computed, or a node under a five threat).
    eval: Option<Value>,
}

/// The pruning and reduction steps, each of which can be switched off (the hidden brain flag
/// `--search-off`), so that a match measures what each one is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Step 7a: reverse futility pruning.
    pub reverse_futility: bool,
    /// Step 7b: razoring into the VCF search.
    pub razoring: bool,
    /// Step 7c: the null move.
    pub null_move: bool,
    /// Step 8a: late-move pruning (move-count pruning).
    pub late_move_pruning: bool,
    /// Step 8b: late-move reductions.
    pub late_move_reductions: bool,
    /// Step 7d: internal iterative reduction (no table move at a deep node).
    pub iir: bool,
    /// Step 8: the defence against an open three or a four-three costs no depth, like the
    /// block of a four (so a threat sequence costs one ply per threat).
    pub threat_extension: bool,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            reverse_futility: true,
            razoring: true,
            null_move: true,
            late_move_pruning: true,
            late_move_reductions: true,
            iir: true,
            threat_extension: true,
        }
    }
}

impl SearchParams {
    /// The names `--search-off` takes.
    pub const NAMES: [&'static str; 7] = [
        "rfp",
        "razoring",
        "nullmove",
        "lmp",
        "lmr",
        "iir",
        "threatext",
    ];

    /// These parameters with the named steps switched off (unknown names are an error).
    pub fn without(mut self, names: &str) -> Result<SearchParams, String> {
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "rfp" => self.reverse_futility = false,
                "razoring" => self.razoring = false,
                "nullmove" => self.null_move = false,
                "lmp" => self.late_move_pruning = false,
                "lmr" => self.late_move_reductions = false,
                "iir" => self.iir = false,
                "threatext" => self.threat_extension = false,
                other => {
                    return Err(format!(
                        "unknown search step {other} (known: {:?})",
                        Self::NAMES
                    ))
                }
            }
        }
        Ok(self)
    }
}

/// The reduction of the `count`-th move at `depth` (late-move reductions): grows with the
/// logarithms of both.
fn lmr_reduction(depth: i32, count: i32) -> i32 {
    let (d, c) = (depth.max(1) as f64, count.max(1) as f64);
    (0.4 + d.ln() * c.ln() / 2.3) as i32
}

/// The search's limits, read from a [`SearchControl`] or given by a bench.
#[derive(Clone, Default)]
struct Limits {
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    max_nodes: Option<u64>,
}

/// The main search, with its table and histories.
pub struct Searcher {
    params: SearchParams,
    tt: TranspositionTable,
    history: History,
    board: Board,
    nodes: u64,
    next_check: u64,
    seldepth: i32,
    stopped: bool,
    limits: Limits,
    stack: Vec<Frame>,
    /// Triangular principal-variation table: `pv[ply]` is the line from `ply` on.
    pv: Vec<Vec<Pos>>,
    started: Instant,
}

/// A root move and what the last iteration thought of it.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    mv: Pos,
    value: Value,
}

impl Searcher {
    /// A searcher whose table takes about `tt_bytes` bytes.
    pub fn new(tt_bytes: u64) -> Searcher {
        Searcher {
            params: SearchParams::default(),
            tt: TranspositionTable::new(tt_bytes),
            history: History::default(),
            board: Board::new(15, 15, Rule::Freestyle).expect("a 15x15 board"),
            nodes: 0,
            next_check: 0,
            seldepth: 0,
            stopped: false,
            limits: Limits::default(),
            stack: vec![Frame::default(); MAX_PLY as usize + 8],
            pv: vec![Vec::new(); MAX_PLY as usize + 8],
            started: Instant::now(),
        }
    }

    /// Uses `params` for the pruning and reduction steps.
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// Resizes the table (emptying it) to about `bytes` bytes, if its size differs.
    pub fn resize(&mut self, bytes: u64) {
        if self.tt.bytes() != (bytes / 64).max(1) * 64 {
            self.tt = TranspositionTable::new(bytes);
        }
    }

    /// The table's size in bytes.
    pub fn table_bytes(&self) -> u64 {
        self.tt.bytes()
    }

    /// Forgets the table and the histories (a new game, `YXHASHCLEAR`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
    }

    /// Searches `board` under `control` (its deadline, stop flag, depth and node limits),
    /// calling `on_iteration` after each completed iteration.
    pub fn search_move(
        &mut self,
        board: &Board,
        control: &SearchControl,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        let budget = control.budget();
        let received = budget.deadline - budget.hard;
        self.limits = Limits {
            deadline: Some(budget.deadline),
            stop: Some(control.stop_flag().clone()),
            max_nodes: control.max_nodes.filter(|&n| n > 0),
        };
        let max_depth = control
            .max_depth
            .map_or(MAX_PLY - 8, |d| (d as i32).clamp(1, MAX_PLY - 8));
        let soft = budget.soft;
        let immediate = control.is_immediate();
        // Under a turn limit alone (no match clock to save time for) the whole turn is used:
        // the last iteration, stopped at the deadline, still gives a better move when one
        // beat the old best.
        let turn_only = budget.soft >= budget.hard;
        self.run(board, received, max_depth, immediate, |it, changes| {
            on_iteration(it);
            if turn_only {
                return false;
            }
            // Stop between iterations: past the soft budget stretched when the best move keeps
            // changing and shrunk when it is settled; or when the next iteration (about twice
            // as long as this one) would end past the hard deadline.
            let factor = match changes {
                0 => STABLE_FACTOR,
                1 => 1.0,
                _ => 1.5,
            };
            let elapsed = it.elapsed;
            elapsed >= soft.mul_f64(factor) || received + elapsed * 2 >= budget.deadline
        })
    }

    /// Searches `board` to `depth` plies, with no time limit (benchmarks, tests).
    pub fn search_depth(&mut self, board: &Board, depth: i32) -> SearchResult {
        self.limits = Limits::default();
        self.run(
            board,
            Instant::now(),
            depth.clamp(1, MAX_PLY - 8),
            false,
            |_, _| false,
        )
    }

    /// Iterative deepening. `done(iteration, best-move changes in the last iterations)` says
    /// whether to stop after an iteration.
    fn run(
        &mut self,
        board: &Board,
        started: Instant,
        max_depth: i32,
        immediate: bool,
        mut done: impl FnMut(&Iteration, u32) -> bool,
    ) -> SearchResult {
        self.board = board.clone();
        eval::prepare(&mut self.board);
        self.started = started;
        self.nodes = 0;
        self.next_check = CHECK_EVERY;
        self.stopped = false;
        self.seldepth = 0;
        self.tt.new_search();
        for f in &mut self.stack {
            *f = Frame::default();
        }
        let tt_move = self.tt.probe(self.board.hash()).and_then(|e| e.mv);
        let last = self.board.last_move();
        let me = self.board.side_to_move();
        let counter = last.and_then(|l| self.history.counter_move(me, l));
        let hints = OrderHints {
            tt_move,
            killers: [None; 2],
            counter,
            history: &self.history,
        };
        let mut picker = MovePicker::new(&mut self.board, &hints);
        let mut moves = picker.drain(&mut self.board);
        if moves.is_empty() {
            // Lost to a threat nothing answers (or only fouls answer it): still a move, the
            // one that holds out longest among all candidates.
            let me = self.board.side_to_move();
            let all: Vec<Pos> = super::movepick::candidates(&self.board).iter().collect();
            moves = all
                .into_iter()
                .filter(|&p| self.board.is_legal(p, me))
                .collect();
        }
        let mut root: Vec<RootMove> = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                value: -INFINITE,
            })
            .collect();
        let mut result = SearchResult {
            best: root.first().map(|r| r.mv),
            last: Iteration {
                depth: 0,
                seldepth: 0,
                value: 0,
                nodes: 0,
                elapsed: Duration::ZERO,
                pv: root.first().map(|r| r.mv).into_iter().collect(),
                hashfull: 0,
            },
        };
        if root.is_empty() || immediate {
            return result;
        }
        // A five wins at once; a single legal move needs no search.
        if let Some(StaticMate::Win(1)) = static_mate(&mut self.board) {
            let five = self.board.threat_cells(me, ThreatClass::Five).first();
            result.best = five;
            result.last.value = mate_in(1);
            result.last.pv = five.into_iter().collect();
            return result;
        }
        let single = root.len() == 1;
        let mut changes = 0u32;
        let mut previous: Option<Value> = None;
        for depth in 1..=max_depth {
            let value = self.aspiration(&mut root, depth, previous);
            if self.stopped {
                // A move that beat the last iteration's best before the stop is taken: it
                // was searched to this iteration's depth, the old best too.
                if depth > 1 && Some(root[0].mv) != result.best && root[0].value > -INFINITE {
                    result.best = Some(root[0].mv);
                    result.last.pv = vec![root[0].mv];
                }
                break;
            }
            let best = root[0].mv;
            if result.best != Some(best) {
                changes += 2;
            }
            changes /= 2;
            let mut pv = vec![best];
            pv.extend(self.pv[1].iter().copied());
            result.best = Some(best);
            result.last = Iteration {
                depth,
                seldepth: self.seldepth,
                value,
                nodes: self.nodes,
                elapsed: started.elapsed(),
                pv,
                hashfull: self.tt.hashfull(),
            };
            previous = Some(value);
            // A proven result needs no deeper look.
            let proven = is_mate(value) && depth > (MATE - value.abs()) + 1;
            if single || proven || done(&result.last, changes) {
                break;
            }
        }
        result
    }

    /// One iteration at `depth`, with an aspiration window around the last value from depth 5.
    fn aspiration(&mut self, root: &mut [RootMove], depth: i32, previous: Option<Value>) -> Value {
        let mut delta = 30;
        let (mut alpha, mut beta) = match previous {
            Some(v) if depth >= 5 && !is_mate(v) => (v - delta, v + delta),
            _ => (-INFINITE, INFINITE),
        };
        loop {
            let value = self.search_root(root, depth, alpha, beta);
            if self.stopped {
                return value;
            }
            if value <= alpha {
                alpha = (alpha - delta).max(-INFINITE);
            } else if value >= beta {
                beta = (beta + delta).min(INFINITE);
            } else {
                return value;
            }
            delta += delta / 2 + 10;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// The root: every root move, best of the last iteration first; the best moves to the front.
    fn search_root(
        &mut self,
        root: &mut [RootMove],
        depth: i32,
        mut alpha: Value,
        beta: Value,
    ) -> Value {
        let mut best = -INFINITE;
        self.pv[0].clear();
        for i in 0..root.len() {
            let mv = root[i].mv;
            self.board.make_move(mv);
            let value = if i == 0 {
                -self.search(-beta, -alpha, depth - 1, 1, true, false)
            } else {
                let mut v = -self.search(-alpha - 1, -alpha, depth - 1, 1, false, true);
                if v > alpha && v < beta && !self.stopped {
                    v = -self.search(-beta, -alpha, depth - 1, 1, true, false);
                }
                v
            };
            self.board.undo();
            if self.stopped {
                return best.max(alpha);
            }
            root[i].value = if value > alpha || i == 0 {
                value
            } else {
                -INFINITE
            };
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    let line = std::mem::take(&mut self.pv[1]);
                    self.pv[0].clear();
                    self.pv[0].push(mv);
                    self.pv[0].extend(line.iter().copied());
                    self.pv[1] = line;
                    // The new best goes first, the others keep their order.
                    root[..=i].rotate_right(1);
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        // The principal line from ply 1, for the iteration report.
        let line: Vec<Pos> = self.pv[0].iter().skip(1).copied().collect();
        self.pv[1] = line;
        best
    }

    /// Counts a node; true when the search must stop (then `stopped` is set).
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            let over_time = self.limits.deadline.is_some_and(|d| Instant::now() >= d);
            let flagged = self
                .limits
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed));
            let over_nodes = self.limits.max_nodes.is_some_and(|n| self.nodes >= n);
            if over_time || flagged || over_nodes {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// The alpha-beta node (see the module docs for its steps).
    fn search(
        &mut self,
        mut alpha: Value,
        mut beta: Value,
        depth: i32,
        ply: i32,
        pv_node: bool,
        cut_node: bool,
    ) -> Value {
        // Step 1. The horizon: the VCF quiescence search.
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0);
        }
        // Step 2. Count the node, check the limits.
        self.pv[ply as usize].clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.board.is_full() {
            return DRAW;
        }
        if ply >= MAX_PLY {
            return eval::evaluate(&self.board);
        }
        // Step 3. Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        // Step 4. Static mate detection (the winning move starts the principal line).
        match static_mate(&mut self.board) {
            Some(StaticMate::Win(n)) => {
                if pv_node {
                    let first = self.winning_move(n);
                    self.pv[ply as usize].extend(first);
                }
                return mate_in(ply + n);
            }
            Some(StaticMate::Loss(n)) => return mated_in(ply + n),
            None => {}
        }
        // Step 5. The transposition table.
        let key = self.board.hash();
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv).filter(|&m| self.board.is_empty(m));
        if let Some(e) = entry {
            if !pv_node && e.depth >= depth {
                let v = from_tt(e.value, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if cut {
                    return v;
                }
            }
        }
        // Step 6. The static evaluation.
        let me = self.board.side_to_move();
        let opp = me.opponent();
        let static_eval = match entry {
            Some(e) => e.eval,
            None => eval::evaluate(&self.board),
        };
        self.stack[ply as usize].eval = Some(static_eval);
        let improving = ply >= 2
            && self.stack[ply as usize - 2]
                .eval
                .is_some_and(|before| static_eval > before);
        // The opponent threatens something that must be answered: no pruning on the eval.
        let threatened = self.board.has_five_point(opp)
            || self.board.threat_count(opp, ThreatClass::Flex4) > 0
            || self.board.threat_count(opp, ThreatClass::Block4Flex3) > 0;
        let p = self.params;

        // Step 7a. Reverse futility: a quiet node far above beta stays there.
        // (+68.6 ± 49.1 Elo against the same build without it: 200 games, freestyle 15×15,
        // 150 ms a move, balanced openings; so for every step below.)
        if p.reverse_futility
            && !pv_node
            && !threatened
            && depth <= 6
            && !is_mate(beta)
            && static_eval - (70 * depth - 30 * improving as i32) >= beta
        {
            return static_eval;
        }
        // Step 7b. Razoring: far below alpha, only a VCF can save the node. (+47.2 ± 48.3)
        if p.razoring && !pv_node && !threatened && depth <= 3 && static_eval + 250 * depth < alpha
        {
            let v = self.qsearch(alpha - 1, alpha, ply, 0);
            if self.stopped {
                return 0;
            }
            if v < alpha {
                return v;
            }
        }
        // Step 7c. Null move: if passing still fails high, the node is not worth a full search.
        // (+29.6 ± 48.3)
        if p.null_move
            && !pv_node
            && !threatened
            && depth >= 5
            && static_eval >= beta
            && !is_mate(beta)
            && ply >= 1
        {
            let r = 3 + depth / 4;
            self.board.pass();
            let v = -self.search(-beta, -beta + 1, depth - r - 1, ply + 1, false, !cut_node);
            self.board.pass();
            if self.stopped {
                return 0;
            }
            if v >= beta {
                return if is_mate(v) { beta } else { v };
            }
        }
        // Step 7d. Internal iterative reduction: a deep node without a table move is searched
        // one ply shallower (its move order is a guess anyway). (+47.2 ± 48.6)
        let depth = if p.iir && depth >= 6 && tt_move.is_none() {
            depth - 1
        } else {
            depth
        };

        // Step 8. The moves.
        let last = self.board.last_move();
        let frame = self.stack[ply as usize];
        let counter = last.and_then(|l| self.history.counter_move(me, l));
        let hints = OrderHints {
            tt_move,
            killers: frame.killers,
            counter,
            history: &self.history,
        };
        let mut picker = MovePicker::new(&mut self.board, &hints);
        // A forced reply (the block of a four) costs no depth; nor, with the threat extension,
        // a defence against an open three or a four-three (a counter-four does: the defender's
        // fours would otherwise be free over and over). (Threat extension: +22.6 ± 48.2)
        let defending = p.threat_extension
            && matches!(
                picker.stage,
                Stage::DefendOpenThree | Stage::DefendFourThree
            );
        let new_depth = if picker.stage == Stage::Forced {
            depth
        } else {
            depth - 1
        };
        let quiet_stage = picker.stage == Stage::All;
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut tried: MoveList = MoveList::new();
        let mut count = 0;
        while let Some(mv) = picker.next_move(&mut self.board) {
            count += 1;
            // A quiet move: it makes no three or four, nor takes one from the opponent.
            let quiet = quiet_stage
                && !self.board.threat(mv, me).is_three_or_better()
                && !self.board.threat(mv, opp).is_three_or_better()
                && Some(mv) != tt_move;
            // Step 8a. Late-move pruning: at a shallow non-PV node, quiet moves late in the
            // order are not searched. (+81.4 ± 49.6)
            if p.late_move_pruning
                && !pv_node
                && quiet
                && depth <= 8
                && best > -MATE_BOUND
                && count > (3 + depth * depth) / (2 - improving as i32)
            {
                continue;
            }
            let new_depth = if defending && !self.board.threat(mv, me).is_four() {
                depth
            } else {
                new_depth
            };
            self.board.make_move(mv);
            let value = if count == 1 {
                -self.search(-beta, -alpha, new_depth, ply + 1, pv_node, !cut_node)
            } else {
                // Step 8b. Late-move reductions: quiet late moves are searched shallower
                // first, and again at full depth only when they beat alpha. (+40.1 ± 48.2)
                let mut r = 0;
                if p.late_move_reductions && quiet && depth >= 3 {
                    r = lmr_reduction(depth, count);
                    r -= pv_node as i32;
                    r += cut_node as i32;
                    if frame.killers.contains(&Some(mv)) || counter == Some(mv) {
                        r -= 1;
                    }
                    r -= self.history.score(me, mv) / 6000;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut v = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
                if v > alpha && r > 0 && !self.stopped {
                    v = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
                }
                if v > alpha && v < beta && pv_node && !self.stopped {
                    v = -self.search(-beta, -alpha, new_depth, ply + 1, true, false);
                }
                v
            };
            self.board.undo();
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(mv);
                    alpha = value;
                    if pv_node {
                        self.extend_pv(ply, mv);
                    }
                    if value >= beta {
                        // Step 9. A cut-off teaches the move order.
                        self.learn_cutoff(mv, &tried, depth, ply);
                        break;
                    }
                }
            }
            tried.push(mv);
        }
        if count == 0 {
            // No legal move: a full board is a draw (handled above), every move a renju foul
            // loses, and a threat that nothing answers wins for the opponent.
            return match picker.stage {
                Stage::All => mated_in(ply + 1),
                Stage::Forced => mated_in(ply + 2),
                Stage::DefendOpenThree => mated_in(ply + 4),
                // (Not reached: stage 3 with no defence falls back to every candidate.)
                Stage::DefendFourThree => mated_in(ply + 6),
            };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            static_eval,
            depth,
            bound,
            pv_node,
        );
        best
    }

    /// Makes `mv` followed by the line from `ply + 1` the principal line from `ply`.
    #[inline]
    fn extend_pv(&mut self, ply: i32, mv: Pos) {
        let (head, tail) = self.pv.split_at_mut(ply as usize + 1);
        let line = &mut head[ply as usize];
        line.clear();
        line.push(mv);
        line.extend(tail[0].iter().copied());
    }

    /// The first move of a static win in `n` plies: the five, the open four, the four-three or
    /// the double three.
    fn winning_move(&self, n: i32) -> Option<Pos> {
        let me = self.board.side_to_move();
        let classes: &[ThreatClass] = match n {
            1 => &[ThreatClass::Five],
            3 => &[ThreatClass::Flex4],
            _ => &[ThreatClass::Flex3x2, ThreatClass::Block4Flex3],
        };
        classes
            .iter()
            .find_map(|&c| self.board.threat_cells(me, c).first())
    }

    /// Histories, killers and the counter-move after `mv` refuted the node.
    fn learn_cutoff(&mut self, mv: Pos, tried: &[Pos], depth: i32, ply: i32) {
        let me = self.board.side_to_move();
        let b = bonus(depth);
        self.history.update(me, mv, b);
        for &m in tried {
            self.history.update(me, m, -b);
        }
        let frame = &mut self.stack[ply as usize];
        if frame.killers[0] != Some(mv) {
            frame.killers[1] = frame.killers[0];
            frame.killers[0] = Some(mv);
        }
        if let Some(last) = self.board.last_move() {
            self.history.set_counter_move(me, last, mv);
        }
    }

    /// The VCF quiescence search: stand pat or play a four; answer a four by its block.
    fn qsearch(&mut self, mut alpha: Value, mut beta: Value, ply: i32, fours: i32) -> Value {
        self.pv[ply as usize].clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.board.is_full() {
            return DRAW;
        }
        if ply >= MAX_PLY {
            return eval::evaluate(&self.board);
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        match static_mate(&mut self.board) {
            Some(StaticMate::Win(n)) => {
                let first = self.winning_move(n);
                self.pv[ply as usize].extend(first);
                return mate_in(ply + n);
            }
            Some(StaticMate::Loss(n)) => return mated_in(ply + n),
            None => {}
        }
        let me = self.board.side_to_move();
        let opp = me.opponent();
        // The opponent's four: its block is the only move (it exists: static mate said so).
        if self.board.has_five_point(opp) {
            let stops: Vec<Pos> = self.board.five_stoppers(opp).into_iter().collect();
            let mut best = -INFINITE;
            for s in stops {
                if !self.board.is_legal(s, me) {
                    continue;
                }
                self.board.make_move(s);
                let v = -self.qsearch(-beta, -alpha, ply + 1, fours);
                self.board.undo();
                if self.stopped {
                    return 0;
                }
                if v > best {
                    best = v;
                    self.extend_pv(ply, s);
                }
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
            return if best == -INFINITE {
                mated_in(ply + 2)
            } else {
                best
            };
        }
        let key = self.board.hash();
        let entry = self.tt.probe(key);
        if let Some(e) = entry {
            if e.depth >= QS_DEPTH {
                let v = from_tt(e.value, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if cut {
                    return v;
                }
            }
        }
        let static_eval = entry.map_or_else(|| eval::evaluate(&self.board), |e| e.eval);
        if static_eval >= beta {
            return static_eval;
        }
        let original_alpha = alpha;
        let mut best = static_eval;
        alpha = alpha.max(static_eval);
        let mut best_move = None;
        if fours < QS_MAX_FOURS {
            let mut moves = MoveList::new();
            four_moves(&mut self.board, me, &mut moves);
            for mv in moves {
                self.board.make_move(mv);
                let v = -self.qsearch(-beta, -alpha, ply + 1, fours + 1);
                self.board.undo();
                if self.stopped {
                    return 0;
                }
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        best_move = Some(mv);
                        self.extend_pv(ply, mv);
                        if v >= beta {
                            break;
                        }
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            static_eval,
            QS_DEPTH,
            bound,
            false,
        );
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::value::MATE_BOUND;

    /// Whether `v` is a win for the side to move at least as near as `plies`.
    fn wins_within(v: Value, plies: i32) -> bool {
        v >= MATE_BOUND && MATE - v <= plies
    }

    fn board(rule: Rule, moves: &str) -> Board {
        Board::from_pos_string(15, 15, rule, moves).unwrap()
    }

    #[test]
    fn finds_the_five_and_the_open_four() {
        let mut s = Searcher::new(1 << 20);
        // Black to move with a four: five at once.
        let b = board(Rule::Freestyle, "h8g8i8a1j8a3k8a5");
        let r = s.search_depth(&b, 3);
        assert_eq!(r.best, Some(Pos::new(11, 7)));
        assert_eq!(r.last.value, mate_in(1));
        // Black to move with an open three: the open four wins in 3.
        let b = board(Rule::Freestyle, "h8a1i8a3j8a5");
        let r = s.search_depth(&b, 4);
        assert!(wins_within(r.last.value, 3), "{}", describe(r.last.value));
        let m = r.best.unwrap();
        assert!(m == Pos::new(6, 7) || m == Pos::new(10, 7), "{m:?}");
    }
}
