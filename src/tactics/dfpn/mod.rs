//! Depth-first proof-number search (df-pn, Nagai; with the 1+ε trick of Pawlewicz and Lew):
//! the effort goes to the attacker moves that are closest to a proof and the defences that are
//! closest to a refutation. The search knows nothing of gomoku: a [`ProofProblem`] says what a
//! position's moves are, which positions are decided, and how its keys and depths run; the VCT
//! solver is one. Positions and their numbers live in a [`DfpnTable`].

pub mod table;

pub use table::{DfpnTable, Entry};

use crate::core::{Board, Pos};
use crate::tactics::moves::MoveList;
use smallvec::SmallVec;

/// Proof and disproof numbers at or above this are infinite.
pub const INF: u32 = 1 << 30;

/// A node's fate once its moves are known.
pub enum Expansion {
    /// Proven (the attacker wins): the proving move if there is one, and whether a VCF proved
    /// it (the line then continues with that VCF).
    Proven(Option<Pos>, bool),
    /// Disproven (the attacker does not win here).
    Disproven,
    /// Still open: the moves to search.
    Children(MoveList),
    /// An attacker node's moves and a line they must answer (each child is checked against it
    /// when first expanded).
    Answers(MoveList, Vec<Pos>),
}

/// What df-pn needs to know of the problem it proves: the node expansion, the keys, the
/// limits, and where the table is.
pub trait ProofProblem {
    /// The table of proof and disproof numbers.
    fn table(&mut self) -> &mut DfpnTable;
    /// Search nodes spent so far.
    fn nodes(&self) -> u64;
    /// Counts one node; true when the search must stop now (then [`ProofProblem::aborted`]).
    fn tick(&mut self) -> bool;
    /// Whether the search has been stopped by its limits.
    fn aborted(&self) -> bool;
    /// The table key of the position `hash` with `depth` left.
    fn key(&self, hash: u64, depth: u32) -> u64;
    /// The depth left below a move made at a node with `depth` left.
    fn child_depth(&self, attack: bool, depth: u32) -> u32;
    /// The moves of a node met for the first time, or its fate. `answering`: the line the
    /// attacker's last move had to answer, if any.
    fn expand(
        &mut self,
        board: &mut Board,
        attack: bool,
        depth: u32,
        answering: Option<&[Pos]>,
    ) -> Expansion;
    /// The starting numbers of children never searched (df-pn+).
    fn start_numbers(
        &self,
        board: &Board,
        moves: &[Pos],
        attack: bool,
    ) -> SmallVec<[(u32, u32); 32]>;
}

/// The df-pn "multiple iterative deepening" step: searches below this node until its
/// proof number reaches `thpn` or its disproof number reaches `thdn`.
pub fn mid<P: ProofProblem + ?Sized>(
    p: &mut P,
    board: &mut Board,
    thpn: u32,
    thdn: u32,
    attack: bool,
    depth: u32,
    answering: Option<Box<[Pos]>>,
) -> (u32, u32) {
    let nodes_before = p.nodes();
    if p.tick() {
        return (1, 1);
    }
    let key = p.key(board.hash(), depth);
    let expansion = match p.table().children(key) {
        Some(moves) => Ok(moves.clone()),
        None => Err(p.expand(board, attack, depth, answering.as_deref())),
    };
    // Ok: moves cached by an earlier visit; Err: a fresh expansion. `answers`: the
    // defender's counter-VCF the moves must break, held here for the whole visit (a
    // collection may forget the cached copy of a node on the search path).
    let (moves, answers) = match expansion {
        Ok(moves) => {
            let answers = p.table().answered_line(key).map(Box::from);
            (moves, answers)
        }
        Err(Expansion::Proven(best, by_vcf)) => {
            let work = p.nodes() - nodes_before;
            p.table().put(key, 0, INF, best, by_vcf, work);
            return (0, INF);
        }
        // A probe stopped by the limits looks like "no threat": not a disproof to keep.
        Err(Expansion::Disproven) if p.aborted() => return (1, 1),
        Err(Expansion::Disproven) => {
            let work = p.nodes() - nodes_before;
            p.table().put(key, INF, 0, None, false, work);
            return (INF, 0);
        }
        Err(Expansion::Children(moves)) => {
            p.table().store_children(key, &moves, None);
            (moves, None)
        }
        Err(Expansion::Answers(moves, line)) => {
            let line = line.into_boxed_slice();
            p.table().store_children(key, &moves, Some(line.clone()));
            (moves, Some(line))
        }
    };
    let child_depth = p.child_depth(attack, depth);
    let keys: SmallVec<[u64; 32]> = moves
        .iter()
        .map(|&m| p.key(board.hash_after(m), child_depth))
        .collect();
    // df-pn+: unexplored children start with the problem's estimate of their numbers.
    let initial = p.start_numbers(board, &moves, attack);
    // The children's numbers, read once: below, only the child just searched changes
    // (another child can change only through a transposition, seen on the next visit).
    let mut values: SmallVec<[(u32, u32); 32]> = SmallVec::new();
    for (&k, &init) in keys.iter().zip(&initial) {
        values.push(p.table().lookup(k).unwrap_or(init));
    }
    loop {
        // OR node: pn = min, dn = sum; AND node: pn = sum, dn = min.
        let (mut min, mut sum) = (INF, 0u32);
        let (mut best, mut best_value, mut second) = (0, INF, INF);
        let mut best_pair = (1, 1);
        for (i, &(cp, cd)) in values.iter().enumerate() {
            let (select, summed) = if attack { (cp, cd) } else { (cd, cp) };
            min = min.min(select);
            sum = sum_numbers(sum, summed);
            if select < best_value {
                second = best_value;
                best_value = select;
                best = i;
                best_pair = (cp, cd);
            } else if select < second {
                second = select;
            }
        }
        let (pn, dn) = if attack { (min, sum) } else { (sum, min) };
        if pn >= thpn || dn >= thdn || p.aborted() {
            let proof_move = (pn == 0 && attack).then(|| moves[best]);
            if !p.aborted() {
                let work = p.nodes() - nodes_before;
                p.table().put(key, pn, dn, proof_move, false, work);
            }
            return (pn, dn);
        }
        let (cthpn, cthdn) = if attack {
            (
                thpn.min(epsilon_threshold(second)),
                child_threshold(thdn, dn, best_pair.1),
            )
        } else {
            (
                child_threshold(thpn, pn, best_pair.0),
                thdn.min(epsilon_threshold(second)),
            )
        };
        // A defender node met for the first time checks the attacker's move against the
        // line it had to answer.
        let handed = if attack && p.table().lookup(keys[best]).is_none() {
            answers.clone()
        } else {
            None
        };
        board.make_move(moves[best]);
        values[best] = mid(p, board, cthpn, cthdn, !attack, child_depth, handed);
        board.undo();
    }
}

/// A proof or disproof number sum: infinite only with an infinite term (a proven or
/// disproven child), so a large sum of open children never looks like a proof.
fn sum_numbers(a: u32, b: u32) -> u32 {
    if a >= INF || b >= INF {
        INF
    } else {
        (a + b).min(INF - 1)
    }
}

/// The 1+ε trick (Pawlewicz and Lew): the best child may run until it is a quarter worse
/// than the second best, not just one worse, so df-pn stops switching between siblings
/// (each switch walks the path down again).
fn epsilon_threshold(second: u32) -> u32 {
    if second >= INF {
        return INF;
    }
    (second + second / 4 + 1).min(INF)
}

/// A child's threshold on the summed number: the parent's threshold minus what the other
/// children already contribute.
fn child_threshold(parent_threshold: u32, parent_sum: u32, child_value: u32) -> u32 {
    if parent_threshold >= INF {
        return INF;
    }
    let others = parent_sum.saturating_sub(child_value);
    parent_threshold.saturating_sub(others).min(INF)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sums of open children stay finite however large: only a proven or disproven child
    /// makes a sum infinite (once a saturated sum passed for a disproof of the root).
    #[test]
    fn sums_saturate_below_infinity() {
        assert_eq!(sum_numbers(INF - 1, INF - 1), INF - 1);
        assert_eq!(sum_numbers(700_000_000, 700_000_000), INF - 1);
        assert_eq!(sum_numbers(3, 4), 7);
        assert_eq!(sum_numbers(3, INF), INF);
        assert_eq!(sum_numbers(INF, 0), INF);
        assert_eq!(epsilon_threshold(INF - 1), INF);
        assert_eq!(epsilon_threshold(8), 11);
        assert_eq!(epsilon_threshold(INF), INF);
    }
}
