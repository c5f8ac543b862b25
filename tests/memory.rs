//! Peak memory of the real brain process under `INFO max_memory 16777216` (16 MiB, the smallest
//! limit we promise to respect): it plays games under every rule — building the line tables of all
//! five rules, the worst case — and its peak resident set (`VmHWM` in `/proc/<pid>/status`) must
//! stay below the limit and below `PROCESS_OVERHEAD`, the share `MemoryBudget` keeps aside for
//! everything but the tables. Linux only.

#![cfg(target_os = "linux")]

mod common;

use common::{secs, Brain};
use tianyuan::search::memory::PROCESS_OVERHEAD;

fn vm_hwm_bytes(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM line");
    let kb: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .expect("VmHWM value");
    kb * 1024
}

/// Sends up to `turns` TURNs, each on the first cell of `cells` that neither side has taken,
/// and waits for the brain's move after each.
fn play_turns(b: &mut Brain, cells: impl Iterator<Item = (i32, i32)>, turns: usize) {
    let mut taken = std::collections::HashSet::new();
    let mut free = cells;
    for _ in 0..turns {
        let (x, y) = free
            .by_ref()
            .find(|c| !taken.contains(c))
            .expect("a free square");
        taken.insert((x, y));
        b.send(&format!("TURN {x},{y}"));
        let m = b.expect_move(secs(5));
        taken.insert(m);
    }
}

#[test]
fn peak_rss_stays_under_16_mib() {
    let limit: u64 = 16 * 1024 * 1024;
    let mut b = Brain::start(&[]);
    for rule in [0, 1, 4, 8, 9] {
        b.send_all(&[
            "START 20",
            "INFO max_memory 16777216",
            &format!("INFO rule {rule}"),
            "INFO timeout_turn 5",
            "INFO time_left 2147483647",
        ]);
        assert_eq!(b.expect(secs(5)), "OK");
        play_turns(&mut b, (0..400).map(|i| (i % 20, i / 20)), 30);
    }
    let peak = vm_hwm_bytes(b.pid());
    println!("peak RSS {} KiB", peak / 1024);
    assert!(peak < limit, "peak RSS {peak} bytes");
    assert!(
        peak <= PROCESS_OVERHEAD,
        "peak RSS {peak} above the budget's overhead {PROCESS_OVERHEAD}"
    );
    b.finish();
}

/// With the search thinking (its table filling, and with `--threat-probe` the root probe's
/// tables too), the whole process stays under `max_memory` for Gomocup's 350 MiB and for 64 and
/// 16 MiB.
#[test]
fn peak_rss_stays_under_max_memory_while_searching() {
    for (mib, args) in [16u64, 64, 350]
        .into_iter()
        .flat_map(|mib| [(mib, &[][..]), (mib, &["--threat-probe"][..])])
    {
        let limit = mib * 1024 * 1024;
        let mut b = Brain::start(args);
        b.send_all(&[
            "START 15",
            &format!("INFO max_memory {limit}"),
            "INFO rule 0",
            "INFO timeout_turn 400",
            "INFO time_left 2147483647",
        ]);
        assert_eq!(b.expect(secs(5)), "OK");
        // Scattered stones: long searches, few forced answers.
        play_turns(
            &mut b,
            (0..225).map(|i| ((i * 7) % 15, (i * 11 / 15) % 15)),
            12,
        );
        let peak = vm_hwm_bytes(b.pid());
        println!(
            "max_memory {mib} MiB {args:?}: peak RSS {} KiB",
            peak / 1024
        );
        assert!(peak < limit, "{mib} MiB {args:?}: peak RSS {peak} bytes");
        b.finish();
    }
}

fn vm_rss_bytes(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let kb: u64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .expect("VmRSS value");
    kb * 1024
}

/// A manager that lowers `max_memory` between games gets the memory back: after games under
/// 100, 40 and 30 MiB, whose tables the searches filled, a game under 22 MiB leaves the process
/// below 22 MiB. (The tables of the earlier games once stayed resident: freed blocks of the
/// search thread's allocator arena were not returned to the system.)
#[test]
fn rss_falls_under_a_lowered_max_memory() {
    let mut b = Brain::start(&[]);
    for mib in [100u64, 40, 30, 22] {
        b.send_all(&[&format!("INFO max_memory {}", mib << 20), "START 15"]);
        assert_eq!(b.expect(secs(5)), "OK");
        b.send_all(&[
            "INFO timeout_turn 300",
            "BOARD",
            "7,7,1",
            "8,8,2",
            "8,6,1",
            "6,8,2",
            "9,7,1",
            "DONE",
        ]);
        b.expect_move(secs(5));
        let rss = vm_rss_bytes(b.pid());
        println!("max_memory {mib} MiB: RSS {} KiB", rss / 1024);
        assert!(rss < mib << 20, "{mib} MiB: RSS {rss} bytes");
    }
    b.finish();
}
