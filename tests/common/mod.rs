//! A test harness that drives the real `pbrain-tianyuan` process through its pipes, the way a
//! manager does: raw bytes in (one write per call), raw reply lines out (checked for a bare LF
//! ending), stderr captured so every test can assert that it stayed empty.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Path of the binary under test.
pub const BRAIN: &str = env!("CARGO_BIN_EXE_pbrain-tianyuan");

/// A reply line as read from stdout.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The line without its `\n` (a `\r` would still be there).
    pub text: String,
    /// When it was read.
    pub at: Instant,
}

/// A running brain.
pub struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Reply>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Bytes after the last `\n` when stdout closed (must stay empty).
    tail: Arc<Mutex<Vec<u8>>>,
    status: Option<ExitStatus>,
}

impl Brain {
    /// Starts the brain with `args`.
    pub fn start(args: &[&str]) -> Brain {
        let mut child = Command::new(BRAIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the brain");
        let mut out = child.stdout.take().expect("stdout");
        let mut err = child.stderr.take().expect("stderr");
        let (tx, rx) = mpsc::channel();
        let tail = Arc::new(Mutex::new(Vec::new()));
        let tail2 = tail.clone();
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            let mut line = Vec::new();
            loop {
                match out.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let at = Instant::now();
                        for &b in &buf[..n] {
                            if b == b'\n' {
                                let text = String::from_utf8_lossy(&line).into_owned();
                                line.clear();
                                if tx.send(Reply { text, at }).is_err() {
                                    return;
                                }
                            } else {
                                line.push(b);
                            }
                        }
                    }
                }
            }
            *tail2.lock().expect("lock") = line;
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let stderr2 = stderr.clone();
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                stderr2.lock().expect("lock").extend_from_slice(&buf[..n]);
            }
        });
        Brain {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr,
            tail,
            status: None,
        }
    }

    /// Process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes `bytes` in one call and flushes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to the brain");
        stdin.flush().expect("flush");
    }

    /// Writes `line` + LF.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Writes several lines, each in its own write call.
    pub fn send_all(&mut self, lines: &[&str]) {
        for l in lines {
            self.send(l);
        }
    }

    /// Closes stdin (EOF).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// The next raw reply line within `timeout` (`None` on timeout or closed stdout).
    pub fn raw_line(&mut self, timeout: Duration) -> Option<Reply> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// The next reply line that is not `MESSAGE …` / `DEBUG …` / a Yixin `INFO …` analysis line
    /// ([`tianyuan::protocol::fixture::is_ignorable_reply`]); panics on timeout or on a line
    /// ending in CR.
    pub fn reply(&mut self, timeout: Duration) -> Reply {
        let until = Instant::now() + timeout;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let r = self
                .raw_line(left)
                .unwrap_or_else(|| panic!("no reply within {timeout:?}"));
            assert!(!r.text.contains('\r'), "CR in reply {:?}", r.text);
            assert!(!r.text.is_empty(), "empty reply line");
            assert_eq!(
                r.text,
                r.text.trim(),
                "surrounding whitespace in {:?}",
                r.text
            );
            if tianyuan::protocol::fixture::is_ignorable_reply(&r.text) {
                continue;
            }
            return r;
        }
    }

    /// The next reply's text.
    pub fn expect(&mut self, timeout: Duration) -> String {
        self.reply(timeout).text
    }

    /// The next reply must be a move `x,y` (strict: no spaces); returns it.
    pub fn expect_move(&mut self, timeout: Duration) -> (i32, i32) {
        let text = self.expect(timeout);
        strict_move(&text).unwrap_or_else(|| panic!("expected a move, got {text:?}"))
    }

    /// No line at all (not even MESSAGE) may arrive within `d`.
    pub fn expect_quiet(&mut self, d: Duration) {
        if let Some(r) = self.raw_line(d) {
            panic!("unexpected reply {:?}", r.text);
        }
    }

    /// Reads every line the brain has written so far (after a short pause for the reader
    /// threads); each must be progress (`MESSAGE …` and the like), never a move or an answer.
    /// For a brain that was stopped mid-search: progress lines printed before the stop reached
    /// it are legitimate, a move is not.
    pub fn expect_only_progress(&mut self) {
        thread::sleep(Duration::from_millis(20));
        while let Ok(r) = self.lines.try_recv() {
            assert!(
                tianyuan::protocol::fixture::is_ignorable_reply(&r.text),
                "unexpected reply {:?} after the stop",
                r.text
            );
        }
    }

    /// A search is running: for `d`, nothing but its progress (`MESSAGE` lines) may arrive.
    pub fn expect_thinking(&mut self, d: Duration) {
        let until = Instant::now() + d;
        while let Some(r) = self.raw_line(until.saturating_duration_since(Instant::now())) {
            assert!(
                r.text.starts_with("MESSAGE "),
                "unexpected reply {:?} while thinking",
                r.text
            );
        }
    }

    /// Waits up to `limit` for the process to exit; its status if it did.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let t = Instant::now();
        loop {
            if let Ok(Some(s)) = self.child.try_wait() {
                self.status = Some(s);
                return Some(s);
            }
            if t.elapsed() >= limit {
                return None;
            }
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// Everything written to stderr so far.
    pub fn stderr(&self) -> Vec<u8> {
        self.stderr.lock().expect("lock").clone()
    }

    /// Ends the brain (END if still running), then checks: exit within 2 s with status 0, no reply
    /// line left over, nothing on stderr, no unterminated output.
    pub fn finish(mut self) {
        if self.status.is_none() && self.stdin.is_some() {
            let _ = self
                .stdin
                .as_mut()
                .map(|s| s.write_all(b"END\n").and_then(|_| s.flush()));
        }
        let status = self.wait_exit(Duration::from_secs(2)).expect("brain exits");
        assert!(status.success(), "exit status {status:?}");
        // Give the reader threads a moment to drain.
        thread::sleep(Duration::from_millis(20));
        let left: Vec<String> = self.lines.try_iter().map(|r| r.text).collect();
        assert!(left.is_empty(), "unread replies: {left:?}");
        assert!(
            self.tail.lock().expect("lock").is_empty(),
            "unterminated output"
        );
        let err = self.stderr();
        assert!(
            err.is_empty(),
            "stderr: {:?}",
            String::from_utf8_lossy(&err)
        );
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        if self.status.is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Parses a strict move `x,y`: digits (and `-`), one comma, nothing else.
pub fn strict_move(text: &str) -> Option<(i32, i32)> {
    let (a, b) = text.split_once(',')?;
    let ok = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit() || c == b'-');
    if !ok(a) || !ok(b) {
        return None;
    }
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// Seconds as a `Duration` (readability in tests).
pub fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// Milliseconds as a `Duration`.
pub fn ms(m: u64) -> Duration {
    Duration::from_millis(m)
}
