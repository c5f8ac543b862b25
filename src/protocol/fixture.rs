//! Parser for the byte-exact session fixtures in `tests/sessions/` (format described in
//! `tests/sessions/README.md`).
//!
//! A fixture is a text file, one directive per line:
//!
//! | Line | Meaning |
//! |---|---|
//! | `# …` or blank | comment |
//! | `> TEXT` | write the bytes of `TEXT` to the brain **in one write call**; escapes `\r` `\n` `\t` `\\` `\xHH`; `{free}` is replaced by a free square `x,y` chosen by the harness, `{last}` by the brain's last move |
//! | `< OK` | expect this exact reply line |
//! | `< PREFIX*` | expect a reply line starting with `PREFIX` |
//! | `< MOVE` | expect one move `x,y` (legality is the harness's business) |
//! | `< ABOUT` | expect an ABOUT line (`name="…", …`) |
//! | `< OPENING` | expect an answer to `SWAP2BOARD` / `SWAPBOARD`: `SWAP`, or one to three moves `x,y` separated by single spaces |
//! | `< MESSAGE …` (exact or `*`) | expect a `MESSAGE` line (Yixin-Board's opening replies): the `MESSAGE` lines before it that do not match are skipped |
//! | `@ pause MS` | wait `MS` milliseconds before the next step |
//! | `@ quiet MS` | expect no reply line for `MS` milliseconds |
//! | `@ close` | close the brain's stdin (EOF) |
//! | `@ exit MS` | expect the brain process to exit within `MS` milliseconds |
//!
//! Expectations are matched in order against the brain's reply lines, skipping `MESSAGE …`, `INFO …` and
//! `DEBUG …` lines ([`is_ignorable_reply`]) unless the expectation is itself a `MESSAGE` line
//! ([`Expect::is_message`]). Sends do not wait for expectations, so a manager that
//! writes `START` and `INFO` without waiting for `OK` (GomocupJudge) is written as sends followed by
//! `< OK`.

use std::fmt;
use std::time::Duration;

use super::command::{parse_coord, Coord};

/// A coordinate the harness fills in when it sends a `>` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Placeholder {
    /// `{free}`: `x,y` of a currently empty square (the opponent's move in a `TURN`).
    Free,
    /// `{last}`: `x,y` of the brain's most recent move (for `TAKEBACK`).
    LastMove,
}

/// Part of a `>` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendPart {
    /// Literal bytes.
    Bytes(Vec<u8>),
    /// A coordinate filled in by the harness.
    Coord(Placeholder),
}

/// What a `<` line expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// The reply line equals this text.
    Exact(String),
    /// The reply line starts with this text (`< PREFIX*`).
    Prefix(String),
    /// A single move `x,y`: two integers and a comma, nothing else.
    Move,
    /// An ABOUT line: starts with `name="` and contains only `key="value"` pairs.
    About,
    /// An opening answer (`SWAP2BOARD`, `SWAPBOARD`): `SWAP`, or one to three strict moves
    /// separated by single spaces.
    Opening,
}

impl Expect {
    /// True if `line` (one reply line without its ending) satisfies the expectation.
    pub fn matches(&self, line: &str) -> bool {
        match self {
            Expect::Exact(t) => line == t,
            Expect::Prefix(p) => line.starts_with(p.as_str()),
            Expect::Move => parse_strict_move(line).is_some(),
            Expect::About => is_about_line(line),
            Expect::Opening => {
                line == "SWAP" || {
                    let moves: Vec<&str> = line.split(' ').collect();
                    (1..=3).contains(&moves.len())
                        && moves.iter().all(|m| parse_strict_move(m).is_some())
                }
            }
        }
    }

    /// True for an expectation of a `MESSAGE` line (Yixin-Board's opening replies are
    /// `MESSAGE SWAP2 …` / `MESSAGE SOOSORV …`): matched against the `MESSAGE` lines the other
    /// expectations skip.
    pub fn is_message(&self) -> bool {
        match self {
            Expect::Exact(t) | Expect::Prefix(t) => t.starts_with("MESSAGE "),
            _ => false,
        }
    }
}

/// One step of a fixture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Write these bytes in one call.
    Send(Vec<SendPart>),
    /// Read the next non-ignorable reply line and check it.
    Expect(Expect),
    /// Sleep.
    Pause(Duration),
    /// No reply line may arrive during this time.
    Quiet(Duration),
    /// Close stdin.
    CloseInput,
    /// The process must exit within this time.
    ExpectExit(Duration),
}

impl Step {
    /// For a [`Step::Send`], the bytes with every placeholder replaced by `fill(placeholder)`;
    /// empty for other steps.
    pub fn render(&self, mut fill: impl FnMut(Placeholder) -> Coord) -> Vec<u8> {
        let mut out = Vec::new();
        if let Step::Send(parts) = self {
            for p in parts {
                match p {
                    SendPart::Bytes(b) => out.extend_from_slice(b),
                    SendPart::Coord(ph) => out.extend_from_slice(fill(*ph).to_string().as_bytes()),
                }
            }
        }
        out
    }
}

/// A parsed fixture.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Fixture {
    /// The steps in file order.
    pub steps: Vec<Step>,
}

impl Fixture {
    /// All bytes the manager sends, concatenated, with placeholders rendered by `fill`.
    pub fn sent_bytes(&self, mut fill: impl FnMut(Placeholder) -> Coord) -> Vec<u8> {
        self.steps
            .iter()
            .flat_map(|s| s.render(&mut fill))
            .collect()
    }

    /// The number of `<` expectations of a reply line (not counting [`Expect::is_message`] ones).
    pub fn expectations(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s, Step::Expect(e) if !e.is_message()))
            .count()
    }
}

/// A syntax error in a fixture file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixtureError {
    /// 1-based line number in the fixture file.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for FixtureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "fixture line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for FixtureError {}

/// True for reply lines that expectations skip: `MESSAGE …` and `DEBUG …` (any case, with the
/// space), and the `INFO …` analysis lines Yixin-Board asks for with `show_detail` (it reads them
/// as analysis, not as answers).
pub fn is_ignorable_reply(line: &str) -> bool {
    let b = line.as_bytes();
    let has = |p: &[u8]| b.len() >= p.len() && b[..p.len()].eq_ignore_ascii_case(p);
    has(b"MESSAGE ") || has(b"DEBUG ") || has(b"INFO ")
}

/// Parses a move reply the way the strictest manager (c-gomoku-cli) does: `<int>,<int>`, no spaces.
pub fn parse_strict_move(line: &str) -> Option<Coord> {
    let ok = !line.is_empty()
        && line
            .chars()
            .all(|c| c.is_ascii_digit() || c == ',' || c == '-')
        && line.matches(',').count() == 1;
    if ok {
        parse_coord(line)
    } else {
        None
    }
}

fn is_about_line(line: &str) -> bool {
    if !line.starts_with("name=\"") {
        return false;
    }
    line.split(", ").all(|pair| {
        let mut kv = pair.splitn(2, '=');
        let key = kv.next().unwrap_or_default();
        let val = kv.next().unwrap_or_default();
        !key.is_empty()
            && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && val.len() >= 2
            && val.starts_with('"')
            && val.ends_with('"')
            && !val[1..val.len() - 1].contains('"')
    })
}

fn unescape(text: &str, line: usize) -> Result<Vec<SendPart>, FixtureError> {
    let err = |reason: &str| FixtureError {
        line,
        reason: reason.to_owned(),
    };
    let mut parts = Vec::new();
    let mut cur = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\\' {
            let e = *bytes.get(i + 1).ok_or_else(|| err("dangling backslash"))?;
            i += 2;
            match e {
                b'r' => cur.push(b'\r'),
                b'n' => cur.push(b'\n'),
                b't' => cur.push(b'\t'),
                b'\\' => cur.push(b'\\'),
                b'x' => {
                    let hex = text
                        .get(i..i + 2)
                        .ok_or_else(|| err("\\x needs two hex digits"))?;
                    let v =
                        u8::from_str_radix(hex, 16).map_err(|_| err("\\x needs two hex digits"))?;
                    cur.push(v);
                    i += 2;
                }
                _ => return Err(err("unknown escape (use \\r \\n \\t \\\\ \\xHH)")),
            }
        } else if let Some((tag, ph)) = [
            ("{free}", Placeholder::Free),
            ("{last}", Placeholder::LastMove),
        ]
        .into_iter()
        .find(|(tag, _)| bytes[i..].starts_with(tag.as_bytes()))
        {
            if !cur.is_empty() {
                parts.push(SendPart::Bytes(std::mem::take(&mut cur)));
            }
            parts.push(SendPart::Coord(ph));
            i += tag.len();
        } else {
            cur.push(b);
            i += 1;
        }
    }
    if !cur.is_empty() {
        parts.push(SendPart::Bytes(cur));
    }
    if parts.is_empty() {
        return Err(err("empty send"));
    }
    Ok(parts)
}

fn millis(arg: Option<&str>, line: usize) -> Result<Duration, FixtureError> {
    arg.and_then(|a| a.trim().parse::<u64>().ok())
        .map(Duration::from_millis)
        .ok_or_else(|| FixtureError {
            line,
            reason: "milliseconds expected".to_owned(),
        })
}

/// Parses a fixture file.
pub fn parse_fixture(text: &str) -> Result<Fixture, FixtureError> {
    let mut steps = Vec::new();
    for (idx, raw) in text.split('\n').enumerate() {
        let n = idx + 1;
        let l = raw.strip_suffix('\r').unwrap_or(raw);
        if l.trim().is_empty() || l.starts_with('#') {
            continue;
        }
        let err = |reason: &str| FixtureError {
            line: n,
            reason: reason.to_owned(),
        };
        if let Some(rest) = l.strip_prefix("> ") {
            steps.push(Step::Send(unescape(rest, n)?));
        } else if let Some(rest) = l.strip_prefix("< ") {
            let want = rest.trim_end();
            let exp = match want {
                "" => return Err(err("empty expectation")),
                "MOVE" => Expect::Move,
                "ABOUT" => Expect::About,
                "OPENING" => Expect::Opening,
                _ => match want.strip_suffix('*') {
                    Some(p) if !p.is_empty() => Expect::Prefix(p.to_owned()),
                    Some(_) => return Err(err("empty prefix")),
                    None => Expect::Exact(want.to_owned()),
                },
            };
            steps.push(Step::Expect(exp));
        } else if let Some(rest) = l.strip_prefix("@ ") {
            let mut it = rest.split_whitespace();
            let step = match it.next() {
                Some("pause") => Step::Pause(millis(it.next(), n)?),
                Some("quiet") => Step::Quiet(millis(it.next(), n)?),
                Some("exit") => Step::ExpectExit(millis(it.next(), n)?),
                Some("close") => Step::CloseInput,
                _ => return Err(err("unknown directive (pause, quiet, close, exit)")),
            };
            if it.next().is_some() {
                return Err(err("trailing text after directive"));
            }
            steps.push(step);
        } else {
            return Err(err("line must start with '> ', '< ', '@ ' or '#'"));
        }
    }
    Ok(Fixture { steps })
}

/// A reader that returns the given chunks one per `read` call, then EOF: a pipe that received
/// one write per chunk. Used to replay fixtures and to test the line reader.
pub struct ChunkedReader(std::collections::VecDeque<Vec<u8>>);

impl ChunkedReader {
    /// A reader over `chunks`, in order.
    pub fn new<I: IntoIterator<Item = Vec<u8>>>(chunks: I) -> Self {
        ChunkedReader(chunks.into_iter().collect())
    }
}

impl std::io::Read for ChunkedReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self.0.pop_front() {
            None => Ok(0),
            Some(mut c) => {
                let n = c.len().min(buf.len());
                buf[..n].copy_from_slice(&c[..n]);
                if n < c.len() {
                    self.0.push_front(c.split_off(n));
                }
                Ok(n)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_step_kinds() {
        let text = "# comment\n\n> START 15\\r\\n\n< OK\n< MOVE\n< ABOUT\n< ERROR *\n\
                    @ pause 10\n@ quiet 200\n@ close\n@ exit 500\n";
        let f = parse_fixture(text).expect("parse");
        assert_eq!(
            f.steps,
            vec![
                Step::Send(vec![SendPart::Bytes(b"START 15\r\n".to_vec())]),
                Step::Expect(Expect::Exact("OK".into())),
                Step::Expect(Expect::Move),
                Step::Expect(Expect::About),
                Step::Expect(Expect::Prefix("ERROR ".into())),
                Step::Pause(Duration::from_millis(10)),
                Step::Quiet(Duration::from_millis(200)),
                Step::CloseInput,
                Step::ExpectExit(Duration::from_millis(500)),
            ]
        );
        assert_eq!(f.expectations(), 4);
    }

    #[test]
    fn escapes_and_placeholder() {
        let f =
            parse_fixture("> TURN {free}\\r\\n\n> a\\tb\\\\c\\x0d\\x0A {x}\n> TAKEBACK {last}\n")
                .expect("parse");
        assert_eq!(
            f.steps[0],
            Step::Send(vec![
                SendPart::Bytes(b"TURN ".to_vec()),
                SendPart::Coord(Placeholder::Free),
                SendPart::Bytes(b"\r\n".to_vec()),
            ])
        );
        assert_eq!(f.steps[0].render(|_| Coord::new(3, 14)), b"TURN 3,14\r\n");
        assert_eq!(f.steps[1].render(|_| Coord::new(0, 0)), b"a\tb\\c\r\n {x}");
        let mut k = 0;
        let all = f.sent_bytes(|ph| {
            k += 1;
            match ph {
                Placeholder::Free => Coord::new(k, k),
                Placeholder::LastMove => Coord::new(-k, 0),
            }
        });
        assert_eq!(all, b"TURN 1,1\r\na\tb\\c\r\n {x}TAKEBACK -2,0");
    }

    #[test]
    fn crlf_fixture_file_and_literal_spaces() {
        let f = parse_fixture("> INFO folder C:\\\\a b\\r\\n\r\n< OK\r\n").expect("parse");
        assert_eq!(
            f.steps[0].render(|_| Coord::new(0, 0)),
            b"INFO folder C:\\a b\r\n"
        );
        assert_eq!(f.steps[1], Step::Expect(Expect::Exact("OK".into())));
    }

    #[test]
    fn non_ascii_text_is_sent_verbatim() {
        let f = parse_fixture("> MESSAGE 天元 {free}\\n\n").expect("parse");
        assert_eq!(
            f.steps[0].render(|_| Coord::new(1, 2)),
            "MESSAGE 天元 1,2\n".as_bytes()
        );
        assert!(parse_fixture("> \\x天\n").is_err());
    }

    #[test]
    fn errors_have_line_numbers() {
        for (text, line) in [
            ("> ok\\q\n", 1),
            ("# c\n> \\x4\n", 2),
            ("> \\\n", 1),
            ("< OK\nhello\n", 2),
            ("@ pause\n", 1),
            ("@ pause x\n", 1),
            ("@ wiggle 3\n", 1),
            ("@ close now\n", 1),
            ("< *\n", 1),
            ("<  \n", 1),
        ] {
            match parse_fixture(text) {
                Err(e) => assert_eq!(e.line, line, "{text:?}: {e}"),
                Ok(f) => panic!("{text:?} parsed as {f:?}"),
            }
        }
    }

    #[test]
    fn expectation_matching() {
        assert!(Expect::Opening.matches("SWAP"));
        assert!(Expect::Opening.matches("7,7 8,8 9,9"));
        assert!(Expect::Opening.matches("7,7"));
        assert!(!Expect::Opening.matches("7,7  8,8"));
        assert!(!Expect::Opening.matches("7,7 8,8 9,9 1,1"));
        assert!(!Expect::Opening.matches("swap"));
        assert!(Expect::Prefix("MESSAGE SWAP2 ".into()).is_message());
        assert!(!Expect::Prefix("ERROR ".into()).is_message());
        assert!(Expect::Move.matches("7,8"));
        assert!(Expect::Move.matches("10,0"));
        assert!(!Expect::Move.matches("7,8 "));
        assert!(!Expect::Move.matches("7, 8"));
        assert!(!Expect::Move.matches("7,8,1"));
        assert!(!Expect::Move.matches("OK"));
        assert!(!Expect::Move.matches("SUGGEST 7,8"));
        assert!(Expect::Exact("OK".into()).matches("OK"));
        assert!(!Expect::Exact("OK".into()).matches("OK "));
        assert!(Expect::Prefix("FORBID ".into()).matches("FORBID 0102."));
        assert!(!Expect::Prefix("FORBID ".into()).matches("FORBID"));
        assert!(Expect::About.matches("name=\"Tianyuan\", version=\"0.1.0\", author=\"x y\""));
        assert!(!Expect::About.matches("name=Tianyuan"));
        assert!(!Expect::About.matches("version=\"1\", name=\"x\""));
        assert!(!Expect::About.matches("name=\"a\",version=\"1\""));
    }

    #[test]
    fn ignorable_replies() {
        assert!(is_ignorable_reply("MESSAGE depth 3"));
        assert!(is_ignorable_reply("message hi"));
        assert!(is_ignorable_reply("DEBUG x"));
        assert!(is_ignorable_reply("INFO PV 0"));
        assert!(!is_ignorable_reply("MESSAGE"));
        assert!(!is_ignorable_reply("OK"));
        assert!(!is_ignorable_reply("7,7"));
        assert!(!is_ignorable_reply("天元天元天元"));
    }
}
