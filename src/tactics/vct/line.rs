//! The principal line of a proved VCT and the size of its proof tree, read off the df-pn
//! table after the proof.

use super::expand::threat_breakers;
use super::VctSolver;
use crate::core::{Board, Pos, ThreatClass};
use crate::tactics::dfpn::Expansion;
use crate::tactics::limits::{Limits, SolveOutcome};
use crate::tactics::moves::{five_point, legal_stops};

impl VctSolver {
    /// The principal line of a proof: the attacker's proving moves, the proven defence nearest
    /// the attacker's last stone, and the VCF that finishes it. Runs without limits (the proof
    /// is done); players that need only the first move use [`VctSolver::solve_first_move`].
    pub(super) fn dfpn_line(&mut self, board: &mut Board) -> Vec<Pos> {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        let mut line = Vec::new();
        let mut played = 0;
        self.aborted = false;
        self.limits = Limits::default();
        let mut depth = self.root_depth;
        for _ in 0..400 {
            if board.side_to_move() == attacker {
                if let Some(five) = five_point(board, attacker) {
                    line.push(five);
                    break;
                }
                let key = self.node_key(board.hash(), depth);
                let node = self.dfpn.entry(key);
                // A five threat is blocked at its point (in caro the proof's stop is in the table).
                let forced = (board.threat_count(defender, ThreatClass::Five) == 1
                    && !board.rule().blocked_fives_fail())
                .then(|| five_point(board, defender))
                .flatten();
                let next = match (forced, node) {
                    (Some(f), _) => Some(f),
                    (None, Some(n)) if n.pn == 0 && !n.by_vcf => n.best,
                    _ => None,
                };
                match next {
                    Some(m) => {
                        line.push(m);
                        board.make_move(m);
                        played += 1;
                        depth = self.after_attacker_move(depth);
                    }
                    None => {
                        // Finish with a VCF (a VCF-proven node, or a defence that lost at once).
                        // A short VCF (iterative deepening), not the probes' first.
                        let vcf = self.vcf.solve(board, 200, Limits::default());
                        if let SolveOutcome::Win(vcf) = vcf {
                            line.extend(vcf);
                        } else if let Some(f) =
                            board.threat_cells(attacker, ThreatClass::Flex4).first()
                        {
                            line.push(f);
                        }
                        break;
                    }
                }
            } else {
                let reply = self.line_reply(board, |s, b| {
                    s.proven_defence(b, depth).or_else(|| s.first_defence(b))
                });
                let Some(r) = reply else { break };
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

    /// The number of positions in the proof tree below the root (each counted once), read
    /// from the table after a proof: the attacker's proving move at his nodes, every searched
    /// defence at the defender's; VCF-proven and terminal positions count as one.
    pub(super) fn dfpn_proof_size(&mut self, board: &mut Board) -> u64 {
        let mut seen = ahash::AHashSet::new();
        self.proof_nodes(board, true, self.root_depth, &mut seen)
    }

    fn proof_nodes(
        &mut self,
        board: &mut Board,
        attack: bool,
        depth: u32,
        seen: &mut ahash::AHashSet<u64>,
    ) -> u64 {
        let key = self.node_key(board.hash(), depth);
        if !seen.insert(key) {
            return 0;
        }
        let Some(node) = self.dfpn.entry(key) else {
            return 1;
        };
        if node.pn != 0 {
            return 1;
        }
        if attack {
            let Some(best) = node.best.filter(|_| !node.by_vcf) else {
                return 1;
            };
            board.make_move(best);
            let below = self.proof_nodes(board, false, self.after_attacker_move(depth), seen);
            board.undo();
            1 + below
        } else {
            let Some(children) = self.dfpn.children(key).cloned() else {
                return 1;
            };
            let mut total = 1;
            for m in children {
                board.make_move(m);
                total += self.proof_nodes(board, true, depth, seen);
                board.undo();
            }
            total
        }
    }

    /// A defence the proof searched (its position is proven in the table), for the line.
    fn proven_defence(&mut self, board: &mut Board, depth: u32) -> Option<Pos> {
        let Expansion::Children(moves) = self.expand_defend(board, depth, None) else {
            return None;
        };
        // Every searched defence of a proven node is proven: show the one nearest the
        // attacker's last stone, the natural answer.
        let last = board.last_move();
        moves
            .into_iter()
            .filter(|&m| self.dfpn.get(self.node_key(board.hash_after(m), depth)).0 == 0)
            .min_by_key(|&m| last.map_or(0, |l| m.x().abs_diff(l.x()).max(m.y().abs_diff(l.y()))))
    }

    /// The defender's move in a principal line: `None` where the line ends (the defender can
    /// make five, or cannot stop the attacker's five), the forced block against a four, and
    /// otherwise `choose`'s answer to the threat.
    fn line_reply(
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
    fn first_defence(&mut self, board: &mut Board) -> Option<Pos> {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        let limit = self.threat_limit;
        let threat = self.after_pass(board, |s, b| s.find_vcf(b, limit, 0))?;
        // With no answer, the line shows the defender taking the threat's first cell.
        let mut fallback =
            (board.is_empty(threat[0]) && board.is_legal(threat[0], defender)).then_some(threat[0]);
        for m in threat_breakers(board, &threat, self.attacker).iter() {
            if !board.is_legal(m, defender) {
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
