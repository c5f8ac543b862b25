//! The brain's protocol loop: commands in, replies out, searches on the worker thread.
//!
//! Threads: a **reader** turns stdin into timestamped lines ([`LineReader`]); the **session**
//! (the caller's thread, [`run`]) owns the settings and the position and answers every command; the
//! **search worker** ([`Worker`]) runs the [`crate::player::Player`]. Reader and worker feed one
//! channel, so the session reacts at once to whichever comes first.
//!
//! While a search runs the session acts immediately on `END` (return at once, the search is
//! abandoned, no move), `YXSTOP` / `STOP` / `INFO timeout_turn 0` / EOF (raise the stop flag: the
//! move follows within milliseconds; after EOF the session then returns) and every other `INFO`
//! (applied). Any other line is kept and handled, in order, right after the move is out.
//!
//! Besides moves the worker runs opening decisions (`SWAP2BOARD`, `SWAPBOARD`, Yixin-Board's
//! swap2 / soosorv steps and balance commands, [`crate::player::opening`]), answered in the asking
//! command's format, and, with `INFO pondering 1`, a silent search of the position after our move
//! (pondering) that any input line stops.
//!
//! The move is checked before it is printed: it must be an empty cell, and not a renju foul for
//! black while a non-foul move exists. A panic in the player, an illegal answer, or no answer
//! 150 ms past the hard deadline (a wedged player; a fresh worker then takes over) all give
//! [`fallback_move`] instead, preceded by one `MESSAGE` saying so. Nothing is ever written to
//! stderr.
//!
//! Bad input (`ERROR` / `UNKNOWN`) never changes the state. A `BOARD` block with a bad row is
//! answered with one `ERROR` at its `DONE` and no move; a block cut short by another command
//! (`BOARD` without `DONE`) gets `ERROR` and the command is then executed.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use super::budget::compute_budget;
use crate::core::{Board, Pos, Rule};
use crate::player::fallback::fallback_move;
use crate::player::SearchOutcome;
use crate::search::searcher::max_threads;
use crate::search::{MemoryBudget, SearchControl};
use crate::search::{TimeBudget, TimeInput};

use super::command::{
    check_board_size, parse, parse_block_line, BlockKind, BlockLine, BoardRow, Command, Coord,
    DatabaseQuery,
};
use super::output::{AboutInfo, ProtocolWriter, SharedWriter};
use super::position::{core_rule, Position};
use super::reader::{LineReader, ReaderEvent};
use super::settings::Settings;
use super::worker::{Answer, Job, JobTask, PlayerFactory, Report, Worker};
use crate::player::opening::{self, Decision, OpeningTask};

/// How long past the hard deadline the session waits for the player before it raises the stop
/// flag itself.
pub const STOP_GRACE: Duration = Duration::from_millis(30);
/// How long past the hard deadline the session waits before it answers without the player.
pub const ABANDON_GRACE: Duration = Duration::from_millis(150);

/// How long the session must be idle before it builds the current rule's tables.
pub const WARM_UP_DELAY: Duration = Duration::from_millis(30);

/// `MESSAGE INFO MAX_HASH_SIZE` sent for `YXSHOWINFO` (the value Rapfi sends; the GUI uses it as
/// the upper bound of its hash-size control, and `hash_size` is honoured up to `max_memory`).
pub const YIXIN_MAX_HASH_SIZE: u32 = 30;

/// What the session reacts to.
enum Event {
    Input(ReaderEvent),
    Searched(Report),
}

/// How the engine answers and who it says it is.
#[derive(Clone)]
pub struct SessionConfig {
    /// Builds the player (again after a panic).
    pub player: PlayerFactory,
    /// The ABOUT line's fields.
    pub about: AboutInfo,
}

/// Why [`run`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// `END` was received.
    End,
    /// stdin was closed.
    Eof,
    /// stdout could not be written (the manager is gone).
    OutputClosed,
    /// A thread could not be started.
    ThreadFailed,
}

/// How long a ponder search may run: until the manager's next line stops it.
const PONDER_LIMIT: Duration = Duration::from_secs(24 * 3600);

/// What a running search is for.
enum Purpose {
    /// A move is due (a game move, multi-PV analysis, the Defend button).
    Move,
    /// Thinking on the opponent's time (`INFO pondering 1`): nothing is printed.
    Ponder,
    /// An opening decision, answered in the format of the command that asked.
    Opening {
        task: OpeningTask,
        reply: OpeningReply,
    },
}

/// Which command asked an opening decision (its answer format).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OpeningReply {
    /// `SWAP2BOARD` (ref §3.12): `x,y x,y x,y`, `SWAP`, `x,y` or `x,y x,y`.
    Swap2Board,
    /// `SWAPBOARD`, swap after three: `x,y x,y x,y`, `SWAP` or `x,y`.
    SwapBoard,
    /// Yixin-Board's `yxswap2step1..3`: `MESSAGE SWAP2 …` lines.
    YxSwap2(u8),
    /// Yixin-Board's `yxsoosorvstep1..6`: `MESSAGE SOOSORV …` lines.
    YxSoosorv(u8),
    /// `YXBALANCEONE` / `YXBALANCETWO`: the moves, `x,y` or `x,y x,y`.
    Balance,
}

/// A running search.
struct Running {
    id: u64,
    purpose: Purpose,
    stop: Arc<AtomicBool>,
    budget: TimeBudget,
    received: Instant,
    /// While set, the search's progress lines may still be written: cleared, under the
    /// output lock, just before the move, so that no line follows it.
    reporting: Arc<AtomicBool>,
}

/// A block (`BOARD` … `DONE`) being read.
struct OpenBlock {
    kind: BlockKind,
    rows: Vec<BoardRow>,
    moves: Vec<Coord>,
    error: Option<String>,
}

/// The session state (see the module docs).
struct Session<W: Write> {
    out: SharedWriter<W>,
    config: SessionConfig,
    events: Sender<Event>,
    worker: Worker,
    settings: Settings,
    position: Option<Position>,
    block: Option<OpenBlock>,
    running: Option<Running>,
    deferred: VecDeque<ReaderEvent>,
    next_id: u64,
    first_think: bool,
    clear_tables: bool,
    /// The memory budget the worker's tables were last sized to (`None`: a fresh worker).
    prepared: Option<MemoryBudget>,
    warmed: [bool; 5],
    warming: Option<thread::JoinHandle<()>>,
    /// Moves the GUI excluded from the search (`YXBLOCK`), until `YXBLOCKUNDO`,
    /// `YXBLOCKRESET` or a new game.
    excluded: Vec<Coord>,
    /// Lines the next search reports (`YXNBEST n`; 1 otherwise).
    multi_pv: usize,
    /// The engine has moved and the opponent is to move: ponder once idle (with
    /// `INFO pondering 1`), until a line changes the position.
    ponder_due: bool,
}

/// The most lines `YXNBEST` searches.
pub const MAX_NBEST: usize = 64;

/// Runs the protocol on `input` / `out` until `END`, EOF or a dead output. Spawns the reader and
/// the search worker; returns without waiting for either.
pub fn run<R, W>(input: R, out: SharedWriter<W>, config: SessionConfig) -> Exit
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let (tx, rx) = mpsc::channel::<Event>();
    let reader_tx = tx.clone();
    let reader = thread::Builder::new()
        .name("protocol-reader".to_owned())
        .spawn(move || {
            for event in LineReader::new(input) {
                if reader_tx.send(Event::Input(event)).is_err() {
                    break;
                }
            }
        });
    if reader.is_err() {
        return Exit::ThreadFailed;
    }
    let Some(worker) = spawn_worker(&config, &tx) else {
        return Exit::ThreadFailed;
    };
    let mut session = Session {
        out,
        config,
        events: tx,
        worker,
        settings: Settings::new(),
        position: None,
        block: None,
        running: None,
        deferred: VecDeque::new(),
        next_id: 0,
        first_think: true,
        clear_tables: false,
        prepared: None,
        warmed: [false; 5],
        warming: None,
        excluded: Vec::new(),
        multi_pv: 1,
        ponder_due: false,
    };
    session.main_loop(&rx)
}

fn spawn_worker(config: &SessionConfig, tx: &Sender<Event>) -> Option<Worker> {
    let tx = tx.clone();
    Worker::spawn(config.player.clone(), move |report| {
        let _ = tx.send(Event::Searched(report));
    })
    .ok()
}

/// Result of handling one event: keep going or leave the loop.
type Flow = Result<(), Exit>;

impl<W: Write + Send + 'static> Session<W> {
    fn main_loop(&mut self, rx: &Receiver<Event>) -> Exit {
        loop {
            let event = match self.next_event(rx) {
                Ok(e) => e,
                Err(exit) => return exit,
            };
            let flow = match event {
                Some(Event::Searched(report)) => self.finish_search(Some(report)),
                Some(Event::Input(input)) => {
                    if self.running.is_some() {
                        self.input_while_searching(input)
                    } else {
                        self.input(input)
                    }
                }
                None => self.watchdog(),
            };
            if let Err(exit) = flow {
                return exit;
            }
        }
    }

    /// The next event: deferred input first when idle; `None` when a search's deadline passed
    /// without an answer.
    fn next_event(&mut self, rx: &Receiver<Event>) -> Result<Option<Event>, Exit> {
        match &self.running {
            None => {
                if let Some(e) = self.deferred.pop_front() {
                    return Ok(Some(Event::Input(e)));
                }
                match rx.try_recv() {
                    Ok(e) => return Ok(Some(e)),
                    Err(TryRecvError::Disconnected) => return Err(Exit::Eof),
                    Err(TryRecvError::Empty) => {}
                }
                // Idle for a moment (not just between START and its INFO lines): build the
                // current rule's tables in the background.
                match rx.recv_timeout(WARM_UP_DELAY) {
                    Ok(e) => return Ok(Some(e)),
                    Err(RecvTimeoutError::Disconnected) => return Err(Exit::Eof),
                    Err(RecvTimeoutError::Timeout) => {}
                }
                if self.ponder_due && self.settings.yixin.pondering == Some(1) {
                    self.start_ponder();
                    if self.running.is_some() {
                        return self.next_event(rx);
                    }
                }
                self.warm_up();
                rx.recv().map(Some).map_err(|_| Exit::Eof)
            }
            Some(run) => {
                let wake = run.budget.deadline + STOP_GRACE;
                let now = Instant::now();
                let wait = if now < wake {
                    wake - now
                } else {
                    // Stop already requested; wait for the abandon point.
                    (run.budget.deadline + ABANDON_GRACE).saturating_duration_since(now)
                };
                match rx.recv_timeout(wait) {
                    Ok(e) => Ok(Some(e)),
                    Err(RecvTimeoutError::Timeout) => Ok(None),
                    Err(RecvTimeoutError::Disconnected) => Err(Exit::Eof),
                }
            }
        }
    }

    /// Builds the line tables of the current rule on a background thread, once per rule and one
    /// rule at a time (each build briefly needs three times the table's memory), so the first
    /// search does not pay for them and `START` never waits for them.
    fn warm_up(&mut self) {
        let rule = self.rule();
        if self.warmed[rule.index()] || self.warming.as_ref().is_some_and(|h| !h.is_finished()) {
            return;
        }
        self.warmed[rule.index()] = true;
        self.warming = thread::Builder::new()
            .name("warm-up".to_owned())
            .spawn(move || drop(Board::new(5, 5, rule)))
            .ok();
    }

    /// Waits for a table build in flight, so that two builds never overlap (peak memory); called
    /// before every command that needs the board. `START`, `ABOUT` and `INFO` never wait.
    fn settle_warm_up(&mut self) {
        if let Some(h) = self.warming.take() {
            let _ = h.join();
        }
    }

    /// Asks the worker to size its player's tables to the current memory budget, and to empty
    /// them after `START`, `RESTART` or `YXHASHCLEAR`, as soon as either is due: between moves,
    /// not on the next move's clock. (A task queued behind a running search waits for it.)
    fn prepare_tables(&mut self) {
        let memory = self.settings.memory_budget();
        if self.prepared == Some(memory) && !self.clear_tables {
            return;
        }
        if self.worker.prepare(memory, self.clear_tables) {
            self.prepared = Some(memory);
            self.clear_tables = false;
        }
    }

    fn rule(&self) -> Rule {
        core_rule(self.settings.rule_kind())
    }

    fn write(&self, f: impl FnOnce(&mut ProtocolWriter<W>) -> std::io::Result<()>) -> Flow {
        self.out.with(f).map_err(|_| Exit::OutputClosed)
    }

    fn error(&self, text: &str) -> Flow {
        self.write(|w| w.error(text))
    }

    // ----- input while a search runs -----

    fn input_while_searching(&mut self, input: ReaderEvent) -> Flow {
        if self
            .running
            .as_ref()
            .is_some_and(|r| matches!(r.purpose, Purpose::Ponder))
        {
            return self.input_while_pondering(input);
        }
        let ReaderEvent::Line { text, .. } = &input else {
            if input == ReaderEvent::Eof {
                // Answer at once, then exit (the deferred EOF is handled after the move).
                self.stop_search();
            }
            self.deferred.push_back(input);
            return Ok(());
        };
        match parse(text) {
            Ok(Command::End) => Err(Exit::End),
            Ok(Command::YxStop | Command::Stop) => {
                self.stop_search();
                Ok(())
            }
            Ok(Command::Info { key, value }) => {
                self.settings.apply(&key, &value);
                if key == "timeout_turn" && self.settings.stop_requested() {
                    self.stop_search();
                }
                self.prepare_tables();
                Ok(())
            }
            _ => {
                self.deferred.push_back(input);
                Ok(())
            }
        }
    }

    /// Pondering stops at once on any line: `END` exits, `YXSTOP` / `STOP` end the pondering
    /// (nothing is printed), everything else is handled when the ponder search has stopped.
    fn input_while_pondering(&mut self, input: ReaderEvent) -> Flow {
        self.stop_search();
        if let ReaderEvent::Line { text, .. } = &input {
            match parse(text) {
                Ok(Command::End) => return Err(Exit::End),
                Ok(Command::YxStop | Command::Stop) => {
                    self.ponder_due = false;
                    return Ok(());
                }
                _ => {}
            }
        }
        self.deferred.push_back(input);
        Ok(())
    }

    fn stop_search(&mut self) {
        if let Some(run) = &mut self.running {
            run.stop.store(true, Ordering::Relaxed);
            if matches!(run.purpose, Purpose::Ponder) {
                // The watchdog's clock: a ponder search that ignores the flag is abandoned soon.
                let now = Instant::now();
                run.budget = TimeBudget {
                    soft: Duration::ZERO,
                    hard: Duration::ZERO,
                    deadline: now.min(run.budget.deadline),
                };
            }
        }
    }

    /// The search is past its hard deadline: first raise the stop flag, then give up on it.
    fn watchdog(&mut self) -> Flow {
        let Some(run) = &self.running else {
            return Ok(());
        };
        if Instant::now() < run.budget.deadline + ABANDON_GRACE {
            run.stop.store(true, Ordering::Relaxed);
            return Ok(());
        }
        // The player ignores its stop flag: answer without it, and use a fresh worker.
        run.stop.store(true, Ordering::Relaxed);
        if let Some(w) = spawn_worker(&self.config, &self.events) {
            self.worker = w;
            self.prepared = None;
        }
        self.finish_search(None)
    }

    // ----- input when idle -----

    fn input(&mut self, input: ReaderEvent) -> Flow {
        match input {
            ReaderEvent::Eof => Err(Exit::Eof),
            ReaderEvent::Bad { reason, text, .. } => {
                if let Some(block) = &mut self.block {
                    block.error.get_or_insert(reason);
                    return Ok(());
                }
                let is_info = text
                    .get(..4)
                    .is_some_and(|w| w.eq_ignore_ascii_case("INFO"));
                if is_info {
                    Ok(())
                } else {
                    self.error(&reason)
                }
            }
            ReaderEvent::Line { text, received } => {
                if self.block.is_none() && !keeps_ponder(&text) {
                    self.ponder_due = false;
                }
                if self.block.is_some() {
                    self.block_line(&text, received)
                } else {
                    match parse(&text) {
                        Ok(cmd) => self.command(cmd, &text, received),
                        Err(e) => match e.reply() {
                            Some(reply) => self.write(|w| w.line(&reply)),
                            None => Ok(()),
                        },
                    }
                }
            }
        }
    }

    fn block_line(&mut self, text: &str, received: Instant) -> Flow {
        let Some(block) = &mut self.block else {
            return Ok(());
        };
        match parse_block_line(block.kind, text) {
            Ok(BlockLine::Stone(row)) => {
                block.rows.push(row);
                Ok(())
            }
            Ok(BlockLine::Moves(moves)) => {
                block.moves.extend(moves);
                Ok(())
            }
            Ok(BlockLine::Done) => {
                let done = self.block.take();
                match done {
                    Some(b) => self.finish_block(b, received),
                    None => Ok(()),
                }
            }
            Ok(BlockLine::Command(Command::Info { key, value })) => {
                self.settings.apply(&key, &value);
                self.prepare_tables();
                Ok(())
            }
            Ok(BlockLine::Command(Command::End)) => Err(Exit::End),
            Ok(BlockLine::Command(cmd)) => {
                let kind = block.kind;
                self.block = None;
                self.error(&format!(
                    "{}: DONE expected before {text}",
                    block_name(kind)
                ))?;
                self.command(cmd, text, received)
            }
            Err(e) => {
                block.error.get_or_insert_with(|| e.to_string());
                Ok(())
            }
        }
    }

    fn finish_block(&mut self, block: OpenBlock, received: Instant) -> Flow {
        if let Some(e) = block.error {
            return self.error(&e);
        }
        match block.kind {
            BlockKind::Board | BlockKind::YxBoard => {
                self.settle_warm_up();
                let rule = self.rule();
                let Some(pos) = self.position.as_mut() else {
                    return self
                        .error(&format!("{}: START expected first", block_name(block.kind)));
                };
                if let Err(e) = pos.set_rows(rule, &block.rows) {
                    return self.error(&format!("{}: {e}", block_name(block.kind)));
                }
                if block.kind == BlockKind::Board {
                    self.start_search(received)
                } else {
                    Ok(())
                }
            }
            BlockKind::Swap2Board | BlockKind::SwapBoard | BlockKind::YxSoosorv { .. } => {
                self.opening_block(block.kind, &block.moves, received)
            }
            BlockKind::YxBlock => {
                for m in block.moves {
                    if !self.excluded.contains(&m) {
                        self.excluded.push(m);
                    }
                }
                Ok(())
            }
            BlockKind::YxBlockUndo => {
                self.excluded.retain(|m| !block.moves.contains(m));
                Ok(())
            }
            // No opening database: the answers of an empty one, so the GUI's log stays clean.
            BlockKind::YxQueryDatabase(query) => self.write(|w| {
                if matches!(query, DatabaseQuery::All | DatabaseQuery::AllAndText) {
                    w.message("DATABASE REFRESH")?;
                    w.message("DATABASE DONE")?;
                }
                match query {
                    DatabaseQuery::AllAndText | DatabaseQuery::Text => {
                        w.message("DATABASE TEXT \"\"")
                    }
                    DatabaseQuery::One => w.message("DATABASE ONE 0 0 0 0"),
                    DatabaseQuery::All => Ok(()),
                }
            }),
        }
    }

    /// The opening blocks: `SWAP2BOARD` (ref §3.12: none, three or five stones), `SWAPBOARD`
    /// (swap after three: none or three) and Yixin-Board's `yxsoosorvstep2..6`, each with the
    /// stones in move order, black first. The position becomes those stones (step 6: the first
    /// four; the rest are black's fifth-move offers) and the decision is searched.
    fn opening_block(&mut self, kind: BlockKind, moves: &[Coord], received: Instant) -> Flow {
        let name = block_name(kind);
        let (task, reply, stones) = match (kind, moves.len()) {
            (BlockKind::Swap2Board, 0) => (OpeningTask::ProposeThree, OpeningReply::Swap2Board, 0),
            (BlockKind::Swap2Board, 3) => (OpeningTask::Swap2Second, OpeningReply::Swap2Board, 3),
            (BlockKind::Swap2Board, 5) => (OpeningTask::ChooseColour, OpeningReply::Swap2Board, 5),
            (BlockKind::Swap2Board, n) => {
                return self.error(&format!("{name}: 0, 3 or 5 stones expected, got {n}"))
            }
            (BlockKind::SwapBoard, 0) => (OpeningTask::ProposeThree, OpeningReply::SwapBoard, 0),
            (BlockKind::SwapBoard, 3) => (OpeningTask::ChooseColour, OpeningReply::SwapBoard, 3),
            (BlockKind::SwapBoard, n) => {
                return self.error(&format!("{name}: 0 or 3 stones expected, got {n}"))
            }
            (BlockKind::YxSoosorv { step, offers }, n) => {
                let offers = usize::from(offers);
                let (task, stones) = match step {
                    2 => (OpeningTask::ChooseColour, 3),
                    3 => (OpeningTask::SoosorvFourth, 3),
                    4 => (OpeningTask::SoosorvSwap { offers }, 4),
                    5 => (OpeningTask::SoosorvOffers { offers }, 4),
                    _ => (
                        OpeningTask::SoosorvChoose {
                            candidates: Vec::new(),
                        },
                        4,
                    ),
                };
                let enough = if step == 6 { n > 4 } else { n == stones };
                if !enough {
                    return self.error(&format!(
                        "{name}{step}: {stones}{} stones expected, got {n}",
                        if step == 6 { " and the offers'" } else { "" }
                    ));
                }
                (task, OpeningReply::YxSoosorv(step), stones)
            }
            _ => return Ok(()),
        };
        self.settle_warm_up();
        let rule = self.rule();
        let Some(pos) = self.position.as_mut() else {
            return self.error(&format!("{name}: START expected first"));
        };
        if let Err(e) = pos.set_sequence(rule, &moves[..stones]) {
            return self.error(&format!("{name}: {e}"));
        }
        let task = match task {
            OpeningTask::SoosorvChoose { .. } => {
                let board = match pos.board(rule) {
                    Ok(b) => b,
                    Err(e) => return self.error(&format!("{name}: {e}")),
                };
                let mut candidates = Vec::new();
                for c in &moves[stones..] {
                    let cell = usize::try_from(c.x)
                        .ok()
                        .zip(usize::try_from(c.y).ok())
                        .and_then(|(x, y)| board.pos(x, y))
                        .filter(|&p| board.is_empty(p));
                    match cell {
                        Some(p) if !candidates.contains(&p) => candidates.push(p),
                        Some(_) => {}
                        None => {
                            return self.error(&format!(
                                "{name}6: the offer {},{} is not an empty cell",
                                c.x, c.y
                            ))
                        }
                    }
                }
                OpeningTask::SoosorvChoose { candidates }
            }
            t => t,
        };
        self.start_opening(received, task, reply)
    }

    /// The opening commands without stones of their own: `yxswap2step1` and `yxsoosorvstep1`
    /// (a new empty board: Yixin-Board sends no `START` first), `yxswap2step2` / `3` (on the
    /// position its `YXBOARD` set, three or five stones) and the balance commands.
    fn opening_command(
        &mut self,
        task: OpeningTask,
        reply: OpeningReply,
        received: Instant,
    ) -> Flow {
        self.settle_warm_up();
        let name = match reply {
            OpeningReply::YxSwap2(n) => format!("YXSWAP2STEP{n}"),
            OpeningReply::YxSoosorv(n) => format!("YXSOOSORVSTEP{n}"),
            _ => "YXBALANCE".to_owned(),
        };
        let rule = self.rule();
        let Some(pos) = self.position.as_mut() else {
            return self.error(&format!("{name}: START expected first"));
        };
        let stones = pos.board(rule).map(|b| b.stone_count()).unwrap_or(0);
        match (&task, reply) {
            (OpeningTask::ProposeThree, _) => pos.clear(),
            (_, OpeningReply::YxSwap2(2)) if stones != 3 => {
                return self.error(&format!("{name}: three stones expected, got {stones}"))
            }
            (_, OpeningReply::YxSwap2(3)) if stones != 5 => {
                return self.error(&format!("{name}: five stones expected, got {stones}"))
            }
            _ => {}
        }
        self.start_opening(received, task, reply)
    }

    fn command(&mut self, cmd: Command, text: &str, received: Instant) -> Flow {
        if matches!(
            cmd,
            Command::Begin
                | Command::YxNBest(_)
                | Command::YxSearchDefend
                | Command::Turn(_)
                | Command::Play(_)
                | Command::Takeback(_)
                | Command::YxShowForbid
        ) {
            self.settle_warm_up();
        }
        match cmd {
            Command::Start { width, height } | Command::RectStart { width, height } => {
                match check_board_size(width, height) {
                    Ok((w, h)) => {
                        self.settings.new_game();
                        self.excluded.clear();
                        self.position = Some(Position::new(w, h));
                        self.clear_tables = true;
                        self.prepare_tables();
                        self.write(|w| w.ok())
                    }
                    Err(e) => self.error(&e),
                }
            }
            Command::Restart => match self.position.as_mut() {
                Some(pos) => {
                    pos.clear();
                    self.settings.new_game();
                    self.excluded.clear();
                    self.clear_tables = true;
                    self.prepare_tables();
                    self.write(|w| w.ok())
                }
                None => self.error("RESTART: START expected first"),
            },
            // `start_search` answers "START expected first" without a board.
            Command::Begin => self.start_search(received),
            Command::YxNBest(n) => {
                self.multi_pv = usize::try_from(n).unwrap_or(1).clamp(1, MAX_NBEST);
                self.start_search(received)
            }
            Command::Turn(at) => {
                let rule = self.rule();
                let Some(pos) = self.position.as_mut() else {
                    return self.error("TURN: START expected first");
                };
                match pos.play(rule, at) {
                    Ok(_) => self.start_search(received),
                    Err(e) => self.error(&format!("TURN: {e}")),
                }
            }
            Command::Play(at) => {
                let rule = self.rule();
                let Some(pos) = self.position.as_mut() else {
                    return self.error("PLAY: START expected first");
                };
                match pos.play(rule, at) {
                    Ok(_) => self.write(|w| w.mv(at)),
                    Err(e) => self.error(&format!("PLAY: {e}")),
                }
            }
            Command::Takeback(at) => {
                let rule = self.rule();
                let Some(pos) = self.position.as_mut() else {
                    return self.error("TAKEBACK: START expected first");
                };
                match pos.take_back(rule, at) {
                    Ok(()) => self.write(|w| w.ok()),
                    Err(e) => self.error(&format!("TAKEBACK: {e}")),
                }
            }
            Command::Block(kind) => {
                self.block = Some(OpenBlock {
                    kind,
                    rows: Vec::new(),
                    moves: Vec::new(),
                    error: None,
                });
                Ok(())
            }
            Command::Info { key, value } => {
                self.settings.apply(&key, &value);
                self.prepare_tables();
                Ok(())
            }
            Command::End => Err(Exit::End),
            Command::About => {
                let about = self.config.about.clone();
                self.write(|w| w.about(&about))
            }
            Command::YxShowForbid => {
                let points = self.forbidden_points();
                self.write(|w| w.forbid(&points))
            }
            Command::YxHashClear => {
                self.clear_tables = true;
                self.prepare_tables();
                Ok(())
            }
            Command::YxShowInfo => self.write(|w| {
                w.message(&format!("INFO MAX_THREAD_NUM {}", max_threads()))?;
                w.message(&format!("INFO MAX_HASH_SIZE {YIXIN_MAX_HASH_SIZE}"))
            }),
            Command::YxBlockReset => {
                self.excluded.clear();
                Ok(())
            }
            Command::Done | Command::YxStop | Command::Stop => Ok(()),
            // Yixin-Board's Defend button: every root move the search considers (against a
            // threat, exactly its defences) gets its own line, then the best one is played.
            Command::YxSearchDefend => {
                self.multi_pv = MAX_NBEST;
                self.start_search(received)
            }
            Command::YxBalance { moves, bias } => {
                let bias = bias.clamp(
                    -(crate::eval::EVAL_MAX as i64),
                    crate::eval::EVAL_MAX as i64,
                );
                let task = OpeningTask::Balance {
                    moves: usize::from(moves),
                    bias: bias as i32,
                };
                self.opening_command(task, OpeningReply::Balance, received)
            }
            Command::YxSwap2Step(step) => {
                let task = match step {
                    1 => OpeningTask::ProposeThree,
                    2 => OpeningTask::Swap2Second,
                    _ => OpeningTask::ChooseColour,
                };
                self.opening_command(task, OpeningReply::YxSwap2(step), received)
            }
            Command::YxSoosorvStep1 => self.opening_command(
                OpeningTask::ProposeThree,
                OpeningReply::YxSoosorv(1),
                received,
            ),
            Command::Unsupported { .. } => self.write(|w| w.unknown(text)),
        }
    }

    /// Renju fouls of black on the current position (none under other rules or before START).
    fn forbidden_points(&mut self) -> Vec<Coord> {
        let rule = self.rule();
        if !rule.has_fouls() {
            return Vec::new();
        }
        let Some(Ok(board)) = self.position.as_mut().map(|p| p.board(rule)) else {
            return Vec::new();
        };
        board
            .forbidden_points()
            .into_iter()
            .map(|p| Coord::new(p.x() as i32, p.y() as i32))
            .collect()
    }

    // ----- searching -----

    fn start_search(&mut self, received: Instant) -> Flow {
        self.start_job(received, Purpose::Move)
    }

    /// Starts an opening decision on the current position.
    fn start_opening(&mut self, received: Instant, task: OpeningTask, reply: OpeningReply) -> Flow {
        self.start_job(received, Purpose::Opening { task, reply })
    }

    /// Starts thinking on the opponent's time about the current position (no output).
    fn start_ponder(&mut self) {
        let _ = self.start_job(Instant::now(), Purpose::Ponder);
    }

    fn start_job(&mut self, received: Instant, purpose: Purpose) -> Flow {
        let rule = self.rule();
        let pondering = matches!(purpose, Purpose::Ponder);
        let Some(pos) = self.position.as_mut() else {
            return if pondering {
                Ok(())
            } else {
                self.error("START expected first")
            };
        };
        let board = match pos.board(rule) {
            Ok(b) => b.clone(),
            Err(e) if !pondering => return self.error(&e),
            Err(_) => return Ok(()),
        };
        let opening_on_empty = matches!(
            &purpose,
            Purpose::Opening {
                task: OpeningTask::ProposeThree,
                ..
            }
        );
        // A game that is over (our last stone made five) has nothing to ponder.
        if pondering && board.last_move_wins() {
            return Ok(());
        }
        if board.is_full() || (opening_on_empty && board.stone_count() > 0) {
            return if pondering {
                Ok(())
            } else {
                self.error("the board is full")
            };
        }
        let budget = if pondering {
            TimeBudget {
                soft: PONDER_LIMIT,
                hard: PONDER_LIMIT,
                deadline: received + PONDER_LIMIT,
            }
        } else {
            let budget = compute_budget(
                &self.settings,
                &TimeInput {
                    received,
                    stones: board.stone_count(),
                    cells: board.width() * board.height(),
                    first_think: self.first_think,
                },
            );
            self.first_think = false;
            budget
        };
        self.prepare_tables();
        let stop = Arc::new(AtomicBool::new(false));
        let reporting = Arc::new(AtomicBool::new(!pondering));
        let reporter = {
            let (out, reporting) = (self.out.clone(), reporting.clone());
            let deadline = budget.deadline;
            Arc::new(move |text: &str| {
                out.with(|w| {
                    // Never after the move, nor after the deadline (c-gomoku-cli forfeits a
                    // non-move line past it), nor while pondering (Yixin-Board would draw it).
                    if reporting.load(Ordering::Relaxed) && Instant::now() < deadline {
                        // Yixin-Board's analysis lines go out raw (`INFO PV …`, asked for with
                        // `INFO show_detail` ≥ 2); everything else is a MESSAGE.
                        let _ = if text.starts_with("INFO ") {
                            w.line(text)
                        } else {
                            w.message(text)
                        };
                    }
                })
            })
        };
        let mut control = SearchControl::new(budget, stop.clone());
        if !pondering {
            control = control.with_reporter(reporter);
            control.max_depth = self.settings.max_depth.and_then(|d| u32::try_from(d).ok());
            control.max_nodes = self.settings.max_node.and_then(|n| u64::try_from(n).ok());
        }
        control.threads = self.settings.threads();
        let multi_pv = std::mem::replace(&mut self.multi_pv, 1);
        let task = match &purpose {
            Purpose::Move => {
                control.multi_pv = multi_pv;
                control.yixin_detail = self.settings.yixin.show_detail.is_some_and(|d| d >= 2);
                control.excluded = self
                    .excluded
                    .iter()
                    .filter_map(|c| {
                        let (x, y) = (usize::try_from(c.x).ok()?, usize::try_from(c.y).ok()?);
                        board.pos(x, y)
                    })
                    .collect();
                JobTask::Move
            }
            Purpose::Ponder => JobTask::Ponder,
            Purpose::Opening { task, .. } => JobTask::Opening(task.clone()),
        };
        self.next_id += 1;
        let job = Job {
            id: self.next_id,
            board,
            control,
            memory: self.settings.memory_budget(),
            clear: false,
            task,
        };
        self.running = Some(Running {
            id: self.next_id,
            purpose,
            stop,
            budget,
            received,
            reporting,
        });
        if !self.worker.submit(job) {
            // The worker thread is gone: answer without it, with a fresh one for next time.
            if let Some(w) = spawn_worker(&self.config, &self.events) {
                self.worker = w;
                self.prepared = None;
            }
            return self.finish_search(None);
        }
        Ok(())
    }

    /// Prints the answer of the running search (`report`), or a fallback when the report is
    /// missing, a panic, or an illegal move. Reports of abandoned searches are ignored.
    fn finish_search(&mut self, report: Option<Report>) -> Flow {
        let Some(run) = &self.running else {
            return Ok(());
        };
        if report.as_ref().is_some_and(|r| r.id != run.id) {
            return Ok(());
        }
        let Some(run) = self.running.take() else {
            return Ok(());
        };
        let elapsed = run.received.elapsed().as_millis();
        let reporting = run.reporting.clone();
        let result = report.map(|r| r.result);
        match run.purpose {
            Purpose::Ponder => {
                // A ponder search that ended by itself (a proven result, the depth limit) is
                // not restarted.
                if !run.stop.load(Ordering::Relaxed) {
                    self.ponder_due = false;
                }
                Ok(())
            }
            Purpose::Opening { task, reply } => {
                self.finish_opening(result, &task, reply, &reporting)
            }
            Purpose::Move => {
                let outcome = match result {
                    Some(Ok(Answer::Move(o))) => Some(Ok(o)),
                    Some(Ok(_)) => Some(Err("the search answered another question".to_owned())),
                    Some(Err(panic)) => Some(Err(panic)),
                    None => None,
                };
                self.finish_move(outcome, elapsed, &reporting)
            }
        }
    }

    fn finish_move(
        &mut self,
        outcome: Option<Result<SearchOutcome, String>>,
        elapsed: u128,
        reporting: &AtomicBool,
    ) -> Flow {
        let rule = self.rule();
        let Some(Ok(board)) = self.position.as_mut().map(|p| p.board(rule)) else {
            return Ok(());
        };
        let (best, message) = match outcome {
            Some(Ok(SearchOutcome { best, info })) if acceptable(board, best) => {
                (Some(best), info.map(|i| i.message(elapsed, board.height())))
            }
            Some(Ok(SearchOutcome { best, .. })) => (
                None,
                Some(format!(
                    "internal error: illegal move {},{} from the search",
                    best.x(),
                    best.y()
                )),
            ),
            Some(Err(panic)) => (None, Some(format!("internal error: {panic}"))),
            None => (
                None,
                Some("internal error: the search did not stop".to_owned()),
            ),
        };
        let Some(mv) = best.or_else(|| safe_fallback(board)) else {
            return self.error("the board is full");
        };
        board.make_move(mv);
        self.ponder_due = true;
        let at = Coord::new(mv.x() as i32, mv.y() as i32);
        self.write(|w| {
            reporting.store(false, Ordering::Relaxed);
            if let Some(m) = &message {
                w.message(m)?;
            }
            w.mv(at)
        })
    }

    /// Prints an opening decision in the asking command's format and plays the stones it
    /// places into the position (so that the game goes on with `TURN` / `BOARD`).
    fn finish_opening(
        &mut self,
        result: Option<Result<Answer, String>>,
        task: &OpeningTask,
        reply: OpeningReply,
        reporting: &AtomicBool,
    ) -> Flow {
        let rule = self.rule();
        let Some(Ok(board)) = self.position.as_mut().map(|p| p.board(rule)) else {
            return Ok(());
        };
        let (decision, problem) = match result {
            Some(Ok(Answer::Opening(d))) if opening::is_valid(board, task, &d) => (d, None),
            Some(Ok(_)) => (
                opening::fallback_decision(board, task),
                Some("internal error: an invalid opening decision".to_owned()),
            ),
            Some(Err(panic)) => (
                opening::fallback_decision(board, task),
                Some(format!("internal error: {panic}")),
            ),
            None => (
                opening::fallback_decision(board, task),
                Some("internal error: the search did not stop".to_owned()),
            ),
        };
        let xy = |p: Pos| Coord::new(p.x() as i32, p.y() as i32);
        let placed: Vec<Pos> = match &decision {
            Decision::Play(m) | Decision::Choose(m) | Decision::Fourth { mv: m, .. } => vec![*m],
            Decision::Place(m) => m.clone(),
            Decision::Swap | Decision::Keep | Decision::Offers(_) => Vec::new(),
        };
        // Yixin's "stay" answers leave the move to the GUI's next `BOARD`.
        let yixin_stays = matches!(
            (reply, &decision),
            (
                OpeningReply::YxSwap2(2 | 3) | OpeningReply::YxSoosorv(2),
                Decision::Play(_)
            )
        );
        if !yixin_stays {
            for &m in &placed {
                board.make_move(m);
            }
        }
        let mut lines: Vec<String> = Vec::new();
        let spaced = |tag: &str, p: Pos| format!("MESSAGE {tag} {} {}", p.x(), p.y());
        match (reply, &decision) {
            (OpeningReply::YxSwap2(_), Decision::Place(m)) => {
                let first = if m.len() == 3 { 1 } else { 4 };
                for (i, &p) in m.iter().enumerate() {
                    lines.push(spaced(&format!("SWAP2 MOVE{}", first + i), p));
                }
            }
            (OpeningReply::YxSwap2(2), d) => lines.push(format!(
                "MESSAGE SWAP2 SWAP1 {}",
                if *d == Decision::Swap { "YES" } else { "NO" }
            )),
            // Step 3: YES means the engine chooses black (the colour not to move).
            (OpeningReply::YxSwap2(_), d) => lines.push(format!(
                "MESSAGE SWAP2 SWAP2 {}",
                if *d == Decision::Swap { "YES" } else { "NO" }
            )),
            (OpeningReply::YxSoosorv(_), Decision::Place(m)) => {
                for (i, &p) in m.iter().enumerate() {
                    lines.push(spaced(&format!("SOOSORV MOVE{}", i + 1), p));
                }
            }
            (OpeningReply::YxSoosorv(_), Decision::Fourth { mv, offers }) => lines.push(format!(
                "MESSAGE SOOSORV MOVE4 {} {} {offers}",
                mv.x(),
                mv.y()
            )),
            (OpeningReply::YxSoosorv(_), Decision::Offers(m)) => {
                lines.push("MESSAGE SOOSORV MOVE5 REFRESH".to_owned());
                for &p in m {
                    lines.push(spaced("SOOSORV MOVE5", p));
                }
                lines.push("MESSAGE SOOSORV MOVE5 DONE".to_owned());
            }
            (OpeningReply::YxSoosorv(_), Decision::Choose(c)) => {
                lines.push(spaced("SOOSORV MOVE5C", *c));
            }
            (OpeningReply::YxSoosorv(step), d) => lines.push(format!(
                "MESSAGE SOOSORV SWAP{} {}",
                if step == 2 { 1 } else { 2 },
                if *d == Decision::Swap { "YES" } else { "NO" }
            )),
            (_, Decision::Swap) => lines.push("SWAP".to_owned()),
            (_, _) => {
                let moves: Vec<String> = placed
                    .iter()
                    .map(|&p| {
                        let c = xy(p);
                        format!("{},{}", c.x, c.y)
                    })
                    .collect();
                lines.push(moves.join(" "));
            }
        }
        self.write(|w| {
            reporting.store(false, Ordering::Relaxed);
            if let Some(m) = &problem {
                w.message(m)?;
            }
            for line in &lines {
                w.line(line)?;
            }
            Ok(())
        })
    }
}

/// Lines that leave the position and the turn as they are: pondering goes on after them.
fn keeps_ponder(text: &str) -> bool {
    matches!(
        parse(text),
        Ok(Command::Info { .. }
            | Command::About
            | Command::YxShowForbid
            | Command::YxShowInfo
            | Command::YxHashClear
            | Command::YxBlockReset
            | Command::Block(BlockKind::YxQueryDatabase(_)))
    )
}

/// A move the session lets through: an empty cell of the board, and not a renju foul unless every
/// move is one.
fn acceptable(board: &mut Board, p: Pos) -> bool {
    board.pos(p.x(), p.y()) == Some(p)
        && board.is_empty(p)
        && (!board.is_foul(p) || board.legal_moves().is_empty())
}

/// [`fallback_move`], guarded against a panic in the rules core itself (then the first empty
/// cell).
fn safe_fallback(board: &mut Board) -> Option<Pos> {
    let mut copy = board.clone();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fallback_move(&mut copy)))
        .unwrap_or_else(|_| board.empty_cells().first())
}

fn block_name(kind: BlockKind) -> &'static str {
    match kind {
        BlockKind::Board => "BOARD",
        BlockKind::YxBoard => "YXBOARD",
        BlockKind::Swap2Board => "SWAP2BOARD",
        BlockKind::SwapBoard => "SWAPBOARD",
        BlockKind::YxSoosorv { .. } => "YXSOOSORVSTEP",
        BlockKind::YxBlock => "YXBLOCK",
        BlockKind::YxBlockUndo => "YXBLOCKUNDO",
        BlockKind::YxQueryDatabase(DatabaseQuery::All) => "YXQUERYDATABASEALL",
        BlockKind::YxQueryDatabase(DatabaseQuery::AllAndText) => "YXQUERYDATABASEALLT",
        BlockKind::YxQueryDatabase(DatabaseQuery::One) => "YXQUERYDATABASEONE",
        BlockKind::YxQueryDatabase(DatabaseQuery::Text) => "YXQUERYDATABASETEXT",
    }
}
