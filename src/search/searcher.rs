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
//! 6. Static evaluation (from the table when it has one); for the pruning steps, the table's
//!    value instead where its bound says it is the better guess.
//! 7. Pruning before the moves (see each step's comment for what a match measured).
//! 8. The moves, staged by the opponent's threats ([`MovePicker`]): the first with the full
//!    window, the others with a null window and a re-search when they beat alpha; a forced
//!    reply (the block of a four) does not cost depth.
//! 9. Histories, killers and the counter-move learn from a cut-off; the result goes to the table.
//!
//! The quiescence search is a VCF search: the side to move may stand pat on the evaluation or
//! play its fours; the opponent's only answer to a four is its block (a node with a five
//! threat searches nothing else). Like Rapfi's, it plays only fours near its own last stone
//! (two cells around it, four along its lines), and after two of them only fours that make
//! something more: so at the horizon the continuous-four wins that build on the last stones
//! are seen, without the whole board's fours at every leaf (the root's VCF probe still looks
//! at every four).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::control::SearchControl;
use super::history::{bonus, History};
use super::mate::{static_mate, StaticMate};
use super::movepick::{MovePicker, OrderHints, Stage};
pub use super::params::SearchParams;
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
/// The table depth of quiescence entries that tried every four.
const QS_DEPTH: i32 = -1;
/// The table depth of quiescence entries that tried only combination fours.
const QS_DEPTH_NARROW: i32 = -2;
/// Own fours after which the quiescence search plays only fours that make something more
/// (a three or a second four) besides.
const QS_PLAIN_FOURS: i32 = 2;
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
    /// Multi-PV (`YXNBEST n`): the best root moves' values and lines, best first (the first is
    /// `value` and `pv`); empty for a single-PV search.
    pub lines: Vec<(Value, Vec<Pos>)>,
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

impl Iteration {
    /// The `MESSAGE` texts of this iteration: [`Iteration::message`] alone, or with multi-PV
    /// one line per root move, best first, each `multipv <k>` after the depth (`k` from 1) with
    /// its own value and line (protocol.md §8).
    pub fn messages(&self, height: usize) -> Vec<String> {
        if self.lines.len() <= 1 {
            return vec![self.message(height)];
        }
        self.lines
            .iter()
            .enumerate()
            .map(|(k, (value, line))| {
                let one = Iteration {
                    value: *value,
                    pv: line.clone(),
                    lines: Vec::new(),
                    ..self.clone()
                };
                let text = one.message(height);
                // `depth 9-17 ev …` → `depth 9-17 multipv 2 ev …`
                match text.find(" ev ") {
                    Some(at) => format!("{} multipv {}{}", &text[..at], k + 1, &text[at..]),
                    None => text,
                }
            })
            .collect()
    }
}

impl Iteration {
    /// Yixin-Board's analysis lines for this iteration (raw `INFO …` lines, sent when the GUI
    /// asks with `INFO show_detail` ≥ 2): for each line `k` (from 0) `INFO PV k`, `INFO NUMPV n`,
    /// `INFO DEPTH d`, `INFO SELDEPTH s`, `INFO NODES n`, `INFO EVAL v`, `INFO WINRATE w`
    /// (0–1, from the evaluation's scale), `INFO BESTLINE x,y x,y …` and `INFO PV DONE`, which
    /// the GUI turns into a win-rate label on each line's first move.
    pub fn yixin_info(&self) -> Vec<String> {
        let single = [(self.value, self.pv.clone())];
        let lines: &[(Value, Vec<Pos>)] = if self.lines.is_empty() {
            &single
        } else {
            &self.lines
        };
        let mut out = Vec::new();
        for (k, (value, line)) in lines.iter().enumerate() {
            let best: Vec<String> = line
                .iter()
                .map(|p| format!("{},{}", p.x(), p.y()))
                .collect();
            out.push(format!("INFO PV {k}"));
            out.push(format!("INFO NUMPV {}", lines.len()));
            out.push(format!("INFO DEPTH {}", self.depth));
            out.push(format!("INFO SELDEPTH {}", self.seldepth));
            out.push(format!("INFO NODES {}", self.nodes));
            out.push(format!("INFO EVAL {}", describe(*value)));
            out.push(format!("INFO WINRATE {:.4}", win_rate(*value)));
            out.push(format!("INFO BESTLINE {}", best.join(" ")));
            out.push("INFO PV DONE".to_owned());
        }
        out
    }
}

/// The win probability of a value for the side to move (the evaluation's scale:
/// `1 / (1 + exp(−v / 200))`; a mate is certain).
pub fn win_rate(v: Value) -> f64 {
    if v >= MATE_BOUND {
        1.0
    } else if v <= -MATE_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-(v as f64) / 200.0).exp())
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

/// Whether `p` is within two cells of `stone`, or on one of its four lines within four: the
/// cells where a four can build on that stone.
fn near_on_lines(stone: Pos, p: Pos) -> bool {
    stone.x().abs_diff(p.x()).max(stone.y().abs_diff(p.y())) <= 2 || stone.aligned_within(p, 4)
}

/// The search's limits, read from a [`SearchControl`] or given by a bench.
#[derive(Clone, Default)]
struct Limits {
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    max_nodes: Option<u64>,
}

/// The most search threads used: more than the machine's logical processors never helps.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Lazy SMP: helper `i` from 2 on skips the iterations where
/// `(depth + SKIP_PHASE[j]) / SKIP_SIZE[j]` is odd, `j = (i − 2) mod 20`, so that many threads
/// spread over neighbouring depths instead of all searching the same one (Stockfish's tables;
/// unmeasured beyond two threads, the most this project's machine has).
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether helper `thread` skips the iteration at `depth`.
fn helper_skips(thread: usize, depth: i32) -> bool {
    // The first helper searches every depth: with two threads that reached a fixed depth in
    // 0.62 of one thread's time on the bench positions, where skipping every other depth took
    // 0.81 (`bench --threads 2 --depth 9 --millis 20000`).
    if thread <= 1 || depth <= 1 {
        return false;
    }
    let j = (thread - 2) % SKIP_SIZE.len();
    ((depth + SKIP_PHASE[j]) / SKIP_SIZE[j]) % 2 != 0
}

/// A quiet move: it makes no three or four for the side to move, nor takes one from the
/// opponent (the moves that late-move pruning and reductions may touch).
#[inline]
fn is_quiet(board: &Board, mv: Pos) -> bool {
    let me = board.side_to_move();
    !board.threat(mv, me).is_three_or_better()
        && !board.threat(mv, me.opponent()).is_three_or_better()
}

/// The main search, with its table and histories, and its helper threads' searchers.
pub struct Searcher {
    params: SearchParams,
    /// The transposition table, shared with the helpers.
    tt: Arc<TranspositionTable>,
    /// Lazy SMP helpers (one per extra thread): each searches the same root on its own board
    /// and histories, sharing the table.
    helpers: Vec<Searcher>,
    /// 0 for the main searcher, 1… for helpers.
    thread: usize,
    /// Where a helper publishes its node count for the main searcher's reports.
    published: Option<Arc<AtomicU64>>,
    /// The helpers' published node counts, during a threaded search.
    helper_nodes: Vec<Arc<AtomicU64>>,
    /// Nodes of the last `search_move` on all threads.
    searched: u64,
    /// Root moves to search with full lines (multi-PV), from the search control.
    multi_pv: usize,
    /// Root moves not to search (`YXBLOCK`), from the search control.
    excluded: Vec<Pos>,
    /// The root's moves are every candidate (no threat of the opponent's to answer).
    root_all: bool,
    history: History,
    board: Board,
    /// The evaluation network's sums along the line (unused by rules without a network, and
    /// where `net_margin` is negative: every rule on boards of more than 17 lines).
    net: eval::NetStack,
    nodes: u64,
    next_check: u64,
    seldepth: i32,
    stopped: bool,
    limits: Limits,
    stack: Vec<Frame>,
    /// Triangular principal-variation table: `pv[ply]` is the line from `ply` on.
    pv: Vec<Vec<Pos>>,
    started: Instant,
    /// Yixin-Board's live root marks (`REALTIME POS / DONE / LOST`), main thread only.
    realtime: Option<Realtime>,
}

/// Yixin-Board's live analysis of the root (`INFO show_detail` ≥ 2): which root move is being
/// searched (`POS`), which are done (`DONE`) and which are proven lost (`LOST`). Rate-limited:
/// nothing in a search's first [`Realtime::QUIET`], then at most one `POS` per
/// [`Realtime::GAP`] (a `DONE` only follows its own `POS`), so that a fast iteration writes
/// nothing and a slow one a few lines a second per move.
struct Realtime {
    reporter: crate::search::control::Reporter,
    last: Option<Instant>,
}

impl Realtime {
    /// No marks before the search has run this long.
    const QUIET: Duration = Duration::from_millis(200);
    /// The least time between two `POS` lines.
    const GAP: Duration = Duration::from_millis(25);

    /// Marks `mv` as being searched, if the rate allows; true when it did.
    fn pos(&mut self, started: Instant, mv: Pos) -> bool {
        let now = Instant::now();
        if now.duration_since(started) < Self::QUIET
            || self.last.is_some_and(|t| now.duration_since(t) < Self::GAP)
        {
            return false;
        }
        self.last = Some(now);
        (self.reporter)(&format!("REALTIME POS {},{}", mv.x(), mv.y()));
        true
    }

    fn done(&self, mv: Pos, lost: bool) {
        (self.reporter)(&format!("REALTIME DONE {},{}", mv.x(), mv.y()));
        if lost {
            (self.reporter)(&format!("REALTIME LOST {},{}", mv.x(), mv.y()));
        }
    }
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
        Searcher::sharing(Arc::new(TranspositionTable::new(tt_bytes)), 0)
    }

    /// A searcher on the shared table `tt`, thread number `thread`.
    fn sharing(tt: Arc<TranspositionTable>, thread: usize) -> Searcher {
        Searcher {
            params: SearchParams::default(),
            tt,
            helpers: Vec::new(),
            thread,
            published: None,
            helper_nodes: Vec::new(),
            searched: 0,
            multi_pv: 1,
            excluded: Vec::new(),
            root_all: false,
            history: History::default(),
            board: Board::new(15, 15, Rule::Freestyle).expect("a 15x15 board"),
            net: eval::NetStack::new(),
            nodes: 0,
            next_check: 0,
            seldepth: 0,
            stopped: false,
            limits: Limits::default(),
            stack: vec![Frame::default(); MAX_PLY as usize + 8],
            pv: vec![Vec::new(); MAX_PLY as usize + 8],
            started: Instant::now(),
            realtime: None,
        }
    }

    /// Uses `params` for the pruning and reduction steps.
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
        for h in &mut self.helpers {
            h.params = params;
        }
    }

    /// Searches on `threads` threads from now on (at least 1, at most [`max_threads`]).
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, max_threads().max(1));
        self.helpers.truncate(threads - 1);
        while self.helpers.len() + 1 < threads {
            let mut helper = Searcher::sharing(Arc::clone(&self.tt), self.helpers.len() + 1);
            helper.params = self.params;
            self.helpers.push(helper);
        }
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Puts a new table of `bytes` in place, for the helpers too (the old one goes as soon as
    /// nothing holds it).
    fn replace_table(&mut self, bytes: u64) {
        self.tt = Arc::new(TranspositionTable::new(bytes));
        for h in &mut self.helpers {
            h.tt = Arc::clone(&self.tt);
        }
    }

    /// Resizes the table (emptying it) to about `bytes` bytes, if its size differs.
    pub fn resize(&mut self, bytes: u64) {
        if self.tt.bytes() != (bytes / 64).max(1) * 64 {
            // The old table goes first: two large tables at once could pass the memory limit.
            self.tt = Arc::new(TranspositionTable::new(64));
            for h in &mut self.helpers {
                h.tt = Arc::clone(&self.tt);
            }
            self.replace_table(bytes);
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
        for h in &mut self.helpers {
            h.history.clear();
        }
    }

    /// Searches `board` under `control` (its deadline, stop flag, depth and node limits),
    /// calling `on_iteration` after each completed iteration.
    pub fn search_move(
        &mut self,
        board: &Board,
        control: &SearchControl,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.set_threads(control.threads);
        self.realtime = control
            .yixin_detail
            .then(|| control.reporter().cloned())
            .flatten()
            .map(|reporter| Realtime {
                reporter,
                last: None,
            });
        self.multi_pv = control.multi_pv.max(1);
        self.excluded.clone_from(&control.excluded);
        for h in &mut self.helpers {
            h.excluded.clone_from(&control.excluded);
        }
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
        let done = |it: &Iteration, changes: u32| {
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
        };
        self.tt.new_search();
        // A node-limited search stays on one thread, so that it is reproducible.
        let threaded = self.threads() > 1 && self.limits.max_nodes.is_none() && !immediate;
        let result = if threaded {
            self.run_threaded(board, received, budget.deadline, max_depth, done)
        } else {
            self.run(board, received, max_depth, immediate, done)
        };
        self.searched = self.nodes;
        if threaded {
            self.searched += self.helpers.iter().map(|h| h.nodes).sum::<u64>();
        }
        result
    }

    /// Nodes the last [`Searcher::search_move`] searched on all its threads.
    pub fn nodes_searched(&self) -> u64 {
        self.searched
    }

    /// Lazy SMP: the helpers search the same root on their own threads until the main search
    /// (this thread, which alone decides when to stop and reports) is done; the move comes from
    /// the deepest completed iteration, the main search's on a tie.
    fn run_threaded(
        &mut self,
        board: &Board,
        received: Instant,
        deadline: Instant,
        max_depth: i32,
        done: impl FnMut(&Iteration, u32) -> bool,
    ) -> SearchResult {
        let stop_helpers = Arc::new(AtomicBool::new(false));
        let mut helpers = std::mem::take(&mut self.helpers);
        self.helper_nodes = helpers
            .iter()
            .map(|_| Arc::new(AtomicU64::new(0)))
            .collect();
        let result = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for (helper, counter) in helpers.iter_mut().zip(&self.helper_nodes) {
                helper.limits = Limits {
                    deadline: Some(deadline),
                    stop: Some(Arc::clone(&stop_helpers)),
                    max_nodes: None,
                };
                helper.published = Some(Arc::clone(counter));
                let spawned = std::thread::Builder::new()
                    .name(format!("helper {}", helper.thread))
                    .spawn_scoped(scope, move || {
                        helper.run(board, received, max_depth, false, |_, _| false)
                    });
                // A thread the system refuses only costs its share of the search.
                if let Ok(handle) = spawned {
                    handles.push(handle);
                }
            }
            let main = self.run(board, received, max_depth, false, done);
            stop_helpers.store(true, Ordering::Relaxed);
            handles
                .into_iter()
                .filter_map(|h| h.join().ok())
                .fold(main, |best, r| {
                    if r.last.depth > best.last.depth && r.best.is_some() {
                        r
                    } else {
                        best
                    }
                })
        });
        self.helpers = helpers;
        self.helper_nodes.clear();
        result
    }

    /// Searches `board` to `depth` plies, with no time limit (benchmarks, tests).
    pub fn search_depth(&mut self, board: &Board, depth: i32) -> SearchResult {
        self.limits = Limits::default();
        self.multi_pv = 1;
        self.excluded.clear();
        self.tt.new_search();
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
        let size = board.width().max(board.height());
        self.params = self.params.for_game(board.rule(), size);
        eval::prepare(&mut self.board);
        self.net.clear();
        self.started = started;
        self.nodes = 0;
        self.next_check = CHECK_EVERY;
        self.stopped = false;
        self.seldepth = 0;
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
            tune: &self.params.tune,
        };
        let mut picker = MovePicker::new(&mut self.board, &hints);
        let mut moves = picker.drain(&mut self.board);
        self.root_all = picker.stage == Stage::All;
        if moves.is_empty() {
            // Lost to a threat nothing answers (or only fouls answer it): still a move, the
            // one that holds out longest among all candidates.
            let me = self.board.side_to_move();
            let all: Vec<Pos> =
                super::movepick::candidates(&self.board, self.params.tune.cand_radius as usize)
                    .iter()
                    .collect();
            moves = all
                .into_iter()
                .filter(|&p| self.board.is_legal(p, me))
                .collect();
        }
        // Moves the GUI excluded (`YXBLOCK`) are not searched, unless nothing else is left.
        if moves.iter().any(|m| !self.excluded.contains(m)) {
            moves.retain(|m| !self.excluded.contains(m));
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
                lines: Vec::new(),
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
        // Helpers search one line: the main thread alone answers for the others.
        let multi_pv = if self.thread == 0 {
            self.multi_pv.min(root.len())
        } else {
            1
        };
        let mut previous_lines: Vec<Value> = Vec::new();
        for depth in 1..=max_depth {
            if helper_skips(self.thread, depth) {
                continue;
            }
            let value = self.aspiration(&mut root, depth, previous);
            // Multi-PV: the k-th line is the best of the moves after the k − 1 found before it.
            let mut lines = Vec::new();
            if multi_pv > 1 && !self.stopped {
                lines.push((value, self.line_from(root[0].mv)));
                for k in 1..multi_pv {
                    let v = self.aspiration(&mut root[k..], depth, previous_lines.get(k).copied());
                    if self.stopped {
                        break;
                    }
                    lines.push((v, self.line_from(root[k].mv)));
                }
                if self.stopped {
                    // An iteration cut short keeps the last complete set of lines.
                    break;
                }
                previous_lines = lines.iter().map(|l| l.0).collect();
            }
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
            let pv = match lines.first() {
                Some((_, line)) => line.clone(),
                None => self.line_from(best),
            };
            result.best = Some(best);
            result.last = Iteration {
                depth,
                seldepth: self.seldepth,
                value,
                nodes: self.nodes + self.helper_nodes(),
                elapsed: started.elapsed(),
                pv,
                hashfull: self.tt.hashfull(),
                lines,
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

    /// The principal line of the root move `mv` just searched: `mv`, then the line from ply 1.
    fn line_from(&self, mv: Pos) -> Vec<Pos> {
        let mut line = vec![mv];
        line.extend(self.pv[1].iter().copied());
        line
    }

    /// One iteration at `depth`, with an aspiration window around the last value from depth 5.
    fn aspiration(&mut self, root: &mut [RootMove], depth: i32, previous: Option<Value>) -> Value {
        let mut delta = self.params.tune.aspiration_delta;
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
            let started = self.started;
            let marked = self.realtime.as_mut().is_some_and(|r| r.pos(started, mv));
            // Step 8b at the root: late quiet root moves are searched shallower first, like
            // the late moves of any node, a ply less. (Against the same build without it at
            // 150 ms a move, 600 games each: +20.9 ± 27.3 Elo freestyle 15×15, +13.9 ± 27.3
            // renju; +50.1 ± 39.6 at 12,000 nodes a move, 300 games, freestyle.)
            let mut r = 0;
            if self.params.root_reductions
                && self.root_all
                && i >= 1
                && depth >= 3
                && is_quiet(&self.board, mv)
            {
                r = (self.params.lmr_reduction(depth, i as i32 + 1)
                    - self.params.tune.root_lmr_less)
                    .clamp(0, depth - 2);
            }
            self.board.make_move(mv);
            let value = if i == 0 {
                -self.search(-beta, -alpha, depth - 1, 1, true, false)
            } else {
                let mut v = -self.search(-alpha - 1, -alpha, depth - 1 - r, 1, false, true);
                if v > alpha && r > 0 && !self.stopped {
                    v = -self.search(-alpha - 1, -alpha, depth - 1, 1, false, true);
                }
                if v > alpha && v < beta && !self.stopped {
                    v = -self.search(-beta, -alpha, depth - 1, 1, true, false);
                }
                v
            };
            self.board.undo();
            if self.stopped {
                return best.max(alpha);
            }
            if marked {
                // A value at or below a lost mate is an upper bound on a loss: lost for sure.
                if let Some(r) = &self.realtime {
                    r.done(mv, value <= -MATE_BOUND);
                }
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

    /// The nodes the helpers have published during a threaded search.
    fn helper_nodes(&self) -> u64 {
        self.helper_nodes
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum()
    }

    /// Counts a node; true when the search must stop (then `stopped` is set).
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            if let Some(p) = &self.published {
                p.store(self.nodes, Ordering::Relaxed);
            }
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
        // Step 1. The horizon: the VCF quiescence search. (Its fours only near its own last
        // stone, and combination fours after two: +23.2 ± 21.5 Elo against the same build
        // with every four, 519-453-16 over 988 games, freestyle 15×15, 150 ms a move.)
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
            return self.static_value(alpha, beta);
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
        let p = self.params;
        let t = p.tune;
        let me = self.board.side_to_move();
        let opp = me.opponent();
        let static_eval = match entry {
            Some(e) => e.eval,
            None => self.static_value(alpha, beta),
        };
        self.stack[ply as usize].eval = Some(static_eval);
        let improving = ply >= 2
            && self.stack[ply as usize - 2]
                .eval
                .is_some_and(|before| static_eval > before);
        // Step 6a. A table value that bounds the node on the right side is a better guess than
        // the static evaluation for the pruning steps below. (+18.0 ± 20.4 Elo against the same
        // build without it: 572-515-17 over 1,104 games, freestyle 15×15, 150 ms a move;
        // SPRT (0, 10) stopped undecided at LLR 1.15.)
        let pruning_eval = match entry {
            Some(e) if p.tt_eval && !is_mate(e.value) => {
                let v = from_tt(e.value, ply);
                match e.bound {
                    Bound::Exact => v,
                    Bound::Lower if v > static_eval => v,
                    Bound::Upper if v < static_eval => v,
                    _ => static_eval,
                }
            }
            _ => static_eval,
        };
        // The opponent threatens something that must be answered: no pruning on the eval.
        let threatened = self.board.has_five_point(opp)
            || self.board.threat_count(opp, ThreatClass::Flex4) > 0
            || self.board.threat_count(opp, ThreatClass::Block4Flex3) > 0;

        // Step 7a. Reverse futility: a quiet node far above beta stays there.
        // (+68.6 ± 49.1 Elo against the same build without it: 200 games, freestyle 15×15,
        // 150 ms a move, balanced openings; so for every step below.)
        if p.reverse_futility
            && !pv_node
            && !threatened
            && depth <= t.rfp_depth
            && !is_mate(beta)
            && pruning_eval - (t.rfp_margin * depth - t.rfp_improving * improving as i32) >= beta
        {
            return pruning_eval;
        }
        // Step 7b. Razoring: far below alpha, only a VCF can save the node. (+47.2 ± 48.3)
        if p.razoring
            && !pv_node
            && !threatened
            && depth <= t.razor_depth
            && pruning_eval + t.razor_margin * depth < alpha
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
            && depth >= t.null_depth
            && pruning_eval >= beta
            && !is_mate(beta)
            && ply >= 1
        {
            let r = t.null_base + depth / t.null_divisor;
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
        let depth = if p.iir && depth >= t.iir_depth && tt_move.is_none() {
            depth - 1
        } else {
            depth
        };

        // Step 8. The moves. (Handing the table move out before the others are scored was
        // tried: +12 % nodes/s, but +11 % nodes to the bench's depth, and no gain in a match;
        // branch `exp/lazy-tt-picker`, docs/results.md, ninth session.)
        let last = self.board.last_move();
        let frame = self.stack[ply as usize];
        let counter = last.and_then(|l| self.history.counter_move(me, l));
        let hints = OrderHints {
            tt_move,
            killers: frame.killers,
            counter,
            history: &self.history,
            tune: &self.params.tune,
        };
        let mut picker = MovePicker::new(&mut self.board, &hints);
        // A forced reply (the block of a four) costs no depth; nor, with the threat extension,
        // a defence against an open three or a four-three (a counter-four does: the defender's
        // fours would otherwise be free over and over). (Threat extension: +27.8 ± 23.2 Elo
        // against the same build without it, 453-385-15 over 853 games, freestyle 15×15,
        // 150 ms a move; +22.6 ± 48.2 over 200 games when it was introduced.)
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
            let quiet = quiet_stage && is_quiet(&self.board, mv) && Some(mv) != tt_move;
            // Step 8a. Late-move pruning: at a shallow non-PV node, quiet moves late in the
            // order are not searched. (+81.4 ± 49.6)
            if p.late_move_pruning
                && !pv_node
                && quiet
                && depth <= t.lmp_depth
                && best > -MATE_BOUND
                && count > (t.lmp_base + depth * depth * t.lmp_scale / 100) / (2 - improving as i32)
            {
                continue;
            }
            let new_depth = if defending && !self.board.threat(mv, me).is_four() {
                depth
            } else {
                new_depth
            };
            // The child probes the table first thing: fetch its bucket while the move is made.
            self.tt.prefetch(self.board.hash_after(mv));
            self.board.make_move(mv);
            let value = if count == 1 {
                -self.search(-beta, -alpha, new_depth, ply + 1, pv_node, !cut_node)
            } else {
                // Step 8b. Late-move reductions: quiet late moves are searched shallower
                // first, and again at full depth only when they beat alpha. (+40.1 ± 48.2)
                let mut r = 0;
                if p.late_move_reductions && quiet && depth >= 3 {
                    r = p.lmr_reduction(depth, count);
                    r -= pv_node as i32;
                    r += cut_node as i32;
                    if frame.killers.contains(&Some(mv)) || counter == Some(mv) {
                        r -= 1;
                    }
                    r -= self.history.score(me, mv) / t.lmr_history;
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

    /// The board's static value at a node whose window is `(alpha, beta)`: the evaluation's
    /// network asked only within `net_margin` of the window ([`eval::evaluate_near`]).
    #[inline]
    fn static_value(&mut self, alpha: Value, beta: Value) -> Value {
        let margin = self.params.tune.net_margin;
        eval::evaluate_near(&self.board, &mut self.net, alpha, beta, margin)
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
        let b = bonus(depth, &self.params.tune);
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
            return self.static_value(alpha, beta);
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
        let narrow = self.params.narrow_qsearch && fours >= QS_PLAIN_FOURS;
        let qs_depth = if narrow { QS_DEPTH_NARROW } else { QS_DEPTH };
        let key = self.board.hash();
        let entry = self.tt.probe(key);
        if let Some(e) = entry {
            if e.depth >= qs_depth {
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
        let static_eval = entry.map_or_else(|| self.static_value(alpha, beta), |e| e.eval);
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
            if self.params.narrow_qsearch {
                let own_last = self.board.history().iter().rev().nth(1).copied();
                let board = &self.board;
                moves.retain(|&mut mv| {
                    own_last.is_none_or(|o| near_on_lines(o, mv))
                        && !(narrow && board.threat(mv, me) == ThreatClass::Block4)
                });
            }
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
            qs_depth,
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

    #[test]
    fn multi_pv_orders_distinct_lines_and_skips_excluded_moves() {
        let mut s = Searcher::new(1 << 22);
        // Black's open three: both open-four points win, every other move is worse.
        let b = board(Rule::Freestyle, "h8a1i8a3j8a5");
        let mut control = SearchControl::for_millis(2_000);
        control.max_depth = Some(6);
        control.multi_pv = 3;
        let r = s.search_move(&b, &control, &mut |_| {});
        let lines = &r.last.lines;
        assert_eq!(lines.len(), 3);
        let firsts: Vec<Pos> = lines.iter().map(|l| l.1[0]).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        assert!(lines.windows(2).all(|w| w[0].0 >= w[1].0), "{lines:?}");
        assert_eq!(Some(firsts[0]), r.best);
        assert_eq!(r.last.pv, lines[0].1);
        let open_fours = [Pos::new(6, 7), Pos::new(10, 7)];
        assert!(open_fours.contains(&firsts[0]) && open_fours.contains(&firsts[1]));
        // One MESSAGE line per line, numbered.
        let texts = r.last.messages(15);
        assert_eq!(texts.len(), 3);
        assert!(texts[1].contains(" multipv 2 ev "), "{}", texts[1]);
        // Excluded moves are not searched: the other open-four point is chosen.
        control.multi_pv = 1;
        control.excluded = vec![Pos::new(6, 7)];
        let r = s.search_move(&b, &control, &mut |_| {});
        assert_eq!(r.best, Some(Pos::new(10, 7)));
        // When every move is excluded, the search still answers.
        control.excluded = b.empty_cells().iter().collect();
        assert!(s.search_move(&b, &control, &mut |_| {}).best.is_some());
    }

    #[test]
    fn quiescence_fours_build_on_the_last_own_stone() {
        let h8 = Pos::new(7, 7);
        // Two cells around, and four along the lines.
        for (x, y) in [(5, 5), (9, 6), (8, 9), (3, 7), (7, 11), (11, 11), (3, 11)] {
            assert!(near_on_lines(h8, Pos::new(x, y)), "({x}, {y})");
        }
        // Off the lines beyond two cells, or five along them.
        for (x, y) in [(4, 6), (10, 8), (2, 7), (12, 12), (7, 2)] {
            assert!(!near_on_lines(h8, Pos::new(x, y)), "({x}, {y})");
        }
    }

    #[test]
    fn helpers_spread_over_depths() {
        // The main thread and the first helper search every depth; helper 2 every other one;
        // no helper skips depth 1 or every depth.
        assert!((1..20).all(|d| !helper_skips(0, d)));
        assert!((1..20).all(|d| !helper_skips(1, d)));
        let searched: Vec<i32> = (1..10).filter(|&d| !helper_skips(2, d)).collect();
        assert_eq!(searched, vec![1, 2, 4, 6, 8]);
        for thread in 1..40 {
            assert!(!helper_skips(thread, 1));
            assert!((2..20).any(|d| !helper_skips(thread, d)), "{thread}");
        }
    }

    #[test]
    fn a_threaded_search_shares_its_table_and_counts_every_thread() {
        let mut s = Searcher::new(1 << 22);
        s.set_threads(2);
        // Thread counts are bounded by the machine; ask for many, get at most its processors.
        assert!(s.threads() >= 1 && s.threads() <= max_threads());
        s.set_threads(1_000_000);
        assert_eq!(s.threads(), max_threads());
        s.set_threads(0);
        assert_eq!(s.threads(), 1);
        let threads = 2.min(max_threads());
        let b = board(Rule::Freestyle, "h8h9i8i9g9j8");
        let mut control = SearchControl::for_millis(300);
        control.threads = threads;
        let mut reports = Vec::new();
        let r = s.search_move(&b, &control, &mut |it| reports.push(it.nodes));
        assert_eq!(s.threads(), threads);
        let best = r.best.expect("a move");
        assert!(b.is_empty(best));
        assert!(!reports.is_empty());
        // The total counts the helpers' nodes too; the main thread alone has fewer.
        assert!(s.nodes_searched() >= s.nodes);
        if threads > 1 {
            assert!(s.nodes_searched() > s.nodes);
            assert!(s.helpers.iter().all(|h| Arc::ptr_eq(&h.tt, &s.tt)));
        }
        // A new game gives every thread the same new table.
        s.clear();
        assert!(s.helpers.iter().all(|h| Arc::ptr_eq(&h.tt, &s.tt)));
        // The open three wins: every thread count finds it.
        let b = board(Rule::Freestyle, "h8a1i8a3j8a5");
        let r = s.search_move(&b, &control, &mut |_| {});
        let m = r.best.unwrap();
        assert!(m == Pos::new(6, 7) || m == Pos::new(10, 7), "{m:?}");
    }
}
