//! The session's safety net, in process (with players that misbehave on purpose): a panicking
//! player, one that answers an occupied square or a renju foul, and one that ignores its stop
//! flag. In every case a legal move goes out (after one `MESSAGE internal error: …`), in time, and
//! the session keeps working. Own test binary: the silent panic hook is process-wide.

use std::io::{self, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use tianyuan::core::notation::parse_pos_string;
use tianyuan::core::{Board, Pos, Rule};
use tianyuan::player::{Player, SearchOutcome};
use tianyuan::protocol::{
    install_silent_panic_hook, run, AboutInfo, Exit, PlayerFactory, SessionConfig, SharedWriter,
};
use tianyuan::search::SearchControl;

/// stdin of the session: chunks from a channel.
struct Input {
    rx: Receiver<Vec<u8>>,
    pending: Vec<u8>,
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pending.is_empty() {
            match self.rx.recv() {
                Ok(v) => self.pending = v,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// stdout of the session: every write to a channel.
struct Output(Sender<Vec<u8>>);

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .send(buf.to_vec())
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

struct Session {
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<Vec<u8>>,
    done: thread::JoinHandle<Exit>,
}

impl Session {
    fn start(player: impl Fn() -> Box<dyn Player> + Send + Sync + 'static) -> Session {
        install_silent_panic_hook();
        let (in_tx, in_rx) = mpsc::channel();
        let (out_tx, out_rx) = mpsc::channel();
        let factory: PlayerFactory = Arc::new(player);
        let config = SessionConfig {
            player: factory,
            about: AboutInfo::tianyuan(),
        };
        let done = thread::spawn(move || {
            run(
                Input {
                    rx: in_rx,
                    pending: Vec::new(),
                },
                SharedWriter::new(Output(out_tx)),
                config,
            )
        });
        Session {
            input: Some(in_tx),
            output: out_rx,
            done,
        }
    }

    fn send(&self, line: &str) {
        let tx = self.input.as_ref().expect("open");
        tx.send(format!("{line}\r\n").into_bytes()).expect("send");
    }

    fn line(&self, timeout: Duration) -> String {
        let bytes = self.output.recv_timeout(timeout).expect("a reply line");
        let text = String::from_utf8(bytes).expect("utf8");
        assert!(
            text.ends_with('\n') && text.matches('\n').count() == 1,
            "{text:?}"
        );
        text.trim_end().to_owned()
    }

    /// The move after exactly one MESSAGE line containing `note`.
    fn fallback_move(&self, note: &str, timeout: Duration) -> (usize, usize) {
        let msg = self.line(timeout);
        assert!(
            msg.starts_with("MESSAGE internal error:") && msg.contains(note),
            "{msg:?}"
        );
        let mv = self.line(timeout);
        let (x, y) = mv.split_once(',').expect("x,y");
        (x.parse().expect("x"), y.parse().expect("y"))
    }

    fn end(mut self) {
        self.send("END");
        self.input = None;
        assert_eq!(self.done.join().ok(), Some(Exit::End));
        assert!(self.output.try_recv().is_err(), "no reply after END");
    }
}

struct Panics;
impl Player for Panics {
    fn name(&self) -> &str {
        "panics"
    }
    fn choose(&mut self, _: &mut Board, _: &SearchControl) -> SearchOutcome {
        panic!("deliberate test panic")
    }
}

/// Answers the last stone played (occupied), or the fixed square given.
struct Illegal(Option<Pos>);
impl Player for Illegal {
    fn name(&self) -> &str {
        "illegal"
    }
    fn choose(&mut self, board: &mut Board, _: &SearchControl) -> SearchOutcome {
        let best = self
            .0
            .or_else(|| board.last_move())
            .unwrap_or(Pos::new(0, 0));
        SearchOutcome { best, info: None }
    }
}

/// Ignores the stop flag and the deadline.
struct Wedged;
impl Player for Wedged {
    fn name(&self) -> &str {
        "wedged"
    }
    fn choose(&mut self, _: &mut Board, _: &SearchControl) -> SearchOutcome {
        thread::sleep(Duration::from_secs(3));
        SearchOutcome {
            best: Pos::new(0, 0),
            info: None,
        }
    }
}

#[test]
fn a_panicking_player_still_answers_legal_moves() {
    let s = Session::start(|| Box::new(Panics));
    s.send("START 15");
    assert_eq!(s.line(Duration::from_secs(5)), "OK");
    s.send("BEGIN");
    assert_eq!(
        s.fallback_move("deliberate test panic", Duration::from_secs(5)),
        (7, 7)
    );
    s.send("TURN 8,8");
    let m = s.fallback_move("deliberate test panic", Duration::from_secs(5));
    assert!(m != (7, 7) && m != (8, 8));
    s.send("ABOUT");
    assert!(s.line(Duration::from_secs(5)).starts_with("name="));
    s.end();
}

#[test]
fn illegal_answers_are_replaced() {
    let s = Session::start(|| Box::new(Illegal(None)));
    s.send("START 15");
    assert_eq!(s.line(Duration::from_secs(5)), "OK");
    s.send("TURN 7,7");
    let m = s.fallback_move("illegal move 7,7", Duration::from_secs(5));
    assert_ne!(m, (7, 7));
    s.end();

    // Renju: the player insists on the foul g9; black gets a non-foul move instead.
    let moves = "h8h9i7i9h10i6i11i12";
    let s = Session::start(|| Box::new(Illegal(Some(Pos::new(6, 8)))));
    s.send("START 15");
    assert_eq!(s.line(Duration::from_secs(5)), "OK");
    s.send("INFO rule 4");
    s.send("BOARD");
    let mut board = Board::new(15, 15, Rule::Renju).expect("board");
    for (i, (x, y)) in parse_pos_string(moves, 15, 15)
        .expect("pos")
        .into_iter()
        .enumerate()
    {
        board.try_play(x, y).expect("legal");
        s.send(&format!("{x},{y},{}", if i % 2 == 0 { 1 } else { 2 }));
    }
    s.send("DONE");
    let (x, y) = s.fallback_move("illegal move 6,8", Duration::from_secs(5));
    let p = Pos::new(x, y);
    assert!(board.is_empty(p) && !board.is_forbidden(p), "{x},{y}");
    s.end();
}

#[test]
fn a_wedged_player_is_abandoned_in_time() {
    let s = Session::start(|| Box::new(Wedged));
    s.send("START 15");
    assert_eq!(s.line(Duration::from_secs(5)), "OK");
    s.send("INFO timeout_turn 400");
    s.send("INFO time_left 2147483647");
    for turn in ["TURN 7,7", "TURN 0,0"] {
        let t = Instant::now();
        s.send(turn);
        let m = s.fallback_move("did not stop", Duration::from_secs(3));
        assert!(m != (7, 7) && m != (0, 0));
        // Hard budget (at most 400 - 70 ms) + the 150 ms abandon grace, with CI slack.
        let took = t.elapsed();
        assert!(took < Duration::from_millis(400 + 400), "{took:?}");
    }
    s.end();
}
