//! One game between two brains: the manager's loop.
//!
//! Both brains get `START` and the `INFO` set; then, for each move, the brain to move gets
//! `INFO time_left` and `BEGIN` (empty board), `BOARD ... DONE` (its first move of the game,
//! stones in playing order) or `TURN x,y` (afterwards). Every reply is judged
//! ([`adjudication`](super::adjudication)) and timed ([`Clock`]); a brain that does not answer
//! by the end of its allowance is killed there and then, so no game can hang.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::core::notation::format_renju;
use crate::core::{Board, Color, MoveVerdict, Rule};

use super::adjudication::{draw_reason, judge, Judgement};
use super::clock::{Clock, TimeControl};
use super::engine_process::EngineError;
use super::openings::Opening;
use super::records::{GameRecord, GameResult, ResultReason};
use super::seat::{MoveReply, Seat};

/// Everything about how games are played, shared by all games of a match.
#[derive(Debug, Clone)]
pub struct GameSettings {
    /// Board side (5..=22).
    pub size: usize,
    /// The rule.
    pub rule: Rule,
    /// Time control.
    pub tc: TimeControl,
    /// Extra time a reply may take beyond its budget before it is a time-out.
    pub tolerance: Duration,
    /// `INFO max_memory` in bytes (0 = no limit).
    pub max_memory: u64,
    /// Draw once this many stones are on the board (0 = play to a full board).
    pub draw_after: usize,
    /// A non-move reply loses at once (Piskvork) instead of being skipped.
    pub strict: bool,
    /// Print the board after every move to stdout.
    pub show: bool,
    /// Open every game with Swap2 (`SWAP2BOARD`, ref §3.12) instead of an opening.
    pub swap2: bool,
    /// Send the `SWAP2BOARD` rows as `x,y,field` (Rapfi) instead of plain `x,y` (the spec).
    pub swap2_fields: bool,
}

impl GameSettings {
    /// The `INFO` lines sent after START, in Piskvork's order, then the engine's own.
    pub fn info_lines(&self, extra: &[(String, String)]) -> Vec<String> {
        let mut v = Vec::new();
        if self.tc.turn_ms > 0 {
            v.push(format!("INFO timeout_turn {}", self.tc.turn_ms));
        }
        v.push(format!("INFO timeout_match {}", self.tc.match_ms));
        if self.tc.increment_ms > 0 {
            v.push(format!("INFO time_increment {}", self.tc.increment_ms));
        }
        v.push(format!("INFO max_memory {}", self.max_memory));
        v.push("INFO game_type 1".to_string());
        v.push(format!("INFO rule {}", self.rule.gomocup_code()));
        for (k, val) in extra {
            v.push(format!("INFO {k} {val}"));
        }
        v
    }
}

/// Why a seat's process should not be trusted for the next game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// It exited or could not be started.
    Crash,
    /// It did not answer in time (and was killed).
    Timeout,
}

/// A finished game.
#[derive(Debug, Clone)]
pub struct GameReport {
    /// The record (names, moves, times, result, reason).
    pub record: GameRecord,
    /// The seat that failed, if the game ended by a crash or a time-out.
    pub failure: Option<(Color, Failure)>,
    /// A human-readable detail (e.g. the bad reply, the exit status), if any.
    pub detail: Option<String>,
    /// Manager overhead: for each move after the first, the time from the previous reply
    /// being read to the next request being written.
    pub overhead: Vec<Duration>,
    /// Sum of the engines' measured thinking times (request written to reply read).
    pub think_time: Duration,
    /// Swap2 gave the brain scheduled as black the white stones.
    pub swapped: bool,
}

/// The game was abandoned because the run is stopping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aborted;

fn winner_of(c: Color) -> GameResult {
    match c {
        Color::Black => GameResult::BlackWin,
        Color::White => GameResult::WhiteWin,
    }
}

fn loser_result(c: Color) -> GameResult {
    winner_of(c.opponent())
}

/// The state of one game in progress.
struct Game<'a> {
    settings: &'a GameSettings,
    board: Board,
    record: GameRecord,
    clocks: [Clock; 2],
    started: [bool; 2],
    overhead: Vec<Duration>,
    think_time: Duration,
    last_reply: Option<Instant>,
    swapped: bool,
}

impl<'a> Game<'a> {
    /// A game about to start on `board`: full clocks, nothing played by the engines yet.
    fn new(settings: &'a GameSettings, board: Board, record: GameRecord) -> Game<'a> {
        Game {
            settings,
            board,
            record,
            clocks: [Clock::new(settings.tc, settings.tolerance); 2],
            started: [false; 2],
            overhead: Vec::new(),
            think_time: Duration::ZERO,
            last_reply: None,
            swapped: false,
        }
    }

    /// The two engines exchange colours (a Swap2 `SWAP`; the caller swaps the seats): the
    /// names of the record and the clocks follow the engines, so that each keeps the time it
    /// spent on its opening answers.
    fn exchange_colours(&mut self) {
        self.swapped = !self.swapped;
        self.clocks.swap(0, 1);
        std::mem::swap(&mut self.record.black, &mut self.record.white);
    }

    fn finish(
        self,
        result: GameResult,
        reason: ResultReason,
        failure: Option<(Color, Failure)>,
        detail: Option<String>,
    ) -> GameReport {
        let mut record = self.record;
        record.result = result;
        record.reason = reason;
        GameReport {
            record,
            failure,
            detail,
            overhead: self.overhead,
            think_time: self.think_time,
            swapped: self.swapped,
        }
    }

    /// The command lines asking `color` to move.
    fn request(&self, color: Color) -> Vec<String> {
        let mut v = vec![format!(
            "INFO time_left {}",
            self.clocks[color.index()].time_left_info()
        )];
        if self.board.stone_count() == 0 {
            v.push("BEGIN".into());
        } else if !self.started[color.index()] {
            v.push("BOARD".into());
            for (i, &(x, y)) in self.record.moves.iter().enumerate() {
                let own = (i % 2 == 0) == (color == Color::Black);
                v.push(format!("{x},{y},{}", if own { 1 } else { 2 }));
            }
            v.push("DONE".into());
        } else if let Some(&(x, y)) = self.record.moves.last() {
            v.push(format!("TURN {x},{y}"));
        }
        v
    }

    fn show(&self, text: &str) {
        if self.settings.show {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{text}\n{}", self.board.to_text());
            let _ = out.flush();
        }
    }
}

/// Stones placed by one opening answer.
type Stones = Vec<(usize, usize)>;

/// Why an opening answer loses: the reason, the failure (a crash or a time-out) if any, a detail.
type Fault = (ResultReason, Option<Failure>, String);

/// The Swap2 opening (ref §3.12): `seats[0]` (the first player) places three stones; `seats[1]`
/// answers `SWAP` (it takes black), the fourth move (it stays white) or the fourth and fifth
/// stones, after which `seats[0]` answers `SWAP` (it takes black) or the sixth move (white).
/// The stones go on the game's board and record; true when the seats' colours are exchanged
/// (`seats[1]` is black). A bad answer or a failure loses the game for its seat, as black
/// (`seats[0]`) or white (`seats[1]`).
fn swap2_opening(seats: &mut [&mut Seat; 2], game: &mut Game) -> Result<bool, (Color, Fault)> {
    // Each answer is one line of whitespace-separated `x,y` or `SWAP`, timed on the seat's clock.
    let ask = |seats: &mut [&mut Seat; 2],
               game: &mut Game,
               i: usize,
               counts: &[usize]|
     -> Result<Option<Stones>, Fault> {
        let mut lines = vec![format!(
            "INFO time_left {}",
            game.clocks[i].time_left_info()
        )];
        lines.push("SWAP2BOARD".to_owned());
        let stones = game.record.moves.len();
        for (k, &(x, y)) in game.record.moves.iter().enumerate() {
            if game.settings.swap2_fields {
                // 1 for the side to move's stones (the parity of the count says which).
                let own = k % 2 == stones % 2;
                lines.push(format!("{x},{y},{}", if own { 1 } else { 2 }));
            } else {
                lines.push(format!("{x},{y}"));
            }
        }
        lines.push("DONE".to_owned());
        let name = seats[i].spec().name.clone();
        let allowance = game.clocks[i].allowance().unwrap_or(Duration::ZERO);
        let (reply, sent, got) = seats[i].ask_line(&lines, allowance).map_err(|e| {
            let (reason, failure) = engine_failure(&e);
            seats[i].kill();
            (reason, Some(failure), format!("{name} at SWAP2BOARD: {e}"))
        })?;
        let used = got.saturating_duration_since(sent);
        game.think_time += used;
        game.clocks[i].charge(used);
        let bad = |why: &str| {
            (
                ResultReason::IllegalMove(super::records::IllegalKind::Unparseable),
                None,
                format!("{name} answered `{reply}` to SWAP2BOARD: {why}"),
            )
        };
        if reply.trim().eq_ignore_ascii_case("SWAP") {
            return if counts.contains(&0) {
                Ok(None)
            } else {
                Err(bad("no swap here"))
            };
        }
        let mut moves = Vec::new();
        for token in reply.split_whitespace() {
            let (x, y) =
                super::engine_process::parse_move(token).ok_or_else(|| bad("x,y expected"))?;
            let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) else {
                return Err(bad("off the board"));
            };
            moves.push((x, y));
        }
        if !counts.contains(&moves.len()) {
            return Err(bad("wrong number of stones"));
        }
        for &(x, y) in &moves {
            if game.board.try_play(x, y).is_err() {
                return Err(bad("an illegal stone"));
            }
            game.record.moves.push((x, y));
        }
        Ok(Some(moves))
    };
    // The first player's three stones.
    ask(seats, game, 0, &[3]).map_err(|e| (Color::Black, e))?;
    // The second player: SWAP (0), the fourth move (1) or two more stones (2).
    match ask(seats, game, 1, &[0, 1, 2]) {
        Err(e) => Err((Color::White, e)),
        Ok(None) => Ok(true),
        Ok(Some(m)) if m.len() == 1 => Ok(false),
        Ok(Some(_)) => match ask(seats, game, 0, &[0, 1]) {
            Err(e) => Err((Color::Black, e)),
            // The first player takes black; the second plays white's sixth move.
            Ok(None) => Ok(false),
            // The first player stays white and has played the sixth move.
            Ok(Some(_)) => Ok(true),
        },
    }
}

fn engine_failure(e: &EngineError) -> (ResultReason, Failure) {
    match e {
        EngineError::Timeout => (ResultReason::Timeout, Failure::Timeout),
        _ => (ResultReason::Crash, Failure::Crash),
    }
}

/// Plays one game: `players[0]` is black, `players[1]` white. The opening must be legal and
/// not decided (checked when openings are loaded). Returns [`Aborted`] when `stop` is set
/// before the game ends.
pub fn play_game(
    players: [&mut Seat; 2],
    opening: &Opening,
    settings: &GameSettings,
    game_index: usize,
    stop: &AtomicBool,
) -> Result<GameReport, Aborted> {
    let mut seats = players;
    let board = Board::new(settings.size, settings.size, settings.rule)
        .expect("board size is validated with the settings");
    let mut record = GameRecord::new(
        seats[0].spec().name.clone(),
        seats[1].spec().name.clone(),
        (settings.size, settings.size),
        settings.rule.gomocup_code() as u32,
        Vec::new(),
        GameResult::Draw,
        ResultReason::Adjudication,
    );
    record.game_index = game_index;
    let mut game = Game::new(settings, board, record);
    for &(x, y) in &opening.moves {
        if game.board.try_play(x, y).is_err() {
            return Ok(game.finish(
                GameResult::Draw,
                ResultReason::Adjudication,
                None,
                Some(format!("bad opening stone {x},{y}")),
            ));
        }
        game.record.moves.push((x, y));
    }
    game.record.opening_len = opening.moves.len();

    // Start both brains: a fresh process if needed (ABOUT), then START and the INFO set. START
    // is timed like a move and charged to the match clock (Piskvork).
    for color in Color::BOTH {
        let i = color.index();
        let seat = &mut seats[i];
        let start_result = seat
            .ensure_running(settings.tolerance.max(Duration::from_millis(500)))
            .and_then(|_| {
                let allowance = game.clocks[i].allowance().unwrap_or(Duration::ZERO);
                let lines = settings.info_lines(&seat.spec().info);
                seat.start_game(settings.size, &lines, Instant::now() + allowance)
            });
        match start_result {
            Ok(took) => game.clocks[i].charge(took),
            Err(e) => {
                let (reason, failure) = engine_failure(&e);
                seat.kill();
                return Ok(game.finish(
                    loser_result(color),
                    reason,
                    Some((color, failure)),
                    Some(format!("{} at START: {e}", seat.spec().name)),
                ));
            }
        }
    }
    if settings.swap2 {
        match swap2_opening(&mut seats, &mut game) {
            Ok(swapped) => {
                if swapped {
                    seats.swap(0, 1);
                    game.exchange_colours();
                }
                game.record.opening_len = game.record.moves.len();
            }
            Err((color, (reason, failure, detail))) => {
                return Ok(game.finish(
                    loser_result(color),
                    reason,
                    failure.map(|f| (color, f)),
                    Some(detail),
                ))
            }
        }
    }
    game.show(&format!(
        "game {game_index}: {} (X) vs {} (O)",
        seats[0].spec().name,
        seats[1].spec().name
    ));

    loop {
        if stop.load(Ordering::Relaxed) {
            return Err(Aborted);
        }
        let color = game.board.side_to_move();
        let i = color.index();
        game.clocks[i].add_increment();
        let Some(allowance) = game.clocks[i].allowance() else {
            seats[i].kill();
            return Ok(game.finish(
                loser_result(color),
                ResultReason::Timeout,
                Some((color, Failure::Timeout)),
                Some("match clock already exhausted".into()),
            ));
        };
        let lines = game.request(color);
        let asked = seats[i].ask_move(&lines, allowance, settings.strict);
        let (reply, sent, got) = match asked {
            Ok(r) => r,
            Err(e) => {
                let (reason, failure) = engine_failure(&e);
                seats[i].kill();
                let detail = format!("{}: {e}", seats[i].spec().name);
                return Ok(game.finish(
                    loser_result(color),
                    reason,
                    Some((color, failure)),
                    Some(detail),
                ));
            }
        };
        if let Some(prev) = game.last_reply {
            game.overhead.push(sent.saturating_duration_since(prev));
        }
        game.last_reply = Some(got);
        let used = got.saturating_duration_since(sent);
        game.think_time += used;
        game.clocks[i].charge(used);
        game.started[i] = true;
        match judge(&mut game.board, &reply) {
            Judgement::Illegal(kind) => {
                let detail = match &reply {
                    MoveReply::Move(x, y) => format!("{} played {x},{y}", seats[i].spec().name),
                    MoveReply::Unparseable(l) => format!("{} answered `{l}`", seats[i].spec().name),
                };
                return Ok(game.finish(
                    loser_result(color),
                    ResultReason::IllegalMove(kind),
                    None,
                    Some(detail),
                ));
            }
            Judgement::Legal(p, verdict) => {
                game.record.moves.push((p.x(), p.y()));
                game.record.move_times_ms.push(used.as_millis() as u64);
                let mover = if color == Color::Black { "X" } else { "O" };
                game.board.make_move(p);
                match verdict {
                    MoveVerdict::Wins => {
                        game.show(&format!("{mover} {},{} wins", p.x(), p.y()));
                        return Ok(game.finish(winner_of(color), ResultReason::Five, None, None));
                    }
                    MoveVerdict::Foul => {
                        game.show(&format!("{mover} {},{} is a foul", p.x(), p.y()));
                        return Ok(game.finish(
                            loser_result(color),
                            ResultReason::Foul,
                            None,
                            None,
                        ));
                    }
                    MoveVerdict::Continues => {
                        game.show(&format!(
                            "move {}: {mover} {} ({},{}), {} ms",
                            game.board.stone_count(),
                            format_renju(p.x(), p.y(), game.board.height()),
                            p.x(),
                            p.y(),
                            used.as_millis()
                        ));
                        if let Some(reason) = draw_reason(&game.board, settings.draw_after) {
                            return Ok(game.finish(GameResult::Draw, reason, None, None));
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After a Swap2 exchange each engine keeps its name's colour and the time it spent.
    #[test]
    fn exchanged_colours_keep_each_engines_clock() {
        let settings = GameSettings {
            size: 15,
            rule: Rule::Standard,
            tc: TimeControl::parse("5000/60000").unwrap(),
            tolerance: Duration::from_millis(1000),
            max_memory: 0,
            draw_after: 0,
            strict: false,
            show: false,
            swap2: true,
            swap2_fields: false,
        };
        let record = GameRecord::new(
            "first",
            "second",
            (15, 15),
            1,
            Vec::new(),
            GameResult::Draw,
            ResultReason::Adjudication,
        );
        let board = Board::new(15, 15, Rule::Standard).unwrap();
        let mut game = Game::new(&settings, board, record);
        // "first" (black so far) spent 4 s on its opening answer, "second" 1 s.
        game.clocks[0].charge(Duration::from_millis(4000));
        game.clocks[1].charge(Duration::from_millis(1000));
        game.exchange_colours();
        assert!(game.swapped);
        assert_eq!(
            (game.record.black.as_str(), game.record.white.as_str()),
            ("second", "first")
        );
        assert_eq!(game.clocks[0].time_left_info(), 59_000, "second, now black");
        assert_eq!(game.clocks[1].time_left_info(), 56_000, "first, now white");
    }
}
