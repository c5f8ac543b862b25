//! Parsing of manager → brain lines into [`Command`]s.
//!
//! * Command words and `DONE` are matched case-insensitively (Yixin-Board sends `start`, `board`,
//!   `done`, `yxstop`…; protocol-reference §1).
//! * `x,y` arguments may have spaces around the comma (`TURN 7 , 8`); numbers may carry a sign and may
//!   be anything in `i64` range (checked against the board by the session, not here).
//! * An unknown command word gives [`ParseError::Unknown`] (answer `UNKNOWN <text>`); a known word with
//!   bad arguments gives [`ParseError::Malformed`] (answer `ERROR <reason>`). See [`ParseError::reply`].
//! * `INFO` never fails to parse: the session must never answer an `INFO` line (protocol-reference §3.7).
//!
//! Multi-line blocks (`BOARD`, `YXBOARD`, `SWAP2BOARD`, `YXBLOCK`, `YXBLOCKUNDO`, each ended by `DONE`)
//! start with a [`Command`] and their rows are parsed with [`parse_block_line`].
//!
//! ## Yixin-Board / Rapfi extensions (protocol-reference §3.13)
//! Parsed into their own variants: `YXBOARD`, `YXSTOP`, `STOP`, `YXSHOWFORBID`, `YXHASHCLEAR`,
//! `YXSHOWINFO`, `YXNBEST n`, `YXBALANCEONE s`, `YXBALANCETWO s`, `YXSEARCHDEFEND`, `YXBLOCK`,
//! `YXBLOCKUNDO`, `YXBLOCKRESET`. The remaining Yixin GUI / database / swap2-step commands
//! (`YXEDIT…DATABASE`, `YXSWAP2STEP1`, `YXHASHDUMP`, …, see [`YIXIN_UNSUPPORTED_PREFIXES`]; the four
//! `YXQUERYDATABASE…` queries are blocks, answered as by an empty database) become
//! [`Command::Unsupported`], so the session can answer them without treating them as garbage. The
//! recommended answer to `Unsupported` is `UNKNOWN <line>`; no tournament manager sends them.

use std::fmt;

/// Smallest board side the engine accepts (protocol-reference §3.1: the skeleton rejects < 5).
pub const MIN_BOARD_SIZE: usize = 5;
/// Largest board side the engine accepts (c-gomoku-cli's `-boardsize` limit is 22).
pub const MAX_BOARD_SIZE: usize = 22;

/// A coordinate pair as sent on the wire: `x` = column, `y` = row, 0-based, origin top-left.
/// Not range-checked: the session compares it with the board size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Coord {
    /// Column, 0 = left.
    pub x: i32,
    /// Row, 0 = top.
    pub y: i32,
}

impl Coord {
    /// Builds a coordinate.
    pub const fn new(x: i32, y: i32) -> Self {
        Coord { x, y }
    }

    /// The coordinate as `(column, row)` indices if it lies on a `width`×`height` board.
    pub fn on_board(self, width: usize, height: usize) -> Option<(usize, usize)> {
        let x = usize::try_from(self.x).ok()?;
        let y = usize::try_from(self.y).ok()?;
        (x < width && y < height).then_some((x, y))
    }
}

impl fmt::Display for Coord {
    /// The wire form `x,y` (no spaces).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// The third field of a `BOARD`/`YXBOARD` row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// `1`: the receiving brain's own stone.
    Own,
    /// `2`: the opponent's stone.
    Opponent,
    /// `3`: a "blocked" square of a Renju continuous game (or qpiskvork's continuous mode). Never seen
    /// in tournaments; the session ignores such rows.
    Blocked,
}

/// One `x,y,field` row of a `BOARD` or `YXBOARD` block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardRow {
    /// Where the stone is.
    pub at: Coord,
    /// Whose stone it is.
    pub field: Field,
}

/// Which multi-line block a command opens. Every block ends with `DONE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// `BOARD`: rows `x,y,field`; the brain must move after `DONE`.
    Board,
    /// `YXBOARD`: rows `x,y,field`; set the position only, no reply.
    YxBoard,
    /// `SWAP2BOARD`: rows of plain `x,y` (one or more per line) in move order.
    Swap2Board,
    /// `SWAPBOARD` (swap after three, AlphaGomoku's extended protocol): plain `x,y` rows in
    /// move order, none or three.
    SwapBoard,
    /// Yixin-Board's `yxsoosorvstep2..6 [n]`: plain `x,y` rows in move order (step 6: the four
    /// stones, then black's fifth-move offers).
    YxSoosorv {
        /// The step, 2..=6.
        step: u8,
        /// The number of fifth-move offers (steps 4 and 5).
        offers: u8,
    },
    /// `YXBLOCK`: rows `x,y` of moves to exclude from the search.
    YxBlock,
    /// `YXBLOCKUNDO`: rows `x,y` of moves to re-include in the search.
    YxBlockUndo,
    /// Yixin-Board's opening-database queries (`YXQUERYDATABASEALL`, `…ALLT`, `…ONE`,
    /// `…TEXT`): rows `x,y` of the position's stones; the engine, which has no database,
    /// answers as an empty one after `DONE`.
    YxQueryDatabase(DatabaseQuery),
}

/// Which database query a `YXQUERYDATABASE…` block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DatabaseQuery {
    /// `YXQUERYDATABASEALL`: the records of the position's children.
    All,
    /// `YXQUERYDATABASEALLT`: the children and the position's comment (Yixin-Board sends it at
    /// every position).
    AllAndText,
    /// `YXQUERYDATABASEONE`: the position's own record.
    One,
    /// `YXQUERYDATABASETEXT`: the position's comment.
    Text,
}

impl BlockKind {
    /// True for the blocks whose rows are `x,y,field` (`BOARD`, `YXBOARD`).
    pub fn has_fields(self) -> bool {
        matches!(self, BlockKind::Board | BlockKind::YxBoard)
    }
}

/// A command from the manager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `START n` or `START w h` (old Yixin-Board; `START w,h` is accepted too). Reply `OK` / `ERROR`.
    /// Validate with [`check_board_size`].
    Start {
        /// Board width (x range).
        width: i64,
        /// Board height (y range); equals `width` for `START n`.
        height: i64,
    },
    /// `RECTSTART w,h` (each side 5..=22, see [`check_board_size`]). Reply `OK` / `ERROR`.
    RectStart {
        /// Board width.
        width: i64,
        /// Board height.
        height: i64,
    },
    /// `RESTART`: clear the board, keep the size. Reply `OK`.
    Restart,
    /// `BEGIN`: move first on the empty board. Reply a move.
    Begin,
    /// `TURN x,y`: the opponent played here; reply a move.
    Turn(Coord),
    /// Opens a block (`BOARD`, `YXBOARD`, `SWAP2BOARD`, `YXBLOCK`, `YXBLOCKUNDO`).
    Block(BlockKind),
    /// `DONE` outside a block (stray). The session ignores it.
    Done,
    /// `INFO key value`. `key` is lower-cased; `value` is the trimmed rest of the line with its case
    /// kept (it may contain spaces: `INFO folder C:\My AI\data`). Both may be empty. Never answered.
    Info {
        /// Lower-cased key.
        key: String,
        /// The rest of the line.
        value: String,
    },
    /// `END`: exit at once, no reply.
    End,
    /// `ABOUT`: reply with the ABOUT line.
    About,
    /// `TAKEBACK x,y`: remove the stone; reply `OK`.
    Takeback(Coord),
    /// `PLAY x,y`: answer to our `SUGGEST` (which we never send); play it and reply `x,y`.
    Play(Coord),
    /// `YXSTOP`: stop the search and print the move; when idle print nothing.
    YxStop,
    /// `STOP` (Rapfi / AlphaGomoku): same as `YXSTOP`.
    Stop,
    /// `YXSHOWFORBID`: reply `FORBID …` (renju forbidden points of black to move).
    YxShowForbid,
    /// `YXHASHCLEAR`: clear the transposition table; no reply.
    YxHashClear,
    /// `YXSHOWINFO`: a Yixin-style GUI announces itself; reply optional `MESSAGE INFO …` lines.
    YxShowInfo,
    /// `YXNBEST n`: search with `n` principal variations, then print a move.
    YxNBest(i64),
    /// `YXBALANCEONE s` (`moves == 1`) / `YXBALANCETWO s` (`moves == 2`): find balancing move(s).
    YxBalance {
        /// 1 or 2.
        moves: u8,
        /// The requested bias (0 if absent).
        bias: i64,
    },
    /// `YXSWAP2STEP1..3`: Yixin-Board's Swap2 flow (step 1 on an empty board; steps 2 and 3 on
    /// the position its `YXBOARD` set).
    YxSwap2Step(u8),
    /// `YXSOOSORVSTEP1`: Yixin-Board's Soosorv-8 flow, the opening's three stones (the other
    /// steps are blocks, [`BlockKind::YxSoosorv`]).
    YxSoosorvStep1,
    /// `YXSEARCHDEFEND`: list all defending moves.
    YxSearchDefend,
    /// `YXBLOCKRESET`: clear the excluded-move list; no reply.
    YxBlockReset,
    /// A Yixin-Board extension we recognise but do not implement (database, swap2 steps, hash dump…).
    Unsupported {
        /// The upper-cased command word.
        word: String,
        /// The whole original line (for `UNKNOWN <line>`).
        line: String,
    },
}

/// The result of [`parse_block_line`] for a line inside a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlockLine {
    /// An `x,y,field` row (BOARD, YXBOARD).
    Stone(BoardRow),
    /// One or more `x,y` moves (SWAP2BOARD, YXBLOCK, YXBLOCKUNDO).
    Moves(Vec<Coord>),
    /// `DONE` (any case): the block is complete.
    Done,
    /// A complete command where a row was expected (e.g. `END`, or a new `START`): the manager gave up
    /// on the block. The session should abandon the block and execute the command.
    Command(Command),
}

/// Why a line could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The line was empty (the reader never produces these).
    Empty,
    /// Unknown command word; answer `UNKNOWN <line>`.
    Unknown {
        /// The whole line as received.
        line: String,
    },
    /// A known command with bad arguments; answer `ERROR <reason>`.
    Malformed {
        /// The upper-cased command word (or `"BOARD"` etc. for block rows).
        command: String,
        /// Human-readable reason.
        reason: String,
    },
}

/// `line` with its control characters written as `\xNN`, so that a reply to a line of control
/// characters still says what it answers (the writer would blank them out).
fn visible(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        if c.is_control() {
            out.push_str(&format!("\\x{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

impl ParseError {
    /// The protocol reply for this error (without line ending): `UNKNOWN …` or `ERROR …`.
    /// `None` for [`ParseError::Empty`] (say nothing).
    pub fn reply(&self) -> Option<String> {
        match self {
            ParseError::Empty => None,
            ParseError::Unknown { line } => Some(format!("UNKNOWN {}", visible(line))),
            ParseError::Malformed { command, reason } => Some(format!("ERROR {command}: {reason}")),
        }
    }

    fn malformed(command: &str, reason: impl Into<String>) -> Self {
        ParseError::Malformed {
            command: command.to_owned(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty line"),
            ParseError::Unknown { line } => write!(f, "unknown command: {line}"),
            ParseError::Malformed { command, reason } => write!(f, "{command}: {reason}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Command words that are Yixin-Board / Rapfi extensions we recognise but do not implement. A word
/// starting with any of these (upper-cased) parses to [`Command::Unsupported`].
pub const YIXIN_UNSUPPORTED_PREFIXES: &[&str] = &[
    "YXQUERYDATABASE",
    "YXEDIT",
    "YXDELETEDATABASE",
    "YXSETDATABASE",
    "YXSAVEDATABASE",
    "YXDBTOTXT",
    "YXLIBTODB",
    "YXDBTOLIB",
    "YXDBSPLIT",
    "YXDBMERGE",
    "YXDBCHECK",
    "YXDBFIX",
    "YXBLOCKPATH",
    "YXFORBID",
    "YXRESIGN",
    "YXDRAW",
    "YXPRINTFEATURE",
    "YXHASHDUMP",
    "YXHASHLOAD",
    "YXSHOWHASHUSAGE",
];

/// Splits a line into its first word and the trimmed rest.
fn split_word(line: &str) -> (&str, &str) {
    match line.find(|c: char| c.is_whitespace()) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    }
}

/// Parses a signed decimal integer in `i64` range (leading `+` allowed, surrounding spaces trimmed).
pub fn parse_int(text: &str) -> Option<i64> {
    text.trim().parse::<i64>().ok()
}

/// Removes whitespace around commas, so that `7 , 8` becomes `7,8`.
fn tighten_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.trim().chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_whitespace() {
            // Skip a whitespace run entirely if a comma follows it.
            let mut run = String::from(c);
            while let Some(&n) = chars.peek() {
                if n.is_whitespace() {
                    run.push(n);
                    chars.next();
                } else {
                    break;
                }
            }
            if chars.peek() != Some(&',') && !out.ends_with(',') {
                out.push_str(&run);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Parses comma-separated integers (`"7,8"`, `"7 , 8 , 1"`) into exactly `n` values.
fn parse_list(text: &str, n: usize) -> Option<Vec<i64>> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != n {
        return None;
    }
    parts.iter().map(|p| parse_int(p)).collect()
}

fn to_coord(x: i64, y: i64) -> Option<Coord> {
    Some(Coord::new(i32::try_from(x).ok()?, i32::try_from(y).ok()?))
}

/// Parses `x,y` (spaces around the comma allowed).
pub fn parse_coord(text: &str) -> Option<Coord> {
    let v = parse_list(text, 2)?;
    to_coord(v[0], v[1])
}

/// Parses a `BOARD`/`YXBOARD` row `x,y,field` (spaces around the commas allowed; field 1, 2 or 3).
pub fn parse_board_row(text: &str) -> Result<BoardRow, ParseError> {
    let bad = |why: &str| ParseError::malformed("BOARD", format!("{why}: {text}"));
    let v = parse_list(text, 3).ok_or_else(|| bad("x,y,field expected"))?;
    let at = to_coord(v[0], v[1]).ok_or_else(|| bad("coordinate out of range"))?;
    let field = match v[2] {
        1 => Field::Own,
        2 => Field::Opponent,
        3 => Field::Blocked,
        _ => return Err(bad("field must be 1, 2 or 3")),
    };
    Ok(BoardRow { at, field })
}

/// Parses one or more whitespace-separated `x,y` moves (`"7,7 8,7 9,9"`).
pub fn parse_moves(text: &str) -> Option<Vec<Coord>> {
    let tight = tighten_commas(text);
    let moves: Option<Vec<Coord>> = tight.split_whitespace().map(parse_coord).collect();
    moves.filter(|m| !m.is_empty())
}

fn coord_arg(word: &str, args: &str) -> Result<Coord, ParseError> {
    parse_coord(args)
        .ok_or_else(|| ParseError::malformed(word, format!("x,y expected, got \"{args}\"")))
}

/// Parses one top-level protocol line (already trimmed by the reader).
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    if line.is_empty() {
        return Err(ParseError::Empty);
    }
    let (word_raw, args) = split_word(line);
    let word = word_raw.to_ascii_uppercase();
    let w = word.as_str();
    match w {
        "START" => {
            let tight = tighten_commas(args).replace(',', " ");
            let nums: Option<Vec<i64>> = tight.split_whitespace().map(parse_int).collect();
            match nums.as_deref() {
                Some([n]) => Ok(Command::Start {
                    width: *n,
                    height: *n,
                }),
                Some([wd, h]) => Ok(Command::Start {
                    width: *wd,
                    height: *h,
                }),
                _ => Err(ParseError::malformed(w, "bad START parameter")),
            }
        }
        "RECTSTART" => {
            let v = parse_list(args, 2)
                .ok_or_else(|| ParseError::malformed(w, "bad RECTSTART parameter, expected w,h"))?;
            Ok(Command::RectStart {
                width: v[0],
                height: v[1],
            })
        }
        "RESTART" => Ok(Command::Restart),
        "BEGIN" => Ok(Command::Begin),
        "TURN" => Ok(Command::Turn(coord_arg(w, args)?)),
        "TAKEBACK" => Ok(Command::Takeback(coord_arg(w, args)?)),
        "PLAY" => Ok(Command::Play(coord_arg(w, args)?)),
        "BOARD" => Ok(Command::Block(BlockKind::Board)),
        "YXBOARD" => Ok(Command::Block(BlockKind::YxBoard)),
        "SWAP2BOARD" => Ok(Command::Block(BlockKind::Swap2Board)),
        "SWAPBOARD" => Ok(Command::Block(BlockKind::SwapBoard)),
        "YXSWAP2STEP1" => Ok(Command::YxSwap2Step(1)),
        "YXSWAP2STEP2" => Ok(Command::YxSwap2Step(2)),
        "YXSWAP2STEP3" => Ok(Command::YxSwap2Step(3)),
        "YXSOOSORVSTEP1" => Ok(Command::YxSoosorvStep1),
        "YXSOOSORVSTEP2" | "YXSOOSORVSTEP3" | "YXSOOSORVSTEP6" => {
            let step = w.as_bytes()[13] - b'0';
            Ok(Command::Block(BlockKind::YxSoosorv { step, offers: 0 }))
        }
        "YXSOOSORVSTEP4" | "YXSOOSORVSTEP5" => {
            let step = w.as_bytes()[13] - b'0';
            let offers = parse_int(args)
                .filter(|n| (1..=8).contains(n))
                .ok_or_else(|| ParseError::malformed(w, "a number of offers 1..8 expected"))?;
            Ok(Command::Block(BlockKind::YxSoosorv {
                step,
                offers: offers as u8,
            }))
        }
        "YXBLOCK" => Ok(Command::Block(BlockKind::YxBlock)),
        "YXQUERYDATABASEALL" => Ok(Command::Block(BlockKind::YxQueryDatabase(
            DatabaseQuery::All,
        ))),
        "YXQUERYDATABASEALLT" => Ok(Command::Block(BlockKind::YxQueryDatabase(
            DatabaseQuery::AllAndText,
        ))),
        "YXQUERYDATABASEONE" => Ok(Command::Block(BlockKind::YxQueryDatabase(
            DatabaseQuery::One,
        ))),
        "YXQUERYDATABASETEXT" => Ok(Command::Block(BlockKind::YxQueryDatabase(
            DatabaseQuery::Text,
        ))),
        "YXBLOCKUNDO" => Ok(Command::Block(BlockKind::YxBlockUndo)),
        "DONE" => Ok(Command::Done),
        "INFO" => {
            let (key, value) = split_word(args);
            Ok(Command::Info {
                key: key.to_ascii_lowercase(),
                value: value.to_owned(),
            })
        }
        "END" => Ok(Command::End),
        "ABOUT" => Ok(Command::About),
        "YXSTOP" => Ok(Command::YxStop),
        "STOP" => Ok(Command::Stop),
        "YXSHOWFORBID" => Ok(Command::YxShowForbid),
        "YXHASHCLEAR" => Ok(Command::YxHashClear),
        "YXSHOWINFO" => Ok(Command::YxShowInfo),
        "YXSEARCHDEFEND" => Ok(Command::YxSearchDefend),
        "YXBLOCKRESET" => Ok(Command::YxBlockReset),
        "YXNBEST" => {
            let n = parse_int(args)
                .filter(|n| *n >= 1)
                .ok_or_else(|| ParseError::malformed(w, "positive count expected"))?;
            Ok(Command::YxNBest(n))
        }
        "YXBALANCEONE" | "YXBALANCETWO" => {
            let bias = if args.is_empty() {
                0
            } else {
                parse_int(args).ok_or_else(|| ParseError::malformed(w, "integer bias expected"))?
            };
            let moves = if w == "YXBALANCEONE" { 1 } else { 2 };
            Ok(Command::YxBalance { moves, bias })
        }
        _ if YIXIN_UNSUPPORTED_PREFIXES.iter().any(|p| w.starts_with(p)) => {
            Ok(Command::Unsupported {
                word,
                line: line.to_owned(),
            })
        }
        _ => Err(ParseError::Unknown {
            line: line.to_owned(),
        }),
    }
}

/// Parses a line received inside a block of kind `kind`.
///
/// `DONE` ends the block. Rows are `x,y,field` for [`BlockKind::has_fields`] blocks and one or more
/// `x,y` otherwise. A line that is neither a row nor `DONE` but parses as a top-level command is
/// returned as [`BlockLine::Command`]; anything else is [`ParseError::Malformed`] (the skeleton answers
/// `ERROR x,y,who or DONE expected after BOARD`). The session should keep reading the block after a
/// malformed row (the remaining rows and `DONE` still follow).
///
/// Recommended handling of [`BlockLine::Command`]: `INFO` → apply it and stay in the block (managers
/// never do this, but it is harmless); `END` → exit; anything else → abandon the block and execute the
/// command (the manager has moved on, e.g. a new `START`).
pub fn parse_block_line(kind: BlockKind, line: &str) -> Result<BlockLine, ParseError> {
    let line = line.trim();
    if line.is_empty() {
        return Err(ParseError::Empty);
    }
    if line.eq_ignore_ascii_case("DONE") {
        return Ok(BlockLine::Done);
    }
    let starts_like_row = line
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || c == '-' || c == '+');
    if !starts_like_row {
        if let Ok(cmd) = parse(line) {
            return Ok(BlockLine::Command(cmd));
        }
    }
    let name = match kind {
        BlockKind::Board => "BOARD",
        BlockKind::YxBoard => "YXBOARD",
        BlockKind::Swap2Board => "SWAP2BOARD",
        BlockKind::SwapBoard => "SWAPBOARD",
        BlockKind::YxSoosorv { .. } => "YXSOOSORVSTEP",
        BlockKind::YxBlock => "YXBLOCK",
        BlockKind::YxBlockUndo => "YXBLOCKUNDO",
        BlockKind::YxQueryDatabase(_) => "YXQUERYDATABASE",
    };
    if kind.has_fields() {
        parse_board_row(line)
            .map(BlockLine::Stone)
            .map_err(|_| ParseError::malformed(name, format!("x,y,who or DONE expected: {line}")))
    } else {
        let coloured = || {
            // Rapfi reads (and some managers may send) opening rows as `x,y,field`: the
            // stones are in move order either way, so the field is not needed.
            matches!(
                kind,
                BlockKind::Swap2Board | BlockKind::SwapBoard | BlockKind::YxSoosorv { .. }
            )
            .then(|| parse_board_row(line).ok())
            .flatten()
            .map(|row| BlockLine::Moves(vec![row.at]))
        };
        parse_moves(line)
            .map(BlockLine::Moves)
            .or_else(coloured)
            .ok_or_else(|| ParseError::malformed(name, format!("x,y or DONE expected: {line}")))
    }
}

/// Validates a `START`/`RECTSTART` size for this engine: width and height each between
/// [`MIN_BOARD_SIZE`] and [`MAX_BOARD_SIZE`] (rectangles included: the rules core supports them).
/// Returns `(width, height)`, or the text for `ERROR <text>`.
pub fn check_board_size(width: i64, height: i64) -> Result<(usize, usize), String> {
    let side = |v: i64| {
        usize::try_from(v)
            .ok()
            .filter(|n| (MIN_BOARD_SIZE..=MAX_BOARD_SIZE).contains(n))
    };
    match (side(width), side(height)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ if width == height => Err(format!(
            "unsupported board size {width}, only {MIN_BOARD_SIZE}..{MAX_BOARD_SIZE}"
        )),
        _ => Err(format!(
            "unsupported board size {width}x{height}, each side only {MIN_BOARD_SIZE}..{MAX_BOARD_SIZE}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(x: i32, y: i32) -> Coord {
        Coord::new(x, y)
    }

    #[test]
    fn start_forms() {
        let sq = |n| Command::Start {
            width: n,
            height: n,
        };
        assert_eq!(parse("START 20"), Ok(sq(20)));
        assert_eq!(parse("start 15"), Ok(sq(15)));
        assert_eq!(
            parse("START 15 15"),
            Ok(Command::Start {
                width: 15,
                height: 15
            })
        );
        assert_eq!(
            parse("start 15 20"),
            Ok(Command::Start {
                width: 15,
                height: 20
            })
        );
        assert_eq!(parse("START 15,15"), Ok(sq(15)));
        assert_eq!(parse("START -3"), Ok(sq(-3)));
        assert!(matches!(parse("START"), Err(ParseError::Malformed { .. })));
        assert!(matches!(
            parse("START x"),
            Err(ParseError::Malformed { .. })
        ));
        assert!(matches!(
            parse("START 1 2 3"),
            Err(ParseError::Malformed { .. })
        ));
        assert_eq!(
            parse("RECTSTART 30,20"),
            Ok(Command::RectStart {
                width: 30,
                height: 20
            })
        );
        assert_eq!(
            parse("rectstart 30 , 20"),
            Ok(Command::RectStart {
                width: 30,
                height: 20
            })
        );
        assert!(matches!(
            parse("RECTSTART 30x20"),
            Err(ParseError::Malformed { .. })
        ));
    }

    #[test]
    fn simple_commands_any_case() {
        for (text, cmd) in [
            ("RESTART", Command::Restart),
            ("begin", Command::Begin),
            ("Board", Command::Block(BlockKind::Board)),
            ("yxboard", Command::Block(BlockKind::YxBoard)),
            ("SWAP2BOARD", Command::Block(BlockKind::Swap2Board)),
            ("YXBLOCK", Command::Block(BlockKind::YxBlock)),
            ("yxblockundo", Command::Block(BlockKind::YxBlockUndo)),
            ("done", Command::Done),
            ("END", Command::End),
            ("about", Command::About),
            ("yxstop", Command::YxStop),
            ("STOP", Command::Stop),
            ("yxshowforbid", Command::YxShowForbid),
            ("yxhashclear", Command::YxHashClear),
            ("yxshowinfo", Command::YxShowInfo),
            ("YXSEARCHDEFEND", Command::YxSearchDefend),
            ("yxblockreset", Command::YxBlockReset),
        ] {
            assert_eq!(parse(text), Ok(cmd), "{text}");
        }
    }

    #[test]
    fn coordinates() {
        assert_eq!(parse("TURN 10,10"), Ok(Command::Turn(c(10, 10))));
        assert_eq!(parse("turn 3 , 4"), Ok(Command::Turn(c(3, 4))));
        assert_eq!(parse("TURN 3 ,4"), Ok(Command::Turn(c(3, 4))));
        assert_eq!(parse("TURN -1,-1"), Ok(Command::Turn(c(-1, -1))));
        assert_eq!(parse("TAKEBACK 9,10"), Ok(Command::Takeback(c(9, 10))));
        assert_eq!(parse("PLAY 12,10"), Ok(Command::Play(c(12, 10))));
        for bad in [
            "TURN",
            "TURN 1",
            "TURN 1,2,3",
            "TURN a,b",
            "TURN 99999999999,1",
            "TAKEBACK",
        ] {
            assert!(
                matches!(parse(bad), Err(ParseError::Malformed { .. })),
                "{bad}"
            );
        }
        assert_eq!(c(3, 4).to_string(), "3,4");
        assert_eq!(c(3, 4).on_board(15, 15), Some((3, 4)));
        assert_eq!(c(15, 4).on_board(15, 15), None);
        assert_eq!(c(-1, 4).on_board(15, 15), None);
    }

    #[test]
    fn info_keeps_value_case_and_spaces() {
        assert_eq!(
            parse("INFO folder C:\\My AI\\Data dir"),
            Ok(Command::Info {
                key: "folder".into(),
                value: "C:\\My AI\\Data dir".into()
            })
        );
        assert_eq!(
            parse("info TIME_LEFT   2147483647"),
            Ok(Command::Info {
                key: "time_left".into(),
                value: "2147483647".into()
            })
        );
        assert_eq!(
            parse("INFO"),
            Ok(Command::Info {
                key: String::new(),
                value: String::new()
            })
        );
        assert_eq!(
            parse("INFO evaluate 3,4"),
            Ok(Command::Info {
                key: "evaluate".into(),
                value: "3,4".into()
            })
        );
    }

    #[test]
    fn yixin_extensions() {
        assert_eq!(parse("yxnbest 3"), Ok(Command::YxNBest(3)));
        assert!(matches!(
            parse("YXNBEST 0"),
            Err(ParseError::Malformed { .. })
        ));
        assert_eq!(
            parse("yxbalanceone 5"),
            Ok(Command::YxBalance { moves: 1, bias: 5 })
        );
        assert_eq!(
            parse("YXBALANCETWO -2"),
            Ok(Command::YxBalance { moves: 2, bias: -2 })
        );
        assert_eq!(
            parse("YXBALANCETWO"),
            Ok(Command::YxBalance { moves: 2, bias: 0 })
        );
        assert_eq!(
            parse("yxquerydatabaseallt"),
            Ok(Command::Block(BlockKind::YxQueryDatabase(
                DatabaseQuery::AllAndText
            )))
        );
        match parse("yxquerydatabasefoo") {
            Ok(Command::Unsupported { word, line }) => {
                assert_eq!(word, "YXQUERYDATABASEFOO");
                assert_eq!(line, "yxquerydatabasefoo");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(parse("yxswap2step1"), Ok(Command::YxSwap2Step(1)));
        assert_eq!(parse("YXSWAP2STEP3"), Ok(Command::YxSwap2Step(3)));
        assert_eq!(parse("yxsoosorvstep1"), Ok(Command::YxSoosorvStep1));
        assert_eq!(
            parse("yxsoosorvstep6"),
            Ok(Command::Block(BlockKind::YxSoosorv { step: 6, offers: 0 }))
        );
        assert_eq!(
            parse("yxsoosorvstep4 3"),
            Ok(Command::Block(BlockKind::YxSoosorv { step: 4, offers: 3 }))
        );
        assert!(parse("yxsoosorvstep5").is_err());
        assert!(parse("yxsoosorvstep5 9").is_err());
        assert!(matches!(
            parse("yxswap2step4"),
            Err(ParseError::Unknown { .. })
        ));
        assert_eq!(parse("swapboard"), Ok(Command::Block(BlockKind::SwapBoard)));
        assert!(matches!(
            parse("YXHASHDUMP C:\\a b.dat"),
            Ok(Command::Unsupported { .. })
        ));
    }

    #[test]
    fn unknown_vs_malformed_replies() {
        let e = parse("FOO bar").unwrap_err();
        assert_eq!(e.reply().as_deref(), Some("UNKNOWN FOO bar"));
        let e = parse("BEGINX").unwrap_err();
        assert!(matches!(e, ParseError::Unknown { .. }));
        let e = parse("TURN x").unwrap_err();
        assert!(e.reply().is_some_and(|r| r.starts_with("ERROR ")));
        assert_eq!(parse("").unwrap_err().reply(), None);
        // A bare board row outside a block is an unknown command.
        assert!(matches!(parse("7,7,1"), Err(ParseError::Unknown { .. })));
        // Control characters are shown, not blanked: the reply still says what it answers.
        let e = parse("\u{1}\u{2}\u{7f}").unwrap_err();
        assert_eq!(e.reply().as_deref(), Some("UNKNOWN \\x01\\x02\\x7F"));
        let e = parse("AB\u{1b}C").unwrap_err();
        assert_eq!(e.reply().as_deref(), Some("UNKNOWN AB\\x1BC"));
    }

    #[test]
    fn board_rows() {
        let k = BlockKind::Board;
        assert_eq!(
            parse_block_line(k, "10,11,2"),
            Ok(BlockLine::Stone(BoardRow {
                at: c(10, 11),
                field: Field::Opponent
            }))
        );
        assert_eq!(
            parse_block_line(k, "1 , 2 , 1"),
            Ok(BlockLine::Stone(BoardRow {
                at: c(1, 2),
                field: Field::Own
            }))
        );
        assert_eq!(
            parse_block_line(BlockKind::YxBoard, "1,2,3"),
            Ok(BlockLine::Stone(BoardRow {
                at: c(1, 2),
                field: Field::Blocked
            }))
        );
        assert_eq!(parse_block_line(k, "done"), Ok(BlockLine::Done));
        assert_eq!(parse_block_line(k, "DONE"), Ok(BlockLine::Done));
        for bad in ["1,2", "1,2,4", "1,2,0", "a,b,c", "1,2,1,1"] {
            assert!(
                matches!(parse_block_line(k, bad), Err(ParseError::Malformed { .. })),
                "{bad}"
            );
        }
        assert_eq!(
            parse_block_line(k, "END"),
            Ok(BlockLine::Command(Command::End))
        );
        assert_eq!(
            parse_block_line(k, "start 15"),
            Ok(BlockLine::Command(Command::Start {
                width: 15,
                height: 15
            }))
        );
        assert!(matches!(
            parse_block_line(k, "garbage"),
            Err(ParseError::Malformed { .. })
        ));
    }

    #[test]
    fn swap2_rows() {
        let k = BlockKind::Swap2Board;
        assert_eq!(
            parse_block_line(k, "7,7"),
            Ok(BlockLine::Moves(vec![c(7, 7)]))
        );
        assert_eq!(
            parse_block_line(k, "7,7 8,7  9 , 9"),
            Ok(BlockLine::Moves(vec![c(7, 7), c(8, 7), c(9, 9)]))
        );
        // A field (Rapfi's reading) is allowed and ignored; four numbers are not a row.
        assert_eq!(
            parse_block_line(k, "7,7,1"),
            Ok(BlockLine::Moves(vec![c(7, 7)]))
        );
        assert!(matches!(
            parse_block_line(k, "7,7,1,1"),
            Err(ParseError::Malformed { .. })
        ));
        assert!(matches!(
            parse_block_line(BlockKind::YxBlock, "7,7,1"),
            Err(ParseError::Malformed { .. })
        ));
        assert_eq!(parse_block_line(k, "Done"), Ok(BlockLine::Done));
    }

    #[test]
    fn tighten() {
        assert_eq!(tighten_commas("7 , 8   9 ,10"), "7,8   9,10");
        assert_eq!(tighten_commas(" a  b "), "a  b");
    }

    #[test]
    fn board_size_helper() {
        assert_eq!(check_board_size(15, 15), Ok((15, 15)));
        assert_eq!(check_board_size(5, 5), Ok((5, 5)));
        assert_eq!(check_board_size(22, 22), Ok((22, 22)));
        assert_eq!(check_board_size(15, 20), Ok((15, 20)));
        assert_eq!(check_board_size(22, 5), Ok((22, 5)));
        assert!(check_board_size(4, 4).is_err());
        assert!(check_board_size(23, 23).is_err());
        assert!(check_board_size(-15, -15).is_err());
        assert!(check_board_size(30, 20).is_err());
        assert!(check_board_size(20, 4).is_err());
        assert!(check_board_size(i64::MAX, i64::MAX).is_err());
        assert!(check_board_size(30, 20).is_err_and(|e| e.contains("30x20") && e.contains("5..22")));
    }

    #[test]
    fn random_lines_never_panic() {
        use rand::{Rng, SeedableRng};
        let alphabet: Vec<char> = "STARTINFOBEGDNXYtrun0123456789,-+ \t天元é\u{a0}\u{2028}"
            .chars()
            .collect();
        let words = [
            "START ",
            "TURN ",
            "INFO ",
            "RECTSTART ",
            "yxnbest ",
            "BOARD",
            "DONE",
        ];
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..20_000 {
            let mut line = String::new();
            if rng.gen_bool(0.5) {
                line.push_str(words[rng.gen_range(0..words.len())]);
            }
            for _ in 0..rng.gen_range(0..16) {
                line.push(alphabet[rng.gen_range(0..alphabet.len())]);
            }
            let _ = parse(&line);
            let _ = parse_block_line(BlockKind::Board, &line);
            let _ = parse_block_line(BlockKind::Swap2Board, &line);
        }
    }

    #[test]
    fn parse_int_range() {
        assert_eq!(parse_int("2147483647"), Some(2_147_483_647));
        assert_eq!(parse_int("-150"), Some(-150));
        assert_eq!(parse_int("+7"), Some(7));
        assert_eq!(parse_int("9223372036854775807"), Some(i64::MAX));
        assert_eq!(parse_int("9223372036854775808"), None);
        assert_eq!(parse_int("1.5"), None);
    }
}
