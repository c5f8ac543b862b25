//! The moves a node searches, staged by the opponent's threats, and their order.
//!
//! 1. The opponent has a five point: only the stones that stop it (none legal: the node is
//!    lost, which static mate detection has already said).
//! 2. The opponent has an open-four point (an open three): the exact defences — every legal
//!    stone after which he has none, found by re-reading his patterns around each stone on the
//!    threat's lines ([`Board::stone_leaves_none`]) — and the side to move's own fours.
//! 3. The opponent threatens a four-three: its exact defences (after which he has no
//!    four-three and no open-four point), and own fours.
//! 4. Otherwise every candidate: the empty cells near the stones, and any cell farther out
//!    where either side makes a three or a four.
//!
//! Order: the transposition-table move, then by score — what the move makes for the side to
//! move and what it takes from the opponent (their threat classes), the history, killers and
//! the counter-move. Black's renju fouls are never searched: a cell the board marks as a
//! possible foul is checked exactly when it is listed.

use super::history::History;
use super::params::Tunables;
use crate::core::{Board, CellSet, Color, Pos, ThreatClass};
use crate::tactics::moves::{four_moves, MoveList};
use smallvec::SmallVec;

/// Ordering value of what a move makes for the side to move, by [`ThreatClass`]: the
/// classes that win or must be played at once are fixed, the others are constants of
/// [`Tunables`].
fn attack(class: ThreatClass, t: &Tunables) -> i32 {
    match class {
        ThreatClass::None => 0,
        ThreatClass::Flex2 => t.att_flex2,
        ThreatClass::Block3 => t.att_block3,
        ThreatClass::Flex2x2 => t.att_flex2x2,
        ThreatClass::Block3Plus => t.att_block3plus,
        // A listed renju black cell marked as a possible foul is legal: a false double three
        // makes at least an open three.
        ThreatClass::Flex3 | ThreatClass::Forbid => t.att_flex3,
        ThreatClass::Flex3Plus => t.att_flex3plus,
        ThreatClass::Flex3x2 => 20_000,
        ThreatClass::Block4 => t.att_block4,
        ThreatClass::Block4Plus => t.att_block4plus,
        ThreatClass::Block4Flex3 => 60_000,
        ThreatClass::Flex4 => 100_000,
        ThreatClass::Five => 1_000_000,
    }
}

/// Ordering value of what a move takes from the opponent (his class on the cell).
fn defence(class: ThreatClass, t: &Tunables) -> i32 {
    match class {
        // (Forbid: the opponent, black, may not play there anyway.)
        ThreatClass::None | ThreatClass::Forbid => 0,
        ThreatClass::Flex2 => t.def_flex2,
        ThreatClass::Block3 => t.def_block3,
        ThreatClass::Flex2x2 => t.def_flex2x2,
        ThreatClass::Block3Plus => t.def_block3plus,
        ThreatClass::Flex3 => t.def_flex3,
        ThreatClass::Flex3Plus => t.def_flex3plus,
        ThreatClass::Flex3x2 => 15_000,
        ThreatClass::Block4 => t.def_block4,
        ThreatClass::Block4Plus => t.def_block4plus,
        ThreatClass::Block4Flex3 => 45_000,
        ThreatClass::Flex4 => 80_000,
        ThreatClass::Five => 500_000,
    }
}

/// Which stage a node's moves come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Stops of the opponent's five.
    Forced,
    /// Defences against the opponent's open three, and own fours.
    DefendOpenThree,
    /// Defences against the opponent's four-three, and own fours.
    DefendFourThree,
    /// Every candidate.
    All,
}

/// A node's moves with their ordering scores, handed out best first.
pub struct MovePicker {
    /// Each move's sort key ([`sort_key`]).
    moves: SmallVec<[i64; 64]>,
    next: usize,
    /// Whether the moves from `next` on are sorted (best first).
    sorted: bool,
    /// The stage the moves come from.
    pub stage: Stage,
}

/// What the picker may use to order moves.
pub struct OrderHints<'a> {
    /// The transposition-table move.
    pub tt_move: Option<Pos>,
    /// This ply's killers.
    pub killers: [Option<Pos>; 2],
    /// The counter-move to the opponent's last stone.
    pub counter: Option<Pos>,
    /// The history tables.
    pub history: &'a History,
    /// The search's constants (the order's weights among them).
    pub tune: &'a Tunables,
}

impl MovePicker {
    /// The moves of the side to move of `board`, staged and scored.
    pub fn new(board: &mut Board, hints: &OrderHints) -> MovePicker {
        let me = board.side_to_move();
        let (stage, cells) = stage_cells(board, hints.tune.cand_radius as usize);
        let classes = ClassScores::new(hints.tune);
        let mut moves = SmallVec::new();
        for p in cells {
            let score = if Some(p) == hints.tt_move {
                i32::MAX
            } else {
                classes.score(board, p, me, hints)
            };
            moves.push(sort_key(p, score));
        }
        MovePicker {
            moves,
            next: 0,
            sorted: false,
            stage,
        }
    }

    /// The best remaining legal move (ties by cell index, so the order never depends on
    /// anything but the position and the tables). A renju foul is dropped when it comes up.
    pub fn next_move(&mut self, board: &mut Board) -> Option<Pos> {
        let me = board.side_to_move();
        while self.next < self.moves.len() {
            // Most nodes end after a move or two, each found by a scan; a node that asks for
            // more sorts the rest once (the keys are distinct: the same order either way).
            if self.next == SCANS_BEFORE_SORT && !self.sorted {
                self.moves[self.next..].sort_unstable_by(|a, b| b.cmp(a));
                self.sorted = true;
            }
            if !self.sorted {
                let mut best = self.next;
                for i in self.next + 1..self.moves.len() {
                    if self.moves[i] > self.moves[best] {
                        best = i;
                    }
                }
                self.moves.swap(self.next, best);
            }
            self.next += 1;
            let p = key_move(self.moves[self.next - 1]);
            if legal_for(board, p, me) {
                return Some(p);
            }
        }
        None
    }

    /// Every remaining legal move in order (for the root, which sorts its moves itself).
    pub fn drain(&mut self, board: &mut Board) -> Vec<Pos> {
        let mut out = Vec::with_capacity(self.moves.len());
        while let Some(p) = self.next_move(board) {
            out.push(p);
        }
        out
    }
}

/// How many moves a picker finds by a scan before it sorts the rest.
const SCANS_BEFORE_SORT: usize = 3;

/// A move's sort key: higher first, by score, then by the lower cell index (one comparison
/// where the pair would take two).
#[inline]
fn sort_key(p: Pos, score: i32) -> i64 {
    (score as i64) << 16 | (u16::MAX - p.0) as i64
}

/// The move of a sort key.
#[inline]
fn key_move(key: i64) -> Pos {
    Pos(u16::MAX - key as u16)
}

/// Whether `color` may play `p` (renju fouls checked exactly, only on marked cells).
#[inline]
fn legal_for(board: &mut Board, p: Pos, color: Color) -> bool {
    color == Color::White || board.threat(p, color) != ThreatClass::Forbid || !board.is_forbidden(p)
}

// `ClassScores` indexes 16-slot tables by class code masked to four bits.
const _: () = assert!(crate::core::pattern::NUM_CLASSES <= 16);

/// The order's values of the threat classes under one set of constants, read once for a
/// node's list (rather than matched per move).
struct ClassScores {
    attack: [i32; 16],
    defence: [i32; 16],
}

impl ClassScores {
    fn new(t: &Tunables) -> ClassScores {
        let mut scores = ClassScores {
            attack: [0; 16],
            defence: [0; 16],
        };
        for class in ThreatClass::ALL {
            scores.attack[class as usize] = attack(class, t);
            scores.defence[class as usize] = defence(class, t);
        }
        scores
    }

    /// The ordering score of `p` for `me` (without the table move's priority).
    #[inline]
    fn score(&self, board: &Board, p: Pos, me: Color, hints: &OrderHints) -> i32 {
        let t = hints.tune;
        let mut score = self.attack[board.threat(p, me) as usize & 15]
            + self.defence[board.threat(p, me.opponent()) as usize & 15];
        // The evaluation's values of the cell for both sides tell apart the moves that make no
        // threat (and the threats of one class) by their finer shape.
        if t.order_value != 0 {
            score += t.order_value * (board.cell_value(p, me) + board.cell_value(p, me.opponent()));
        }
        score += hints.history.score(me, p) / t.order_history;
        if hints.killers[0] == Some(p) {
            score += t.order_killer;
        } else if hints.killers[1] == Some(p) {
            score += t.order_killer2;
        }
        if hints.counter == Some(p) {
            score += t.order_counter;
        }
        score
    }
}

/// A stage's cells: every candidate (a set), or a short list.
enum StageCells {
    Set(crate::core::bitset::CellSetIter),
    List(std::vec::IntoIter<Pos>),
}

impl Iterator for StageCells {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        match self {
            StageCells::Set(it) => it.next(),
            StageCells::List(it) => it.next(),
        }
    }
}

/// The stage of the side to move's moves and the cells it lists (legality not yet checked;
/// the candidates of the last stage iterated from their set, not collected).
fn stage_cells(board: &mut Board, radius: usize) -> (Stage, StageCells) {
    let me = board.side_to_move();
    let opp = me.opponent();
    if board.has_five_point(opp) {
        let cells: Vec<Pos> = board.five_stoppers(opp).into_iter().collect();
        return (Stage::Forced, StageCells::List(cells.into_iter()));
    }
    if !board.rule().blocked_fives_fail() {
        if board.threat_count(opp, ThreatClass::Flex4) > 0 {
            let mut cells = defences(board, opp, &[ThreatClass::Flex4]);
            add_own_fours(board, me, &mut cells);
            return (Stage::DefendOpenThree, StageCells::List(cells.into_iter()));
        }
        if board.threat_count(opp, ThreatClass::Block4Flex3) > 0 {
            let mut cells = defences(board, opp, &[ThreatClass::Block4Flex3, ThreatClass::Flex4]);
            add_own_fours(board, me, &mut cells);
            // No single stone stops every four-three: the search looks at everything (a
            // forced block after his four-three may still turn into a four of ours).
            if !cells.is_empty() {
                return (Stage::DefendFourThree, StageCells::List(cells.into_iter()));
            }
        }
    }
    (
        Stage::All,
        StageCells::Set(candidates(board, radius).iter()),
    )
}

/// The empty cells within `radius` of the stones, and farther cells where either side makes a
/// three or more.
pub fn candidates(board: &Board, radius: usize) -> CellSet {
    let mut cells = board.candidates_within(radius);
    for c in Color::BOTH {
        for class in [
            ThreatClass::Flex3,
            ThreatClass::Flex3Plus,
            ThreatClass::Flex3x2,
            ThreatClass::Block4,
            ThreatClass::Block4Plus,
            ThreatClass::Block4Flex3,
            ThreatClass::Flex4,
        ] {
            if board.threat_count(c, class) > 0 {
                cells = cells.or(board.threat_cells(c, class));
            }
        }
    }
    if cells.is_empty() {
        // An empty board: the centre.
        cells.insert(Pos::new(board.width() / 2, board.height() / 2));
    }
    cells
}

fn add_own_fours(board: &mut Board, me: Color, cells: &mut Vec<Pos>) {
    let mut fours = MoveList::new();
    four_moves(board, me, &mut fours);
    for p in fours {
        if !cells.contains(&p) {
            cells.push(p);
        }
    }
}

/// Every stone of the side to move after which `opp` has no cell of `classes`, among the cells
/// that can change every one of those threats: a threat cell keeps its class unless the stone
/// lands on it or on one of its lines that make the threat (a three or better), so a defence
/// lies on such a line of each threat cell (or on the cell itself).
pub fn defences(board: &mut Board, opp: Color, classes: &[ThreatClass]) -> Vec<Pos> {
    let mut candidates: Option<CellSet> = None;
    for &class in classes {
        for t in board.threat_cells(opp, class).iter() {
            let mut reach = CellSet::EMPTY;
            reach.insert(t);
            for dir in 0..4 {
                if board.line_pattern(t, opp, dir) < crate::core::LinePattern::Flex3 {
                    continue;
                }
                for s in (-5..=5).filter(|&s| s != 0) {
                    let q = t.step(dir, s);
                    if board.is_empty(q) {
                        reach.insert(q);
                    }
                }
            }
            candidates = Some(candidates.map_or(reach, |c| c.and(&reach)));
        }
    }
    let me = opp.opponent();
    let mut out = Vec::new();
    for d in candidates.unwrap_or(CellSet::EMPTY).iter() {
        if !legal_for(board, d, me) {
            continue;
        }
        if board.stone_leaves_none(d, opp, classes) {
            out.push(d);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;

    fn hints(history: &History) -> OrderHints<'_> {
        OrderHints {
            tt_move: None,
            killers: [None; 2],
            counter: None,
            history,
            tune: &Tunables::DEFAULT,
        }
    }

    fn picked(board: &mut Board) -> (Stage, Vec<Pos>) {
        let h = History::default();
        let mut mp = MovePicker::new(board, &hints(&h));
        let out = mp.drain(board);
        (mp.stage, out)
    }

    /// Each order constant moves the value of its own class and of no other; the classes that
    /// win or must be answered stay above every tunable value.
    #[test]
    fn each_order_constant_scores_its_own_class() {
        let classes = [
            ("flex2", vec![ThreatClass::Flex2]),
            ("block3", vec![ThreatClass::Block3]),
            ("flex2x2", vec![ThreatClass::Flex2x2]),
            ("block3plus", vec![ThreatClass::Block3Plus]),
            ("flex3", vec![ThreatClass::Flex3]),
            ("flex3plus", vec![ThreatClass::Flex3Plus]),
            ("block4", vec![ThreatClass::Block4]),
            ("block4plus", vec![ThreatClass::Block4Plus]),
        ];
        let base = Tunables::DEFAULT;
        for (suffix, own) in &classes {
            for (side, value) in [("att", attack as fn(_, &_) -> i32), ("def", defence)] {
                let name = format!("{side}_{suffix}");
                let mut moved = base;
                moved.set(&name, base.get(&name).unwrap() + 1).unwrap();
                for class in ThreatClass::ALL {
                    // A renju black cell that may be a foul is ordered as an open three.
                    let owns = own.contains(&class)
                        || (side == "att" && *suffix == "flex3" && class == ThreatClass::Forbid);
                    let delta = value(class, &moved) - value(class, &base);
                    assert_eq!(delta, owns as i32, "{name} on {class:?}");
                }
            }
        }
        let tunable_max = Tunables::SPECS
            .iter()
            .filter(|s| s.name.starts_with("att_") || s.name.starts_with("def_"))
            .map(|s| s.max)
            .max()
            .unwrap();
        for class in [
            ThreatClass::Flex3x2,
            ThreatClass::Block4Flex3,
            ThreatClass::Flex4,
        ] {
            assert!(attack(class, &base) > tunable_max, "{class:?}");
        }
    }

    /// The last stage lists the cells within the tuned radius of a stone, nothing farther.
    #[test]
    fn the_last_stage_follows_the_candidate_radius() {
        let h = History::default();
        for radius in [1, 2, 3] {
            let mut b = Board::from_pos_string(15, 15, Rule::Freestyle, "h8").unwrap();
            let tune = Tunables {
                cand_radius: radius,
                ..Tunables::DEFAULT
            };
            let hints = OrderHints {
                tune: &tune,
                ..hints(&h)
            };
            let mut mp = MovePicker::new(&mut b, &hints);
            let moves = mp.drain(&mut b);
            assert_eq!(mp.stage, Stage::All);
            let side = 2 * radius as usize + 1;
            assert_eq!(moves.len(), side * side - 1, "radius {radius}");
            assert!(moves
                .iter()
                .all(|p| p.x().abs_diff(7) <= radius as usize
                    && p.y().abs_diff(7) <= radius as usize));
        }
    }

    #[test]
    fn an_open_three_is_met_by_its_exact_defences() {
        // Black h8 i8 j8 open three; white to move with nothing of its own.
        let mut b = Board::from_pos_string(15, 15, Rule::Freestyle, "h8a1i8a3j8").unwrap();
        let (stage, moves) = picked(&mut b);
        assert_eq!(stage, Stage::DefendOpenThree);
        let mut xs: Vec<(usize, usize)> = moves.iter().map(|p| (p.x(), p.y())).collect();
        xs.sort();
        // g8 and k8, the ends: a stone one further (f8) still lets black open four at k8.
        assert_eq!(xs, [(6, 7), (10, 7)]);
        // Each really leaves black without an open-four point.
        for m in moves {
            b.make_move(m);
            assert_eq!(b.threat_count(Color::Black, ThreatClass::Flex4), 0);
            b.undo();
        }
    }

    /// Sort keys order by score, then by the lower cell, for negative scores and the table
    /// move's `i32::MAX` too, and give the cell back.
    #[test]
    fn sort_keys_order_by_score_then_cell() {
        let (a, b) = (Pos::new(9, 2), Pos::new(3, 4));
        assert!(a.0 < b.0);
        for score in [i32::MIN + 1, -70_000, -1, 0, 1, 65_536, i32::MAX - 1] {
            assert!(sort_key(a, score) > sort_key(b, score), "{score}");
            assert!(sort_key(b, score + 1) > sort_key(a, score), "{score}");
            for p in [a, b] {
                assert_eq!(key_move(sort_key(p, score)), p);
            }
        }
        assert!(sort_key(b, i32::MAX) > sort_key(a, i32::MAX - 1));
    }

    /// The defences are exactly the legal stones after which the threats are gone, found by
    /// playing every empty cell, in random middle games of every rule with an open three or a
    /// four-three on the board.
    #[test]
    fn defences_are_every_stone_that_stops_the_threats() {
        use rand::{rngs::StdRng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(7);
        let mut checked = 0;
        for rule in Rule::ALL {
            for _ in 0..400 {
                let mut b = Board::random_middle_game(rule, &mut rng, 8..40);
                let me = b.side_to_move();
                let opp = me.opponent();
                for classes in [
                    &[ThreatClass::Flex4][..],
                    &[ThreatClass::Block4Flex3, ThreatClass::Flex4][..],
                ] {
                    let held = |b: &Board| classes.iter().all(|&c| b.threat_count(opp, c) == 0);
                    if held(&b) || b.has_five_point(opp) {
                        continue;
                    }
                    let mut want = Vec::new();
                    for d in b.empty_cells().iter() {
                        if !legal_for(&mut b, d, me) {
                            continue;
                        }
                        b.make_move(d);
                        if held(&b) {
                            want.push(d);
                        }
                        b.undo();
                    }
                    assert_eq!(defences(&mut b, opp, classes), want, "{rule} {classes:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 100, "only {checked} positions with threats");
    }

    #[test]
    fn a_four_is_blocked_and_nothing_else() {
        let mut b = Board::from_pos_string(15, 15, Rule::Freestyle, "h8g8i8a1j8a3k8").unwrap();
        let (stage, moves) = picked(&mut b);
        assert_eq!(stage, Stage::Forced);
        assert_eq!(moves, [Pos::new(11, 7)]);
    }

    #[test]
    fn renju_fouls_are_never_listed() {
        // Black to move; g9 is a double three.
        let mut b = Board::from_pos_string(15, 15, Rule::Renju, "h8h9i7i9h10i6i11i12").unwrap();
        assert!(b.is_forbidden(Pos::new(6, 8)));
        let (_, moves) = picked(&mut b);
        assert!(!moves.is_empty());
        assert!(!moves.contains(&Pos::new(6, 8)));
        // The order is by score, deterministic.
        let (_, again) = picked(&mut b);
        assert_eq!(moves, again);
    }
}
