//! VCT: victory by continuous threats — fours, open threes and (with a deeper threat limit)
//! "fukumi" moves that threaten a short VCF — proved or disproved by df-pn ([`crate::tactics::dfpn`]),
//! for which [`VctSolver`] is the [`ProofProblem`]:
//!
//! - attacker nodes (OR): a five wins; a defender four must be blocked; otherwise a VCF probe,
//!   then every four and every move that may threaten — but if the defender would have a VCF
//!   should the attacker pass, only fours and the moves that break that VCF (each checked
//!   against the VCF's line when its node is first expanded);
//! - defender nodes (AND): against a four, every legal stone that stops it (none: he loses);
//!   against a threat, every move that breaks the attacker's threat line, and every
//!   counter-four (the attacker must then block and the defence goes on). A defender move
//!   that does neither loses at once, so skipping it keeps the proof sound.
//!
//! `expand` holds the node expansion (which cells can break a threat line is decided from
//! the line itself, see `threat_breakers`; tests check the pruning on every empty cell of
//! thousands of corpus positions); `line` reads the principal line and the proof size off
//! the table after a proof.

mod expand;
mod line;
mod ring;
#[cfg(test)]
mod tests;
mod zone;

use crate::core::{Board, Color, Pos};
use crate::tactics::dfpn::{self, DfpnTable, Expansion, ProofProblem, INF};
use crate::tactics::limits::{Limits, SolveOutcome};
use crate::tactics::vcf::{position_salt, VcfSolver};
use smallvec::SmallVec;
use std::time::Instant;

/// Nodes between clock checks (a df-pn node may cost a few hundred board moves).
const CLOCK_INTERVAL: u64 = 64;
/// The deepest attacker-move bound searched (quintet's `limit` beyond it is cut to it).
const MAX_DEPTH: u32 = 200;
/// Node budget of the threat test at the defender's nodes (the attacker's VCF should the
/// defender pass: running out of it leaves the search without a final disproof).
const VCF_PROBE_NODES: u64 = 1_000;
/// Node budget of the attacker's shortcut VCF probe, whose miss costs nothing but time (df-pn
/// searches his fours anyway). Since the VCF solver skips fours whose position after the
/// block it has refuted, a probe that needs more is mostly one that will not end: 400 was the
/// fastest of 100–2500 on puzzles proved in 0.1–5 s (docs/results.md).
const SHORTCUT_PROBE_NODES: u64 = 400;
/// Node budget of the defender's counter-VCF probe at the attacker's nodes (the VCF he would
/// have should the attacker pass), which only narrows the attacker's moves, so a miss is sound:
/// a defender with many fours otherwise makes the probe run out of a large budget at most
/// attacker nodes, for no pruning (10 instead of 400 took a fifth fewer nodes on long proofs;
/// docs/results.md).
const COUNTER_PROBE_NODES: u64 = 10;
/// VCF depth of the probes without a depth bound (and of the defender's counter-VCF always).
const FREE_VCF_FOURS: u32 = 60;

/// A reusable VCT solver with its own table.
pub struct VctSolver {
    nodes: u64,
    limits: Limits,
    aborted: bool,
    attacker: Color,
    salt: u64,
    threat_limit: u32,
    count_all_moves: bool,
    vcf: VcfSolver,
    /// Set when a threat test (does the attacker threaten?) ran out of its budget: a disproof
    /// is then not final, and the table's disproofs are forgotten before the next search.
    truncated: bool,
    dfpn: DfpnTable,
    /// The depth bound of the last df-pn search (when every move counts).
    root_depth: u32,
    /// Stones on the board at the root of the last df-pn search.
    root_stones: usize,
    /// The node count at which the clock is read next.
    next_clock_check: u64,
    /// Node budget of the counter-VCF probe ([`COUNTER_PROBE_NODES`]; tests of the pruning
    /// raise it to meet more counter-VCFs).
    counter_probe_nodes: u64,
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
            dfpn: DfpnTable::default(),
            root_depth: 0,
            root_stones: 0,
            next_clock_check: 0,
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
        self.dfpn = DfpnTable::reserved(max_entries);
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
    fn start(&mut self, board: &Board, limits: Limits) {
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

    fn tick(&mut self) -> bool {
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
    fn find_vcf(&mut self, board: &mut Board, max_fours: u32, budget: u64) -> Option<Vec<Pos>> {
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
    fn after_pass<T>(
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
    fn probe_vcf(&mut self, board: &mut Board, max_fours: u32, budget: u64) -> Option<Vec<Pos>> {
        let truncated = self.truncated;
        let line = self.find_vcf(board, max_fours, budget);
        self.truncated = truncated;
        line
    }

    /// Proves or disproves a VCT for the side to move by df-pn.
    /// `depth` bounds the attacker's moves when every move counts
    /// ([`VctSolver::set_count_all_moves`]); it is ignored otherwise.
    fn dfpn_solve(&mut self, board: &mut Board, depth: u32) -> SolveOutcome {
        match self.dfpn_prove(board, depth) {
            SolveOutcome::Win(_) => SolveOutcome::Win(self.dfpn_line(board)),
            other => other,
        }
    }

    /// [`VctSolver::dfpn_solve`] without the principal line: a win holds only its first move
    /// (read from the table, so it costs nothing after the proof).
    fn dfpn_prove(&mut self, board: &mut Board, depth: u32) -> SolveOutcome {
        self.root_depth = depth;
        self.root_stones = board.history().len();
        let (pn, dn) = dfpn::mid(self, board, INF, INF, true, depth, None);
        if pn == 0 {
            let root = self.dfpn.entry(self.node_key(board.hash(), depth));
            let first = root.and_then(|n| n.best);
            SolveOutcome::Win(first.into_iter().collect())
        } else if dn == 0 && !self.aborted && !self.truncated {
            SolveOutcome::NoWin
        } else {
            // Out of budget, or a probe cut short by its budget may have hidden a threat: no
            // final disproof.
            SolveOutcome::Unknown
        }
    }

    /// The table key of a position `hash` with `depth` attacker moves left.
    fn node_key(&self, hash: u64, depth: u32) -> u64 {
        let bound = if self.count_all_moves {
            (depth as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        } else {
            0
        };
        hash ^ self.salt ^ bound
    }

    /// The attacker moves left below an attacker move made with `depth` left.
    fn after_attacker_move(&self, depth: u32) -> u32 {
        if self.count_all_moves {
            depth.saturating_sub(1)
        } else {
            depth
        }
    }
}

impl ProofProblem for VctSolver {
    fn table(&mut self) -> &mut DfpnTable {
        &mut self.dfpn
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn tick(&mut self) -> bool {
        VctSolver::tick(self)
    }

    fn aborted(&self) -> bool {
        self.aborted
    }

    fn key(&self, hash: u64, depth: u32) -> u64 {
        self.node_key(hash, depth)
    }

    fn child_depth(&self, attack: bool, depth: u32) -> u32 {
        if attack {
            self.after_attacker_move(depth)
        } else {
            depth
        }
    }

    fn expand(
        &mut self,
        board: &mut Board,
        attack: bool,
        depth: u32,
        answering: Option<&[Pos]>,
    ) -> Expansion {
        if attack {
            self.expand_attack(board, depth)
        } else {
            self.expand_defend(board, depth, answering)
        }
    }

    /// Attacker moves start with a proof number from their threat class, so real threats are
    /// tried before quiet candidates, and without a depth bound from their distance to the
    /// root (see `expand::initial_proof_number`); counter-fours after the direct defences.
    fn start_numbers(
        &self,
        board: &Board,
        moves: &[Pos],
        attack: bool,
    ) -> SmallVec<[(u32, u32); 32]> {
        let ply = if self.count_all_moves {
            0
        } else {
            (board.history().len() + 1).saturating_sub(self.root_stones) as u32
        };
        moves
            .iter()
            .map(|&m| {
                if attack {
                    (
                        expand::initial_proof_number(board.threat(m, self.attacker), ply),
                        1,
                    )
                } else if board.threat(m, self.attacker.opponent()).is_four() {
                    // Counter-fours after the direct defences: the direct defences' proofs
                    // fill the table first, and counter-four lines often transpose into them.
                    (1, 2)
                } else {
                    (1, 1)
                }
            })
            .collect()
    }
}
