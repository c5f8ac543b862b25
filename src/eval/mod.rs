//! Static evaluation: how good a quiet position is for the side to move.
//!
//! Two terms read off the rules core's incremental state in O(1), a third over the few cells
//! with threats, and optionally a fourth, a small network:
//!
//! 1. **Cells.** Every empty cell has, per colour, a pattern code (the four line patterns a
//!    stone there would make) and each code a value ([`EvalTables::cells`], per rule; black's
//!    and white's tables fitted apart in freestyle and renju). The board keeps the sum of
//!    these values over its empty cells as moves are made and undone ([`Board::value_sum`]);
//!    the term is `sum(side to move) − sum(opponent)`, averaged over this position and the
//!    one before the last stone (so that one stone's change counts half, which damps the
//!    swing of the value between odd and even plies).
//! 2. **Threats.** Who can make five, an open four, a four-three, a four, an open three with
//!    support or a plain open three, for either side, as an 11-bit mask ([`threat_mask`]); the
//!    side to move's threats are worth more than the opponent's, since it moves first. The term
//!    is [`EvalTables::threats`]`[mask]`.
//! 3. **Cross term** (version-2 weight files only, [`CrossTables`]): on the cells where either
//!    colour would make two open twos or more, a correction to each colour's cell value by the
//!    group of what the *other* colour would make there, and a joint value of both groups for
//!    the side to move. A point both sides want is worth more to the side that moves first,
//!    which a sum of one-colour values cannot say. It is read at evaluation time over the
//!    board's kept set of those cells per colour, on this position only (not averaged), so that
//!    make and unmake need not re-read one colour's value when the other's class changes.
//!
//! 4. **Network** (version-3 weight files only, [`network`]): a hidden layer of
//!    [`network::HIDDEN`] over the same pattern codes and threat bits, added to the three terms
//!    above. Its sums are kept by the search along its line ([`NetStack`]), not by the board,
//!    and the search asks it only near its window ([`evaluate_near`]).
//!    Freestyle's and standard's compiled-in weight files have one, played on boards of up
//!    to 17 lines (every rule plays without it beyond: the search's `Tunables::for_game`;
//!    src/eval/weights/README.md says how each was fitted and what it gained).
//!
//! **Scale.** The value is in units where `v` means a win probability of about
//! `1 / (1 + exp(−v / 200))` for the side to move: 100 ≈ 62 %, 200 ≈ 73 %, 400 ≈ 88 %
//! (the scale the fitted weights of the data pipeline are trained to; the hand-set weights of
//! [`tables`] only roughly follow it). Values are clamped to ±[`EVAL_MAX`], below every mate
//! score of the search.

pub mod network;
pub mod tables;

pub use network::{NetStack, Network};
pub use tables::{CrossTables, EvalTables};

use crate::core::{Board, Color, ThreatClass};
use tables::CLASS_GROUP;

/// The largest static value; search mate scores lie above it.
pub const EVAL_MAX: i32 = 20_000;

/// Bits of the threat mask (see [`threat_mask`]).
pub const THREAT_BITS: usize = 11;

/// Whose threats a mask bit speaks of, and which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreatBit {
    /// The opponent has a five point (the side to move must block it).
    OppFive = 0,
    /// The side to move can make an open four (or two fours).
    OwnFlex4 = 1,
    /// The opponent can make an open four.
    OppFlex4 = 2,
    /// The side to move can make a four-three.
    OwnFourThree = 3,
    /// The opponent can make a four-three.
    OppFourThree = 4,
    /// The side to move can make a four.
    OwnFour = 5,
    /// The opponent can make a four.
    OppFour = 6,
    /// The side to move can make an open three with support (or two).
    OwnThreePlus = 7,
    /// The opponent can.
    OppThreePlus = 8,
    /// The side to move can make an open three.
    OwnThree = 9,
    /// The opponent can.
    OppThree = 10,
}

/// The threat mask of the side to move (bit `b` set when [`ThreatBit`] `b` holds).
pub fn threat_mask(board: &Board) -> usize {
    let me = board.side_to_move();
    let opp = me.opponent();
    let has =
        |c: Color, classes: &[ThreatClass]| classes.iter().any(|&k| board.threat_count(c, k) > 0);
    let mut mask = 0usize;
    let mut set = |bit: ThreatBit, on: bool| {
        if on {
            mask |= 1 << bit as usize;
        }
    };
    set(ThreatBit::OppFive, has(opp, &[ThreatClass::Five]));
    for (own, c) in [(true, me), (false, opp)] {
        let (flex4, four_three, four, three_plus, three) = if own {
            (
                ThreatBit::OwnFlex4,
                ThreatBit::OwnFourThree,
                ThreatBit::OwnFour,
                ThreatBit::OwnThreePlus,
                ThreatBit::OwnThree,
            )
        } else {
            (
                ThreatBit::OppFlex4,
                ThreatBit::OppFourThree,
                ThreatBit::OppFour,
                ThreatBit::OppThreePlus,
                ThreatBit::OppThree,
            )
        };
        set(flex4, has(c, &[ThreatClass::Flex4]));
        set(four_three, has(c, &[ThreatClass::Block4Flex3]));
        set(
            four,
            has(c, &[ThreatClass::Block4, ThreatClass::Block4Plus]),
        );
        set(
            three_plus,
            has(c, &[ThreatClass::Flex3x2, ThreatClass::Flex3Plus]),
        );
        set(three, has(c, &[ThreatClass::Flex3]));
    }
    mask
}

/// Installs the evaluation's cell values for the board's rule, so that the board keeps their
/// sums from now on. A search calls it once on its own copy of the position.
pub fn prepare(board: &mut Board) {
    board.set_cell_values(&EvalTables::for_rule(board.rule()).cells);
}

/// The static value of `board` for the side to move (the board must have been [`prepare`]d).
/// The network's term, if the rule's tables have one, is computed from the stones: a search
/// asks [`evaluate_near`] instead, which keeps its sums.
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    evaluate_with(board, EvalTables::for_rule(board.rule()))
}

/// The linear terms alone (cells, cross term, threats), clamped: the value without the
/// network, the part that make and unmake keep up to date (the move bench reads it).
#[inline]
pub fn evaluate_linear(board: &Board) -> i32 {
    let tables = EvalTables::for_rule(board.rule());
    linear_value(board, tables, threat_mask(board)).clamp(-EVAL_MAX, EVAL_MAX)
}

/// [`evaluate`] inside a search with the window `(alpha, beta)`. The network's sums are kept
/// in `stack` along the line (the stack knows positions by their stones alone: clear it for a
/// new root, rule or network), and the network is asked only when the linear terms lie within
/// `margin` of the window (never when `margin` is negative), as Rapfi asks its network only
/// near the window. Far outside it, the linear value already decides what the search does
/// with the position, and the network's update is saved. Both bounds are strict: in a null
/// window a margin of 0 asks it for no value. The value so depends on the window it was taken
/// in, and the search keeps it as the node's static value (in the table too): a later window
/// near it may read a value without the network's term, which the margin does not bound.
#[inline]
pub fn evaluate_near(
    board: &Board,
    stack: &mut NetStack,
    alpha: i32,
    beta: i32,
    margin: i32,
) -> i32 {
    evaluate_near_with(
        board,
        EvalTables::for_rule(board.rule()),
        stack,
        alpha,
        beta,
        margin,
    )
}

/// [`evaluate_near`] with `tables` instead of the rule's own (as [`evaluate_with`]).
#[inline]
pub fn evaluate_near_with(
    board: &Board,
    tables: &EvalTables,
    stack: &mut NetStack,
    alpha: i32,
    beta: i32,
    margin: i32,
) -> i32 {
    let mask = threat_mask(board);
    let linear = linear_value(board, tables, mask);
    let net = match &tables.network {
        Some(net)
            if margin >= 0
                && linear > alpha.saturating_sub(margin)
                && linear < beta.saturating_add(margin) =>
        {
            stack.value(net, board, mask)
        }
        _ => 0,
    };
    (linear + net).clamp(-EVAL_MAX, EVAL_MAX)
}

/// [`evaluate`] with `tables` instead of the rule's own (whose cell values the board must sum:
/// only the threat and cross terms and the network are read from `tables`). For tests and the
/// fit's checks.
#[inline]
pub fn evaluate_with(board: &Board, tables: &EvalTables) -> i32 {
    let mask = threat_mask(board);
    let net = match &tables.network {
        Some(net) => net.value_from_scratch(board, mask),
        None => 0,
    };
    (linear_value(board, tables, mask) + net).clamp(-EVAL_MAX, EVAL_MAX)
}

/// The linear terms (cells, cross term, threats), not clamped.
#[inline]
fn linear_value(board: &Board, tables: &EvalTables, mask: usize) -> i32 {
    let me = board.side_to_move();
    let now = board.value_sum(me) - board.value_sum(me.opponent());
    let before = board.value_sum_before_last(me) - board.value_sum_before_last(me.opponent());
    // The cells' term averaged over this position and the one before the last stone: what
    // one stone changes is half counted, which damps the swing between odd and even plies.
    let cells = (now + before) / 2;
    let cross = match &tables.cross {
        Some(cross) => cross_term(board, cross),
        None => 0,
    };
    cells + cross + tables.threats[mask]
}

/// The cross term of a version-2 weight file for the side to move, on this position only:
/// over the cells where either colour's class is in a group above 0 (the board keeps those
/// cells in one set per colour, [`Board::cells_from_flex2x2`], for a toggle per crossing in
/// make and unmake).
#[inline]
fn cross_term(board: &Board, cross: &CrossTables) -> i32 {
    let me = board.side_to_move();
    let opp = me.opponent();
    let cells = board
        .cells_from_flex2x2(me)
        .or(board.cells_from_flex2x2(opp));
    let (mine, theirs) = (&cross.cells[me.index()], &cross.cells[opp.index()]);
    let joint = &cross.joint[me.index()];
    let mut value = 0;
    for p in cells.iter() {
        let own = CLASS_GROUP[board.threat(p, me) as usize] as usize;
        let other = CLASS_GROUP[board.threat(p, opp) as usize] as usize;
        value += mine[board.pcode(p, me) as usize][other] as i32
            - theirs[board.pcode(p, opp) as usize][own] as i32
            + joint[own][other];
    }
    value
}

/// [`cross_term`] from the stones alone: every empty cell's classes combined from its line
/// patterns.
fn cross_term_from_scratch(board: &Board, cross: &CrossTables) -> i32 {
    use crate::core::pattern::{combine, pcode};
    let me = board.side_to_move();
    let opp = me.opponent();
    let mut value = 0;
    for p in board.empty_cells().iter() {
        let packed = |c: Color| board.packed_patterns(p, c);
        let group = |c: Color| CLASS_GROUP[combine(board.rule(), c, packed(c)) as usize] as usize;
        let (own, other) = (group(me), group(opp));
        value += cross.cells[me.index()][pcode(packed(me)) as usize][other] as i32
            - cross.cells[opp.index()][pcode(packed(opp)) as usize][own] as i32
            + cross.joint[me.index()][own][other];
    }
    value
}

/// [`evaluate`] computed from the stones alone, cell by cell (no incremental sums): the
/// reference the tests hold the incremental value to.
pub fn evaluate_from_scratch(board: &Board) -> i32 {
    let tables = EvalTables::for_rule(board.rule());
    let me = board.side_to_move();
    let sum = |board: &Board| {
        let mut cells = 0;
        for p in board.empty_cells().iter() {
            for (c, sign) in [(me, 1), (me.opponent(), -1)] {
                let code = crate::core::pattern::pcode(board.packed_patterns(p, c));
                cells += sign * tables.cells.get(c.index(), code);
            }
        }
        cells
    };
    let now = sum(board);
    let before = match board.last_move() {
        Some(_) => {
            let mut previous = board.clone();
            previous.undo();
            sum(&previous)
        }
        None => now,
    };
    let cells = (now + before) / 2;
    let cross = match &tables.cross {
        Some(cross) => cross_term_from_scratch(board, cross),
        None => 0,
    };
    let mask = threat_mask(board);
    let net = match &tables.network {
        Some(net) => net.value_from_scratch(board, mask),
        None => 0,
    };
    (cells + cross + tables.threats[mask] + net).clamp(-EVAL_MAX, EVAL_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// One step of a random walk: a stone near the others, or (about a third of the time, and
    /// always once the game is over) the last one taken back.
    fn random_step(board: &mut Board, rng: &mut StdRng) {
        let undo = !board.history().is_empty()
            && (board.is_full() || board.last_move_wins() || rng.gen_bool(0.35));
        if undo {
            board.undo();
        } else {
            board.make_move(board.random_near_cell(rng));
        }
    }

    /// Long seeded random make/undo sequences in every rule: the incremental value equals the
    /// value computed from scratch after every step.
    #[test]
    fn incremental_value_equals_scratch() {
        for (seed, rule) in Rule::ALL.into_iter().enumerate() {
            for size in [15, 20] {
                let mut rng = StdRng::seed_from_u64(0xE7A1 + seed as u64 * 31 + size as u64);
                let mut board = Board::new(size, size, rule).unwrap();
                prepare(&mut board);
                let mut nonzero = 0;
                for step in 0..3000 {
                    random_step(&mut board, &mut rng);
                    let v = evaluate(&board);
                    assert_eq!(
                        v,
                        evaluate_from_scratch(&board),
                        "{rule} {size} step {step}"
                    );
                    nonzero += usize::from(v != 0);
                }
                assert!(nonzero > 2000, "{rule}: the evaluation is mostly zero");
            }
        }
    }

    /// The cross term read off the board's kept cell sets equals the term summed over every
    /// empty cell from its line patterns, with random tables, after long random make/undo
    /// sequences in every rule.
    #[test]
    fn cross_term_equals_scratch() {
        let mut rng = StdRng::seed_from_u64(0xC505);
        let mut cross = CrossTables::zero();
        for table in cross.cells.iter_mut() {
            for code in table.iter_mut() {
                for w in code.iter_mut().skip(1) {
                    *w = rng.gen_range(-50..50);
                }
            }
        }
        for side in cross.joint.iter_mut() {
            for (k, w) in side.iter_mut().flatten().enumerate().skip(1) {
                *w = rng.gen_range(-50..50) + k as i32;
            }
        }
        for rule in Rule::ALL {
            for size in [15, 20] {
                let mut board = Board::new(size, size, rule).unwrap();
                let mut nonzero = 0;
                for step in 0..2000 {
                    random_step(&mut board, &mut rng);
                    let v = cross_term(&board, &cross);
                    assert_eq!(
                        v,
                        cross_term_from_scratch(&board, &cross),
                        "{rule} {size} step {step}"
                    );
                    nonzero += usize::from(v != 0);
                }
                assert!(nonzero > 1000, "{rule}: the cross term is mostly zero");
            }
        }
    }

    /// The search asks the network only near its window: within the margin the value is the
    /// whole value (the network's term included), far outside it the linear terms' alone.
    #[test]
    fn network_is_asked_only_near_the_window() {
        let mut rng = StdRng::seed_from_u64(0x9EA2);
        let net = network::random_network(&mut rng);
        for rule in Rule::ALL {
            let mut plain = EvalTables::built_in(rule);
            plain.network = None;
            let mut with_net = EvalTables::built_in(rule);
            with_net.network = Some(Box::new(net.clone()));
            let mut board = Board::new(15, 15, rule).unwrap();
            prepare(&mut board);
            let mut stack = NetStack::new();
            let mut differ = 0;
            for step in 0..1500 {
                random_step(&mut board, &mut rng);
                let linear = evaluate_with(&board, &plain);
                assert_eq!(evaluate_linear(&board), linear, "{rule} step {step}");
                let whole = evaluate_with(&board, &with_net);
                let near = |stack: &mut NetStack, alpha: i32, margin: i32| {
                    evaluate_near_with(&board, &with_net, stack, alpha, alpha + 1, margin)
                };
                assert_eq!(near(&mut stack, linear, 1), whole, "{rule} step {step}");
                assert_eq!(
                    near(&mut stack, linear - 60, 100),
                    whole,
                    "{rule} step {step}"
                );
                assert_eq!(
                    near(&mut stack, linear + 60, 100),
                    whole,
                    "{rule} step {step}"
                );
                let widest =
                    evaluate_near_with(&board, &with_net, &mut stack, i32::MIN, i32::MAX, 150);
                assert_eq!(widest, whole, "{rule} step {step}");
                assert_eq!(
                    near(&mut stack, linear + 300, 100),
                    linear,
                    "{rule} step {step}"
                );
                assert_eq!(
                    near(&mut stack, linear - 300, 100),
                    linear,
                    "{rule} step {step}"
                );
                assert_eq!(near(&mut stack, linear, -1), linear, "{rule} step {step}");
                differ += usize::from(whole != linear);
            }
            assert!(differ > 1000, "{rule}: the network's term is mostly zero");
        }
    }

    /// Preparing a board that already holds stones gives the same values as preparing it
    /// empty and playing them: now, before the last stone, and after taking stones back.
    #[test]
    fn preparing_late_equals_preparing_early() {
        let moves = [(7, 7), (8, 8), (7, 8), (6, 9), (9, 6), (8, 7), (7, 9)];
        for rule in Rule::ALL {
            let mut early = Board::new(15, 15, rule).unwrap();
            prepare(&mut early);
            let mut late = Board::new(15, 15, rule).unwrap();
            for &(x, y) in &moves {
                early.try_play(x, y).unwrap();
                late.try_play(x, y).unwrap();
            }
            prepare(&mut late);
            for _ in 0..moves.len() {
                for c in Color::BOTH {
                    assert_eq!(early.value_sum(c), late.value_sum(c), "{rule}");
                    assert_eq!(
                        early.value_sum_before_last(c),
                        late.value_sum_before_last(c),
                        "{rule}"
                    );
                }
                assert_eq!(evaluate(&early), evaluate(&late), "{rule}");
                assert_eq!(evaluate(&late), evaluate_from_scratch(&late), "{rule}");
                early.undo();
                late.undo();
            }
        }
    }

    /// The side to move's own threats count for it, the opponent's against it.
    #[test]
    fn threats_point_the_right_way() {
        // Black has an open three (h8 i8 j8), white to move: bad for white.
        let mut b = Board::from_pos_string(15, 15, Rule::Freestyle, "h8h10i8i10j8").unwrap();
        prepare(&mut b);
        assert_eq!(b.side_to_move(), Color::White);
        let mask = threat_mask(&b);
        assert!(mask & (1 << ThreatBit::OppFlex4 as usize) != 0, "{mask:b}");
        assert!(evaluate(&b) < 0, "{}", evaluate(&b));
        // The same stones with black to move: good for black.
        b.pass();
        assert!(evaluate(&b) > 0, "{}", evaluate(&b));
    }
}
