//! The Gomocup / Piskvork brain protocol
//! (see `protocol.md`).
//!
//! * [`reader`]: stdin bytes → timestamped lines on a channel ([`spawn_stdin_reader`]).
//! * [`command`]: a line → [`Command`] ([`parse`]), block rows ([`parse_block_line`]).
//! * [`settings`]: `INFO key value` → [`Settings`], rule codes → [`RuleKind`];
//!   [`budget`]: settings → the search's time and memory budgets.
//! * [`output`]: replies, one `write_all` + flush per line ([`ProtocolWriter`], [`SharedWriter`]),
//!   and [`install_silent_panic_hook`].
//! * [`fixture`]: the byte-exact session fixture format of `tests/sessions/`.
//! * [`position`]: the game position (size, stones, lazily built rules-core board).
//! * [`worker`]: the search thread that runs the [`crate::player::Player`].
//! * [`session`]: the protocol loop tying it all together ([`run`]).
//!
//! Time budgets are computed by [`crate::search::timeman`] from what [`budget`] reads.

pub mod budget;
pub mod command;
pub mod fixture;
pub mod output;
pub mod position;
pub mod reader;
pub mod session;
pub mod settings;
pub mod worker;

pub use command::{
    check_board_size, parse, parse_block_line, BlockKind, BlockLine, BoardRow, Command, Coord,
    Field, ParseError, MAX_BOARD_SIZE, MIN_BOARD_SIZE,
};
pub use output::{
    install_silent_panic_hook, stdout_writer, take_last_panic, AboutInfo, ProtocolWriter,
    SharedWriter,
};
pub use position::{core_rule, Position};
pub use reader::{spawn_reader, spawn_stdin_reader, LineReader, ReaderEvent, MAX_LINE_LEN};
pub use session::{run, Exit, SessionConfig};
pub use settings::{InfoKey, InfoOutcome, RuleCode, RuleKind, Settings};
pub use worker::{PlayerFactory, Worker};
