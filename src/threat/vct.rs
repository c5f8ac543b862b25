//! VCT: victory by continuous threats — fours and open threes.
//!
//! An AND/OR depth-first search with iterative deepening on the number of attacker threats
//! and a table of proven and refuted positions:
//! - attacker nodes (OR): a five wins; a defender four must be blocked; otherwise a VCF probe,
//!   then every four and every open-three move;
//! - defender nodes (AND): against a four, the forced block (a renju foul there loses);
//!   against a three, every move that leaves the attacker no open-four point, and every
//!   counter-four (the attacker must then block and the defence goes on). A defender move
//!   that does neither loses to the open four, so skipping it keeps the proof sound.
//!
//! A defence can only remove an open-four point by taking it or by changing one of its lines,
//! so the defender's candidates are those cells plus his fours; nothing that could refute the
//! attack is left out.

use super::limits::{Limits, SolveOutcome};
use super::moves::{five_point, four_moves, is_legal, three_moves, MoveList};
use super::validate::{validate_line, ThreatKind};
use super::vcf::{position_salt, VcfSolver};
use crate::core::{Board, CellSet, Color, LinePattern, Pos, ThreatClass};

/// A table entry: a position proven within `depth` moves (so within any larger depth), or
/// refuted within `depth` moves (so within any smaller depth).
#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    key: u64,
    depth: u8,
    win: bool,
    best: u16,
}

/// Nodes between clock checks.
const CLOCK_INTERVAL: u64 = 512;
/// Node budget of the VCF probe at each attacker node.
pub(super) const VCF_PROBE_NODES: u64 = 1_000;
/// VCF depth of the probes when fours are free.
pub(super) const FREE_VCF_FOURS: u32 = 60;

/// A reusable VCT solver with its own table.
pub struct VctSolver {
    pub(super) table: Vec<Entry>,
    pub(super) mask: usize,
    pub(super) nodes: u64,
    pub(super) limits: Limits,
    pub(super) aborted: bool,
    pub(super) attacker: Color,
    pub(super) salt: u64,
    pub(super) threat_limit: u32,
    pub(super) count_all_moves: bool,
    pub(super) vcf: VcfSolver,
    /// Set when a VCF probe ran out of its budget: a disproof is then not final.
    pub(super) truncated: bool,
    pub(super) dfpn: super::dfpn::DfpnTable,
}

impl VctSolver {
    /// A solver with a table of `2^table_bits` entries (16 bytes each).
    pub fn new(table_bits: u32) -> VctSolver {
        let size = 1usize << table_bits;
        VctSolver {
            table: vec![Entry::default(); size],
            mask: size - 1,
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
        }
    }

    /// After [`VctSolver::solve`] proved a win from `board` (unchanged since), the number of
    /// positions in the proof tree. `None` in the bounded mode (`set_count_all_moves(true)`),
    /// which keeps no proof tree.
    pub fn proof_size(&mut self, board: &mut Board) -> Option<u64> {
        (!self.count_all_moves).then(|| self.dfpn_proof_size(board))
    }

    /// Bounds the df-pn table to about `max_entries` positions.
    pub fn set_dfpn_capacity(&mut self, max_entries: usize) {
        self.dfpn = super::dfpn::DfpnTable::with_max_entries(max_entries);
    }

    /// Nodes searched by the last call (VCF probes included).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets every stored result.
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
        self.dfpn.clear();
        self.vcf.clear();
    }

    /// Sets what counts as a threat: a non-four move threatens when, if the defender passed,
    /// the attacker would have a VCF of at most `threat_limit` fours (1 = the classical open
    /// three or other open-four point; 2 and more admit "fukumi" moves).
    pub fn set_threat_limit(&mut self, threat_limit: u32) {
        self.threat_limit = threat_limit.max(1);
    }

    /// Chooses what the depth counts: every attacker move up to the decisive four (quintet's
    /// `limit`, `true`), or only the non-four threats with free VCF continuations (`false`,
    /// the default: the usual VCT depth).
    pub fn set_count_all_moves(&mut self, count_all_moves: bool) {
        self.count_all_moves = count_all_moves;
    }

    /// Searches a VCT for the side to move within `max_threats` of depth (see
    /// [`VctSolver::set_count_all_moves`]). The board is returned unchanged.
    pub fn solve(&mut self, board: &mut Board, max_threats: u32, limits: Limits) -> SolveOutcome {
        self.nodes = 0;
        self.limits = limits;
        self.aborted = false;
        self.truncated = false;
        self.attacker = board.side_to_move();
        // The same position is an attacker node for one colour and a defender node for the
        // other: entries must not cross between attackers (nor rules, sizes, threat settings).
        self.salt = position_salt(board)
            ^ (0x5643_5400 + self.threat_limit as u64 + ((self.count_all_moves as u64) << 8))
                .wrapping_mul(0xA24B_AED4_963E_E407)
            ^ (self.attacker.index() as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        if !self.count_all_moves {
            return self.dfpn_solve(board);
        }
        let max_threats = max_threats.clamp(1, 200);
        let mut depth = 1;
        loop {
            if self.attack(board, depth) {
                let line = self.principal_line(board, depth);
                return SolveOutcome::Win(line);
            }
            if self.aborted {
                return SolveOutcome::Unknown;
            }
            if depth >= max_threats {
                // A probe cut short by its budget may have hidden a threat.
                return if self.truncated {
                    SolveOutcome::Unknown
                } else {
                    SolveOutcome::NoWin
                };
            }
            depth += 1;
        }
    }

    pub(super) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self
            .limits
            .exceeded(self.nodes, self.nodes.is_multiple_of(CLOCK_INTERVAL))
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn probe(&self, key: u64, depth: u32) -> Option<Entry> {
        let slot = key as usize & self.mask;
        [slot, slot ^ 1]
            .into_iter()
            .map(|s| self.table[s])
            .find(|e| {
                e.key == key
                    && if e.win {
                        depth >= e.depth as u32
                    } else {
                        depth <= e.depth as u32
                    }
            })
    }

    fn store(&mut self, key: u64, depth: u32, win: bool, best: Option<Pos>) {
        if self.aborted {
            return;
        }
        let slot = key as usize & self.mask;
        let (a, b) = (self.table[slot], self.table[slot ^ 1]);
        let weight = |e: Entry| e.depth;
        let target = if a.key == key || (b.key != key && weight(a) <= weight(b)) {
            slot
        } else {
            slot ^ 1
        };
        self.table[target] = Entry {
            key,
            depth: depth.min(254) as u8,
            win,
            best: best.map_or(0, |p| p.0),
        };
    }

    /// What a move costs from the depth budget: every attacker move when counting all moves
    /// (quintet's `limit`), only the non-four threats otherwise.
    #[inline]
    fn cost(&self, four: bool) -> u32 {
        if self.count_all_moves || !four {
            1
        } else {
            0
        }
    }

    /// Attacker to move with `depth` moves left: whether he wins.
    fn attack(&mut self, board: &mut Board, depth: u32) -> bool {
        if self.tick() {
            return false;
        }
        let attacker = self.attacker;
        let defender = attacker.opponent();
        if board.has_five_point(attacker) {
            return true;
        }
        match board.threat_count(defender, ThreatClass::Five) {
            0 => {}
            1 => {
                // Block the defender's four; the attack goes on from the new position.
                let block = five_point(board, defender).expect("counted");
                let cost = self.cost(true);
                if depth < cost || !is_legal(board, block, attacker) {
                    return false;
                }
                board.make_move(block);
                let won = self.defend(board, depth - cost);
                board.undo();
                return won;
            }
            _ => return false,
        }
        if depth == 0 && self.count_all_moves {
            return false;
        }
        let key = board.hash() ^ self.salt;
        if let Some(e) = self.probe(key, depth) {
            return e.win;
        }
        // A VCF is a VCT: probe it cheaply first (there is none without a four move).
        let vcf_fours = if self.count_all_moves {
            depth
        } else {
            FREE_VCF_FOURS
        };
        if has_four_move(board, attacker) {
            if let Some(line) = self.find_vcf(board, vcf_fours, VCF_PROBE_NODES) {
                self.store(key, depth, true, line.first().copied());
                return true;
            }
        }
        if depth == 0 {
            self.store(key, depth, false, None);
            return false;
        }
        let moves = self.attacker_moves(board);
        for m in moves {
            let four = (0..4).any(|d| board.line_pattern(m, attacker, d).is_four());
            board.make_move(m);
            let won = self.defend(board, depth - self.cost(four));
            board.undo();
            if won {
                self.store(key, depth, true, Some(m));
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        self.store(key, depth, false, None);
        false
    }

    /// A VCF of the attacker (to move) within `max_fours`, or `None` (also when the node budget
    /// ran out).
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
        let outcome = self.vcf.solve(
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
        moves.sort_by_key(|&p| (rank(board.threat(p, attacker)), distance(p)));
        moves
    }

    /// Defender to move after an attacker move: whether the attacker still wins within
    /// `depth` more moves.
    fn defend(&mut self, board: &mut Board, depth: u32) -> bool {
        if self.tick() {
            return false;
        }
        let attacker = self.attacker;
        let defender = attacker.opponent();
        if board.has_five_point(defender) {
            return false;
        }
        match board.threat_count(attacker, ThreatClass::Five) {
            0 => {}
            1 => {
                let block = five_point(board, attacker).expect("counted");
                if !is_legal(board, block, defender) {
                    return true;
                }
                board.make_move(block);
                let won = self.attack(board, depth);
                board.undo();
                return won;
            }
            _ => return true,
        }
        if depth == 0 && self.count_all_moves {
            return false;
        }
        let key = board.hash() ^ self.salt;
        if let Some(e) = self.probe(key, depth) {
            return e.win;
        }
        // The threat: what the attacker would win with if the defender passed. An open-four
        // point is a one-four threat, read off the board; deeper threats need a VCF search.
        let threat = match board.threat_cells(attacker, ThreatClass::Flex4).first() {
            Some(f) => Some(vec![f]),
            None if self.threat_limit <= 1 || !has_four_move(board, attacker) => None,
            None => {
                let threat_fours = if self.count_all_moves {
                    self.threat_limit.min(depth)
                } else {
                    self.threat_limit
                };
                board.pass();
                let t = self.find_vcf(board, threat_fours, VCF_PROBE_NODES);
                board.pass();
                t
            }
        };
        let Some(threat) = threat else {
            self.store(key, depth, false, None);
            return false;
        };
        for m in self.defence_candidates(board, &threat).iter() {
            if !is_legal(board, m, defender) {
                continue;
            }
            board.make_move(m);
            // A move that is no four and leaves an open-four point loses to the open four;
            // one that leaves the threat line playable loses to it (when it fits the depth).
            let counter = board.has_five_point(defender);
            let fits = !self.count_all_moves || depth as usize >= threat.len().div_ceil(2);
            let loses_at_once = !counter
                && fits
                && (board.threat_count(attacker, ThreatClass::Flex4) > 0
                    || (threat.len() > 1
                        && validate_line(board, &threat, ThreatKind::Vcf).is_ok()));
            let won = loses_at_once || self.attack(board, depth);
            board.undo();
            if !won {
                if !self.aborted {
                    self.store(key, depth, false, Some(m));
                }
                return false;
            }
            if self.aborted {
                return false;
            }
        }
        self.store(key, depth, true, None);
        true
    }

    /// Every cell that could break the attacker's threat line `threat` (its cells, the five
    /// points of its last four, and the cells on their lines within reach) and the defender's
    /// own fours. A defender move elsewhere leaves the threat line intact.
    pub(super) fn defence_candidates(&self, board: &mut Board, threat: &[Pos]) -> CellSet {
        let attacker = self.attacker;
        let mut anchors: MoveList = threat.iter().copied().collect();
        // The five points the last four would leave (played on a copy of the line).
        let mut played = 0;
        board.pass();
        for &p in threat {
            if board.is_empty(p) {
                board.make_move(p);
                played += 1;
            }
        }
        anchors.extend(board.threat_cells(attacker, ThreatClass::Five).iter());
        for _ in 0..played {
            board.undo();
        }
        board.pass();
        let mut cells = CellSet::EMPTY;
        for f in anchors {
            if board.is_empty(f) {
                cells.insert(f);
            }
            for dir in 0..4 {
                for s in -5..=5isize {
                    let q = f.step(dir, s);
                    if board.is_empty(q) {
                        cells.insert(q);
                    }
                }
            }
        }
        let mut fours = MoveList::new();
        four_moves(board, attacker.opponent(), &mut fours);
        for p in fours {
            cells.insert(p);
        }
        cells
    }

    /// Walks the proof from the root: the attacker's proven moves, the defender's first
    /// refutation-resistant answer, until a five or a position with no defence.
    fn principal_line(&mut self, board: &mut Board, depth: u32) -> Vec<Pos> {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        let mut line = Vec::new();
        let mut played = 0;
        for _ in 0..400 {
            if board.side_to_move() == attacker {
                if let Some(five) = five_point(board, attacker) {
                    line.push(five);
                    break;
                }
                let key = board.hash() ^ self.salt;
                let forced = match board.threat_count(defender, ThreatClass::Five) {
                    1 => five_point(board, defender),
                    _ => None,
                };
                let mv = forced.or_else(|| {
                    let best = self
                        .probe(key, depth)
                        .filter(|e| e.win && e.best != 0)
                        .map(|e| Pos(e.best));
                    best.or_else(|| {
                        // The table lost it: prove this node again, which stores its move.
                        let saved = self.limits.clone();
                        self.limits = Limits::nodes(0);
                        self.aborted = false;
                        let proven = self.attack(board, depth);
                        self.limits = saved;
                        if proven {
                            self.probe(key, depth)
                                .filter(|e| e.best != 0)
                                .map(|e| Pos(e.best))
                        } else {
                            None
                        }
                    })
                });
                let Some(m) = mv else { break };
                // A VCF-proven node stores only its first four: finish with the VCF line.
                if forced.is_none() && !board.threat(m, attacker).is_three_or_better()
                    || self.needs_vcf_line(board, m)
                {
                    if let SolveOutcome::Win(vcf_line) =
                        self.vcf.solve(board, 200, Limits::nodes(0))
                    {
                        line.extend(vcf_line);
                        break;
                    }
                }
                line.push(m);
                board.make_move(m);
                played += 1;
            } else {
                let Some(r) = self.line_reply(board, |s, b| s.first_defence(b)) else {
                    break;
                };
                line.push(r);
                board.make_move(r);
                played += 1;
            }
        }
        for _ in 0..played {
            board.undo();
        }
        line
    }

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
        if board.has_five_point(defender) || board.threat_count(attacker, ThreatClass::Five) >= 2 {
            return None;
        }
        match five_point(board, attacker) {
            Some(block) => is_legal(board, block, defender).then_some(block),
            None => choose(self, board),
        }
    }

    /// Whether the stored move at this node came from the VCF probe (a four with a VCF).
    fn needs_vcf_line(&mut self, board: &mut Board, m: Pos) -> bool {
        board.threat(m, self.attacker).is_four() && self.vcf.has_vcf(board, self.attacker, 200, 0)
    }

    /// The defender's first candidate that answers the threat (breaks the attacker's threat
    /// line or makes a counter-four), for the principal line.
    pub(super) fn first_defence(&mut self, board: &mut Board) -> Option<Pos> {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        board.pass();
        let threat = self.find_vcf(board, self.threat_limit, 0);
        board.pass();
        let threat = threat?;
        let mut fallback = None;
        for m in self.defence_candidates(board, &threat).iter() {
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

/// Whether `color` has any move that makes a four (a VCF needs one). Renju cells marked as
/// possible fouls are counted without the exact check.
pub(super) fn has_four_move(board: &Board, color: Color) -> bool {
    [
        ThreatClass::Flex4,
        ThreatClass::Block4Flex3,
        ThreatClass::Block4Plus,
        ThreatClass::Block4,
        ThreatClass::Forbid,
    ]
    .into_iter()
    .any(|c| board.threat_count(color, c) > 0)
}
