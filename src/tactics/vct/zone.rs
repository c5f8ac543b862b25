//! The threat zone: every empty cell where a non-four attacker move could be a threat.
//!
//! A non-four move `m` threatens when, if the defender passed, the attacker would have a VCF of
//! at most `L` fours (the threat limit). Take such a VCF `a1 d1 a2 d2 … five` and its first step
//! `t` whose check — `a_t` makes a four and is legal, `d_t` is the defender's only legal stop and
//! gives him no five point — comes out differently without `m`. If there is none, the VCF works
//! without `m`: the attacker has a VCF now, found by searching his fours, and skipping `m` loses
//! nothing. Otherwise the prefix `a1 … d(t-1)` (at most `L - 1` fours) is a VCF prefix of the
//! position without `m`, and at its end `m` is
//!
//! - in a live five-cell window with at least two attacker stones (so that `a_t` becomes a four,
//!   or a second five point appears): its line pattern is at least a blocked three;
//! - a stopper of a five point the defender gets from `d_t` (or already has);
//! - renju: in the foul ring of `d_t` (white attacks: `m` makes black's only stop a foul through
//!   the recursive three rule) or of `a_t` (black attacks: `m` makes his four legal).
//!
//! [`threat_zone`] walks every VCF prefix of up to `L - 1` fours (every four, every legal stop)
//! and collects those cells, so the zone holds every threat that matters; the defender node
//! decides which of them really threaten. Near the root a prefix stone only changes the lines
//! through it, so below the root only those lines are read.

use super::ring::{foul_ring, insert_segment_cells};
use crate::core::{Board, CellSet, Color, LinePattern, Pos, Rule};
use crate::tactics::moves::{four_moves, MoveList};
use smallvec::SmallVec;

/// Board moves (make or undo pairs) a zone walk may take before it gives up: a walk that stops
/// early leaves the zone incomplete, and a disproof built on it is not final.
pub(super) const WALK_BUDGET: u32 = 4_000;

/// The zone of `attacker` (to move) for threats of at most `limit` fours, and whether it is
/// complete (the walk stayed within [`WALK_BUDGET`]).
pub(super) fn threat_zone(board: &mut Board, attacker: Color, limit: u32) -> (CellSet, bool) {
    let mut zone = CellSet::EMPTY;
    for p in board.empty_cells().iter() {
        if (0..4).any(|d| line_counts(board.line_pattern(p, attacker, d))) {
            zone.insert(p);
        }
    }
    let mut walk = Walk {
        attacker,
        zone,
        budget: WALK_BUDGET,
        complete: true,
        seen: SmallVec::new(),
    };
    walk.prefixes(board, limit.max(1) - 1);
    (walk.zone, walk.complete)
}

/// A line pattern made by a stone with at least two more in a live window.
#[inline]
fn line_counts(lp: LinePattern) -> bool {
    lp >= LinePattern::Block3
}

struct Walk {
    attacker: Color,
    zone: CellSet,
    budget: u32,
    complete: bool,
    /// Prefix positions already walked (the same fours in another order reach them again).
    seen: SmallVec<[u64; 64]>,
}

impl Walk {
    /// Spends one board move; false (and the zone marked incomplete) when the budget is gone.
    fn spend(&mut self) -> bool {
        if self.budget == 0 {
            self.complete = false;
            return false;
        }
        self.budget -= 1;
        true
    }

    /// Collects the cells of the steps taken from this position (attacker to move), and walks
    /// on while `fours_left` more prefix fours are allowed.
    fn prefixes(&mut self, board: &mut Board, fours_left: u32) {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        let renju = board.rule() == Rule::Renju;
        let mut fours = MoveList::new();
        four_moves(board, attacker, &mut fours);
        // Black's fours the board marks as possible fouls but are fouls: a stone in their ring
        // can make them legal.
        if renju && attacker == Color::Black {
            for p in board
                .threat_cells(Color::Black, crate::core::ThreatClass::Forbid)
                .iter()
            {
                if (0..4).any(|d| board.line_pattern(p, Color::Black, d).is_four()) {
                    let mut segments: SmallVec<[(Pos, usize, isize); 24]> = SmallVec::new();
                    foul_ring(board, p, &mut segments);
                    insert_segment_cells(board, &segments, &mut self.zone);
                }
            }
        }
        for a in fours {
            if !self.spend() {
                return;
            }
            board.make_move(a);
            let stops = board.five_stoppers(attacker);
            for d in stops {
                if renju && defender == Color::Black {
                    let mut segments: SmallVec<[(Pos, usize, isize); 24]> = SmallVec::new();
                    foul_ring(board, d, &mut segments);
                    insert_segment_cells(board, &segments, &mut self.zone);
                }
                if !board.is_legal(d, defender) {
                    continue;
                }
                if fours_left == 0 {
                    // The last step: the stones that stop a five `d` would give the defender lie
                    // on his four lines through `d`, no farther than a caro end.
                    for dir in 0..4 {
                        let lp = board.line_pattern(d, defender, dir);
                        if lp.is_four() || lp == LinePattern::Five {
                            insert_segment_cells(board, &[(d, dir, 5)], &mut self.zone);
                        }
                    }
                    continue;
                }
                if !self.spend() {
                    continue;
                }
                board.make_move(d);
                for s in board.five_stoppers(defender) {
                    self.zone.insert(s);
                }
                if !self.seen.contains(&board.hash()) {
                    self.seen.push(board.hash());
                    self.lines_through(board, a);
                    self.prefixes(board, fours_left - 1);
                }
                board.undo();
            }
            board.undo();
            if !self.complete {
                return;
            }
        }
    }

    /// Adds the cells on the lines through the attacker's new stone `a` that now have two more
    /// attacker stones in a live window.
    fn lines_through(&mut self, board: &Board, a: Pos) {
        for dir in 0..4 {
            for s in (-4..=4).filter(|&s| s != 0) {
                let q = a.step(dir, s);
                if board.is_empty(q) && line_counts(board.line_pattern(q, self.attacker, dir)) {
                    self.zone.insert(q);
                }
            }
        }
    }
}
