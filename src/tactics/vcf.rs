//! VCF: victory by continuous fours.
//!
//! The attacker plays only fours; each four leaves the defender one forced block (or a loss
//! if he has a five of his own, or if the four has two five points). When the defender's
//! block makes a four, the attacker must block it, and that block must itself be a four for
//! the VCF to go on. Renju: black may not use a foul as a four point; a white four whose only
//! defence is a black foul wins; black's exact five beats a foul (the core's classes encode
//! this). Depth-first with iterative deepening on the number of fours and a table of
//! positions already refuted at a given depth. Where a four's block is forced and legal, the
//! block is read off the line keys and the table asked about the position after both before
//! either stone is played (about half of the positions a search reaches are refuted ones), and
//! with two fours left only fours that can leave a winning four are tried.

use super::limits::{Limits, SolveOutcome};
use super::moves::{five_point, four_moves, legal_stops, MoveList};
use crate::core::{Board, Color, Pos, ThreatClass};

/// An entry of the refutation table: a position key and the depth (fours) it failed at, or
/// [`EXACT`] when it failed without reaching the depth bound anywhere, packed in one word — the
/// key's top 56 bits and the depth in the low byte — so that a table is a zeroed word array
/// (allocated and emptied in constant time, whatever its size) and a two-way bucket fits in
/// 16 bytes. An empty word matches no key in practice (2^-56).
#[derive(Clone, Copy)]
struct Entry(u64);

impl Entry {
    const DEPTH_BITS: u64 = 0xFF;

    fn new(hash: u64, depth: u8) -> Entry {
        Entry((hash & !Self::DEPTH_BITS) | depth as u64)
    }

    fn holds(self, hash: u64) -> bool {
        (self.0 ^ hash) & !Self::DEPTH_BITS == 0
    }

    fn depth(self) -> u8 {
        (self.0 & Self::DEPTH_BITS) as u8
    }
}

/// The depth of a refutation that holds at every depth: no line below it was cut by the
/// number of fours left, only by running out of fours. The VCT search probes the same
/// positions again with other depths (its shortcut at a child after a probe at the
/// parent, one four deeper); such entries answer them at once.
const EXACT: u8 = u8::MAX;

/// A reusable VCF solver with its own table.
pub struct VcfSolver {
    table: Vec<u64>,
    mask: usize,
    nodes: u64,
    limits: Limits,
    aborted: bool,
    attacker: Color,
    path: Vec<Pos>,
    win_line: Vec<Pos>,
    /// Set when a refutation below the current node depended on the depth bound.
    depth_cut: bool,
    /// Mixed into every key so entries of another rule or board size never match.
    salt: u64,
    /// Stones played by the last call (fours and blocks): the cost the shortcuts save.
    played: u64,
    /// Searches every four as it comes, without the shortcuts that skip fours which cannot
    /// win in time or whose position after the block is known: the reference for tests.
    plain: bool,
}

/// Nodes between clock checks.
const CLOCK_INTERVAL: u64 = 1024;

impl VcfSolver {
    /// A solver with a table of `2^table_bits` entries (8 bytes each).
    pub fn new(table_bits: u32) -> VcfSolver {
        let size = 1usize << table_bits;
        VcfSolver {
            table: vec![0; size],
            mask: size - 1,
            nodes: 0,
            limits: Limits::default(),
            aborted: false,
            attacker: Color::Black,
            path: Vec::new(),
            win_line: Vec::new(),
            depth_cut: false,
            salt: 0,
            played: 0,
            plain: false,
        }
    }

    /// Nodes searched by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Stones played (fours and blocks) by the last call.
    pub fn stones_played(&self) -> u64 {
        self.played
    }

    /// Forgets every stored refutation.
    pub fn clear(&mut self) {
        // A fresh zeroed allocation: constant time, where filling a large table is not.
        self.table = vec![0; self.table.len()];
    }

    /// Searches a VCF for the side to move with at most `max_fours` attacker fours.
    /// The board is returned unchanged.
    pub fn solve(&mut self, board: &mut Board, max_fours: u32, limits: Limits) -> SolveOutcome {
        self.nodes = 0;
        self.played = 0;
        self.limits = limits;
        self.aborted = false;
        self.attacker = board.side_to_move();
        self.salt = position_salt(board);
        let max_fours = max_fours.min(200);
        // Iterative deepening: shallow wins are found fast and refutations carry over.
        let mut depth = 1;
        loop {
            self.path.clear();
            if self.attack(board, depth) {
                return SolveOutcome::Win(std::mem::take(&mut self.win_line));
            }
            if self.aborted {
                return SolveOutcome::Unknown;
            }
            if depth >= max_fours {
                return SolveOutcome::NoWin;
            }
            depth = (depth * 2).min(max_fours);
        }
    }

    /// Like [`VcfSolver::solve`] but in one pass at full depth, without iterative deepening:
    /// cheaper for the many small probes of the VCT search, though the line found may be
    /// longer than the one `solve` finds.
    pub fn solve_direct(
        &mut self,
        board: &mut Board,
        max_fours: u32,
        limits: Limits,
    ) -> SolveOutcome {
        self.nodes = 0;
        self.played = 0;
        self.limits = limits;
        self.aborted = false;
        self.attacker = board.side_to_move();
        self.salt = position_salt(board);
        self.path.clear();
        if self.attack(board, max_fours.min(200)) {
            SolveOutcome::Win(std::mem::take(&mut self.win_line))
        } else if self.aborted {
            SolveOutcome::Unknown
        } else {
            SolveOutcome::NoWin
        }
    }

    /// Whether `color` (to move or not) has a VCF within `max_fours` fours and `max_nodes`
    /// nodes: the cheap leaf query kept for the main search (not written yet). `false` also
    /// when the budget ran out.
    pub fn has_vcf(
        &mut self,
        board: &mut Board,
        color: Color,
        max_fours: u32,
        max_nodes: u64,
    ) -> bool {
        let passed = board.side_to_move() != color;
        if passed {
            board.pass();
        }
        let won = self
            .solve(board, max_fours, Limits::nodes(max_nodes))
            .is_win();
        if passed {
            board.pass();
        }
        won
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self
            .limits
            .exceeded(self.nodes, self.nodes % CLOCK_INTERVAL == 0)
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Attacker to move with `depth` fours left. True when a win was found (the line is then
    /// in `win_line`).
    fn attack(&mut self, board: &mut Board, depth: u32) -> bool {
        if self.tick() {
            return false;
        }
        let attacker = self.attacker;
        let defender = attacker.opponent();
        if let Some(five) = five_point(board, attacker) {
            self.win_line = self.path.clone();
            self.win_line.push(five);
            return true;
        }
        if depth == 0 {
            self.depth_cut = true;
            return false;
        }
        let hash = board.hash() ^ self.salt;
        let slot = (hash as usize) & self.mask;
        if self.refuted(hash, depth) {
            return false;
        }
        let outer_cut = std::mem::replace(&mut self.depth_cut, false);
        let mut moves = MoveList::new();
        // With two fours left only a four that leaves a winning four can win.
        let mut short_wins_only = false;
        if board.has_five_point(defender) {
            // The defender threatens five: the stop must itself be a four.
            moves = legal_stops(board, defender, attacker);
            moves.retain(|m| makes_four(board, *m, attacker));
        } else {
            // Outside caro (where a five blocked at both ends fails, so an open four can still
            // be stopped) an open four or two fours leave no defence, and with one four left
            // only such a four can win — or in renju a white four whose block is a black foul,
            // or a black open four on a cell marked as a possible foul that is legal after all.
            if !board.rule().blocked_fives_fail() {
                if let Some(win) = board.threat_cells(attacker, ThreatClass::Flex4).first() {
                    self.win_line = self.path.clone();
                    self.win_line.push(win);
                    return true;
                }
                let renju_exceptions = board.rule().has_fouls()
                    && (attacker == Color::White
                        || board.threat_count(attacker, ThreatClass::Forbid) > 0);
                if depth == 1 && !renju_exceptions {
                    self.depth_cut = true;
                    return false;
                }
                short_wins_only = depth == 2 && !renju_exceptions;
            }
            four_moves(board, attacker, &mut moves);
            order_by_locality(board, &mut moves);
        }
        // Where the defender's block is his only answer and always legal for him (outside
        // caro, and not a black block in renju), the fours that cannot win in time are skipped
        // and the table is asked about the position after the four and its block before
        // either is played. (A stop of a defender's five point takes his only one.)
        let black_defends_renju = board.rule().has_fouls() && defender == Color::Black;
        let look_ahead = !(self.plain || board.rule().blocked_fives_fail() || black_defends_renju);
        for i in 0..moves.len() {
            let m = moves[i];
            if look_ahead {
                if let Some(block) = board.five_point_after(m, attacker) {
                    // What `attack` would answer at once after the block.
                    if self.tick() {
                        return false;
                    }
                    if depth == 1
                        || (short_wins_only
                            && !board.threat(block, defender).is_four()
                            && !may_win_within_two(board, m, &moves))
                    {
                        self.depth_cut = true;
                        continue;
                    }
                    let after = board.hash_after_pair(m, attacker, block) ^ self.salt;
                    if self.refuted(after, depth - 1) {
                        continue;
                    }
                    self.nodes -= 1;
                }
            }
            board.make_move(m);
            self.played += 1;
            self.path.push(m);
            let won = self.defend(board, depth - 1);
            self.path.pop();
            board.undo();
            if won {
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        let exact = !self.depth_cut;
        self.depth_cut |= outer_cut;
        if !self.aborted {
            // Same position or the shallower of the pair is replaced.
            let (a, b) = (Entry(self.table[slot]), Entry(self.table[slot ^ 1]));
            let target = if a.holds(hash) || (!b.holds(hash) && a.depth() <= b.depth()) {
                slot
            } else {
                slot ^ 1
            };
            let depth = if exact { EXACT } else { depth.min(200) as u8 };
            self.table[target] = Entry::new(hash, depth).0;
        }
        false
    }

    /// Whether the table holds a refutation of the position `hash` (salted) with `depth`
    /// fours or more left.
    #[inline]
    fn refuted(&mut self, hash: u64, depth: u32) -> bool {
        let slot = (hash as usize) & self.mask;
        // Two-way buckets: the entry may sit in either slot of the pair.
        for s in [slot, slot ^ 1] {
            let entry = Entry(self.table[s]);
            if entry.holds(hash) && entry.depth() as u32 >= depth {
                self.depth_cut |= entry.depth() != EXACT;
                return true;
            }
        }
        false
    }

    /// Defender to move after an attacker four.
    fn defend(&mut self, board: &mut Board, depth: u32) -> bool {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        if board.has_five_point(defender) {
            return false;
        }
        if !board.has_five_point(attacker) {
            return false;
        }
        let block = match legal_stops(board, attacker, defender)[..] {
            // Two five points, or the only block is a renju foul: no defence.
            [] => {
                self.win_line = self.path.clone();
                return true;
            }
            [block] => block,
            // Two ways to stop it (caro): not a forcing four.
            _ => return false,
        };
        board.make_move(block);
        self.played += 1;
        self.path.push(block);
        let won = self.attack(board, depth);
        self.path.pop();
        board.undo();
        won
    }
}

/// Whether the attacker's four `m` can win within two fours when its block makes no four for
/// the defender (the block's cell is none of his four points), outside caro and renju's
/// exceptions: after `m` and its block the attacker needs a cell `c` with an open four or two
/// fours, and only `m`'s lines gained a stone. A new four for `c` on another line of `m`
/// means `m` makes a three there too (class `Block4Plus` or better). On `m`'s own four line
/// the block leaves no open four (every cell between the block and `m` holds an attacker
/// stone), only a plain four, so `c` must already have a four elsewhere: one of the other
/// `fours`, in line with `m` and within four cells.
fn may_win_within_two(board: &Board, m: Pos, fours: &[Pos]) -> bool {
    if board.threat(m, board.side_to_move()) >= ThreatClass::Block4Plus {
        return true;
    }
    fours.iter().any(|&c| c != m && c.aligned_within(m, 4))
}

/// A key salt for the rule and board size, so one table can serve many positions.
pub(crate) fn position_salt(board: &Board) -> u64 {
    let tag =
        (board.rule().index() as u64) << 16 | (board.width() as u64) << 8 | board.height() as u64;
    tag.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
}

/// Orders fours for the search: four-threes first, then fours that also build on another
/// line, each group nearest the attacker's previous stone first (continuations of the same
/// attack are usually the winning ones). Measured: about a fifth less time in the VCT
/// search, whose probes are mostly VCF searches.
fn order_by_locality(board: &Board, moves: &mut MoveList) {
    let history = board.history();
    if history.len() < 2 {
        return;
    }
    let anchor = history[history.len() - 2];
    let distance = |p: Pos| p.x().abs_diff(anchor.x()).max(p.y().abs_diff(anchor.y()));
    let me = board.side_to_move();
    let rank = |p: Pos| match board.threat(p, me) {
        ThreatClass::Block4Flex3 => 0,
        ThreatClass::Block4Plus => 1,
        _ => 2,
    };
    moves.sort_by_key(|&p| (rank(p), distance(p).min(6)));
}

/// Whether `color` playing `p` makes a four in some line.
pub(super) fn makes_four(board: &Board, p: Pos, color: Color) -> bool {
    (0..4).any(|d| board.line_pattern(p, color, d).is_four())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::read_corpus;

    /// Refutations kept as holding at every depth must really do so: one solver searched at
    /// growing depths (each search meets the refutations of the shallower ones) answers as a
    /// fresh solver at every depth, up to the first win.
    #[test]
    fn refutations_kept_for_every_depth_never_hide_a_deeper_win() {
        let puzzles = read_corpus("vcf", "renju_vcf_puzzles_lfz084.txt").expect("corpus");
        let mut records: Vec<_> = puzzles.into_iter().step_by(8).collect();
        records.extend(read_corpus("vcf", "games_freestyle_vcf.txt").expect("corpus"));
        let mut shared = VcfSolver::new(16);
        let (mut wins, mut deep_wins) = (0, 0);
        for rec in &records {
            let mut board = rec.board().unwrap();
            for depth in 1..=12 {
                let got = shared.solve_direct(&mut board, depth, Limits::nodes(200_000));
                let want =
                    VcfSolver::new(12).solve_direct(&mut board, depth, Limits::nodes(200_000));
                if got == SolveOutcome::Unknown || want == SolveOutcome::Unknown {
                    break;
                }
                assert_eq!(got.is_win(), want.is_win(), "{} at depth {depth}", rec.id);
                if got.is_win() {
                    wins += 1;
                    deep_wins += usize::from(depth >= 3);
                    break;
                }
            }
        }
        assert!(
            wins >= 200 && deep_wins >= 100,
            "{wins} wins, {deep_wins} at depth 3 or more"
        );
    }

    /// The shortcuts (fours that cannot win within two skipped, the table asked before a
    /// four and its block are played) never change an answer: at every depth up to 8, on
    /// renju puzzles and negatives and on freestyle and standard game positions, the solver
    /// answers as the plain search does, and plays fewer stones.
    #[test]
    fn shortcuts_answer_as_the_plain_search() {
        let mut records: Vec<_> = read_corpus("vcf", "renju_vcf_puzzles_lfz084.txt")
            .expect("corpus")
            .into_iter()
            .step_by(10)
            .collect();
        for file in [
            "renju_no_vcf_computed.txt",
            "games_freestyle_vcf.txt",
            "games_freestyle_nowin.txt",
            "games_standard_vcf.txt",
            "games_standard_nowin.txt",
            "games_renju_nowin.txt",
        ] {
            records.extend(
                read_corpus("vcf", file)
                    .expect("corpus")
                    .into_iter()
                    .step_by(6),
            );
        }
        let (mut decided, mut wins) = (0, 0);
        let (mut played, mut plain_played) = (0, 0);
        for rec in &records {
            let mut board = rec.board().unwrap();
            for depth in 1..=8 {
                let mut fast = VcfSolver::new(14);
                let mut plain = VcfSolver::new(14);
                plain.plain = true;
                let got = fast.solve_direct(&mut board, depth, Limits::nodes(300_000));
                let want = plain.solve_direct(&mut board, depth, Limits::nodes(300_000));
                if got == SolveOutcome::Unknown || want == SolveOutcome::Unknown {
                    break;
                }
                assert_eq!(got.is_win(), want.is_win(), "{} at depth {depth}", rec.id);
                decided += 1;
                wins += usize::from(got.is_win());
                played += fast.stones_played();
                plain_played += plain.stones_played();
            }
        }
        assert!(
            decided >= 2000 && wins >= 300,
            "{decided} decided, {wins} wins"
        );
        // The shortcuts must be taken: at least a fifth fewer stones played.
        assert!(
            played * 5 < plain_played * 4,
            "{played} stones played, plain {plain_played}"
        );
    }

    /// The leaf query answers for either colour (the one not to move by a pass) as a full
    /// solve does, and gives the board back unchanged.
    #[test]
    fn has_vcf_agrees_with_solve_for_either_colour() {
        let records = read_corpus("vcf", "games_freestyle_vcf.txt").expect("corpus");
        let (mut probe, mut full) = (VcfSolver::new(16), VcfSolver::new(16));
        let (mut checked, mut wins) = (0, 0);
        for rec in &records {
            let mut board = rec.board().unwrap();
            let hash = board.hash();
            for color in [Color::Black, Color::White] {
                let got = probe.has_vcf(&mut board, color, 30, 1_000_000);
                assert_eq!(board.hash(), hash, "{}: board changed", rec.id);
                let passed = board.side_to_move() != color;
                if passed {
                    board.pass();
                }
                let want = full.solve(&mut board, 30, Limits::nodes(1_000_000));
                if passed {
                    board.pass();
                }
                if want != SolveOutcome::Unknown {
                    assert_eq!(got, want.is_win(), "{} ({color:?})", rec.id);
                    checked += 1;
                    wins += usize::from(got);
                }
            }
        }
        // Both answers must occur: the side to move has its VCF, the other side mostly not.
        assert_eq!(checked, 112, "decided (pinned)");
        assert!((50..checked).contains(&wins), "{wins} wins of {checked}");
    }
}
