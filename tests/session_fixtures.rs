//! Checks the byte-exact session fixtures of `tests/sessions/` against the protocol layer alone
//! (no board or search): every byte stream must split into lines that parse, every INFO must be
//! accepted, and the number of commands that demand exactly one reply line must equal the number of
//! `<` expectations in the fixture.

use std::collections::VecDeque;
use std::path::Path;

use tianyuan::protocol::fixture::{parse_fixture, ChunkedReader, Fixture, Placeholder, Step};
use tianyuan::protocol::{
    parse, parse_block_line, BlockKind, BlockLine, Command, Coord, InfoOutcome, LineReader,
    ParseError, ReaderEvent, Settings,
};

fn load(name: &str) -> Fixture {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sessions")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    parse_fixture(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Replays the fixture's bytes through the reader and parser; returns the number of commands that
/// must be answered by exactly one (non-MESSAGE) line.
fn replay(name: &str) -> usize {
    let fixture = load(name);
    let mut k = 0;
    let writes: VecDeque<Vec<u8>> = fixture
        .steps
        .iter()
        .filter(|s| matches!(s, Step::Send(_)))
        .map(|s| {
            s.render(|ph| {
                k += 1;
                match ph {
                    Placeholder::Free => Coord::new(k % 15, 14),
                    Placeholder::LastMove => Coord::new(0, 0),
                }
            })
        })
        .collect();
    let mut settings = Settings::new();
    let mut block: Option<BlockKind> = None;
    let mut replies = 0;
    let mut handle = |cmd: Command, block: &mut Option<BlockKind>, replies: &mut usize| match cmd {
        Command::Start { .. }
        | Command::RectStart { .. }
        | Command::Restart
        | Command::Begin
        | Command::Turn(_)
        | Command::About
        | Command::Takeback(_)
        | Command::Play(_)
        | Command::YxShowForbid
        | Command::YxBalance { .. } => *replies += 1,
        Command::Block(kind) => *block = Some(kind),
        Command::Info { key, value } => {
            let outcome = settings.apply(&key, &value);
            assert!(
                !matches!(outcome, InfoOutcome::Invalid(_)),
                "{name}: INFO {key} {value} rejected"
            );
        }
        Command::Unsupported { word, .. } => panic!("{name}: unsupported {word}"),
        _ => {}
    };
    let mut saw_eof = false;
    for event in LineReader::new(ChunkedReader::new(writes)) {
        match event {
            ReaderEvent::Line { text, .. } => match block {
                Some(kind) => match parse_block_line(kind, &text) {
                    Ok(BlockLine::Done) => {
                        if matches!(
                            kind,
                            BlockKind::Board | BlockKind::Swap2Board | BlockKind::SwapBoard
                        ) {
                            replies += 1;
                        }
                        block = None;
                    }
                    Ok(BlockLine::Stone(_)) | Ok(BlockLine::Moves(_)) => {}
                    Ok(BlockLine::Command(c)) => panic!("{name}: {c:?} inside a block"),
                    Err(e) => panic!("{name}: block line {text:?}: {e}"),
                },
                None => match parse(&text) {
                    Ok(cmd) => handle(cmd, &mut block, &mut replies),
                    Err(ParseError::Unknown { .. }) => replies += 1,
                    Err(e) => panic!("{name}: {text:?}: {e}"),
                },
            },
            ReaderEvent::Bad { reason, text, .. } => panic!("{name}: bad line {text:?}: {reason}"),
            ReaderEvent::Eof => saw_eof = true,
        }
    }
    assert!(saw_eof);
    assert!(block.is_none(), "{name}: unterminated block");
    assert_eq!(
        replies,
        fixture.expectations(),
        "{name}: replies demanded vs expectations"
    );
    replies
}

#[test]
fn piskvork_tournament() {
    assert_eq!(replay("piskvork-tournament.txt"), 4);
}

#[test]
fn gomocupjudge() {
    assert_eq!(replay("gomocupjudge-first.txt"), 4);
    assert_eq!(replay("gomocupjudge-second.txt"), 3);
}

#[test]
fn c_gomoku_cli() {
    assert_eq!(replay("c-gomoku-cli.txt"), 8);
    assert_eq!(replay("c-gomoku-cli-unlimited-renju.txt"), 5);
}

#[test]
fn yixin_board() {
    assert_eq!(replay("yixin-board.txt"), 6);
}

#[test]
fn yixin_board_openings() {
    assert_eq!(replay("yixin-board-openings.txt"), 12);
}

#[test]
fn gomocupjudge_swap2() {
    assert_eq!(replay("gomocupjudge-swap2.txt"), 6);
}

#[test]
fn qpiskvork() {
    assert_eq!(replay("qpiskvork.txt"), 6);
}

#[test]
fn synthetic_line_endings() {
    assert_eq!(replay("synthetic-line-endings.txt"), 7);
}

#[test]
fn every_fixture_file_is_covered() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sessions");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".txt"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    assert_eq!(
        names,
        [
            "c-gomoku-cli-unlimited-renju.txt",
            "c-gomoku-cli.txt",
            "gomocupjudge-first.txt",
            "gomocupjudge-second.txt",
            "gomocupjudge-swap2.txt",
            "piskvork-tournament.txt",
            "qpiskvork.txt",
            "synthetic-line-endings.txt",
            "yixin-board-openings.txt",
            "yixin-board.txt",
        ]
    );
}
