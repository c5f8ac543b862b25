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

    /// Removes a cell.
    #[inline]
    pub fn remove(&mut self, p: Pos) {
        self.words[(p.index() / 64) % WORDS] &= !(1 << (p.index() % 64));
    }

    /// Removes a cell when `condition` holds (branch-free).
    #[inline]
    pub fn remove_if(&mut self, p: Pos, condition: bool) {
        self.words[(p.index() / 64) % WORDS] &= !((condition as u64) << (p.index() % 64));
    }

    /// Adds the cells `start + i` for every bit `i` of `mask` (at most 64 consecutive cells).
    #[inline]
    pub fn insert_run(&mut self, start: usize, mask: u64) {
        let bits = (mask as u128) << (start % 64);
        let w = (start / 64) % WORDS;
        self.words[w] |= bits as u64;
        if w + 1 < WORDS {
            self.words[w + 1] |= (bits >> 64) as u64;
        }
    }

    /// Removes the cells `start + i` for every bit `i` of `mask` (at most 64 consecutive cells).
    #[inline]
    pub fn remove_run(&mut self, start: usize, mask: u64) {
        let bits = (mask as u128) << (start % 64);
        let w = (start / 64) % WORDS;
        self.words[w] &= !(bits as u64);
        if w + 1 < WORDS {
            self.words[w + 1] &= !((bits >> 64) as u64);
        }
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

    /// The first cell of the set in index order.
    #[inline]
    pub fn first(&self) -> Option<Pos> {
        self.iter().next()
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
}
