//! Node expansion of the VCT search: the attacker's candidate moves (fours, threats, and the
//! answers to a counter-VCF), the defender's answers to a threat (the cells that can break its
//! line, renju's foul ring included), and the starting proof numbers of attacker moves.

use super::ring::{foul_ring, insert_segment_cells};
use super::zone::threat_zone;
use super::{VctSolver, FREE_VCF_FOURS, SHORTCUT_PROBE_NODES, VCF_PROBE_NODES};
use crate::core::{Board, CellSet, Color, LinePattern, Pos, ThreatClass};
use crate::tactics::dfpn::Expansion;
use crate::tactics::moves::{
    five_point, four_moves, has_four_move, legal_stops, three_moves, MoveList,
};
use crate::tactics::validate::{line_holds, ThreatKind};
use crate::tactics::vcf::makes_four;
use smallvec::SmallVec;

impl VctSolver {
    pub(super) fn expand_attack(&mut self, board: &mut Board, depth: u32) -> Expansion {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        if let Some(five) = five_point(board, attacker) {
            return Expansion::Proven(Some(five), false);
        }
        if board.has_five_point(defender) {
            // The defender threatens five: the attacker must stop it.
            let fits = !self.count_all_moves || depth > 0;
            let stops = legal_stops(board, defender, attacker);
            return if stops.is_empty() || !fits {
                Expansion::Disproven
            } else {
                Expansion::Children(stops)
            };
        }
        let vcf_fours = if self.count_all_moves {
            if depth == 0 {
                return Expansion::Disproven;
            }
            depth
        } else {
            FREE_VCF_FOURS
        };
        if has_four_move(board, attacker) {
            if let Some(line) = self.probe_vcf(board, vcf_fours, SHORTCUT_PROBE_NODES) {
                return Expansion::Proven(line.first().copied(), true);
            }
        }
        let threat_fours = if self.count_all_moves {
            self.threat_limit.min(depth.saturating_sub(1)).max(1)
        } else {
            self.threat_limit
        };
        let mut moves = self.attacker_moves(board, threat_fours);
        let counter = self.answers_to_counter_vcf(board, &mut moves);
        match counter {
            _ if moves.is_empty() => Expansion::Disproven,
            Some(line) => Expansion::Answers(moves, line),
            None => Expansion::Children(moves),
        }
    }

    /// `counter`: the defender's VCF that the attacker's last move had to break, if any.
    pub(super) fn expand_defend(
        &mut self,
        board: &mut Board,
        depth: u32,
        counter: Option<&[Pos]>,
    ) -> Expansion {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        if board.has_five_point(defender) {
            return Expansion::Disproven;
        }
        if board.has_five_point(attacker) {
            // Against a four: every legal stone that stops the five points.
            let stops = legal_stops(board, attacker, defender);
            return if stops.is_empty() {
                Expansion::Proven(None, false)
            } else {
                Expansion::Children(stops)
            };
        }
        // The attacker's move did not break the defender's VCF: the defender wins with it.
        if counter.is_some_and(|line| line_holds(board, line, ThreatKind::Vcf)) {
            return Expansion::Disproven;
        }
        if self.count_all_moves && depth == 0 {
            return Expansion::Disproven;
        }
        let Some(threat) = self.current_threat(board, depth) else {
            return Expansion::Disproven;
        };
        // A threat line longer than the moves left does not end the game at once.
        let fits = !self.count_all_moves || depth as usize >= threat.len().div_ceil(2);
        let caro = board.rule().blocked_fives_fail();
        let mut children = MoveList::new();
        for m in threat_breakers(board, &threat, self.attacker).iter() {
            if !board.is_legal(m, defender) {
                continue;
            }
            board.make_move(m);
            let counter = board.has_five_point(defender);
            // (In caro an open four can still be stopped: only a replay tells.)
            let loses_at_once = !counter
                && fits
                && ((!caro && board.threat_count(attacker, ThreatClass::Flex4) > 0)
                    || ((caro || threat.len() > 1) && line_holds(board, &threat, ThreatKind::Vcf)));
            board.undo();
            if !loses_at_once {
                children.push(m);
            }
        }
        if children.is_empty() {
            Expansion::Proven(None, false)
        } else {
            Expansion::Children(children)
        }
    }

    /// The attacker's threat with the defender to move: an open-four point, or (with a deeper
    /// threat limit) a short VCF he would have if the defender passed.
    fn current_threat(&mut self, board: &mut Board, depth: u32) -> Option<Vec<Pos>> {
        let attacker = self.attacker;
        // In caro an open four can still be stopped (a five blocked at both ends fails): there
        // even the classical threat is found as a VCF of one four.
        let caro = board.rule().blocked_fives_fail();
        if !caro {
            if let Some(f) = board.threat_cells(attacker, ThreatClass::Flex4).first() {
                return Some(vec![f]);
            }
        }
        // Under renju's fouls the open-four points are not all there is to a VCF of one four:
        // white's four whose only stop is a foul for black is one, and black's open-four point
        // the board marks as a possible foul may be legal. There the VCF solver decides.
        let fouls = board.rule().has_fouls();
        if (self.threat_limit <= 1 && !caro && !fouls) || !has_four_move(board, attacker) {
            return None;
        }
        let threat_fours = if self.count_all_moves {
            self.threat_limit.min(depth)
        } else {
            self.threat_limit
        };
        self.after_pass(board, |s, b| s.find_vcf(b, threat_fours, VCF_PROBE_NODES))
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
    /// stone. The candidates are the cells of the threat zone (see [`super::zone`]) for threats
    /// of `threat_fours` fours: every cell where a non-four move could be a threat, however far
    /// from the stones. Whether a candidate really threatens is decided by the defender node. A
    /// zone walk cut short by its budget marks the search truncated (no final disproof).
    pub(super) fn attacker_moves(&mut self, board: &mut Board, threat_fours: u32) -> MoveList {
        let attacker = self.attacker;
        let mut moves = MoveList::new();
        four_moves(board, attacker, &mut moves);
        three_moves(board, attacker, &mut moves);
        let listed: CellSet = {
            let mut s = CellSet::EMPTY;
            moves.iter().for_each(|&p| s.insert(p));
            s
        };
        let (zone, complete) = threat_zone(board, attacker, threat_fours);
        if !complete {
            self.truncated = true;
        }
        for p in zone.iter() {
            if listed.contains(p) {
                continue;
            }
            let class = board.threat(p, attacker);
            if class == ThreatClass::Forbid && !board.is_legal(p, attacker) {
                continue;
            }
            moves.push(p);
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

/// Plies over which the starting proof number of an attacker move grows by one factor of
/// `(1 + ply / PLY_SCALE)`; it grows with the square of that.
pub(super) const PLY_SCALE: u32 = 6;

/// The starting proof number of an attacker move by what it makes, `ply` plies below the
/// root. Deeper moves start dearer, so df-pn prefers a shallower alternative to one more
/// threat at the end of a long sequence: with flat numbers, chains of fours and fukumi threats
/// (each one proof number, whatever its depth) draw the search deep while a short win waits
/// beside them; a quadratic growth proved the most hard puzzles within 1 s (docs/results.md).
/// Under quintet's depth bound the bound already keeps the search shallow and flat numbers do
/// better, so there `ply` is 0.
pub(super) fn initial_proof_number(class: ThreatClass, ply: u32) -> u32 {
    let base = match class {
        ThreatClass::Five
        | ThreatClass::Flex4
        | ThreatClass::Block4Flex3
        | ThreatClass::Flex3x2 => 1,
        ThreatClass::Block4Plus | ThreatClass::Flex3Plus => 2,
        ThreatClass::Block4 | ThreatClass::Flex3 => 3,
        _ => 6,
    };
    let grown = PLY_SCALE + ply.min(1000);
    (base * grown * grown / (PLY_SCALE * PLY_SCALE)).max(1)
}
