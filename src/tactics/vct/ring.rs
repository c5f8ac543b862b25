//! Renju's foul ring: the cells whose stone can change, through the recursive three rule,
//! whether black may play a cell — shared by the defender's answers (`expand`) and the
//! attacker's threat zone (`zone`).

use crate::core::{Board, CellSet, Color, Pos};

/// Adds to `cells` the empty cells of every line segment `(cell, direction, reach)`: the cells
/// up to `reach` steps from `cell` either way along the direction.
pub(super) fn insert_segment_cells(
    board: &Board,
    segments: &[(Pos, usize, isize)],
    cells: &mut CellSet,
) {
    for &(p, dir, reach) in segments {
        for s in -reach..=reach {
            let q = p.step(dir, s);
            if board.is_empty(q) {
                cells.insert(q);
            }
        }
    }
}

/// Cells whose stone could change through renju's recursive three rule whether black may
/// play `c`: a three at `c` is real only if its open-four point is legal, so a stone on a line
/// through such a point can make `c` a double three or undo one, and so on recursively (the
/// core's foul check has no depth limit either). Only a cell with two open-three lines can
/// turn, and its open-four points lie on them.
pub(super) fn foul_ring(board: &Board, c: Pos, segments: &mut impl Extend<(Pos, usize, isize)>) {
    let mut visited = CellSet::EMPTY;
    ring_from(board, c, 2, &mut visited, segments);
}

/// [`foul_ring`] from a cell that turns with `min_threes` open-three lines of its own; each
/// cell's ring is added once.
fn ring_from(
    board: &Board,
    c: Pos,
    min_threes: usize,
    visited: &mut CellSet,
    segments: &mut impl Extend<(Pos, usize, isize)>,
) {
    let flex3 = |q: Pos| {
        (0..4)
            .filter(|&d| board.line_pattern(q, Color::Black, d).is_flex3())
            .count()
    };
    if visited.contains(c) || flex3(c) < min_threes {
        return;
    }
    visited.insert(c);
    for dir in 0..4 {
        if !board.line_pattern(c, Color::Black, dir).is_flex3() {
            continue;
        }
        for s in (-4..=4).filter(|&s| s != 0) {
            let g = c.step(dir, s);
            if board.is_empty(g) {
                segments.extend((0..4).map(|d| (g, d, 5)));
                // With `c` played, `g` has one more three: one of its own is enough to turn.
                ring_from(board, g, 1, visited, segments);
            }
        }
    }
}
