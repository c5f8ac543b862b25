//! Byte stream → protocol lines.
//!
//! Managers disagree on line endings (protocol-reference §1): Piskvork and GomocupJudge send CR LF,
//! c-gomoku-cli and Yixin-Board bare LF, and qpiskvork mixes LF and CR LF inside one BOARD block.
//! [`LineReader`] therefore accepts all of them, even within one stream:
//!
//! * LF ends a line; a lone CR ends a line; CR LF is **one** ending, even when the CR and the LF arrive
//!   in separate `read` calls (the reader remembers that the last byte was a CR and swallows the LF);
//! * surrounding whitespace is stripped and empty lines are skipped;
//! * a line longer than [`MAX_LINE_LEN`] bytes is discarded while it is read (memory stays bounded) and
//!   reported once as [`ReaderEvent::Bad`];
//! * invalid UTF-8 is reported as [`ReaderEvent::Bad`] (never a panic), with a lossy copy of the text;
//! * a final line without terminator is still delivered when EOF arrives;
//! * EOF (or a read error other than `Interrupted`) ends the stream with [`ReaderEvent::Eof`].
//!
//! Every event carries the [`Instant`] at which the `read` call that completed it returned: time budgets
//! are counted from the receipt of the triggering line (protocol-reference §7.5, §9.12), not from the
//! moment the session loop gets round to it.
//!
//! [`spawn_reader`] runs a [`LineReader`] on its own thread and sends the events over an
//! [`std::sync::mpsc`] channel, so that the session loop can react to `YXSTOP`, `END` or
//! `INFO timeout_turn 0` while a search is running.

use std::io::{ErrorKind, Read};
use std::sync::mpsc::{self, Receiver};
use std::thread::{self, JoinHandle};
use std::time::Instant;

/// Longest accepted line in bytes (after which the line is dropped and reported as bad).
///
/// The longest legitimate line is an `INFO folder <path>`; 64 KiB is far beyond any real path.
pub const MAX_LINE_LEN: usize = 64 * 1024;

/// How many bytes of a bad line are kept in [`ReaderEvent::Bad::text`].
pub const BAD_TEXT_PREVIEW: usize = 80;

/// Size of the buffer handed to `Read::read`.
const CHUNK: usize = 8 * 1024;

/// One item produced by the reader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReaderEvent {
    /// A complete, trimmed, non-empty line of valid UTF-8.
    Line {
        /// The line without its terminator and surrounding whitespace.
        text: String,
        /// When the line was read (the `read` call that delivered its terminator returned).
        received: Instant,
    },
    /// A line that could not be turned into text.
    Bad {
        /// Why the line was rejected, e.g. `"line longer than 65536 bytes"` or `"invalid UTF-8"`.
        reason: String,
        /// A lossy, trimmed copy of (the beginning of) the line, at most [`BAD_TEXT_PREVIEW`] bytes
        /// plus a replacement character or two. Lets the session recognise e.g. an `INFO` line it must
        /// not answer.
        text: String,
        /// When the line was read.
        received: Instant,
    },
    /// End of input: stdin was closed (or became unreadable). The brain should exit.
    Eof,
}

/// Splits any [`Read`] into [`ReaderEvent`]s. Use it as an iterator; it yields `Eof` once and then
/// `None`.
#[derive(Debug)]
pub struct LineReader<R: Read> {
    input: R,
    chunk: Vec<u8>,
    pos: usize,
    len: usize,
    chunk_time: Instant,
    line: Vec<u8>,
    /// Bytes of the current line seen so far, including those discarded because it was too long.
    line_len: usize,
    /// The previous byte was a CR, so an immediately following LF belongs to the same ending.
    pending_cr: bool,
    /// EOF (or a fatal read error) was seen.
    eof: bool,
    /// `Eof` was already yielded.
    done: bool,
}

impl<R: Read> LineReader<R> {
    /// Wraps `input`. Nothing is read until the first call to `next`.
    pub fn new(input: R) -> Self {
        LineReader {
            input,
            chunk: vec![0; CHUNK],
            pos: 0,
            len: 0,
            chunk_time: Instant::now(),
            line: Vec::new(),
            line_len: 0,
            pending_cr: false,
            eof: false,
            done: false,
        }
    }

    /// Finishes the current line; `None` when it is empty after trimming.
    fn finish_line(&mut self) -> Option<ReaderEvent> {
        let received = self.chunk_time;
        let total = self.line_len;
        self.line_len = 0;
        if total > MAX_LINE_LEN {
            let text = preview(&self.line);
            self.line = Vec::new(); // release the memory
            return Some(ReaderEvent::Bad {
                reason: format!("line longer than {MAX_LINE_LEN} bytes"),
                text,
                received,
            });
        }
        let bytes = trim_ascii(&self.line);
        if bytes.is_empty() {
            self.line.clear();
            return None;
        }
        let event = match std::str::from_utf8(bytes) {
            Ok(s) => ReaderEvent::Line {
                text: s.trim().to_owned(),
                received,
            },
            Err(_) => ReaderEvent::Bad {
                reason: "invalid UTF-8".to_owned(),
                text: preview(bytes),
                received,
            },
        };
        self.line.clear();
        match &event {
            ReaderEvent::Line { text, .. } if text.is_empty() => None,
            _ => Some(event),
        }
    }

    /// Reads the next chunk. Returns false at EOF or on a fatal error.
    fn fill(&mut self) -> bool {
        loop {
            match self.input.read(&mut self.chunk) {
                Ok(0) => return false,
                Ok(n) => {
                    self.chunk_time = Instant::now();
                    self.pos = 0;
                    self.len = n;
                    return true;
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => return false,
            }
        }
    }
}

impl<R: Read> Iterator for LineReader<R> {
    type Item = ReaderEvent;

    fn next(&mut self) -> Option<ReaderEvent> {
        if self.done {
            return None;
        }
        loop {
            while self.pos < self.len {
                let b = self.chunk[self.pos];
                self.pos += 1;
                if self.pending_cr {
                    self.pending_cr = false;
                    if b == b'\n' {
                        continue; // second half of CR LF
                    }
                }
                if b == b'\r' || b == b'\n' {
                    self.pending_cr = b == b'\r';
                    if let Some(ev) = self.finish_line() {
                        return Some(ev);
                    }
                } else {
                    self.line_len = self.line_len.saturating_add(1);
                    if self.line_len <= MAX_LINE_LEN {
                        self.line.push(b);
                    }
                }
            }
            if self.eof || !self.fill() {
                self.eof = true;
                if self.line_len > 0 {
                    if let Some(ev) = self.finish_line() {
                        return Some(ev);
                    }
                }
                self.done = true;
                return Some(ReaderEvent::Eof);
            }
        }
    }
}

fn trim_ascii(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |i| i + 1);
    &bytes[start..end.max(start)]
}

fn preview(bytes: &[u8]) -> String {
    let cut = &bytes[..bytes.len().min(BAD_TEXT_PREVIEW)];
    String::from_utf8_lossy(trim_ascii(cut)).trim().to_owned()
}

/// Starts a thread that reads `input` with a [`LineReader`] and sends every event over a channel.
///
/// The thread ends after sending [`ReaderEvent::Eof`], or as soon as the receiver is dropped (the next
/// send fails). Returns an error only if the thread cannot be spawned.
pub fn spawn_reader<R>(input: R) -> std::io::Result<(Receiver<ReaderEvent>, JoinHandle<()>)>
where
    R: Read + Send + 'static,
{
    let (tx, rx) = mpsc::channel();
    let handle = thread::Builder::new()
        .name("protocol-reader".to_owned())
        .spawn(move || {
            for event in LineReader::new(input) {
                if tx.send(event).is_err() {
                    break;
                }
            }
        })?;
    Ok((rx, handle))
}

/// [`spawn_reader`] on the process's stdin.
pub fn spawn_stdin_reader() -> std::io::Result<(Receiver<ReaderEvent>, JoinHandle<()>)> {
    spawn_reader(std::io::stdin())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io;

    use crate::protocol::fixture::ChunkedReader;

    /// A reader that returns the given chunks one per `read` call (then EOF).
    fn chunks(parts: &[&[u8]]) -> ChunkedReader {
        ChunkedReader::new(parts.iter().map(|p| p.to_vec()))
    }

    fn texts(parts: &[&[u8]]) -> Vec<String> {
        LineReader::new(chunks(parts))
            .map(|e| match e {
                ReaderEvent::Line { text, .. } => text,
                ReaderEvent::Bad { reason, .. } => format!("BAD:{reason}"),
                ReaderEvent::Eof => "EOF".to_owned(),
            })
            .collect()
    }

    #[test]
    fn lf_crlf_cr_and_mixed() {
        assert_eq!(texts(&[b"A\nB\n"]), ["A", "B", "EOF"]);
        assert_eq!(texts(&[b"A\r\nB\r\n"]), ["A", "B", "EOF"]);
        assert_eq!(texts(&[b"A\rB\r"]), ["A", "B", "EOF"]);
        // qpiskvork: inner lines LF, final DONE CRLF, in one write.
        assert_eq!(
            texts(&[b"BOARD\n7,7,1\n8,8,2\nDONE\r\nTURN 1,1\r\n"]),
            ["BOARD", "7,7,1", "8,8,2", "DONE", "TURN 1,1", "EOF"]
        );
        assert_eq!(texts(&[b"A\r\rB\n\nC"]), ["A", "B", "C", "EOF"]);
    }

    #[test]
    fn crlf_split_across_reads_is_one_ending() {
        assert_eq!(texts(&[b"A\r", b"\nB\r", b"\n"]), ["A", "B", "EOF"]);
        // A CR at the end of a read followed by a non-LF byte is a line ending of its own.
        assert_eq!(texts(&[b"A\r", b"B\n"]), ["A", "B", "EOF"]);
        // Byte-by-byte delivery.
        let bytes = b"START 15\r\nINFO rule 1\rBEGIN\n";
        let parts: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(texts(&parts), ["START 15", "INFO rule 1", "BEGIN", "EOF"]);
    }

    #[test]
    fn trims_and_skips_empty_lines() {
        assert_eq!(
            texts(&[b"  START 20 \t\r\n\r\n   \n\tEND\n"]),
            ["START 20", "END", "EOF"]
        );
    }

    #[test]
    fn last_line_without_terminator_and_eof() {
        assert_eq!(texts(&[b"END"]), ["END", "EOF"]);
        assert_eq!(texts(&[]), ["EOF"]);
        let mut r = LineReader::new(chunks(&[]));
        assert_eq!(r.next(), Some(ReaderEvent::Eof));
        assert_eq!(r.next(), None);
    }

    #[test]
    fn overlong_line_is_one_bad_item_and_memory_is_bounded() {
        let long = vec![b'x'; MAX_LINE_LEN * 3];
        let mut r = LineReader::new(chunks(&[b"OK1\n", &long, b"\nOK2\n"]));
        assert!(matches!(r.next(), Some(ReaderEvent::Line { ref text, .. }) if text == "OK1"));
        match r.next() {
            Some(ReaderEvent::Bad { reason, text, .. }) => {
                assert!(reason.contains("longer"));
                assert!(text.len() <= BAD_TEXT_PREVIEW);
            }
            other => panic!("expected Bad, got {other:?}"),
        }
        assert!(r.line.capacity() <= MAX_LINE_LEN);
        assert!(matches!(r.next(), Some(ReaderEvent::Line { ref text, .. }) if text == "OK2"));
        assert_eq!(r.next(), Some(ReaderEvent::Eof));
        // Exactly MAX_LINE_LEN bytes is still fine.
        let max = vec![b'y'; MAX_LINE_LEN];
        let got = texts(&[&max, b"\n"]);
        assert_eq!(got[0].len(), MAX_LINE_LEN);
    }

    #[test]
    fn invalid_utf8_is_bad_not_panic() {
        let got = texts(&[b"INFO folder C:\\Dok\xfcmente\r\nEND\r\n"]);
        assert_eq!(got, ["BAD:invalid UTF-8", "END", "EOF"]);
        let mut r = LineReader::new(chunks(&[b"INFO folder \xff\n"]));
        match r.next() {
            Some(ReaderEvent::Bad { text, .. }) => assert!(text.starts_with("INFO folder")),
            other => panic!("expected Bad, got {other:?}"),
        }
    }

    #[test]
    fn utf8_split_across_reads_is_fine() {
        let s = "MESSAGE 天元\n".as_bytes();
        assert_eq!(texts(&[&s[..10], &s[10..]]), ["MESSAGE 天元", "EOF"]);
    }

    #[test]
    fn timestamps_follow_read_time() {
        struct Slow(u8);
        impl Read for Slow {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.0 += 1;
                match self.0 {
                    1 => {
                        buf[..2].copy_from_slice(b"A\n");
                        Ok(2)
                    }
                    2 => {
                        std::thread::sleep(std::time::Duration::from_millis(30));
                        buf[..2].copy_from_slice(b"B\n");
                        Ok(2)
                    }
                    _ => Ok(0),
                }
            }
        }
        let ev: Vec<_> = LineReader::new(Slow(0)).collect();
        let (ReaderEvent::Line { received: a, .. }, ReaderEvent::Line { received: b, .. }) =
            (&ev[0], &ev[1])
        else {
            panic!("unexpected {ev:?}");
        };
        assert!(b.duration_since(*a) >= std::time::Duration::from_millis(25));
    }

    #[test]
    fn interrupted_is_retried_and_errors_end_the_stream() {
        struct Flaky(u8);
        impl Read for Flaky {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.0 += 1;
                match self.0 {
                    1 => Err(io::Error::new(ErrorKind::Interrupted, "eintr")),
                    2 => {
                        buf[..4].copy_from_slice(b"ABOU");
                        Ok(4)
                    }
                    3 => {
                        buf[..1].copy_from_slice(b"T");
                        Ok(1)
                    }
                    _ => Err(io::Error::new(ErrorKind::BrokenPipe, "gone")),
                }
            }
        }
        let got: Vec<_> = LineReader::new(Flaky(0))
            .map(|e| matches!(e, ReaderEvent::Line { ref text, .. } if text == "ABOUT"))
            .collect();
        assert_eq!(got, [true, false]);
    }

    #[test]
    fn spawned_reader_delivers_over_channel() {
        let (rx, handle) =
            spawn_reader(chunks(&[b"ABOUT\r\nSTART 15\r", b"\nEND\r\n"])).expect("spawn");
        let mut got = Vec::new();
        for ev in rx.iter() {
            let end = ev == ReaderEvent::Eof;
            got.push(ev);
            if end {
                break;
            }
        }
        assert!(handle.join().is_ok());
        let lines: Vec<_> = got
            .iter()
            .filter_map(|e| match e {
                ReaderEvent::Line { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(lines, ["ABOUT", "START 15", "END"]);
        assert_eq!(got.last(), Some(&ReaderEvent::Eof));
    }

    #[test]
    fn reader_thread_stops_when_receiver_dropped() {
        let (rx, handle) = spawn_reader(chunks(&[b"A\nB\nC\n"])).expect("spawn");
        drop(rx);
        assert!(handle.join().is_ok());
    }
}
