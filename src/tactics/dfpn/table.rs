//! The df-pn table: position key → proof and disproof numbers, the moves of every expanded
//! node (df-pn re-enters nodes many times, and expanding can be dear), and how a full table
//! forgets its cheaper half.

use crate::core::Pos;
use crate::tactics::moves::MoveList;
use ahash::AHashMap;
use std::time::Duration;

/// Bytes one position can take in a table sized by [`DfpnTable::entries_for_bytes`]: a bucket
/// in each of the three maps (key, value and the map's control byte), plus an allowance for
/// the heap slice of a stored counter-VCF line.
const BYTES_PER_BUCKET: usize = std::mem::size_of::<(u64, Node)>()
    + std::mem::size_of::<(u64, MoveList)>()
    + std::mem::size_of::<(u64, Box<[Pos]>)>()
    + 3
    + COUNTER_LINE_ALLOWANCE;
/// Heap bytes allowed per position for counter-VCF lines (a line of up to about a dozen
/// stones and its allocation; fewer than half of the positions store one).
const COUNTER_LINE_ALLOWANCE: usize = 24;

/// Entries kept before the cheaper half of them is forgotten (up to [`BYTES_PER_BUCKET`] per
/// position over the three maps, up to twice that in their power-of-two spare room: roughly
/// 310–620 MiB).
const MAX_ENTRIES: usize = 2_000_000;

/// The pause a full table's collection (or [`DfpnTable::forget_disproofs`]) is allowed per
/// position it holds.
const GC_NANOS_PER_POSITION: u64 = 60;
/// New entries that can be stored between two clock reads (one per level on the way back up
/// a search path, which is shorter than the board has cells, and two per expansion): a pause
/// is looked for this far ahead, so no growth starts unchecked.
pub const PAUSE_SLACK: usize = 1024;

/// What the table knows of one position.
#[derive(Clone, Copy)]
struct Node {
    pn: u32,
    dn: u32,
    /// The proving move of a proven attacker node.
    best: u16,
    /// Proven by a VCF probe (the line continues with that VCF).
    by_vcf: bool,
    /// Search nodes spent on this position and below it so far (saturating): what forgetting
    /// it would cost. The field fits in the padding of a map bucket (the key is 8 bytes).
    work: u32,
    /// The table's generation (its search) when the position was last stored: a collection
    /// counts the work of older searches as none (a player's table outlives its moves).
    generation: u8,
}

/// What the table knows of one position, as its readers see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Proof number (0: proven).
    pub pn: u32,
    /// Disproof number (0: disproven).
    pub dn: u32,
    /// The proving move of a proven attacker node.
    pub best: Option<Pos>,
    /// Proven by a VCF probe (the line continues with that VCF).
    pub by_vcf: bool,
}

/// The df-pn table: position key → proof and disproof numbers, and the moves of every
/// expanded node (df-pn re-enters nodes many times; expanding costs VCF probes).
pub struct DfpnTable {
    nodes: AHashMap<u64, Node>,
    children: AHashMap<u64, MoveList>,
    /// The defender's counter-VCF of an attacker node whose moves had to answer it: each of
    /// its non-four moves is checked against the line when its own node is expanded.
    counters: AHashMap<u64, Box<[Pos]>>,
    max_entries: usize,
    /// Collections since the table was made (a full table forgets its cheaper half).
    collections: u32,
    /// The current search's generation, stamped on the positions it stores.
    generation: u8,
}

impl Default for DfpnTable {
    fn default() -> Self {
        DfpnTable::with_max_entries(MAX_ENTRIES)
    }
}

impl DfpnTable {
    /// The positions a default table holds before it forgets its cheaper half.
    pub const DEFAULT_MAX_ENTRIES: usize = MAX_ENTRIES;

    /// A table that forgets its cheaper half whenever it reaches `max_entries` positions (each
    /// takes the bytes [`DfpnTable::entries_for_bytes`] counts, plus the maps' spare room while
    /// they grow).
    pub fn with_max_entries(max_entries: usize) -> Self {
        DfpnTable {
            nodes: AHashMap::new(),
            children: AHashMap::new(),
            counters: AHashMap::new(),
            max_entries: max_entries.max(1024),
            collections: 0,
            generation: 0,
        }
    }

    /// [`DfpnTable::with_max_entries`] with room for all of them from the start: it never
    /// grows during a search, so a search never stops early for a growth that would not fit
    /// before its deadline (the players' table; its memory is counted in their budget).
    pub fn reserved(max_entries: usize) -> Self {
        let max_entries = max_entries.max(1024);
        DfpnTable {
            nodes: AHashMap::with_capacity(max_entries),
            children: AHashMap::with_capacity(max_entries),
            counters: AHashMap::with_capacity(max_entries),
            max_entries,
            collections: 0,
            generation: 0,
        }
    }

    /// The most positions a [`DfpnTable::reserved`] table can hold within `bytes`: its maps
    /// round their buckets up to a power of two at a load of 7/8, so the bucket count is the
    /// largest power of two that fits and the positions 7/8 of it (at least 1024).
    pub fn entries_for_bytes(bytes: usize) -> usize {
        let buckets = (bytes / BYTES_PER_BUCKET).max(1);
        let buckets = 1usize << buckets.ilog2();
        (buckets / 8 * 7).max(1024)
    }

    /// Starts a new generation: what searches before it stored stays readable, but a
    /// collection forgets it before anything stored since.
    pub fn new_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.children.clear();
        self.counters.clear();
    }

    /// What the table knows of `key`, if it was stored.
    pub fn entry(&self, key: u64) -> Option<Entry> {
        self.nodes.get(&key).map(|n| Entry {
            pn: n.pn,
            dn: n.dn,
            best: (n.best != 0).then_some(Pos(n.best)),
            by_vcf: n.by_vcf,
        })
    }

    /// Every stored position and what the table knows of it, in no particular order.
    pub fn entries(&self) -> impl Iterator<Item = (u64, Entry)> + '_ {
        self.nodes
            .keys()
            .filter_map(|&k| self.entry(k).map(|e| (k, e)))
    }

    /// The moves cached for an expanded node.
    pub fn children(&self, key: u64) -> Option<&MoveList> {
        self.children.get(&key)
    }

    /// The line an expanded node's moves had to answer, if it was stored with them.
    pub fn answered_line(&self, key: u64) -> Option<&[Pos]> {
        self.counters.get(&key).map(|l| &l[..])
    }

    /// Positions stored.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether no position is stored.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Positions the position map holds before it must grow.
    pub fn capacity(&self) -> usize {
        self.nodes.capacity()
    }

    /// Collections since the table was made.
    pub fn collections(&self) -> u32 {
        self.collections
    }

    /// The proof and disproof numbers stored for `key`, if any.
    pub fn lookup(&self, key: u64) -> Option<(u32, u32)> {
        self.nodes.get(&key).map(|n| (n.pn, n.dn))
    }

    /// The numbers of `key`, `(1, 1)` for a position never stored.
    pub fn get(&self, key: u64) -> (u32, u32) {
        self.nodes.get(&key).map_or((1, 1), |n| (n.pn, n.dn))
    }

    /// How long the next [`PAUSE_SLACK`] new entries may stall the search, or zero when they
    /// will not: a map at its capacity grows and moves every entry, a full table forgets half
    /// of them. Allowed: 40 ns per position, 120 ns per move list, 60 ns per position of a full
    /// table — each above the rate timed on the project's machine (about 35 ns and 105 ns per
    /// entry moved by a growth, 30–49 ns per position swept by a collection).
    pub fn pause_estimate(&self) -> Duration {
        let pause = |len: usize, capacity: usize, ns_per_move: u64| -> u64 {
            if len + PAUSE_SLACK >= self.max_entries {
                GC_NANOS_PER_POSITION * len as u64
            } else if len + PAUSE_SLACK >= capacity {
                ns_per_move * len as u64
            } else {
                0
            }
        };
        let nodes = pause(self.nodes.len(), self.nodes.capacity(), 40);
        let children = pause(self.children.len(), self.children.capacity(), 120)
            + pause(self.counters.len(), self.counters.capacity(), 40);
        let nanos = if self.nodes.len() + PAUSE_SLACK >= self.max_entries {
            // A collection sweeps the position map and the move lists with it.
            GC_NANOS_PER_POSITION * self.nodes.len() as u64
        } else {
            nodes + children
        };
        Duration::from_nanos(nanos)
    }

    /// Caches an expanded node's moves (and the counter-VCF they answer). Collections keep
    /// the lists within the positions kept; only lists of nodes never stored (searches
    /// stopped midway) can pile up beyond them, and past `max_entries` they are all dropped.
    pub fn store_children(&mut self, key: u64, moves: &MoveList, counter: Option<Box<[Pos]>>) {
        if self.children.len() >= self.max_entries {
            self.children.clear();
            self.counters.clear();
        }
        self.children.insert(key, moves.clone());
        if let Some(line) = counter {
            self.counters.insert(key, line);
        }
    }

    /// Stores a position's numbers and adds `work` (the search nodes just spent on it) to
    /// what it has cost so far. A full table first forgets its cheaper half.
    pub fn put(&mut self, key: u64, pn: u32, dn: u32, best: Option<Pos>, by_vcf: bool, work: u64) {
        if self.nodes.len() >= self.max_entries && !self.nodes.contains_key(&key) {
            self.collect_garbage();
        }
        let node = Node {
            pn,
            dn,
            best: best.map_or(0, |p| p.0),
            by_vcf,
            work: u32::try_from(work).unwrap_or(u32::MAX),
            generation: self.generation,
        };
        self.nodes
            .entry(key)
            .and_modify(|old| {
                let earlier = if old.generation == node.generation {
                    old.work
                } else {
                    0
                };
                *old = Node {
                    work: earlier.saturating_add(node.work),
                    ..node
                }
            })
            .or_insert(node);
    }

    /// Forgets every disproven position (and the move lists of forgotten ones), keeping the
    /// proofs and the open estimates: after a search whose threat tests were cut short by
    /// their budget, whose disproofs may be wrong. A disproof never supports a proof (a cut
    /// test only hides a threat, which can make a defence look refuted, never a win look
    /// proved), and an open estimate built on one is a heuristic the next visit corrects.
    pub fn forget_disproofs(&mut self) {
        self.nodes.retain(|_, n| n.dn != 0);
        let nodes = &self.nodes;
        self.children.retain(|key, _| nodes.contains_key(key));
        self.counters.retain(|key, _| nodes.contains_key(key));
    }

    /// How long a sweep of the whole table ([`DfpnTable::forget_disproofs`], a collection)
    /// may take.
    pub fn sweep_estimate(&self) -> Duration {
        Duration::from_nanos(GC_NANOS_PER_POSITION * self.nodes.len() as u64)
    }

    /// Forgets the open and disproven positions that cost at most their median work (at
    /// least half of them; work of an earlier generation counts as none) and the move lists
    /// of the forgotten ones. Proven positions stay, unless they fill half the table: the
    /// principal line and the proof size are read from them after the search. Forgetting
    /// only the cheap half keeps a long search's progress (emptying the table made searches
    /// that pass its size several times start over). Takes a transient array of 4 bytes a
    /// position (2–3 % of the table's bytes).
    fn collect_garbage(&mut self) {
        let proofs = self.nodes.values().filter(|n| n.pn == 0).count();
        let keep_proofs = 2 * proofs <= self.nodes.len();
        let doomed = |n: &Node| !(keep_proofs && n.pn == 0);
        // The exact median, not a sample's: which positions stay must not depend on the
        // maps' iteration order (it varies between runs), or node-limited searches would not
        // repeat.
        let generation = self.generation;
        let work = |n: &Node| {
            if n.generation == generation {
                n.work
            } else {
                0
            }
        };
        let mut works: Vec<u32> = self
            .nodes
            .values()
            .filter(|n| doomed(n))
            .map(work)
            .collect();
        if works.is_empty() {
            return;
        }
        self.collections += 1;
        let middle = works.len() / 2;
        let threshold = *works.select_nth_unstable(middle).1;
        self.nodes.retain(|_, n| !doomed(n) || work(n) > threshold);
        let nodes = &self.nodes;
        self.children.retain(|key, _| nodes.contains_key(key));
        self.counters.retain(|key, _| nodes.contains_key(key));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tactics::dfpn::INF;

    /// A full table forgets the positions that cost at most the median work and their move
    /// lists, and keeps the dearer ones with theirs.
    #[test]
    fn a_full_table_forgets_its_cheaper_half() {
        let key_of = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut table = DfpnTable::with_max_entries(1024);
        // Work 1..=1024 in a scrambled order; every 64th position is proven.
        for i in 0..1024u64 {
            let work = (i * 389) % 1024 + 1;
            let pn = if i % 64 == 0 { 0 } else { 5 };
            table.put(key_of(i), pn, 7, None, false, work);
            table.store_children(
                key_of(i),
                &MoveList::from_slice(&[Pos(3)]),
                Some(Box::new([Pos(4)])),
            );
        }
        assert_eq!((table.nodes.len(), table.collections), (1024, 0));
        // Work adds up over visits.
        let dear = key_of(1023);
        let before = table.nodes[&dear].work;
        table.put(dear, 4, 9, None, false, 1000);
        assert_eq!(table.nodes[&dear].work, before + 1000);
        // One more position: the cheaper half of the unproven ones goes, the proofs stay.
        table.put(u64::MAX, 1, 1, None, false, 1);
        assert_eq!(table.collections, 1);
        let kept = table.nodes.len();
        assert!((16 + 400..=16 + 600).contains(&kept), "{kept} kept");
        for i in (0..1024).step_by(64) {
            assert_eq!(table.lookup(key_of(i)).map(|v| v.0), Some(0), "proof {i}");
        }
        let cheapest_open = table
            .nodes
            .iter()
            .filter(|(&key, n)| key != u64::MAX && n.pn != 0)
            .map(|(_, n)| n.work)
            .min()
            .unwrap();
        assert!((400..=650).contains(&cheapest_open), "{cheapest_open}");
        assert_eq!(table.lookup(dear), Some((4, 9)));
        for key in table.children.keys().chain(table.counters.keys()) {
            assert!(table.nodes.contains_key(key));
        }
        assert_eq!(table.children.len(), kept - 1);
        assert_eq!(table.counters.len(), kept - 1);
        // Work from an earlier search counts as none: the next collection forgets the old
        // unproven positions, however dear, before this search's.
        table.new_generation();
        for i in 0..1024u64 {
            table.put(key_of(5000 + i), 5, 7, None, false, 1 + i % 3);
        }
        assert_eq!(table.collections, 2);
        assert!(
            table.lookup(dear).is_none(),
            "an old dear position outlived a collection"
        );
        for i in (0..1024).step_by(64) {
            assert_eq!(table.lookup(key_of(i)).map(|v| v.0), Some(0), "proof {i}");
        }
        // A table that is mostly proofs forgets the cheaper half of them too.
        let mut table = DfpnTable::with_max_entries(1024);
        for i in 0..1025u64 {
            table.put(key_of(i), 0, INF, None, false, i + 1);
        }
        assert_eq!(table.collections, 1);
        assert!(table.nodes.len() <= 513, "{}", table.nodes.len());
    }

    /// A table sized by bytes holds all its positions without growing, and its buckets (a
    /// power of two per map, at 7/8 load) stay within the bytes.
    #[test]
    fn a_table_sized_by_bytes_fits_them() {
        for mib in [1, 3, 8, 32] {
            let bytes = mib << 20;
            let entries = DfpnTable::entries_for_bytes(bytes);
            let table = DfpnTable::reserved(entries);
            for capacity in [
                table.nodes.capacity(),
                table.children.capacity(),
                table.counters.capacity(),
            ] {
                assert!(
                    capacity >= entries,
                    "{mib} MiB: capacity {capacity} < {entries}"
                );
                let buckets = capacity * 8 / 7;
                assert!(
                    buckets * BYTES_PER_BUCKET <= bytes,
                    "{mib} MiB: {buckets} buckets"
                );
            }
            // Not much smaller than it may be: at least a third of the bytes are buckets.
            assert!(
                entries * 8 / 7 * BYTES_PER_BUCKET * 3 > bytes,
                "{mib} MiB: {entries}"
            );
        }
    }
}
