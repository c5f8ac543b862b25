//! [`MemoryBudget`]: how many bytes the engine's tables may take.
//!
//! The limit comes from `INFO max_memory` (bytes, 0 = unlimited, Gomocup's 350 MiB when never
//! sent) and Yixin's `INFO hash_size` (KiB, 0 = engine default). Managers compare the **whole
//! process** with `max_memory` (Piskvork: peak working set; GomocupJudge: USS of the process tree),
//! so the budget keeps [`PROCESS_OVERHEAD`] aside for everything that is not a table — code, thread
//! stacks, the rules core's line tables, boards, I/O buffers — and gives tables at most
//! [`TABLE_SHARE_PERCENT`] % of the rest, rounded down to a power of two:
//!
//! `tables = pow2_floor(min((limit − overhead) · 75 %, hash_size · 1024, MAX_TABLE_BYTES))`
//!
//! With no limit at all (`max_memory 0`, no `hash_size`) tables get [`UNLIMITED_TABLE_BYTES`].
//! Examples: 350 MiB → 128 MiB; 64 MiB → 32 MiB; 16 MiB → 512 KiB; below the overhead → 0 (no
//! table; a search must then work without one). The integration test `tests/memory.rs` checks that
//! the process's peak resident set stays under [`PROCESS_OVERHEAD`], which is what makes the
//! formula safe for any limit from 16 MiB up.

use crate::protocol::settings::Settings;

const MIB: u64 = 1024 * 1024;

/// Bytes kept aside for everything but the tables (measured peak RSS of a brain process without
/// tables is about 6 MiB with one rule's line tables built and 13 MiB with all five rules';
/// `tests/memory.rs` checks it).
pub const PROCESS_OVERHEAD: u64 = 15 * MIB;
/// Share of the remaining memory the tables may use, in percent.
pub const TABLE_SHARE_PERCENT: u64 = 75;
/// Largest table size ever chosen.
pub const MAX_TABLE_BYTES: u64 = 16 * 1024 * MIB;
/// Table size when neither `max_memory` nor `hash_size` limit it.
pub const UNLIMITED_TABLE_BYTES: u64 = 256 * MIB;

/// The memory available to the engine's tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryBudget {
    /// The process limit in bytes (`None` = unlimited).
    pub limit: Option<u64>,
    /// Bytes all tables together may allocate (0 = no table).
    pub table_bytes: u64,
}

fn pow2_floor(v: u64) -> u64 {
    if v == 0 {
        0
    } else {
        1 << (63 - v.leading_zeros())
    }
}

impl MemoryBudget {
    /// The budget for a process limit (`None` = unlimited) and an optional Yixin `hash_size` in
    /// KiB (`None` or 0 = engine default).
    pub fn new(limit: Option<u64>, hash_size_kib: Option<i64>) -> Self {
        let by_limit = match limit {
            Some(l) => l.saturating_sub(PROCESS_OVERHEAD) / 100 * TABLE_SHARE_PERCENT,
            None => MAX_TABLE_BYTES,
        };
        let by_hash = match hash_size_kib {
            Some(k) if k > 0 => k.unsigned_abs().saturating_mul(1024),
            _ if limit.is_none() => UNLIMITED_TABLE_BYTES,
            _ => MAX_TABLE_BYTES,
        };
        MemoryBudget {
            limit,
            table_bytes: pow2_floor(by_limit.min(by_hash).min(MAX_TABLE_BYTES)),
        }
    }

    /// The budget from `INFO max_memory` and `INFO hash_size`.
    pub fn from_settings(settings: &Settings) -> Self {
        MemoryBudget::new(settings.memory_limit(), settings.hash_size_kib)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples() {
        assert_eq!(
            MemoryBudget::new(Some(350 * MIB), None).table_bytes,
            128 * MIB
        );
        assert_eq!(
            MemoryBudget::new(Some(64 * MIB), None).table_bytes,
            32 * MIB
        );
        assert_eq!(MemoryBudget::new(Some(16 * MIB), None).table_bytes, MIB / 2);
        assert_eq!(MemoryBudget::new(Some(8 * MIB), None).table_bytes, 0);
        assert_eq!(
            MemoryBudget::new(None, None).table_bytes,
            UNLIMITED_TABLE_BYTES
        );
        // Yixin hash_size in KiB caps the table, and is itself capped by the limit.
        assert_eq!(MemoryBudget::new(None, Some(1024)).table_bytes, MIB);
        assert_eq!(
            MemoryBudget::new(Some(350 * MIB), Some(0)).table_bytes,
            128 * MIB
        );
        assert_eq!(
            MemoryBudget::new(Some(16 * MIB), Some(1 << 20)).table_bytes,
            MIB / 2
        );
        assert_eq!(
            MemoryBudget::new(None, Some(i64::MAX)).table_bytes,
            MAX_TABLE_BYTES
        );
    }

    #[test]
    fn tables_plus_overhead_fit_every_limit_from_16_mib() {
        let mut limit = 16 * MIB;
        while limit < 64 * 1024 * MIB {
            let b = MemoryBudget::new(Some(limit), None);
            assert!(b.table_bytes + PROCESS_OVERHEAD <= limit, "{limit}");
            assert!(b.table_bytes.is_power_of_two(), "{limit}");
            limit += limit / 7 + 12_345;
        }
    }

    #[test]
    fn from_settings_reads_both_keys() {
        let mut s = Settings::new();
        assert_eq!(MemoryBudget::from_settings(&s).table_bytes, 128 * MIB);
        s.apply("max_memory", "16777216");
        assert_eq!(MemoryBudget::from_settings(&s).limit, Some(16 * MIB));
        s.apply("max_memory", "0");
        s.apply("hash_size", "4096");
        assert_eq!(MemoryBudget::from_settings(&s).table_bytes, 4 * MIB);
    }
}
