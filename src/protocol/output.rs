//! Brain → manager output.
//!
//! Every protocol line is written with **one** `write_all` of `line + "\n"` and then flushed: qpiskvork
//! splits whatever arrives in one read, so a line cut across two writes would be read as two lines
//! (protocol-reference §1). Lines are sanitised: embedded CR/LF become spaces and trailing whitespace
//! is removed (c-gomoku-cli rejects `7,7 `, §10).
//!
//! [`SharedWriter`] lets the session thread and the search thread write through one lock, so lines never
//! interleave.
//!
//! Nothing is ever written to stderr: Piskvork and c-gomoku-cli (with `-log`) merge it into the
//! protocol pipe. [`install_silent_panic_hook`] silences Rust's default panic message.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::sync::{Arc, Mutex, OnceLock};

use super::command::Coord;

/// The `ABOUT` reply's fields (protocol-reference §3.9). Values must not contain `"`, `,` or `=`
/// (GomocupJudgeLocal splits on them); [`AboutInfo::render`] strips those characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AboutInfo {
    /// `name`.
    pub name: String,
    /// `version`.
    pub version: String,
    /// `author`.
    pub author: String,
    /// `country`.
    pub country: String,
    /// `www` (omitted when empty).
    pub www: String,
    /// `email` (omitted when empty).
    pub email: String,
}

impl AboutInfo {
    /// Tianyuan's own ABOUT data (version from `Cargo.toml`). The lead may adjust author/country/www.
    pub fn tianyuan() -> Self {
        AboutInfo {
            name: "Tianyuan".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            author: "Tianyuan developers".to_owned(),
            country: "Unknown".to_owned(),
            www: option_env!("CARGO_PKG_REPOSITORY")
                .unwrap_or_default()
                .to_owned(),
            email: String::new(),
        }
    }

    /// The ABOUT line: `name="Tianyuan", version="0.1.0", author="…", country="…", www="…"`.
    /// `name`, `version`, `author` and `country` are always present; `www` and `email` only if set.
    pub fn render(&self) -> String {
        let clean = |s: &str| -> String {
            s.chars()
                .filter(|c| !matches!(c, '"' | ',' | '=' | '\r' | '\n'))
                .collect::<String>()
                .trim()
                .to_owned()
        };
        let mut out = String::new();
        let fields = [
            ("name", &self.name, true),
            ("version", &self.version, true),
            ("author", &self.author, true),
            ("country", &self.country, true),
            ("www", &self.www, false),
            ("email", &self.email, false),
        ];
        for (key, value, always) in fields {
            let v = clean(value);
            if v.is_empty() && !always {
                continue;
            }
            if !out.is_empty() {
                out.push_str(", ");
            }
            let _ = write!(out, "{key}=\"{v}\"");
        }
        out
    }
}

/// Formats a `FORBID` reply (protocol-reference §3.13): `FORBID ` followed by, for each point, its x
/// then its y as two zero-padded digits, then `.`; no points gives `FORBID .`.
/// Example: `[(9,12), (10,11)]` → `FORBID 09121011.`. Returns `None` if a coordinate is outside 0..=99.
pub fn format_forbid(points: &[Coord]) -> Option<String> {
    let mut out = String::from("FORBID ");
    for p in points {
        if !(0..=99).contains(&p.x) || !(0..=99).contains(&p.y) {
            return None;
        }
        let _ = write!(out, "{:02}{:02}", p.x, p.y);
    }
    out.push('.');
    Some(out)
}

/// Formats several moves on one line, space separated (`SWAP2BOARD` / `YXBALANCETWO` answers):
/// `7,7 8,7 9,9`.
pub fn format_moves(moves: &[Coord]) -> String {
    moves
        .iter()
        .map(Coord::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Makes `text` safe as (part of) one protocol line: CR/LF/other control characters become spaces,
/// surrounding whitespace is trimmed.
pub fn sanitize(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}

/// Writes protocol lines to any [`Write`] (stdout in the engine, a `Vec<u8>` in tests).
#[derive(Debug)]
pub struct ProtocolWriter<W: Write> {
    out: W,
}

impl<W: Write> ProtocolWriter<W> {
    /// Wraps `out`.
    pub fn new(out: W) -> Self {
        ProtocolWriter { out }
    }

    /// The underlying writer (e.g. to inspect captured bytes).
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// Unwraps the underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Writes one line: sanitised `text` + `"\n"` in a single `write_all`, then flush.
    /// An empty line is not written.
    pub fn line(&mut self, text: &str) -> io::Result<()> {
        let mut buf = sanitize(text);
        if buf.is_empty() {
            return Ok(());
        }
        buf.push('\n');
        self.out.write_all(buf.as_bytes())?;
        self.out.flush()
    }

    /// `OK`.
    pub fn ok(&mut self) -> io::Result<()> {
        self.line("OK")
    }

    /// `ERROR <reason>` (reason defaults to `error`).
    pub fn error(&mut self, reason: &str) -> io::Result<()> {
        self.prefixed("ERROR", reason, "error")
    }

    /// `UNKNOWN <text>` (text defaults to `command`).
    pub fn unknown(&mut self, text: &str) -> io::Result<()> {
        self.prefixed("UNKNOWN", text, "command")
    }

    /// `MESSAGE <text>`. Nothing is written when `text` is empty: Piskvork only skips lines starting
    /// with `MESSAGE ` (with the space), so a bare `MESSAGE` would lose the game.
    pub fn message(&mut self, text: &str) -> io::Result<()> {
        self.prefixed_or_skip("MESSAGE", text)
    }

    /// `DEBUG <text>`; nothing when `text` is empty (same reason as [`ProtocolWriter::message`]).
    pub fn debug(&mut self, text: &str) -> io::Result<()> {
        self.prefixed_or_skip("DEBUG", text)
    }

    /// A move reply `x,y` (exactly; no spaces).
    pub fn mv(&mut self, at: Coord) -> io::Result<()> {
        self.line(&at.to_string())
    }

    /// Several moves on one line: `x,y x,y …` (SWAP2BOARD, YXBALANCETWO).
    pub fn moves(&mut self, moves: &[Coord]) -> io::Result<()> {
        self.line(&format_moves(moves))
    }

    /// `SWAP` (SWAP2BOARD answer).
    pub fn swap(&mut self) -> io::Result<()> {
        self.line("SWAP")
    }

    /// The `FORBID …` reply to `YXSHOWFORBID` (see [`format_forbid`]). Off-range points are an
    /// `InvalidInput` error and nothing is written.
    pub fn forbid(&mut self, points: &[Coord]) -> io::Result<()> {
        let text = format_forbid(points).ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "FORBID point out of range")
        })?;
        self.line(&text)
    }

    /// The ABOUT line.
    pub fn about(&mut self, info: &AboutInfo) -> io::Result<()> {
        self.line(&info.render())
    }

    fn prefixed(&mut self, prefix: &str, text: &str, fallback: &str) -> io::Result<()> {
        let t = sanitize(text);
        let t = if t.is_empty() { fallback } else { &t };
        self.line(&format!("{prefix} {t}"))
    }

    fn prefixed_or_skip(&mut self, prefix: &str, text: &str) -> io::Result<()> {
        let t = sanitize(text);
        if t.is_empty() {
            return Ok(());
        }
        self.line(&format!("{prefix} {t}"))
    }
}

/// A [`ProtocolWriter`] shared between threads (session loop and search). Cloning shares the writer.
#[derive(Debug)]
pub struct SharedWriter<W: Write> {
    inner: Arc<Mutex<ProtocolWriter<W>>>,
}

impl<W: Write> Clone for SharedWriter<W> {
    fn clone(&self) -> Self {
        SharedWriter {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<W: Write> SharedWriter<W> {
    /// Wraps `out`.
    pub fn new(out: W) -> Self {
        SharedWriter {
            inner: Arc::new(Mutex::new(ProtocolWriter::new(out))),
        }
    }

    /// Runs `f` with exclusive access to the writer (use it to write several lines back to back, e.g.
    /// `MESSAGE`s then the move). A poisoned lock is recovered, never a panic.
    pub fn with<T>(&self, f: impl FnOnce(&mut ProtocolWriter<W>) -> T) -> T {
        let mut guard = self
            .inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&mut guard)
    }

    /// Writes one line (see [`ProtocolWriter::line`]).
    pub fn line(&self, text: &str) -> io::Result<()> {
        self.with(|w| w.line(text))
    }
}

/// A [`SharedWriter`] on the process's stdout.
pub fn stdout_writer() -> SharedWriter<io::Stdout> {
    SharedWriter::new(io::stdout())
}

static LAST_PANIC: OnceLock<Mutex<Option<String>>> = OnceLock::new();

/// Replaces the panic hook with one that prints nothing (Piskvork merges stderr into the protocol
/// pipe). The panic message and location are remembered for [`take_last_panic`], so the session may
/// report it as a `MESSAGE`/`DEBUG` line.
pub fn install_silent_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_owned());
        let text = match info.location() {
            Some(loc) => format!("{msg} at {}:{}", loc.file(), loc.line()),
            None => msg,
        };
        let slot = LAST_PANIC.get_or_init(|| Mutex::new(None));
        if let Ok(mut g) = slot.lock() {
            *g = Some(text);
        }
    }));
}

/// The message of the last panic caught by the silent hook, if any (and forgets it).
pub fn take_last_panic() -> Option<String> {
    LAST_PANIC
        .get()
        .and_then(|m| m.lock().ok().and_then(|mut g| g.take()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records each `write` call separately, to check "one line = one write".
    #[derive(Default)]
    struct Calls {
        writes: Vec<Vec<u8>>,
        flushes: usize,
    }

    impl Write for Calls {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.writes.push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            self.flushes += 1;
            Ok(())
        }
    }

    fn out(f: impl FnOnce(&mut ProtocolWriter<Vec<u8>>) -> io::Result<()>) -> String {
        let mut w = ProtocolWriter::new(Vec::new());
        f(&mut w).expect("write");
        String::from_utf8(w.into_inner()).expect("utf8")
    }

    #[test]
    fn one_write_and_flush_per_line() {
        let mut w = ProtocolWriter::new(Calls::default());
        w.ok().expect("ok");
        w.mv(Coord::new(7, 8)).expect("mv");
        let c = w.into_inner();
        assert_eq!(c.writes, vec![b"OK\n".to_vec(), b"7,8\n".to_vec()]);
        assert_eq!(c.flushes, 2);
    }

    #[test]
    fn basic_replies() {
        assert_eq!(out(|w| w.ok()), "OK\n");
        assert_eq!(
            out(|w| w.error("unsupported size")),
            "ERROR unsupported size\n"
        );
        assert_eq!(out(|w| w.error("")), "ERROR error\n");
        assert_eq!(out(|w| w.unknown("FOO bar")), "UNKNOWN FOO bar\n");
        assert_eq!(
            out(|w| w.message("depth 7 eval 12")),
            "MESSAGE depth 7 eval 12\n"
        );
        assert_eq!(out(|w| w.message("")), "");
        assert_eq!(out(|w| w.debug("  ")), "");
        assert_eq!(out(|w| w.debug("x")), "DEBUG x\n");
        assert_eq!(out(|w| w.mv(Coord::new(10, 0))), "10,0\n");
        assert_eq!(out(|w| w.swap()), "SWAP\n");
        assert_eq!(
            out(|w| w.moves(&[Coord::new(7, 7), Coord::new(8, 7), Coord::new(9, 9)])),
            "7,7 8,7 9,9\n"
        );
    }

    #[test]
    fn sanitises_embedded_newlines_and_trailing_space() {
        assert_eq!(out(|w| w.message("a\r\nb\n")), "MESSAGE a  b\n");
        assert_eq!(out(|w| w.line("7,7 ")), "7,7\n");
        assert_eq!(out(|w| w.line("")), "");
    }

    #[test]
    fn forbid_format() {
        assert_eq!(format_forbid(&[]).as_deref(), Some("FORBID ."));
        assert_eq!(
            format_forbid(&[Coord::new(9, 12), Coord::new(10, 11)]).as_deref(),
            Some("FORBID 09121011.")
        );
        assert_eq!(
            format_forbid(&[Coord::new(0, 5)]).as_deref(),
            Some("FORBID 0005.")
        );
        assert_eq!(format_forbid(&[Coord::new(100, 5)]), None);
        assert_eq!(format_forbid(&[Coord::new(-1, 5)]), None);
        assert_eq!(out(|w| w.forbid(&[Coord::new(3, 4)])), "FORBID 0304.\n");
        let mut w = ProtocolWriter::new(Vec::new());
        assert!(w.forbid(&[Coord::new(3, 400)]).is_err());
        assert!(w.into_inner().is_empty());
    }

    #[test]
    fn about_line() {
        let a = AboutInfo::tianyuan();
        let line = a.render();
        assert!(line.starts_with("name=\"Tianyuan\", version=\""), "{line}");
        assert!(line.contains("author=\""));
        assert!(line.contains("country=\""));
        let custom = AboutInfo {
            name: "Tian,yuan".into(),
            version: "1=2".into(),
            author: "A \"B\"".into(),
            country: "CZ".into(),
            www: "https://example.org".into(),
            email: String::new(),
        };
        assert_eq!(
            custom.render(),
            "name=\"Tianyuan\", version=\"12\", author=\"A B\", country=\"CZ\", www=\"https://example.org\""
        );
        assert_eq!(out(|w| w.about(&custom)).matches('\n').count(), 1);
    }

    #[test]
    fn shared_writer_serialises_threads() {
        let shared = SharedWriter::new(Vec::new());
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let s = shared.clone();
                std::thread::spawn(move || {
                    for i in 0..50 {
                        s.line(&format!("MESSAGE t{t} line {i}")).expect("write");
                    }
                })
            })
            .collect();
        for h in handles {
            assert!(h.join().is_ok());
        }
        let text = shared.with(|w| String::from_utf8(w.get_ref().clone()).expect("utf8"));
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(lines.len(), 200);
        assert!(lines
            .iter()
            .all(|l| l.starts_with("MESSAGE t") && l.contains(" line ")));
    }
}
