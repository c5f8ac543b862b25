//! The solvers as a win probe for a player: a VCF, then a VCT, within a share of the move's
//! time budget and of the engine's table memory.

use crate::core::{Board, Pos};
use crate::search::{MemoryBudget, SearchControl};
use crate::tactics::dfpn::DfpnTable;
use crate::tactics::{Limits, SolveOutcome, VcfSolver, VctSolver};
use std::time::{Duration, Instant};

/// A forced-win finder called before the one-ply scoring: the seam where the VCF and VCT
/// solvers plug in (`OnePlyPlayer::with_probe`).
pub trait WinProbe: Send {
    /// The first move of a forced win for the side to move, if one is found before
    /// `control.should_stop()`. The board must be left as it was found.
    fn find_win(&mut self, board: &mut Board, control: &SearchControl) -> Option<Pos>;

    /// Sizes the probe's tables from the engine's memory budget.
    fn set_memory(&mut self, budget: &MemoryBudget) {
        let _ = budget;
    }

    /// Forgets what earlier positions taught the probe.
    fn clear(&mut self) {}
}

/// VCT threat limit used in play (a non-four threat must give a VCF of at most this many fours).
pub const PLAY_THREAT_LIMIT: u32 = 3;

/// The bound on the attacker's moves handed to the VCT solver in play: none in practice (the
/// solver counts it only when every move counts, which it does not by default; the clock or a
/// node budget ends the search).
pub const PLAY_MAX_THREATS: u32 = 200;

/// VCF then VCT for the side to move.
pub struct ThreatProbe {
    table_bytes: u64,
    solvers: Option<(VcfSolver, VctSolver)>,
    /// The VCF and VCT searches get the soft budget divided by these.
    shares: (u32, u32),
}

impl Default for ThreatProbe {
    fn default() -> Self {
        ThreatProbe::new()
    }
}

impl ThreatProbe {
    /// A probe with 8 MiB of tables until the engine's memory budget says otherwise.
    pub fn new() -> ThreatProbe {
        ThreatProbe {
            table_bytes: 8 << 20,
            solvers: None,
            shares: (4, 2),
        }
    }

    /// Gives the VCF search `1 / vcf` and the VCT search `1 / vct` of the soft budget (the
    /// one-ply player's default: ¼ and ½).
    pub fn with_shares(mut self, vcf: u32, vct: u32) -> ThreatProbe {
        self.shares = (vcf.max(1), vct.max(1));
        self
    }

    /// The solvers, built at the current size if not yet built (normally by
    /// [`WinProbe::set_memory`], between moves): an eighth of the bytes to the VCF solver's
    /// table, a sixty-fourth to the VCT solver's probe table and half to its df-pn table
    /// (counted with the maps' power-of-two rounding, and at most the positions a full table
    /// collects in a pause the move clock allows).
    fn solvers(&mut self) -> &mut (VcfSolver, VctSolver) {
        let bytes = self.table_bytes.max(64 << 10);
        self.solvers.get_or_insert_with(|| {
            // 2^quarter_bits entries of 8 bytes: an eighth of the bytes.
            let quarter_bits = (bytes / 4 / 16).max(1024).ilog2();
            let mut vct = VctSolver::new(quarter_bits.saturating_sub(1));
            vct.set_threat_limit(PLAY_THREAT_LIMIT);
            let entries = DfpnTable::entries_for_bytes(bytes as usize / 2);
            vct.set_dfpn_capacity(entries.min(DfpnTable::DEFAULT_MAX_ENTRIES));
            (VcfSolver::new(quarter_bits), vct)
        })
    }
}

impl ThreatProbe {
    /// The first move of a win by fours (searched until `vcf_until`) or by threats (until
    /// `vct_until`) for the side to move, if one is found; stopped early by `stop`.
    fn find_win_until(
        &mut self,
        board: &mut Board,
        vcf_until: Instant,
        vct_until: Instant,
        stop: &std::sync::Arc<std::sync::atomic::AtomicBool>,
    ) -> Option<Pos> {
        let limits = |deadline: Instant| Limits {
            max_nodes: 0,
            deadline: Some(deadline),
            stop: Some(stop.clone()),
        };
        let (vcf, vct) = self.solvers();
        if let SolveOutcome::Win(line) = vcf.solve(board, 60, limits(vcf_until)) {
            return line.first().copied();
        }
        if vct_until.saturating_duration_since(Instant::now()) < Duration::from_millis(5) {
            return None;
        }
        match vct.solve_first_move(board, PLAY_MAX_THREATS, limits(vct_until)) {
            SolveOutcome::Win(line) => line.first().copied(),
            _ => None,
        }
    }
}

impl WinProbe for ThreatProbe {
    fn find_win(&mut self, board: &mut Board, control: &SearchControl) -> Option<Pos> {
        if control.is_immediate() || control.should_stop() {
            return None;
        }
        let now = Instant::now();
        let soft = control
            .budget()
            .soft_deadline()
            .saturating_duration_since(now);
        let (vcf_share, vct_share) = self.shares;
        let hard = control.budget().deadline;
        let vcf_until = (now + soft / vcf_share).min(hard);
        let vct_until = (now + soft / vct_share).min(hard);
        if soft / vct_share < Duration::from_millis(10) {
            // Too little time for a VCT: the VCF alone.
            return self.find_win_until(board, vcf_until, now, control.stop_flag());
        }
        self.find_win_until(board, vcf_until, vct_until, control.stop_flag())
    }

    fn set_memory(&mut self, budget: &MemoryBudget) {
        // A quarter of the engine's tables; the main search will take the rest.
        let bytes = (budget.table_bytes / 4).max(64 << 10);
        if bytes != self.table_bytes {
            self.table_bytes = bytes;
            self.solvers = None;
        }
        // Built now, off the move clock.
        self.solvers();
    }

    fn clear(&mut self) {
        if let Some((vcf, vct)) = self.solvers.as_mut() {
            vcf.clear();
            vct.clear();
        }
    }
}
