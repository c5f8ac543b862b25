//! Cell coordinates in the padded board layout.
//!
//! The board lives in a 32×32 array with a wall border of [`BORDER`] cells on every side, so a
//! board of up to 22×22 fits and any neighbour up to five steps away is addressable without a
//! bounds check. A direction is then a constant index offset.

use std::fmt;

/// Largest supported board side.
pub const MAX_SIZE: usize = 22;
/// Smallest supported board side.
pub const MIN_SIZE: usize = 5;
/// Wall cells on each side of the playing area.
pub const BORDER: usize = 5;
/// Row stride of the padded layout (a power of two).
pub const STRIDE: usize = 32;
/// Number of cells in the padded layout.
pub const NUM_CELLS: usize = STRIDE * STRIDE;

/// The four line directions, as offsets in the padded layout: horizontal, vertical, diagonal
/// (down-right) and anti-diagonal (up-right). Along each of them the position inside the line's
/// bit key grows by one per step (see [`Pos::line_of`]).
pub const DIRECTIONS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, 1 - STRIDE as isize];

/// A cell of the padded layout. Only cells inside the playing area are ever occupied.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos(pub u16);

impl Pos {
    /// The cell at column `x` and row `y` of the playing area (0-based, Gomocup orientation:
    /// `y` grows downwards). The caller guarantees `x, y < MAX_SIZE`.
    #[inline]
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos(((y + BORDER) * STRIDE + x + BORDER) as u16)
    }

    /// Index into per-cell arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column in the playing area (may wrap for wall cells; only meaningful for board cells).
    #[inline]
    pub const fn x(self) -> usize {
        (self.0 as usize % STRIDE).wrapping_sub(BORDER)
    }

    /// Row in the playing area (Gomocup orientation).
    #[inline]
    pub const fn y(self) -> usize {
        (self.0 as usize / STRIDE).wrapping_sub(BORDER)
    }

    /// Whether `other` lies on one of this cell's four lines, at most `n` cells away (true for
    /// the cell itself).
    #[inline]
    pub fn aligned_within(self, other: Pos, n: usize) -> bool {
        let (dx, dy) = (self.x().abs_diff(other.x()), self.y().abs_diff(other.y()));
        dx.max(dy) <= n && (dx == 0 || dy == 0 || dx == dy)
    }

    /// The cell `steps` steps away along direction `dir` (an index into [`DIRECTIONS`]).
    #[inline]
    pub fn step(self, dir: usize, steps: isize) -> Pos {
        Pos((self.0 as isize + DIRECTIONS[dir] * steps) as u16)
    }

    /// The line through this cell in direction `dir`: `(line index, position in the line)`.
    /// Line keys hold 32 positions of 2 bits each; positions of board cells are 5..=26.
    #[inline]
    pub const fn line_of(self, dir: usize) -> (usize, usize) {
        let px = self.0 as usize % STRIDE;
        let py = self.0 as usize / STRIDE;
        match dir {
            0 => (py, px),
            1 => (px, py),
            2 => (px + STRIDE - 1 - py, px),
            _ => (px + py, px),
        }
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x(), self.y())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for y in 0..MAX_SIZE {
            for x in 0..MAX_SIZE {
                let p = Pos::new(x, y);
                assert_eq!((p.x(), p.y()), (x, y));
                assert!(p.index() < NUM_CELLS);
            }
        }
    }

    #[test]
    fn steps_move_one_position_along_the_line() {
        let p = Pos::new(7, 9);
        for dir in 0..4 {
            let (line, pos) = p.line_of(dir);
            for s in -5..=5isize {
                let q = p.step(dir, s);
                assert_eq!(
                    q.line_of(dir),
                    (line, (pos as isize + s) as usize),
                    "dir {dir} s {s}"
                );
            }
        }
        assert_eq!(p.step(3, 1), Pos::new(8, 8));
        assert_eq!(p.step(2, 1), Pos::new(8, 10));
    }

    #[test]
    fn padded_reach_stays_inside_the_array() {
        let corners = [
            Pos::new(0, 0),
            Pos::new(21, 21),
            Pos::new(0, 21),
            Pos::new(21, 0),
        ];
        for p in corners {
            for dir in 0..4 {
                for s in -5..=5isize {
                    let q = p.step(dir, s);
                    assert!(q.index() < NUM_CELLS);
                    let (line, pos) = q.line_of(dir);
                    assert!(line < 64 && pos < 32);
                }
            }
        }
    }
}
