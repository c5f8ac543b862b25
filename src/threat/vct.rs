//! VCT: victory by continuous threats — fours, open threes and (with a deeper threat limit)
//! "fukumi" moves that threaten a short VCF.
//!
//! The search itself is df-pn (`dfpn.rs`); this file holds the solver's state and its node
//! expansion:
//! - attacker nodes (OR): a five wins; a defender four must be blocked; otherwise a VCF probe,
//!   then every four and every move that may threaten — but if the defender would have a VCF
//!   should the attacker pass, only fours and the moves that break that VCF (each checked
//!   against the VCF's line when its node is first expanded);
//! - defender nodes (AND): against a four, every legal stone that stops it (none: he loses);
//!   against a threat, every move that breaks the attacker's threat line, and every
//!   counter-four (the attacker must then block and the defence goes on). A defender move
//!   that does neither loses at once, so skipping it keeps the proof sound.
//!
//! Which cells can break a threat line is decided from the line itself (see
//! `threat_breakers`); tests check the pruning on every empty cell of
//! thousands of corpus positions.

use super::limits::{Limits, SolveOutcome};
use super::moves::{four_moves, has_four_move, is_legal, legal_stops, three_moves, MoveList};
use super::vcf::{makes_four, position_salt, VcfSolver};
use crate::core::{Board, CellSet, Color, LinePattern, Pos, ThreatClass};
use smallvec::SmallVec;
use std::time::Instant;

/// Nodes between clock checks (a df-pn node may cost a few hundred board moves).
const CLOCK_INTERVAL: u64 = 64;
/// The deepest attacker-move bound searched (quintet's `limit` beyond it is cut to it).
const MAX_DEPTH: u32 = 200;
/// Node budget of the threat test at the defender's nodes (the attacker's VCF should the
/// defender pass: running out of it leaves the search without a final disproof).
pub(super) const VCF_PROBE_NODES: u64 = 1_000;
/// Node budget of the attacker's shortcut VCF probe, whose miss costs nothing but time (df-pn
/// searches his fours anyway). Since the VCF solver skips fours whose position after the
/// block it has refuted, a probe that needs more is mostly one that will not end: on 30
/// puzzles proved in 0.1–5 s, 400 took 2–6 % less time than 1000 over three runs (one
/// 104-puzzle run at 1 s: 34 against 32 proved); 200 and 2500 no better, nor 100 and 1500
/// once the counter-VCF probe had 10 nodes (time 1.04 and 1.02 of 400's on those 30).
pub(super) const SHORTCUT_PROBE_NODES: u64 = 400;
/// Node budget of the defender's counter-VCF probe at the attacker's nodes (the VCF he would
/// have should the attacker pass), which only narrows the attacker's moves: a defender with
/// many fours made the probe take 46 % of the time of quintet's L12 benchmark, mostly running
/// out of its budget. With 10 instead of 400: L12 in 57 M nodes instead of 73 M; quintet's 85
/// game cases 76 decided instead of 74 within 1 M nodes, 0.90 of the time (geometric mean);
/// 30 lfz puzzles proved in 0.1–5 s 0.82–0.87 of the time (two runs; 3 and 30 alike), the
/// 104 unknown after 1 s 35 against 33 proved.
const COUNTER_PROBE_NODES: u64 = 10;
/// VCF depth of the probes without a depth bound (and of the defender's counter-VCF always).
pub(super) const FREE_VCF_FOURS: u32 = 60;

/// A reusable VCT solver with its own table.
pub struct VctSolver {
    pub(super) nodes: u64,
    pub(super) limits: Limits,
    pub(super) aborted: bool,
    pub(super) attacker: Color,
    pub(super) salt: u64,
    pub(super) threat_limit: u32,
    pub(super) count_all_moves: bool,
    pub(super) vcf: VcfSolver,
    /// Set when a threat test (does the attacker threaten?) ran out of its budget: a disproof
    /// is then not final, and the table's disproofs are forgotten before the next search.
    pub(super) truncated: bool,
    pub(super) dfpn: super::dfpn::DfpnTable,
    /// The depth bound of the last df-pn search (when every move counts).
    pub(super) root_depth: u32,
    /// Stones on the board at the root of the last df-pn search.
    pub(super) root_stones: usize,
    /// The node count at which the clock is read next.
    pub(super) next_clock_check: u64,
    /// The counter-VCF handed from an attacker node to the child df-pn expands next.
    pub(super) pending_counter: Option<Box<[Pos]>>,
    /// Node budget of the counter-VCF probe ([`COUNTER_PROBE_NODES`]; tests of the pruning
    /// raise it to meet more counter-VCFs).
    pub(super) counter_probe_nodes: u64,
}

impl VctSolver {
    /// A solver whose VCF probes use a table of `2^(table_bits - 2)` entries; the df-pn table
    /// grows as needed up to 2 M positions ([`VctSolver::set_dfpn_capacity`] sizes it at once).
    pub fn new(table_bits: u32) -> VctSolver {
        VctSolver {
            nodes: 0,
            limits: Limits::default(),
            aborted: false,
            attacker: Color::Black,
            salt: 0,
            threat_limit: 1,
            count_all_moves: false,
            vcf: VcfSolver::new(table_bits.saturating_sub(2).max(10)),
            truncated: false,
            dfpn: super::dfpn::DfpnTable::default(),
            root_depth: 0,
            root_stones: 0,
            next_clock_check: 0,
            pending_counter: None,
            counter_probe_nodes: COUNTER_PROBE_NODES,
        }
    }

    /// After [`VctSolver::solve`] proved a win from `board` (unchanged since), the number of
    /// positions in the proof tree.
    pub fn proof_size(&mut self, board: &mut Board) -> u64 {
        self.dfpn_proof_size(board)
    }

    /// Bounds the df-pn table to about `max_entries` positions, with room for all of them
    /// from the start (growing a large table mid-search would stall it).
    pub fn set_dfpn_capacity(&mut self, max_entries: usize) {
        self.dfpn = super::dfpn::DfpnTable::reserved(max_entries);
    }

    /// Nodes searched by the last call (VCF probes included).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets every stored result.
    pub fn clear(&mut self) {
        self.dfpn.clear();
        self.vcf.clear();
    }

    /// Forgets the df-pn table (keeping its capacity) but not the VCF refutations: for a
    /// search of an unrelated position, whose df-pn entries could never be met, while VCF
    /// entries are cheap to keep and may be.
    pub fn clear_dfpn(&mut self) {
        self.dfpn.clear();
    }

    /// Sets what counts as a threat: a non-four move threatens when, if the defender passed,
    /// the attacker would have a VCF of at most `threat_limit` fours (1 = the classical open
    /// three or other open-four point; 2 and more admit "fukumi" moves).
    pub fn set_threat_limit(&mut self, threat_limit: u32) {
        self.threat_limit = threat_limit.max(1);
    }

    /// Chooses whether the depth of [`VctSolver::solve`] bounds the attacker's moves: every
    /// attacker move up to the decisive four counts (quintet's `limit`, `true`), or there is
    /// no bound (`false`, the default).
    pub fn set_count_all_moves(&mut self, count_all_moves: bool) {
        self.count_all_moves = count_all_moves;
    }

    /// Searches a VCT for the side to move, within `max_threats` attacker moves when every
    /// move counts (see [`VctSolver::set_count_all_moves`]). The board is returned unchanged.
    pub fn solve(&mut self, board: &mut Board, max_threats: u32, limits: Limits) -> SolveOutcome {
        self.start(board, limits);
        let outcome = self.dfpn_solve(board, max_threats.clamp(1, MAX_DEPTH));
        self.within_depth_cap(outcome, max_threats)
    }

    /// Like [`VctSolver::solve`], but a win comes back as its first move only, with no
    /// principal line built after the proof: for players, whose clock also covers that work.
    pub fn solve_first_move(
        &mut self,
        board: &mut Board,
        max_threats: u32,
        limits: Limits,
    ) -> SolveOutcome {
        self.start(board, limits);
        let outcome = self.dfpn_prove(board, max_threats.clamp(1, MAX_DEPTH));
        self.within_depth_cap(outcome, max_threats)
    }

    /// A disproof under a depth bound cut to [`MAX_DEPTH`] says nothing of the bound asked for.
    fn within_depth_cap(&self, outcome: SolveOutcome, max_threats: u32) -> SolveOutcome {
        match outcome {
            SolveOutcome::NoWin if self.count_all_moves && max_threats > MAX_DEPTH => {
                SolveOutcome::Unknown
            }
            other => other,
        }
    }

    /// Readies the solver for a search of `board` (its side to move attacks) within `limits`.
    pub(super) fn start(&mut self, board: &Board, limits: Limits) {
        // Disproofs of a search whose threat probes were cut short may be wrong; they must
        // not carry over into this one. Its proofs and open estimates stay (a cut probe only
        // ever hides a threat), unless sweeping the table would take more than an eighth of
        // this search's time: then it is emptied.
        if self.truncated {
            let sweep = self.dfpn.sweep_estimate();
            if limits
                .deadline
                .is_some_and(|d| Instant::now() + sweep * 8 >= d)
            {
                self.dfpn.clear();
            } else {
                self.dfpn.forget_disproofs();
            }
        }
        // A table that must grow before its next new entry, and could not do so within this
        // search's time, is emptied instead (it keeps its capacity): otherwise every search
        // with a shorter deadline would stop at its first new position.
        let pause = self.dfpn.pause_estimate();
        if limits.deadline.is_some_and(|d| Instant::now() + pause >= d) {
            self.dfpn.clear();
        }
        self.dfpn.new_generation();
        self.nodes = 0;
        self.next_clock_check = 0;
        self.limits = limits;
        self.aborted = false;
        self.truncated = false;
        self.attacker = board.side_to_move();
        self.set_salt(board);
    }

    /// The same position is an attacker node for one colour and a defender node for the
    /// other: entries must not cross between attackers (nor rules, sizes, threat settings).
    fn set_salt(&mut self, board: &Board) {
        self.salt = position_salt(board)
            ^ (0x5643_5400 + self.threat_limit as u64 + ((self.count_all_moves as u64) << 8))
                .wrapping_mul(0xA24B_AED4_963E_E407)
            ^ (self.attacker.index() as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    }

    pub(super) fn tick(&mut self) -> bool {
        self.nodes += 1;
        // VCF probes add their nodes in jumps: the clock is due by count, not by multiples.
        // It is also read before the df-pn table grows or forgets its cheaper half, which takes
        // up to a few hundred milliseconds in a large table: the search stops if that would end
        // past the deadline.
        let pause = self.dfpn.pause_estimate();
        let check_clock = self.nodes >= self.next_clock_check || !pause.is_zero();
        if check_clock {
            self.next_clock_check = self.nodes + CLOCK_INTERVAL;
        }
        if self.limits.exceeded_before(self.nodes, check_clock, pause) {
            self.aborted = true;
        }
        self.aborted
    }

    /// A VCF of the side to move (either colour) within `max_fours`, or `None` (also when the
    /// node budget ran out, which marks the search truncated). One pass at full depth, without
    /// the VCF solver's iterative deepening: the probes only ask whether there is one, and
    /// deepening repeats work at every step.
    pub(super) fn find_vcf(
        &mut self,
        board: &mut Board,
        max_fours: u32,
        budget: u64,
    ) -> Option<Vec<Pos>> {
        // A budget of 0 means no budget of its own (only the overall limits).
        let left = match (self.limits.max_nodes, budget) {
            (0, b) => b,
            (m, 0) => m.saturating_sub(self.nodes).max(1),
            (m, b) => m.saturating_sub(self.nodes).min(b).max(1),
        };
        let outcome = self.vcf.solve_direct(
            board,
            max_fours,
            Limits {
                max_nodes: left,
                ..self.limits.clone()
            },
        );
        self.nodes += self.vcf.nodes();
        if self.limits.exceeded(self.nodes, true) {
            self.aborted = true;
        }
        match outcome {
            SolveOutcome::Win(line) => Some(line),
            SolveOutcome::NoWin => None,
            SolveOutcome::Unknown => {
                self.truncated = true;
                None
            }
        }
    }

    /// `f` with the turn passed to the side not to move (the threat he would make if his
    /// opponent passed), the turn given back after.
    pub(super) fn after_pass<T>(
        &mut self,
        board: &mut Board,
        f: impl FnOnce(&mut Self, &mut Board) -> T,
    ) -> T {
        board.pass();
        let result = f(self, board);
        board.pass();
        result
    }

    /// A VCF of the side to move (either colour) within `max_fours` and `budget` nodes,
    /// where a miss costs no soundness: a shortcut for the attacker (df-pn searches his fours
    /// anyway) or a pruning test for the defender. Running out of budget therefore does not
    /// mark the search truncated.
    pub(super) fn probe_vcf(
        &mut self,
        board: &mut Board,
        max_fours: u32,
        budget: u64,
    ) -> Option<Vec<Pos>> {
        let truncated = self.truncated;
        let line = self.find_vcf(board, max_fours, budget);
        self.truncated = truncated;
        line
    }

    /// Keeps of the attacker's `moves` (attacker to move) his fours and the moves that may
    /// break the VCF the defender would have should the attacker pass (cells of
    /// [`threat_breakers`]): any other move loses to that VCF. Returns the VCF, against which
    /// each kept non-four move is replayed when its node is expanded (most never are).
    /// Without such a VCF (or when the probe runs out of budget) nothing is dropped.
    pub(super) fn answers_to_counter_vcf(
        &mut self,
        board: &mut Board,
        moves: &mut MoveList,
    ) -> Option<Vec<Pos>> {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        if !has_four_move(board, defender) {
            return None;
        }
        let counter = self.after_pass(board, |s, b| {
            let budget = s.counter_probe_nodes;
            s.probe_vcf(b, FREE_VCF_FOURS, budget)
        })?;
        let breakers = threat_breakers(board, &counter, defender);
        moves.retain(|m| breakers.contains(*m) || makes_four(board, *m, attacker));
        Some(counter)
    }

    /// Fours and threat candidates, the most forcing first, then near the attacker's last
    /// stone. With classical threats (`threat_limit` 1) a threat must create an open-four
    /// point, so it has a line of at least a blocked three; deeper threat limits admit every
    /// move with a line of at least a blocked two. Whether a candidate really threatens is
    /// decided by the defender node.
    pub(super) fn attacker_moves(&self, board: &mut Board) -> MoveList {
        let attacker = self.attacker;
        let mut moves = MoveList::new();
        four_moves(board, attacker, &mut moves);
        three_moves(board, attacker, &mut moves);
        let floor = if self.threat_limit <= 1 {
            LinePattern::Block3
        } else {
            LinePattern::Block2
        };
        let listed: CellSet = {
            let mut s = CellSet::EMPTY;
            moves.iter().for_each(|&p| s.insert(p));
            s
        };
        for p in board.candidates().iter() {
            if listed.contains(p) {
                continue;
            }
            let class = board.threat(p, attacker);
            if class == ThreatClass::Forbid && !is_legal(board, p, attacker) {
                continue;
            }
            if (0..4).any(|d| {
                let lp = board.line_pattern(p, attacker, d);
                lp >= floor && lp != LinePattern::Flex1
            }) {
                moves.push(p);
            }
        }
        let rank = |c: ThreatClass| match c {
            ThreatClass::Flex4 => 0,
            ThreatClass::Block4Flex3 => 1,
            ThreatClass::Flex3x2 => 2,
            ThreatClass::Block4Plus | ThreatClass::Flex3Plus => 3,
            ThreatClass::Block4 | ThreatClass::Flex3 => 4,
            _ => 5,
        };
        let history = board.history();
        let anchor = (history.len() >= 2).then(|| history[history.len() - 2]);
        let distance = |p: Pos| {
            anchor.map_or(0, |a| {
                p.x().abs_diff(a.x()).max(p.y().abs_diff(a.y())).min(6)
            })
        };
        moves.sort_by_cached_key(|&p| (rank(board.threat(p, attacker)), distance(p)));
        moves
    }
}

/// Every cell whose stone could break `attacker`'s threat line `threat` (a VCF, with the
/// defender passing first), and the defender's own fours. The attacker need not be the
/// solver's: the solver's attacker must also break the defender's VCF threats. A defender
/// stone breaks the line only by taking one of its cells, by standing in the window of one
/// of its fours or fives (one cell wider for caro's blocked ends), or by turning one of the
/// defender's forced replies into a four, which needs a line where that reply makes at
/// least a three, or, where the line ends on a five point that is a renju foul for black,
/// by a black stone on any line through that point. Renju's recursive three rule reaches
/// further: a stone near the open-four point of a three through a black move or that five
/// point (and so on, see [`foul_ring`]) can make it a foul or legal again; those cells are
/// added too. Otherwise a white stone cannot add to black's fouls, and a black stone that
/// makes one of his forced replies a foul only loses faster.
pub(super) fn threat_breakers(board: &mut Board, threat: &[Pos], attacker: Color) -> CellSet {
    let defender = attacker.opponent();
    // Line segments (cell, direction, reach) read during a replay of the threat.
    let mut segments: SmallVec<[(Pos, usize, isize); 24]> = SmallVec::new();
    let fouls = board.rule().has_fouls();
    let mut played = 0;
    board.pass();
    for (ply, &p) in threat.iter().enumerate() {
        if !board.is_empty(p) {
            break;
        }
        if ply % 2 == 0 && attacker == Color::Black && fouls {
            foul_ring(board, p, &mut segments);
        }
        for dir in 0..4 {
            if ply % 2 == 0 {
                let lp = board.line_pattern(p, attacker, dir);
                if lp.is_four() || lp == LinePattern::Five {
                    segments.push((p, dir, 5));
                }
            } else if board.line_pattern(p, defender, dir) >= LinePattern::Block3 {
                segments.push((p, dir, 4));
            }
        }
        board.make_move(p);
        played += 1;
    }
    // A line that ends on a five point black may not take: a black stone on any line
    // through that point can make it legal.
    if defender == Color::Black && fouls {
        let fives: MoveList = board
            .threat_cells(attacker, ThreatClass::Five)
            .iter()
            .collect();
        for f in fives {
            segments.extend((0..4).map(|dir| (f, dir, 5)));
            foul_ring(board, f, &mut segments);
        }
    }
    for _ in 0..played {
        board.undo();
    }
    board.pass();
    let mut cells = CellSet::EMPTY;
    for &p in threat {
        if board.is_empty(p) {
            cells.insert(p);
        }
    }
    insert_segment_cells(board, &segments, &mut cells);
    let mut fours = MoveList::new();
    four_moves(board, defender, &mut fours);
    for p in fours {
        cells.insert(p);
    }
    cells
}

impl VctSolver {
    /// The defender's move in a principal line: `None` where the line ends (the defender can
    /// make five, or cannot stop the attacker's five), the forced block against a four, and
    /// otherwise `choose`'s answer to the threat.
    pub(super) fn line_reply(
        &mut self,
        board: &mut Board,
        choose: impl FnOnce(&mut Self, &mut Board) -> Option<Pos>,
    ) -> Option<Pos> {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        if board.has_five_point(defender) {
            return None;
        }
        if board.has_five_point(attacker) {
            return legal_stops(board, attacker, defender).first().copied();
        }
        choose(self, board)
    }

    /// The defender's first candidate that answers the threat (breaks the attacker's threat
    /// line or makes a counter-four), for the principal line.
    pub(super) fn first_defence(&mut self, board: &mut Board) -> Option<Pos> {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        let limit = self.threat_limit;
        let threat = self.after_pass(board, |s, b| s.find_vcf(b, limit, 0))?;
        // With no answer, the line shows the defender taking the threat's first cell.
        let mut fallback = (board.is_empty(threat[0]) && is_legal(board, threat[0], defender))
            .then_some(threat[0]);
        for m in threat_breakers(board, &threat, self.attacker).iter() {
            if !is_legal(board, m, defender) {
                continue;
            }
            fallback.get_or_insert(m);
            board.make_move(m);
            let answers = board.has_five_point(defender)
                || self.find_vcf(board, self.threat_limit, 0).is_none();
            board.undo();
            if answers {
                return Some(m);
            }
        }
        fallback
    }
}

/// Adds to `cells` the empty cells of every line segment `(cell, direction, reach)`: the cells
/// up to `reach` steps from `cell` either way along the direction.
fn insert_segment_cells(board: &Board, segments: &[(Pos, usize, isize)], cells: &mut CellSet) {
    for &(p, dir, reach) in segments {
        for s in -reach..=reach {
            let q = p.step(dir, s);
            if board.is_empty(q) {
                cells.insert(q);
            }
        }
    }
}

/// Cells whose stone could change through renju's recursive three rule whether black may
/// play `c`: a three at `c` is real only if its open-four point is legal, so a stone on a line
/// through such a point can make `c` a double three or undo one, and so on recursively (the
/// core's foul check has no depth limit either). Only a cell with two open-three lines can
/// turn, and its open-four points lie on them.
fn foul_ring(board: &Board, c: Pos, segments: &mut impl Extend<(Pos, usize, isize)>) {
    let mut visited = CellSet::EMPTY;
    ring_from(board, c, 2, &mut visited, segments);
}

/// [`foul_ring`] from a cell that turns with `min_threes` open-three lines of its own; each
/// cell's ring is added once.
fn ring_from(
    board: &Board,
    c: Pos,
    min_threes: usize,
    visited: &mut CellSet,
    segments: &mut impl Extend<(Pos, usize, isize)>,
) {
    let flex3 = |q: Pos| {
        (0..4)
            .filter(|&d| board.line_pattern(q, Color::Black, d).is_flex3())
            .count()
    };
    if visited.contains(c) || flex3(c) < min_threes {
        return;
    }
    visited.insert(c);
    for dir in 0..4 {
        if !board.line_pattern(c, Color::Black, dir).is_flex3() {
            continue;
        }
        for s in (-4..=4).filter(|&s| s != 0) {
            let g = c.step(dir, s);
            if board.is_empty(g) {
                segments.extend((0..4).map(|d| (g, d, 5)));
                // With `c` played, `g` has one more three: one of its own is enough to turn.
                ring_from(board, g, 1, visited, segments);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{read_corpus, Record};
    use crate::threat::validate::{line_holds, validate_line, ThreatKind};

    /// With the defender to move against `threat` (the attacker's VCF if the defender passed):
    /// every legal defender stone outside the candidates leaves the attacker winning at once
    /// (the line still holds, or it failed only because a forced reply became a foul and
    /// another VCF wins). Returns the number of cells checked.
    fn check_outside(solver: &VctSolver, board: &mut Board, threat: &[Pos], id: &str) -> usize {
        let defender = solver.attacker.opponent();
        let candidates = threat_breakers(board, threat, solver.attacker);
        let mut vcf = VcfSolver::new(14);
        let mut outside = 0;
        for m in board.empty_cells().clone().iter() {
            if candidates.contains(m) || !is_legal(board, m, defender) {
                continue;
            }
            board.make_move(m);
            assert!(
                line_holds(board, threat, ThreatKind::Vcf)
                    || vcf.solve(board, 30, Limits::nodes(1_000_000)).is_win(),
                "{id}: the defender's {m:?} breaks {threat:?} but is no candidate: {:?}\n{}",
                validate_line(board, threat, ThreatKind::Vcf),
                board.to_text()
            );
            board.undo();
            outside += 1;
        }
        outside
    }

    /// The attacker's moves dropped because the defender would have a VCF should the
    /// attacker pass: after each, the defender (to move) has a VCF indeed. Positions: VCF
    /// corpora (renju puzzles, engine games in three rules) with the side that has the VCF
    /// made the defender by a pass.
    #[test]
    fn dropped_moves_lose_to_the_counter_vcf() {
        let (mut positions, mut dropped) = (0, 0);
        let mut vcf = VcfSolver::new(16);
        for rec in vcf_positions(4) {
            let mut board = rec.board().unwrap();
            board.pass();
            let mut solver = VctSolver::new(12);
            solver.counter_probe_nodes = 400;
            solver.attacker = board.side_to_move();
            let all: MoveList = board.candidates().iter().collect();
            let mut kept = all.clone();
            // What the search keeps: the cheap filter, then the replay each child gets.
            if let Some(counter) = solver.answers_to_counter_vcf(&mut board, &mut kept) {
                kept.retain(|m| {
                    let m = *m;
                    if makes_four(&board, m, solver.attacker) {
                        return true;
                    }
                    board.make_move(m);
                    let holds = line_holds(&mut board, &counter, ThreatKind::Vcf);
                    board.undo();
                    !holds
                });
            }
            if kept.len() == all.len() {
                continue;
            }
            positions += 1;
            for &m in all.iter().filter(|m| !kept.contains(m)) {
                if !is_legal(&mut board, m, solver.attacker) {
                    continue;
                }
                board.make_move(m);
                assert!(
                    vcf.solve(&mut board, 200, Limits::nodes(2_000_000))
                        .is_win(),
                    "{}: {m:?} was dropped but the defender has no VCF after it\n{}",
                    rec.id,
                    board.to_text()
                );
                board.undo();
                dropped += 1;
            }
        }
        assert!(
            positions >= 300,
            "only {positions} positions with a counter VCF"
        );
        assert!(dropped > 10_000, "only {dropped} moves dropped");
    }

    /// The players' entry: the same proofs as `solve`, with the line's first move.
    #[test]
    fn first_move_agrees_with_the_principal_line() {
        let mut proved = 0;
        for rec in corpus("vct", "renju_vct_puzzles_lfz084.txt")
            .iter()
            .step_by(100)
        {
            let mut board = rec.board().unwrap();
            let mut solver = VctSolver::new(14);
            solver.set_threat_limit(3);
            let first = solver.solve_first_move(&mut board, 200, Limits::nodes(100_000));
            let mut again = VctSolver::new(14);
            again.set_threat_limit(3);
            let full = again.solve(&mut board, 200, Limits::nodes(100_000));
            match (first, full) {
                (SolveOutcome::Win(first), SolveOutcome::Win(line)) => {
                    assert_eq!(first.len(), 1, "{}", rec.id);
                    let m = first[0];
                    let me = board.side_to_move();
                    assert!(
                        board.is_empty(m) && is_legal(&mut board, m, me),
                        "{}",
                        rec.id
                    );
                    // A root proved by a VCF may show another VCF's first four in its line.
                    if !board.threat(line[0], board.side_to_move()).is_four() {
                        assert_eq!(m, line[0], "{}", rec.id);
                    }
                    proved += 1;
                }
                (a, b) => assert_eq!(a.is_win(), b.is_win(), "{}", rec.id),
            }
        }
        assert!(proved >= 20, "only {proved} proved");
    }

    /// A depth bound beyond the deepest one searched cannot give an exact "no win".
    #[test]
    fn disproofs_past_the_depth_cap_are_unknown() {
        let mut board = Board::new(15, 15, crate::core::Rule::Renju).unwrap();
        for (x, y) in [(7, 7), (8, 8), (6, 9)] {
            board.make_move(board.pos(x, y).unwrap());
        }
        let mut solver = VctSolver::new(12);
        solver.set_count_all_moves(true);
        let within = solver.solve(&mut board, MAX_DEPTH, Limits::nodes(1_000_000));
        assert_eq!(within, SolveOutcome::NoWin);
        let beyond = solver.solve(&mut board, MAX_DEPTH + 55, Limits::nodes(1_000_000));
        assert_eq!(beyond, SolveOutcome::Unknown);
    }

    fn corpus(dir: &str, file: &str) -> Vec<Record> {
        read_corpus(dir, file).expect("corpus")
    }

    /// Positions with a VCF for the side to move: the renju puzzles and the engine-game
    /// positions of renju, freestyle and standard.
    /// Every `step`th of each file.
    fn vcf_positions(step: usize) -> Vec<Record> {
        [
            "renju_vcf_puzzles_lfz084.txt",
            "games_renju_vcf.txt",
            "games_freestyle_vcf.txt",
            "games_standard_vcf.txt",
        ]
        .into_iter()
        .flat_map(|file| corpus("vcf", file).into_iter().step_by(step))
        .collect()
    }

    /// The pruning behind [`threat_breakers`], on positions with short VCFs
    /// (puzzles and engine games in renju, freestyle and standard): the defender passes, the
    /// threat is the attacker's VCF of at most four fours.
    #[test]
    fn no_defence_outside_the_candidates_against_a_vcf() {
        let (mut positions, mut outside) = (0, 0);
        for rec in vcf_positions(1) {
            let mut board = rec.board().unwrap();
            let mut solver = VctSolver::new(12);
            solver.attacker = board.side_to_move();
            let Some(threat) = solver.find_vcf(&mut board, 4, 0) else {
                continue;
            };
            board.pass();
            outside += check_outside(&solver, &mut board, &threat, &rec.id);
            positions += 1;
        }
        assert!(
            positions >= 500,
            "only {positions} positions with a short VCF"
        );
        assert!(outside > 50_000, "only {outside} cells checked");
    }

    /// The same after every threat move the VCT search would try (open threes and fukumi
    /// moves with a VCF of at most three fours) in renju VCT puzzles.
    #[test]
    fn no_defence_outside_the_candidates_after_a_threat_move() {
        let (mut positions, mut outside) = (0, 0);
        for rec in corpus("vct", "renju_vct_puzzles_lfz084.txt")
            .iter()
            .step_by(5)
        {
            let mut board = rec.board().unwrap();
            let mut solver = VctSolver::new(12);
            solver.set_threat_limit(3);
            solver.attacker = board.side_to_move();
            for a in solver.attacker_moves(&mut board) {
                board.make_move(a);
                let threat = match board
                    .threat_cells(solver.attacker, ThreatClass::Flex4)
                    .first()
                {
                    Some(f) => Some(vec![f]),
                    None => solver.after_pass(&mut board, |s, b| s.find_vcf(b, 3, 0)),
                };
                if let Some(threat) = threat {
                    if !board.has_five_point(solver.attacker.opponent()) {
                        outside += check_outside(&solver, &mut board, &threat, &rec.id);
                        positions += 1;
                    }
                }
                board.undo();
            }
        }
        assert!(positions >= 500, "only {positions} threat positions");
        assert!(outside > 50_000, "only {outside} cells checked");
    }

    /// The renju foul ring of a cell `c` where black has two open threes: every cell whose
    /// white stone turns `c` from a foul to a legal move or back — through the recursive three
    /// rule, at any number of removes — is in the ring. Counts the flips found beyond two
    /// removes (neither on `c`'s lines nor on the lines through the open-four points of its
    /// threes), so the test shows it reaches that deep.
    #[test]
    fn the_foul_ring_holds_every_cell_that_turns_a_foul() {
        let cells_of = |board: &Board, segments: &[(Pos, usize, isize)]| {
            let mut cells = CellSet::EMPTY;
            insert_segment_cells(board, segments, &mut cells);
            cells
        };
        let records: Vec<Record> = corpus("vct", "renju_vct_puzzles_lfz084.txt")
            .into_iter()
            .chain(corpus("vcf", "renju_vcf_puzzles_lfz084.txt"))
            .collect();
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let (mut rings, mut flips, mut deep) = (0, 0, 0);
        for (rec, extra) in records.iter().flat_map(|r| [(r, 0), (r, 8), (r, 16)]) {
            let mut board = rec.board().unwrap();
            // Every position as it is and with 8 and 16 black stones added beside black's
            // (white passing): denser black shapes, whose threes chain.
            for _ in 0..extra {
                if board.side_to_move() != Color::Black {
                    board.pass();
                }
                let near: Vec<Pos> = board
                    .candidates()
                    .iter()
                    .filter(|&p| {
                        let class = board.threat(p, Color::Black);
                        class < ThreatClass::Block4 && class != ThreatClass::Forbid
                    })
                    .collect();
                if near.is_empty() {
                    break;
                }
                board.make_move(near[rng.gen_range(0..near.len())]);
                board.pass();
            }
            let flex3 = |b: &Board, q: Pos| {
                (0..4)
                    .filter(|&d| b.line_pattern(q, Color::Black, d).is_flex3())
                    .count()
            };
            let turning: Vec<Pos> = board
                .empty_cells()
                .iter()
                .filter(|&c| flex3(&board, c) >= 2)
                .collect();
            for c in turning {
                let mut segments = Vec::new();
                foul_ring(&board, c, &mut segments);
                let ring = cells_of(&board, &segments);
                // The first two removes: c's lines, and the lines through the open-four
                // points of its threes.
                let mut near: Vec<(Pos, usize, isize)> = (0..4).map(|d| (c, d, 5)).collect();
                for dir in (0..4).filter(|&d| board.line_pattern(c, Color::Black, d).is_flex3()) {
                    for g in (-4..=4).map(|s| c.step(dir, s)) {
                        if board.is_empty(g) {
                            near.extend((0..4).map(|d| (g, d, 5)));
                        }
                    }
                }
                let near = cells_of(&board, &near);
                rings += 1;
                let foul = board.is_forbidden(c);
                for q in board.empty_cells().clone().iter().filter(|&q| q != c) {
                    let passed = board.side_to_move() == Color::Black;
                    if passed {
                        board.pass();
                    }
                    board.make_move(q);
                    let turned = board.is_forbidden(c) != foul;
                    board.undo();
                    if passed {
                        board.pass();
                    }
                    if turned {
                        flips += 1;
                        assert!(
                            ring.contains(q),
                            "{}: white on {q:?} turns {c:?} but is not in its ring\n{}",
                            rec.id,
                            board.to_text()
                        );
                        if !near.contains(q) {
                            deep += 1;
                        }
                    }
                }
            }
        }
        // 16 651 rings, 75 487 flips, 3 of them beyond two removes; a ring that stops at two
        // removes misses one of those (lfz-intro-3te-146 with 8 stones added). The deep ones
        // are rare: the added stones (seeded, in candidate order) decide how many there are.
        assert!(rings > 10_000, "only {rings} rings");
        assert!(flips > 50_000, "only {flips} flips");
        assert!(deep > 0, "no flip beyond two removes among {flips}");
    }
}
