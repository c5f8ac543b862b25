//! Byte-exact replays of the manager sessions in `tests/sessions/` (protocol-reference §6) against
//! the real `pbrain-tianyuan` process: every send is one write of exactly the fixture's bytes, every
//! expectation is checked in order against the reply lines (MESSAGE / DEBUG / INFO skipped), moves must be
//! legal on the board the harness keeps, no line may be left over, and stderr must stay empty.

mod common;

use std::collections::HashSet;
use std::path::Path;
use std::time::{Duration, Instant};

use common::{strict_move, Brain};
use tianyuan::protocol::fixture::{parse_fixture, Expect, Placeholder, Step};
use tianyuan::protocol::Coord;

/// The board as the manager sees it, rebuilt from the bytes sent and the moves received.
#[derive(Default)]
struct Tracker {
    width: i32,
    height: i32,
    stones: HashSet<(i32, i32)>,
    in_block: bool,
    last_move: Option<(i32, i32)>,
    partial: String,
}

impl Tracker {
    fn coord(text: &str) -> Option<(i32, i32)> {
        let v: Vec<i32> = text
            .split(',')
            .map(|s| s.trim().parse().ok())
            .collect::<Option<_>>()?;
        (v.len() >= 2).then(|| (v[0], v[1]))
    }

    /// Follows the lines of the bytes sent.
    fn sent(&mut self, bytes: &[u8]) {
        let text = String::from_utf8_lossy(bytes);
        for ch in text.chars() {
            if ch == '\r' || ch == '\n' {
                let line = std::mem::take(&mut self.partial);
                self.line(line.trim());
            } else {
                self.partial.push(ch);
            }
        }
    }

    fn line(&mut self, line: &str) {
        if line.is_empty() {
            return;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let word = word.to_ascii_uppercase();
        if self.in_block {
            if word == "DONE" {
                self.in_block = false;
            } else if let Some(c) = Self::coord(line) {
                self.stones.insert(c);
            }
            return;
        }
        match word.as_str() {
            "START" => {
                let n: Vec<i32> = rest
                    .split([' ', ','])
                    .filter_map(|s| s.parse().ok())
                    .collect();
                self.width = n[0];
                self.height = *n.get(1).unwrap_or(&n[0]);
                self.stones.clear();
            }
            "RESTART" => self.stones.clear(),
            "BOARD" | "YXBOARD" | "SWAP2BOARD" | "SWAPBOARD" => {
                self.stones.clear();
                self.in_block = true;
            }
            "TURN" => {
                if let Some(c) = Self::coord(rest) {
                    self.stones.insert(c);
                }
            }
            "TAKEBACK" => {
                if let Some(c) = Self::coord(rest) {
                    self.stones.remove(&c);
                }
            }
            _ => {}
        }
    }

    fn free(&self) -> (i32, i32) {
        (0..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .find(|c| !self.stones.contains(c))
            .expect("a free square")
    }

    fn our_move(&mut self, m: (i32, i32)) {
        assert!(
            (0..self.width).contains(&m.0) && (0..self.height).contains(&m.1),
            "move {m:?} off the {}x{} board",
            self.width,
            self.height
        );
        assert!(self.stones.insert(m), "move {m:?} on an occupied square");
        self.last_move = Some(m);
    }
}

fn replay(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sessions")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("fixture");
    let fixture = parse_fixture(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    // The search would use its whole budget (seconds under a tournament's limits): the
    // replays are of the protocol, so a move may take 300 ms at most.
    let mut brain = Brain::start(&["--think-ms", "300"]);
    let mut board = Tracker::default();
    for (i, step) in fixture.steps.iter().enumerate() {
        let here = format!("{name} step {i}: {step:?}");
        match step {
            Step::Send(_) => {
                let bytes = step.render(|ph| {
                    let (x, y) = match ph {
                        Placeholder::Free => board.free(),
                        Placeholder::LastMove => board.last_move.expect("a move of ours"),
                    };
                    Coord::new(x, y)
                });
                board.sent(&bytes);
                brain.send_bytes(&bytes);
            }
            Step::Expect(expect) if expect.is_message() => {
                // Yixin's opening replies: the first MESSAGE line that matches; other MESSAGE
                // lines (the decision's summary) may come before it, nothing else.
                loop {
                    let line = brain
                        .raw_line(Duration::from_secs(10))
                        .unwrap_or_else(|| panic!("{here}: no reply"))
                        .text;
                    if expect.matches(&line) {
                        break;
                    }
                    assert!(line.starts_with("MESSAGE "), "{here}: got {line:?}");
                }
            }
            Step::Expect(expect) => {
                let line = brain.expect(Duration::from_secs(10));
                assert!(expect.matches(&line), "{here}: got {line:?}");
                if *expect == Expect::Move {
                    let m = strict_move(&line).expect("strict move");
                    board.our_move(m);
                }
                if *expect == Expect::Opening && line != "SWAP" {
                    for m in line.split(' ') {
                        board.our_move(strict_move(m).expect("strict move"));
                    }
                }
            }
            Step::Pause(d) => std::thread::sleep(*d),
            Step::Quiet(d) => brain.expect_quiet(*d),
            Step::CloseInput => {
                brain.close();
            }
            Step::ExpectExit(d) => {
                let t = Instant::now();
                let status = brain.wait_exit(*d + Duration::from_millis(500));
                assert!(status.is_some(), "{here}: still running");
                assert!(
                    t.elapsed() <= *d + Duration::from_millis(300),
                    "{here}: exit took {:?}",
                    t.elapsed()
                );
            }
        }
    }
    brain.finish();
}

#[test]
fn piskvork_tournament() {
    replay("piskvork-tournament.txt");
}

#[test]
fn gomocupjudge_first_engine() {
    replay("gomocupjudge-first.txt");
}

#[test]
fn gomocupjudge_second_engine() {
    replay("gomocupjudge-second.txt");
}

#[test]
fn c_gomoku_cli_several_games_about_first() {
    replay("c-gomoku-cli.txt");
}

#[test]
fn c_gomoku_cli_unlimited_renju() {
    replay("c-gomoku-cli-unlimited-renju.txt");
}

#[test]
fn yixin_board_lower_case() {
    replay("yixin-board.txt");
}

#[test]
fn yixin_board_openings_balance_and_pondering() {
    replay("yixin-board-openings.txt");
}

#[test]
fn gomocupjudge_swap2() {
    replay("gomocupjudge-swap2.txt");
}

#[test]
fn qpiskvork_mixed_endings() {
    replay("qpiskvork.txt");
}

#[test]
fn synthetic_line_endings() {
    replay("synthetic-line-endings.txt");
}
