//! Stopping a running search through the real binary: YXSTOP / STOP / `INFO timeout_turn 0` give
//! the move at once, END exits without a move, EOF answers then exits, other commands wait for the
//! move. The brain runs with `--think-ms 3600000`, so without a stop it would think for most of
//! its budget (seconds here); every test first checks that it is indeed still thinking. Bounds are
//! generous for loaded CI machines; the exact latencies are measured by `protocol-bench`.

mod common;

use std::time::Instant;

use common::{ms, secs, Brain};

/// A brain thinking on a 20 s budget about a two-stone position.
fn thinking() -> Brain {
    let mut b = Brain::start(&["--think-ms", "3600000"]);
    b.send_all(&[
        "START 15",
        "INFO timeout_turn 20000",
        "INFO time_left 2147483647",
    ]);
    assert_eq!(b.expect(secs(5)), "OK");
    b.send_all(&["BOARD", "7,7,1", "8,8,2", "DONE"]);
    // Still thinking 300 ms later: nothing but progress lines has been printed.
    b.expect_thinking(ms(300));
    b
}

#[test]
fn yxstop_gives_the_move_then_silence() {
    for stop in ["YXSTOP", "STOP", "yxstop"] {
        let mut b = thinking();
        let t = Instant::now();
        b.send(stop);
        let m = b.expect_move(secs(2));
        assert!(t.elapsed() < secs(2), "{stop}: {:?}", t.elapsed());
        assert!(m != (7, 7) && m != (8, 8));
        // A second stop, now idle: nothing.
        b.send(stop);
        b.expect_quiet(ms(300));
        b.finish();
    }
}

#[test]
fn info_timeout_turn_zero_means_move_now() {
    let mut b = thinking();
    b.send("INFO timeout_turn 0");
    let t = Instant::now();
    b.expect_move(secs(2));
    assert!(t.elapsed() < secs(2));
    // Piskvork then sends the real limit again; the next search is a normal one.
    b.send_all(&["INFO timeout_turn 20000", "TURN 0,0"]);
    b.expect_thinking(ms(300));
    b.send("YXSTOP");
    b.expect_move(secs(2));
    // With timeout_turn 0 set before the command, the answer comes at once.
    b.send_all(&["INFO timeout_turn 0", "TURN 0,1"]);
    let t = Instant::now();
    b.expect_move(secs(2));
    assert!(t.elapsed() < secs(1), "{:?}", t.elapsed());
    b.finish();
}

#[test]
fn end_during_a_search_exits_without_a_move() {
    let mut b = thinking();
    let t = Instant::now();
    b.send("END");
    let status = b.wait_exit(secs(2)).expect("exit within 2 s");
    assert!(status.success());
    assert!(t.elapsed() < secs(2));
    // A progress line may have been written between the last read and END; no move may.
    b.expect_only_progress();
    b.finish();
}

#[test]
fn eof_during_a_search_answers_then_exits() {
    let mut b = thinking();
    b.close();
    b.expect_move(secs(2));
    assert!(b.wait_exit(secs(2)).is_some());
    b.finish();
}

#[test]
fn other_commands_wait_for_the_move() {
    let mut b = thinking();
    b.send_all(&["ABOUT", "INFO rule 1", "TAKEBACK 7,7"]);
    b.expect_thinking(ms(300));
    b.send("YXSTOP");
    let m = b.expect_move(secs(2));
    assert!(b.expect(secs(2)).starts_with("name="));
    assert_eq!(b.expect(secs(2)), "OK", "TAKEBACK after the move");
    // Our move is still on the board.
    b.send(&format!("TURN {},{}", m.0, m.1));
    assert!(b.expect(secs(2)).starts_with("ERROR TURN"));
    b.finish();
}

#[test]
fn moves_come_within_the_turn_limit() {
    let mut b = Brain::start(&["--think-ms", "3600000"]);
    b.send_all(&[
        "START 15",
        "INFO timeout_turn 500",
        "INFO time_left 2147483647",
    ]);
    assert_eq!(b.expect(secs(5)), "OK");
    // Scattered opponent stones: no forced (instant) answers. Three moves only: with a fourth
    // stone against an opponent who never defends, the brain has a proven win and plays it
    // at once.
    for (i, (x, y)) in [(0, 0), (14, 0), (0, 14)].into_iter().enumerate() {
        let t = Instant::now();
        b.send(&format!("TURN {x},{y}"));
        b.expect_move(secs(3));
        let took = t.elapsed();
        // It thinks (budget 500 - reserve = 425 ms, 325 ms on the first move; the search
        // stops between iterations once the next would not fit) …
        assert!(took >= ms(120), "move {i}: {took:?}");
        // … and answers before the manager's limit (with slack for loaded machines).
        assert!(took < ms(500 + 250), "move {i}: {took:?}");
    }
    b.finish();
}

#[test]
fn no_time_left_means_move_now() {
    let mut b = Brain::start(&["--think-ms", "3600000"]);
    b.send_all(&["START 15", "INFO timeout_turn 20000", "INFO time_left -150"]);
    assert_eq!(b.expect(secs(5)), "OK");
    let t = Instant::now();
    b.send("TURN 7,7");
    b.expect_move(secs(2));
    assert!(t.elapsed() < secs(1), "{:?}", t.elapsed());
    b.finish();
}

#[test]
fn about_and_start_answer_at_once() {
    for first in ["ABOUT", "START 20"] {
        let mut b = Brain::start(&[]);
        let t = Instant::now();
        b.send(first);
        let reply = b.expect(secs(5));
        assert!(reply == "OK" || reply.starts_with("name="), "{reply}");
        // Generous for CI; measured around 1 ms including process start (protocol-bench).
        assert!(t.elapsed() < ms(500), "{first}: {:?}", t.elapsed());
        b.finish();
    }
}
