//! `INFO thread_num`: the brain searches on several threads (Lazy SMP) and stays within the turn
//! limit; `YXSHOWINFO` announces the most threads it will use (the machine's logical
//! processors); every iteration's `MESSAGE` counts the nodes of all threads.

mod common;

use common::{secs, strict_move, Brain};
use std::time::Instant;

/// The `n` of `MESSAGE … n <nodes> …`.
fn message_nodes(text: &str) -> Option<u64> {
    let mut words = text.split(' ');
    while let Some(w) = words.next() {
        if w == "n" {
            return words.next()?.parse().ok();
        }
    }
    None
}

#[test]
fn threads_are_announced_used_and_timed() {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut b = Brain::start(&[]);
    b.send("YXSHOWINFO");
    let first = b.raw_line(secs(2)).expect("a reply").text;
    assert_eq!(first, format!("MESSAGE INFO MAX_THREAD_NUM {cpus}"));
    let second = b.raw_line(secs(2)).expect("a reply").text;
    assert!(
        second.starts_with("MESSAGE INFO MAX_HASH_SIZE "),
        "{second}"
    );
    b.send("START 15");
    assert_eq!(b.expect(secs(5)), "OK");
    let turn_ms = 250;
    b.send_all(&[
        &format!("INFO timeout_turn {turn_ms}"),
        "INFO time_left 2147483647",
        "INFO thread_num 2",
    ]);
    let mut occupied = vec![(7, 7)];
    // Rounds where the search reported an iteration (a move that needs no search, such as an
    // own five, reports none: the opponent here does not defend).
    let mut searched = 0;
    b.send("TURN 7,7");
    for round in 0..6 {
        let sent = Instant::now();
        let mut most_nodes = 0;
        let reply = loop {
            let r = b.raw_line(secs(5)).expect("a move");
            match message_nodes(&r.text) {
                Some(n) if r.text.starts_with("MESSAGE ") => most_nodes = most_nodes.max(n),
                _ => break r,
            }
        };
        let took = reply.at.duration_since(sent).as_millis();
        assert!(took <= turn_ms + 40, "round {round}: {took} ms");
        let mv = strict_move(&reply.text).unwrap_or_else(|| panic!("{:?}", reply.text));
        assert!(!occupied.contains(&mv), "{mv:?} occupied");
        searched += usize::from(most_nodes > 0);
        occupied.push(mv);
        // A quiet reply far from the action keeps the game going.
        let next = (0..15)
            .flat_map(|y| (0..15).map(move |x| (x, y)))
            .find(|c| !occupied.contains(c))
            .unwrap();
        occupied.push(next);
        if round == 3 {
            b.send("INFO thread_num 1");
        }
        b.send(&format!("TURN {},{}", next.0, next.1));
    }
    b.expect_move(secs(5));
    assert!(searched >= 3, "only {searched} searched moves");
    b.finish();
}
