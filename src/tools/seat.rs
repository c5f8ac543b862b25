//! One engine seat of a worker: the brain's description and its (re)started process, driven
//! the way c-gomoku-cli and GomocupJudge drive brains.
//!
//! * A process is started when first needed, and again after it was killed (time-out) or died
//!   (crash); its first command is `ABOUT`, whose answer is awaited up to a deadline but not
//!   required (c-gomoku-cli).
//! * Every game begins with `START size` on the same process (no END in between) and the
//!   `INFO` set ([`Seat::start_game`]).
//! * A move is asked with `INFO time_left` then `BEGIN` / `BOARD` / `TURN`
//!   ([`Seat::ask_move`]); chatter (`MESSAGE`, `DEBUG`, `INFO`, blank) is skipped.

use std::time::{Duration, Instant};

use super::engine_process::{parse_move, EngineConfig, EngineError, EngineProcess, StderrMode};

/// A brain taking part in a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    /// Display name (unique within the match).
    pub name: String,
    /// Command line (split like a shell would, see
    /// [`split_command_line`](super::engine_process::split_command_line)).
    pub command: String,
    /// Extra `INFO key value` pairs sent after the standard set each game.
    pub info: Vec<(String, String)>,
}

/// What the brain answered to a move request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveReply {
    /// A line `x,y` (coordinates unchecked).
    Move(i64, i64),
    /// A non-chatter line that is not a move (strict replies only).
    Unparseable(String),
}

/// A seat: the spec, the current process and bookkeeping.
#[derive(Debug)]
pub struct Seat {
    spec: EngineSpec,
    process: Option<EngineProcess>,
}

impl Seat {
    /// A seat with no process yet.
    pub fn new(spec: EngineSpec) -> Seat {
        Seat {
            spec,
            process: None,
        }
    }

    /// The engine description.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Makes sure a live process exists: starts one (then `ABOUT`, answered or not by
    /// `about_wait`) if there is none or the last one is gone.
    pub fn ensure_running(&mut self, about_wait: Duration) -> Result<(), EngineError> {
        if let Some(p) = &mut self.process {
            if p.is_alive() {
                return Ok(());
            }
        }
        self.process = None;
        let mut config = EngineConfig::new(self.spec.command.clone());
        config.stderr = StderrMode::Discard;
        let mut process = EngineProcess::spawn(&config)?;
        match process.about(Instant::now() + about_wait) {
            Ok(_) | Err(EngineError::Timeout) => {}
            Err(e) => return Err(e),
        }
        self.process = Some(process);
        Ok(())
    }

    fn process(&mut self) -> Result<&mut EngineProcess, EngineError> {
        self.process
            .as_mut()
            .ok_or(EngineError::Exited { status: None })
    }

    /// Sends `START size`, waits for `OK` until `deadline` (other lines are skipped, a line
    /// starting with `ERROR` fails), then sends `info_lines` (each a full `INFO ...` line).
    /// Returns how long the START took.
    pub fn start_game(
        &mut self,
        size: usize,
        info_lines: &[String],
        deadline: Instant,
    ) -> Result<Duration, EngineError> {
        let p = self.process()?;
        p.send(&format!("START {size}"))?;
        let t0 = Instant::now();
        loop {
            let reply = p.read_reply(deadline)?;
            if reply.eq_ignore_ascii_case("OK") {
                break;
            }
            if reply.to_ascii_uppercase().starts_with("ERROR") {
                return Err(EngineError::Unexpected(reply));
            }
        }
        let took = t0.elapsed();
        for line in info_lines {
            p.send(line)?;
        }
        Ok(took)
    }

    /// Writes `lines` (a move request), then reads the reply before `deadline`, measured from
    /// the moment the last line was written. Non-move lines fail at once when `strict`
    /// (Piskvork) and are skipped otherwise (GomocupJudge, c-gomoku-cli). Returns the reply, the
    /// instant the request was complete and the instant the reply was read.
    pub fn ask_move(
        &mut self,
        lines: &[String],
        allowance: Duration,
        strict: bool,
    ) -> Result<(MoveReply, Instant, Instant), EngineError> {
        let p = self.process()?;
        for line in lines {
            p.send(line)?;
        }
        let sent = Instant::now();
        let deadline = sent + allowance;
        loop {
            let reply = p.read_reply(deadline)?;
            let got = Instant::now();
            if let Some((x, y)) = parse_move(&reply) {
                return Ok((MoveReply::Move(x, y), sent, got));
            }
            if strict {
                return Ok((MoveReply::Unparseable(reply), sent, got));
            }
        }
    }

    /// Sends `lines` and returns the next reply line that is not chatter (`MESSAGE`, `DEBUG`,
    /// …), with the send and receive instants: the opening answers (`SWAP2BOARD`), which are
    /// not single moves.
    pub fn ask_line(
        &mut self,
        lines: &[String],
        allowance: Duration,
    ) -> Result<(String, Instant, Instant), EngineError> {
        let p = self.process()?;
        for line in lines {
            p.send(line)?;
        }
        let sent = Instant::now();
        let reply = p.read_reply(sent + allowance)?;
        Ok((reply, sent, Instant::now()))
    }

    /// Kills the process (its whole group), if any. The next game starts a new one.
    pub fn kill(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
    }

    /// Sends `END`, waits up to `grace`, then kills what is left.
    pub fn shutdown(&mut self, grace: Duration) {
        if let Some(mut p) = self.process.take() {
            p.shutdown(grace);
        }
    }
}

impl Drop for Seat {
    fn drop(&mut self) {
        self.shutdown(Duration::from_millis(500));
    }
}
