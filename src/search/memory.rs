//! [`MemoryBudget`]: how many bytes the engine's tables may take.
//!
//! The limit comes from the manager (`INFO max_memory`: bytes for the whole process, 0 = no limit,
//! Gomocup's 350 MiB when never sent) and from Yixin-Board's table size (`INFO hash_size`, KiB,
//! 0 = engine default); the protocol reads them, this module takes plain numbers. Managers compare
//! the **whole process** with `max_memory` (Piskvork: peak working set; GomocupJudge: USS of the
//! process tree), so the budget keeps [`PROCESS_OVERHEAD`] aside for everything that is not a
//! table — code, thread stacks, the rules core's line tables, boards, I/O buffers — and gives
//! tables at most [`TABLE_SHARE_PERCENT`] % of the rest. A limit is a ceiling, not a wish: the
//! tables also never take more than half of the memory the machine has available, so an absurd
//! `max_memory` or `hash_size` cannot make the process swap or stall a move while it allocates.
//!
//! `tables = pow2_floor(min(by_limit, by_hash, machine / 2, MAX_TABLE_BYTES))` where
//! `by_limit = (limit − overhead) · 75 %` (no limit: [`UNLIMITED_TABLE_BYTES`] unless `hash_size`
//! asks for more), `by_hash = hash_size · 1024` and `machine` is the memory available when the
//! process first asks (Linux: `MemAvailable` of `/proc/meminfo`; elsewhere
//! [`UNKNOWN_MACHINE_BYTES`] is assumed).
//!
//! Examples on a machine with room: 350 MiB → 128 MiB; 64 MiB → 32 MiB; 16 MiB → 512 KiB; below
//! the overhead → 0 (no table; a search must then work without one); `max_memory 0` → 256 MiB.
//! The integration test `tests/memory.rs` checks that the process's peak resident set stays
//! under the limit, which is what makes the formula safe for any limit from 16 MiB up.

use std::sync::OnceLock;

const MIB: u64 = 1024 * 1024;

/// Bytes kept aside for everything but the tables (measured peak RSS of a brain process without
/// tables is about 6 MiB with one rule's line tables built and 13 MiB with all five rules';
/// `tests/memory.rs` checks it).
pub const PROCESS_OVERHEAD: u64 = 15 * MIB;
/// Share of the remaining memory the tables may use, in percent.
pub const TABLE_SHARE_PERCENT: u64 = 75;
/// Largest table size ever chosen.
pub const MAX_TABLE_BYTES: u64 = 16 * 1024 * MIB;
/// Table size when the manager sets no limit (`max_memory 0`) and no `hash_size`: Rapfi's and
/// Gomocup's order of magnitude, enough for minutes of search.
pub const UNLIMITED_TABLE_BYTES: u64 = 256 * MIB;
/// The available memory assumed where the system cannot be asked.
pub const UNKNOWN_MACHINE_BYTES: u64 = 2 * 1024 * MIB;

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

/// The memory the machine has available (read once per process, so that a budget does not
/// change from move to move with the machine's load).
pub fn machine_available_bytes() -> u64 {
    static AVAILABLE: OnceLock<u64> = OnceLock::new();
    *AVAILABLE.get_or_init(|| read_available().unwrap_or(UNKNOWN_MACHINE_BYTES))
}

fn read_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

impl MemoryBudget {
    /// The budget for a process limit (`None` = unlimited) and an optional Yixin `hash_size` in
    /// KiB (`None` or 0 = engine default), on this machine.
    pub fn new(limit: Option<u64>, hash_size_kib: Option<i64>) -> Self {
        MemoryBudget::on_machine(limit, hash_size_kib, machine_available_bytes())
    }

    /// [`MemoryBudget::new`] on a machine with `available` bytes of free memory.
    pub fn on_machine(limit: Option<u64>, hash_size_kib: Option<i64>, available: u64) -> Self {
        let by_hash = match hash_size_kib {
            Some(k) if k > 0 => Some(k.unsigned_abs().saturating_mul(1024)),
            _ => None,
        };
        let wanted = match (limit, by_hash) {
            (Some(l), hash) => {
                let by_limit = l.saturating_sub(PROCESS_OVERHEAD) / 100 * TABLE_SHARE_PERCENT;
                hash.map_or(by_limit, |h| h.min(by_limit))
            }
            (None, Some(h)) => h,
            (None, None) => UNLIMITED_TABLE_BYTES,
        };
        MemoryBudget {
            limit,
            table_bytes: pow2_floor(wanted.min(available / 2).min(MAX_TABLE_BYTES)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOMY: u64 = 64 * 1024 * MIB;

    fn budget(limit: Option<u64>, hash: Option<i64>) -> u64 {
        MemoryBudget::on_machine(limit, hash, ROOMY).table_bytes
    }

    #[test]
    fn examples() {
        assert_eq!(budget(Some(350 * MIB), None), 128 * MIB);
        assert_eq!(budget(Some(64 * MIB), None), 32 * MIB);
        assert_eq!(budget(Some(16 * MIB), None), MIB / 2);
        assert_eq!(budget(Some(8 * MIB), None), 0);
        assert_eq!(budget(None, None), UNLIMITED_TABLE_BYTES);
        // Yixin hash_size in KiB caps the table, and is itself capped by the limit.
        assert_eq!(budget(None, Some(1024)), MIB);
        assert_eq!(budget(Some(350 * MIB), Some(0)), 128 * MIB);
        assert_eq!(budget(Some(16 * MIB), Some(1 << 20)), MIB / 2);
        assert_eq!(budget(None, Some(i64::MAX)), MAX_TABLE_BYTES);
    }

    /// An absurd limit or table size is capped by half the machine's available memory.
    #[test]
    fn the_machine_caps_absurd_requests() {
        let machine = 3 * 1024 * MIB;
        for (limit, hash) in [
            (Some(u64::MAX), None),
            (Some(9_223_372_036_854_775_807), None),
            (None, Some(16_777_216)),
            (None, Some(i64::MAX)),
            (Some(8 * 1024 * MIB), None),
        ] {
            let b = MemoryBudget::on_machine(limit, hash, machine);
            assert_eq!(b.table_bytes, 1024 * MIB, "{limit:?} {hash:?}");
        }
        // A small machine: a quarter of a gigabyte at most.
        let b = MemoryBudget::on_machine(None, None, 600 * MIB);
        assert_eq!(b.table_bytes, 256 * MIB);
        let b = MemoryBudget::on_machine(Some(350 * MIB), None, 100 * MIB);
        assert_eq!(b.table_bytes, 32 * MIB);
        assert!(machine_available_bytes() > 0);
    }

    #[test]
    fn tables_plus_overhead_fit_every_limit_from_16_mib() {
        let mut limit = 16 * MIB;
        while limit < 64 * 1024 * MIB {
            let b = MemoryBudget::on_machine(Some(limit), None, ROOMY);
            assert!(b.table_bytes + PROCESS_OVERHEAD <= limit, "{limit}");
            assert!(b.table_bytes.is_power_of_two(), "{limit}");
            limit += limit / 7 + 12_345;
        }
    }
}
