//! Hostile input, seeded and bounded (a few seconds): short games of every rule on odd board
//! sizes, with absurd `INFO` values (huge, negative, overflowing, not numbers) for every key
//! that sizes tables or limits the search, garbage lines, control characters and impossible
//! moves sent between the moves. Through it all the brain must answer every bad line with
//! `ERROR …` / `UNKNOWN …` that says what it answers, never answer `INFO`, play only legal
//! moves (no renju foul), move within its turn time however much memory it was offered, stay
//! small, and end cleanly with nothing on stderr.

mod common;

use common::{ms, secs, strict_move, Brain};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;
use tianyuan::core::{Board, Pos, Rule};
use tianyuan::search::MemoryBudget;

/// Values no manager should send, for keys that size tables or limit the search.
const ABSURD: [&str; 12] = [
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "99999999999999999999999",
    "0",
    "-1",
    "1",
    "1e9",
    "0x10",
    "NaN",
    "",
    "4294967296",
];

/// Keys whose absurd values must change nothing but the brain's sizing.
const KEYS: [&str; 9] = [
    "max_memory",
    "hash_size",
    "timeout_match",
    "thread_num",
    "max_node",
    "caution_factor",
    "game_type",
    "pondering",
    "max_memory",
];

/// Slack over the per-move limit for pipe latency and scheduling on a loaded 2-core machine.
/// (An oversized table once made every move take twice its limit.)
const TURN_SLACK_MS: u128 = 40;

/// A line that is no command and must be answered `UNKNOWN …` or `ERROR …`; `known`: the
/// stones on the brain's board.
fn garbage(rng: &mut StdRng, size: usize, known: &[Pos]) -> String {
    match rng.gen_range(0..6) {
        0 => (0..rng.gen_range(1..6))
            .map(|_| char::from(rng.gen_range(1u8..32)))
            .filter(|&c| c != '\n' && c != '\r')
            .chain(std::iter::once('\u{7f}'))
            .collect(),
        1 => {
            let word: String = (0..rng.gen_range(1..12))
                .map(|_| char::from(rng.gen_range(b'!'..=b'~')))
                .collect();
            format!("Q{word}")
        }
        2 => format!(
            "TURN {},{}",
            size + rng.gen_range(0..3),
            rng.gen_range(0..size)
        ),
        3 => format!("TURN -{},{}", rng.gen_range(1..5), rng.gen_range(0..size)),
        4 => {
            // An occupied cell, if there is one.
            match known.first() {
                Some(p) => format!("TURN {},{}", p.x(), p.y()),
                None => "TURN x,y".to_owned(),
            }
        }
        _ => format!("START {}", [0, 4, 23, 1000][rng.gen_range(0..4)]),
    }
}

/// A `/proc/{pid}/status` field in KiB (Linux).
fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Peak resident memory of `pid` in KiB (Linux).
fn peak_rss_kib(pid: u32) -> Option<u64> {
    status_kib(pid, "VmHWM:")
}

/// Resident memory of `pid` now, in KiB (Linux).
fn rss_kib(pid: u32) -> Option<u64> {
    status_kib(pid, "VmRSS:")
}

#[test]
fn hostile_sessions_never_cost_a_game() {
    let mut rng = StdRng::seed_from_u64(20261201);
    let mut b = Brain::start(&[]);
    let (mut moves, mut bad_lines) = (0, 0);
    for game in 0..10 {
        let rule = [
            Rule::Freestyle,
            Rule::Standard,
            Rule::Renju,
            Rule::Caro8,
            Rule::Caro9,
        ][game % 5];
        let size = [15, 20, 7, 22, 11, 19, 15, 5, 20, 13][game];
        let turn_ms: u128 = rng.gen_range(40..=130);
        b.send(&format!("START {size}"));
        assert_eq!(b.expect(secs(5)), "OK", "game {game}");
        b.send(&format!("INFO rule {}", rule.gomocup_code()));
        b.send(&format!("INFO timeout_turn {turn_ms}"));
        b.send("INFO time_left 2147483647");
        let mut board = Board::new(size, size, rule).expect("board");
        let engine_first = rng.gen_bool(0.5);
        let mut last: Option<(usize, usize)> = None;
        if !engine_first {
            let c = size / 2;
            board.try_play(c, c).expect("centre");
            last = Some((c, c));
        }
        for _ in 0..10 {
            // Between moves: absurd settings and bad lines.
            for _ in 0..rng.gen_range(0..4) {
                let key = KEYS[rng.gen_range(0..KEYS.len())];
                let value = ABSURD[rng.gen_range(0..ABSURD.len())];
                b.send(&format!("INFO {key} {value}"));
            }
            for _ in 0..rng.gen_range(0..3) {
                // The opponent's last stone is not on the brain's board until the TURN.
                let sent = board.history().len() - usize::from(last.is_some());
                let line = garbage(&mut rng, size, &board.history()[..sent]);
                b.send(&line);
                let reply = b.expect(secs(2));
                assert!(
                    (reply.starts_with("UNKNOWN ") || reply.starts_with("ERROR "))
                        && reply.len() > "ERROR ".len(),
                    "{line:?} got {reply:?}"
                );
                bad_lines += 1;
            }
            b.expect_quiet(ms(5));
            let command = match last {
                None => "BEGIN".to_owned(),
                Some((x, y)) => format!("TURN {x},{y}"),
            };
            let sent = Instant::now();
            b.send(&command);
            let reply = b.reply(secs(5));
            let took = reply.at.duration_since(sent).as_millis();
            let (x, y) = strict_move(&reply.text)
                .unwrap_or_else(|| panic!("{command}: expected a move, got {:?}", reply.text));
            assert!(
                took <= turn_ms + TURN_SLACK_MS,
                "game {game}: {command} answered after {took} ms, limit {turn_ms} ms"
            );
            let (x, y) = (x as usize, y as usize);
            let p = board
                .pos(x, y)
                .unwrap_or_else(|| panic!("{x},{y} is off the {size}x{size} board"));
            assert!(
                board.is_legal(p, board.side_to_move()),
                "{x},{y} illegal\n{board:?}"
            );
            board.make_move(p);
            moves += 1;
            if board.last_move_wins() || board.is_full() {
                break;
            }
            // The opponent: a legal move near the stones.
            let pool: Vec<_> = board.candidates().iter().collect();
            let color = board.side_to_move();
            let legal: Vec<_> = pool
                .into_iter()
                .filter(|&q| board.is_legal(q, color))
                .collect();
            let Some(&q) = legal.get(rng.gen_range(0..legal.len().max(1))) else {
                break;
            };
            board.make_move(q);
            last = Some((q.x(), q.y()));
            if board.last_move_wins() || board.is_full() {
                break;
            }
        }
    }
    println!(
        "{moves} moves, {bad_lines} bad lines, peak RSS {:?} KiB",
        peak_rss_kib(b.pid())
    );
    assert!(
        moves >= 50 && bad_lines >= 50,
        "{moves} moves, {bad_lines} bad lines"
    );
    // An absurd `max_memory` or `hash_size` may size the table up to half of the memory the
    // machine had available (the documented ceiling, `search::memory`); the pages the search
    // touches within ten short games are far fewer, but never more than that ceiling.
    let ceiling_kib = MemoryBudget::new(Some(u64::MAX), Some(i64::MAX)).table_bytes / 1024;
    if let Some(kib) = peak_rss_kib(b.pid()) {
        assert!(
            kib < ceiling_kib + 64 * 1024,
            "peak RSS {kib} KiB, ceiling {ceiling_kib} KiB"
        );
    }
    // A sane limit afterwards gives the big table back: the process shrinks below it.
    let limit_kib = 64 * 1024;
    b.send(&format!("INFO max_memory {}", limit_kib * 1024));
    b.send("START 15");
    assert_eq!(b.expect(secs(5)), "OK");
    b.send("INFO timeout_turn 200");
    b.send("BEGIN");
    b.expect_move(secs(5));
    if let Some(kib) = rss_kib(b.pid()) {
        println!("RSS {kib} KiB after max_memory {limit_kib} KiB");
        assert!(
            kib < limit_kib,
            "RSS {kib} KiB under max_memory {limit_kib} KiB"
        );
    }
    b.finish();
}
