//! A set of cells of the padded layout, one bit each.

use super::pos::{Pos, NUM_CELLS};

const WORDS: usize = NUM_CELLS / 64;

/// A fixed-size bit set over every cell of the padded layout.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct CellSet {
    words: [u64; WORDS],
}

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet { words: [0; WORDS] };

    /// Adds a cell.
    #[inline]
    pub fn insert(&mut self, p: Pos) {
        self.words[(p.index() / 64) % WORDS] |= 1 << (p.index() % 64);
    }

    /// Flips whether the set holds `p` when `flip` is true, without a branch.
    #[inline]
    pub fn toggle_if(&mut self, p: Pos, flip: bool) {
        self.words[(p.index() / 64) % WORDS] ^= (flip as u64) << (p.index() % 64);
    }

    /// Removes a cell.
    #[inline]
    pub fn remove(&mut self, p: Pos) {
        self.words[(p.index() / 64) % WORDS] &= !(1 << (p.index() % 64));
    }

    /// Whether the set holds `p`.
    #[inline]
    pub fn contains(&self, p: Pos) -> bool {
        self.words[(p.index() / 64) % WORDS] & (1 << (p.index() % 64)) != 0
    }

    /// Number of cells in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The cells in both sets.
    #[inline]
    pub fn and(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        for (a, b) in out.words.iter_mut().zip(other.words.iter()) {
            *a &= *b;
        }
        out
    }

    /// The cells in either set.
    #[inline]
    pub fn or(&self, other: &CellSet) -> CellSet {
        let mut out = *self;
        for (a, b) in out.words.iter_mut().zip(other.words.iter()) {
            *a |= *b;
        }
        out
    }

    /// The set moved by `offset` cell indices (positive: towards higher indices); cells moved
    /// out of the layout are dropped.
    pub fn shifted(&self, offset: isize) -> CellSet {
        let mut out = CellSet::EMPTY;
        let (words, bits) = (
            offset.unsigned_abs() / 64,
            (offset.unsigned_abs() % 64) as u32,
        );
        for i in 0..WORDS {
            let (near, far) = if offset >= 0 {
                (i.checked_sub(words), i.checked_sub(words + 1))
            } else {
                (
                    Some(i + words).filter(|&j| j < WORDS),
                    Some(i + words + 1).filter(|&j| j < WORDS),
                )
            };
            let near = near.map_or(0, |j| self.words[j]);
            let far = far.map_or(0, |j| self.words[j]);
            out.words[i] = match (offset >= 0, bits) {
                (_, 0) => near,
                (true, b) => near << b | far >> (64 - b),
                (false, b) => near >> b | far << (64 - b),
            };
        }
        out
    }

    /// The cells within `radius` king steps of a cell of the set, on a layout of rows of
    /// `stride` cells. A row's cells spill into the next row's first cells when one lies
    /// within `radius` of its row's end: the caller's cells keep that far from the ends.
    pub fn dilate(&self, radius: usize, stride: usize) -> CellSet {
        let mut row = *self;
        for k in 1..=radius as isize {
            row = row.or(&self.shifted(k)).or(&self.shifted(-k));
        }
        let mut square = row;
        for k in 1..=radius as isize {
            let step = k * stride as isize;
            square = square.or(&row.shifted(step)).or(&row.shifted(-step));
        }
        square
    }

    /// The first cell of the set in index order.
    #[inline]
    pub fn first(&self) -> Option<Pos> {
        let (i, w) = self.words.iter().enumerate().find(|(_, &w)| w != 0)?;
        Some(Pos((i * 64 + w.trailing_zeros() as usize) as u16))
    }

    /// The cells in index order (row by row, top first).
    #[inline]
    pub fn iter(&self) -> CellSetIter {
        CellSetIter {
            words: self.words,
            word: 0,
        }
    }
}

impl std::fmt::Debug for CellSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Iterator over the cells of a [`CellSet`].
pub struct CellSetIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for CellSetIter {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(Pos((self.word * 64 + w.trailing_zeros() as usize) as u16));
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::pos::STRIDE;

    #[test]
    fn insert_remove_iterate() {
        let mut s = CellSet::EMPTY;
        let cells = [
            Pos::new(0, 0),
            Pos::new(21, 21),
            Pos::new(7, 7),
            Pos::new(8, 7),
        ];
        for p in cells {
            s.insert(p);
        }
        assert_eq!(s.len(), 4);
        let mut sorted = cells.to_vec();
        sorted.sort();
        assert_eq!(s.iter().collect::<Vec<_>>(), sorted);
        s.remove(Pos::new(7, 7));
        assert!(!s.contains(Pos::new(7, 7)));
        assert!(s.contains(Pos::new(8, 7)));
        assert_eq!(s.len(), 3);
        let mut t = CellSet::EMPTY;
        t.insert(Pos::new(8, 7));
        assert_eq!(s.and(&t).iter().collect::<Vec<_>>(), vec![Pos::new(8, 7)]);
    }

    /// Shifts by every offset up to two rows of words either way and dilations of every
    /// radius match the same operations done cell by cell.
    #[test]
    fn shifts_and_dilations_match_cell_by_cell() {
        let mut s = CellSet::EMPTY;
        for (x, y) in [(0, 0), (21, 21), (7, 7), (8, 7), (13, 2), (2, 19)] {
            s.insert(Pos::new(x, y));
        }
        for offset in -130..=130isize {
            let want: Vec<Pos> = s
                .iter()
                .map(|p| p.index() as isize + offset)
                .filter(|&i| (0..NUM_CELLS as isize).contains(&i))
                .map(|i| Pos(i as u16))
                .collect();
            assert_eq!(
                s.shifted(offset).iter().collect::<Vec<_>>(),
                want,
                "{offset}"
            );
        }
        for radius in 1..=5 {
            let mut want = CellSet::EMPTY;
            for p in s.iter() {
                for dy in -(radius as isize)..=radius as isize {
                    for dx in -(radius as isize)..=radius as isize {
                        want.insert(p.step(0, dx).step(1, dy));
                    }
                }
            }
            assert_eq!(s.dilate(radius, STRIDE), want, "radius {radius}");
        }
    }
}
