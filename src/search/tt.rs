//! The transposition table: what the search learnt of a position — its value and bound, the
//! depth it was searched to, its best move and its static evaluation — kept between searches.
//!
//! **Layout.** Buckets of one cache line (64 bytes) hold four entries of two words: the key
//! xor the data, and the data (move 16 bits, value 16, static eval 16, depth 8, bound 2, PV 1,
//! generation 5). A bucket is found from the key's high bits (`key · buckets >> 64`), an entry
//! is the one whose first word xor its second is the key, so a torn write (two threads at
//! once) reads as a miss, never as a wrong hit. The words are atomics read and written with
//! relaxed ordering (plain loads and stores on x86-64): the search threads of Lazy SMP share one
//! table without locks. They are one zeroed array: allocating the table takes constant time,
//! whatever its size (the system maps zero pages on first touch).
//!
//! **Emptying** (a new game, `YXHASHCLEAR`) takes constant time too and keeps the memory: keys
//! are salted (xored with a per-table salt before use) and [`TranspositionTable::clear`] draws
//! a new salt, so no entry stored before can match a key again (short of a 64-bit
//! coincidence), and moves the generation half a cycle on, so that the old entries are the
//! first replaced. Reallocating instead made every game's first searches fault the table's
//! pages in again.
//!
//! **Replacement.** A position already stored is overwritten by an exact bound, a search at
//! least its depth − 2, or a search of a newer generation (its old move is kept when the new
//! search has none); otherwise the entry with the least `depth − 8 · age` goes, where age is
//! the number of searches since it was stored. Mate values are stored relative to the node
//! (see [`super::value::to_tt`]).

use super::value::Value;
use crate::core::zobrist::splitmix64;
use crate::core::Pos;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Entries per bucket.
const WAYS: usize = 4;
/// Words per bucket (two per entry): one cache line.
const BUCKET_WORDS: usize = 2 * WAYS;
/// Depths stored are offset by this, so that the quiescence search's negative depths fit.
const DEPTH_OFFSET: i32 = 20;
/// Generations wrap at this.
const GENERATIONS: u8 = 32;

/// A bound of a stored value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is at most this (no move reached alpha).
    Upper = 1,
    /// The value is at least this (a move reached beta).
    Lower = 2,
    /// The exact value.
    Exact = 3,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best move found, if any.
    pub mv: Option<Pos>,
    /// The value, table-relative (mates relative to the node; see [`super::value::from_tt`]).
    pub value: Value,
    /// The static evaluation of the position.
    pub eval: Value,
    /// The depth searched (negative: quiescence).
    pub depth: i32,
    /// How `value` bounds the true value.
    pub bound: Bound,
    /// Whether the position was on a principal variation.
    pub pv: bool,
}

/// The transposition table.
pub struct TranspositionTable {
    words: Vec<AtomicU64>,
    /// Words before the first cache-line-aligned bucket.
    offset: usize,
    buckets: usize,
    generation: AtomicU8,
    /// Xored into every key (a new one empties the table).
    salt: AtomicU64,
}

// `zeroed_words` reuses a `Vec<u64>`'s allocation as `Vec<AtomicU64>`.
const _: () = assert!(
    std::mem::size_of::<u64>() == std::mem::size_of::<AtomicU64>()
        && std::mem::align_of::<u64>() == std::mem::align_of::<AtomicU64>()
);

/// `n` zeroed atomic words, allocated as zeroed memory (`calloc`: pages are mapped on first
/// touch, so a large table costs nothing until the search writes to it).
fn zeroed_words(n: usize) -> Vec<AtomicU64> {
    let mut words = std::mem::ManuallyDrop::new(vec![0u64; n]);
    let (ptr, len, cap) = (words.as_mut_ptr(), words.len(), words.capacity());
    // SAFETY: AtomicU64 has the size and alignment of u64 (asserted above) and the same bit
    // validity; the allocation is handed over whole, with its length and capacity.
    unsafe { Vec::from_raw_parts(ptr.cast::<AtomicU64>(), len, cap) }
}

fn pack(
    mv: Option<Pos>,
    value: Value,
    eval: Value,
    depth: i32,
    bound: Bound,
    pv: bool,
    generation: u8,
) -> u64 {
    let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    mv.map_or(0, |p| p.0 as u64)
        | ((value as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | (depth << 48)
        | ((bound as u64) << 56)
        | ((pv as u64) << 58)
        | ((generation as u64 & 31) << 59)
}

fn unpack(data: u64) -> Option<TtEntry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let mv = (data & 0xFFFF) as u16;
    Some(TtEntry {
        mv: (mv != 0).then_some(Pos(mv)),
        value: ((data >> 16) & 0xFFFF) as u16 as i16 as Value,
        eval: ((data >> 32) & 0xFFFF) as u16 as i16 as Value,
        depth: ((data >> 48) & 0xFF) as i32 - DEPTH_OFFSET,
        bound,
        pv: (data >> 58) & 1 != 0,
    })
}

fn generation_of(data: u64) -> u8 {
    ((data >> 59) & 31) as u8
}

impl TranspositionTable {
    /// A table of (about) `bytes` bytes, at least one bucket.
    pub fn new(bytes: u64) -> Self {
        let buckets = ((bytes / 64) as usize).max(1);
        let words = zeroed_words(buckets * BUCKET_WORDS + BUCKET_WORDS);
        let misalign = (words.as_ptr() as usize) % 64;
        let offset = ((64 - misalign) % 64) / 8;
        TranspositionTable {
            words,
            offset,
            buckets,
            generation: AtomicU8::new(0),
            salt: AtomicU64::new(0),
        }
    }

    /// Bytes the table's entries take.
    pub fn bytes(&self) -> u64 {
        (self.buckets * 64) as u64
    }

    /// Forgets everything, in constant time and keeping the table's memory: a new salt for
    /// the keys, and the generation half a cycle on (see the module docs).
    pub fn clear(&self) {
        // SplitMix64's output for the old salt: a bijection, so salts repeat only after a
        // cycle, and no simple relation between two salts that keys could share.
        let (_, salt) = splitmix64(self.salt.load(Ordering::Relaxed));
        self.salt.store(salt, Ordering::Relaxed);
        let next = (self.generation() + GENERATIONS / 2) % GENERATIONS;
        self.generation.store(next, Ordering::Relaxed);
    }

    /// `key` as this table stores it.
    #[inline]
    fn salted(&self, key: u64) -> u64 {
        key ^ self.salt.load(Ordering::Relaxed)
    }

    /// Starts a new search: entries stored before it age by one.
    pub fn new_search(&self) {
        let next = (self.generation() + 1) % GENERATIONS;
        self.generation.store(next, Ordering::Relaxed);
    }

    #[inline]
    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    #[inline]
    fn word(&self, i: usize) -> u64 {
        self.words[i].load(Ordering::Relaxed)
    }

    #[inline]
    fn set_word(&self, i: usize, v: u64) {
        self.words[i].store(v, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        let b = ((key as u128 * self.buckets as u128) >> 64) as usize;
        self.offset + b * BUCKET_WORDS
    }

    /// What the table knows of `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let key = self.salted(key);
        let base = self.bucket(key);
        for way in 0..WAYS {
            let (k, d) = (self.word(base + 2 * way), self.word(base + 2 * way + 1));
            if k ^ d == key {
                return unpack(d);
            }
        }
        None
    }

    /// Asks the processor to fetch `key`'s bucket into the cache, so that a probe after the
    /// move that leads there (whose key is known before it is made) does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket = &self.words[self.bucket(self.salted(key))];
            // SAFETY: a prefetch is only a hint; it reads nothing the program sees and the
            // address is that of a live element of `words`.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    (bucket as *const AtomicU64).cast::<i8>(),
                    std::arch::x86_64::_MM_HINT_T0,
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Stores a search result for `key` (see the module docs for what is replaced).
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Pos>,
        value: Value,
        eval: Value,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let generation = self.generation();
        let key = self.salted(key);
        let base = self.bucket(key);
        let mut target = 0;
        let mut worst = i32::MAX;
        for way in 0..WAYS {
            let (k, d) = (self.word(base + 2 * way), self.word(base + 2 * way + 1));
            if k ^ d == key {
                if let Some(old) = unpack(d) {
                    let keep = bound != Bound::Exact
                        && depth + 2 < old.depth
                        && generation_of(d) == generation;
                    if keep {
                        return;
                    }
                    let mv = mv.or(old.mv);
                    let data = pack(mv, value, eval, depth, bound, pv, generation);
                    self.set_word(base + 2 * way, key ^ data);
                    self.set_word(base + 2 * way + 1, data);
                    return;
                }
            }
            let score = match unpack(d) {
                None => i32::MIN,
                Some(old) => {
                    let age = (generation + GENERATIONS - generation_of(d)) % GENERATIONS;
                    old.depth - 8 * age as i32
                }
            };
            if score < worst {
                worst = score;
                target = way;
            }
        }
        let data = pack(mv, value, eval, depth, bound, pv, generation);
        self.set_word(base + 2 * target, key ^ data);
        self.set_word(base + 2 * target + 1, data);
    }

    /// Per mille of the entries in the first buckets that this search generation stored (an
    /// entry of an emptied table counts again once the generations come round to its own).
    pub fn hashfull(&self) -> u32 {
        let buckets = self.buckets.min(250);
        let mut used = 0;
        for b in 0..buckets {
            let base = self.offset + b * BUCKET_WORDS;
            for way in 0..WAYS {
                let d = self.word(base + 2 * way + 1);
                if unpack(d).is_some() && generation_of(d) == self.generation() {
                    used += 1;
                }
            }
        }
        (used * 1000 / (buckets * WAYS).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: u64) -> u64 {
        i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x1234_5678
    }

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1 << 16);
        assert_eq!(tt.probe(key(1)), None);
        tt.store(key(1), Some(Pos(200)), -1234, 57, 9, Bound::Lower, true);
        let e = tt.probe(key(1)).expect("stored");
        assert_eq!(
            e,
            TtEntry {
                mv: Some(Pos(200)),
                value: -1234,
                eval: 57,
                depth: 9,
                bound: Bound::Lower,
                pv: true
            }
        );
        // Quiescence depths and mate values fit.
        tt.store(key(2), None, 29_990, -20_000, -3, Bound::Exact, false);
        let e = tt.probe(key(2)).unwrap();
        assert_eq!(
            (e.mv, e.value, e.eval, e.depth),
            (None, 29_990, -20_000, -3)
        );
        // Another key in the same bucket is not a hit.
        assert_eq!(tt.probe(key(3)), None);
        tt.clear();
        assert_eq!(tt.probe(key(1)), None);
    }

    /// An emptied table finds nothing stored before, and its old entries, however deep, make
    /// room for the new game's first.
    #[test]
    fn clear_forgets_and_frees_every_way() {
        // One bucket: every key lands in it.
        let tt = TranspositionTable::new(64);
        for i in 0..4 {
            tt.store(key(i), Some(Pos(9)), 7, 0, 60, Bound::Exact, true);
        }
        tt.clear();
        for i in 0..4 {
            assert_eq!(tt.probe(key(i)), None, "old entry {i} still found");
        }
        for i in 10..14 {
            tt.store(key(i), None, 1, 0, 1, Bound::Upper, false);
        }
        for i in 10..14 {
            assert_eq!(
                tt.probe(key(i)).map(|e| e.depth),
                Some(1),
                "new entry {i} lost"
            );
        }
        // Two clears in a row forget as well.
        tt.clear();
        tt.clear();
        assert!((10..14).all(|i| tt.probe(key(i)).is_none()));
    }

    #[test]
    fn replacement_keeps_deep_and_recent_entries() {
        // One bucket: every key lands in it.
        let tt = TranspositionTable::new(64);
        for i in 0..4 {
            tt.store(key(i), None, 0, 0, 10 + i as i32, Bound::Exact, false);
        }
        // A shallow search of a stored position does not overwrite a deep one…
        tt.store(key(3), None, 5, 0, 2, Bound::Lower, false);
        assert_eq!(tt.probe(key(3)).unwrap().depth, 13);
        // …but keeps its move when the new search has none and overwrites.
        tt.store(key(3), Some(Pos(77)), 1, 0, 13, Bound::Lower, false);
        tt.store(key(3), None, 2, 0, 14, Bound::Exact, false);
        assert_eq!(tt.probe(key(3)).unwrap().mv, Some(Pos(77)));
        // A new position replaces the shallowest.
        tt.store(key(9), None, 0, 0, 1, Bound::Exact, false);
        assert_eq!(tt.probe(key(0)), None);
        assert!(tt.probe(key(1)).is_some() && tt.probe(key(9)).is_some());
        // Age: after a few searches the old deep entries make way before a fresh shallow one.
        for _ in 0..3 {
            tt.new_search();
        }
        tt.store(key(20), None, 0, 0, 1, Bound::Exact, false);
        tt.store(key(21), None, 0, 0, 1, Bound::Exact, false);
        assert!(tt.probe(key(20)).is_some() && tt.probe(key(21)).is_some());
        assert_eq!(tt.hashfull(), 500);
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1 << 12);
        tt.store(key(5), Some(Pos(1)), 10, 0, 4, Bound::Exact, false);
        let base = tt.bucket(key(5));
        // Another writer's data word over this entry's key word.
        let way = (0..WAYS)
            .find(|w| tt.word(base + 2 * w) ^ tt.word(base + 2 * w + 1) == key(5))
            .unwrap();
        tt.set_word(base + 2 * way + 1, tt.word(base + 2 * way + 1) ^ (1 << 20));
        assert_eq!(tt.probe(key(5)), None);
    }
}
