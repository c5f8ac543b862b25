//! Driving one external Gomocup brain process.
//!
//! * The command line is split like a shell would for simple cases
//!   ([`split_command_line`]) and started with piped stdin / stdout / stderr,
//!   optionally in another working directory.
//! * One reader thread per output pipe feeds a channel, so every read has a
//!   deadline (`recv_timeout`) and a hung brain never blocks the manager.
//! * Chatter lines (`MESSAGE`, `DEBUG`, `INFO`, blank) are skipped while a
//!   reply is awaited, as managers do, and collected for the log
//!   ([`EngineProcess::take_messages`]); stderr lines are collected apart
//!   ([`EngineProcess::take_stderr`]).
//! * End of stdout means the brain is gone: the process (group) is killed
//!   and reaped and [`EngineError::Exited`] reports its exit status.
//! * On Unix the brain runs in its own process group, and
//!   [`EngineProcess::kill`] / drop kill the whole group (helpers the brain
//!   spawned included) and reap the process. [`EngineProcess::suspend`] /
//!   [`EngineProcess::resume`] send SIGSTOP / SIGCONT to the group, as
//!   GomocupJudge does between moves.
//! * On Windows the brain runs in a Job Object (`tools::job`): [`EngineProcess::kill`] / drop
//!   end every process in it, so a brain started through a wrapper leaves nothing behind.
//!   Suspending is not offered there (Windows has no documented call that stops a process).
//!
//! Nothing here prints anything; all diagnostics are returned or collected.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

/// At most this many chatter / stderr / transcript lines are kept per
/// buffer; later ones are dropped (a flooding brain cannot exhaust memory).
pub const MAX_LOG_LINES: usize = 100_000;

/// Line terminator used when writing to the brain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LineEnding {
    /// `\n` (c-gomoku-cli on Linux, Yixin-Board).
    #[default]
    Lf,
    /// `\r\n` (Piskvork, GomocupJudge).
    CrLf,
}

impl LineEnding {
    /// The terminator bytes as text.
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        }
    }
}

/// What happens to the brain's stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StderrMode {
    /// Read it line by line and keep it ([`EngineProcess::take_stderr`]).
    #[default]
    Capture,
    /// Send it to the null device.
    Discard,
}

/// How to start a brain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineConfig {
    /// Command line, e.g. `./pbrain-x --hash 64` or `"my brain/b" -q`.
    pub command: String,
    /// Working directory of the brain (default: ours). A relative program
    /// path containing `/` is resolved against OUR current directory first,
    /// so `./b` keeps meaning the same file.
    pub working_dir: Option<PathBuf>,
    /// Line terminator for commands.
    pub line_ending: LineEnding,
    /// Treatment of stderr.
    pub stderr: StderrMode,
    /// Keep a full transcript of both directions ([`EngineProcess::transcript`]).
    pub keep_transcript: bool,
}

impl EngineConfig {
    /// Defaults: our working directory, LF, stderr captured, no transcript.
    pub fn new(command: impl Into<String>) -> Self {
        EngineConfig {
            command: command.into(),
            working_dir: None,
            line_ending: LineEnding::Lf,
            stderr: StderrMode::Capture,
            keep_transcript: false,
        }
    }
}

/// Errors while driving a brain.
#[derive(Debug)]
pub enum EngineError {
    /// The command line is empty or badly quoted.
    BadCommand(String),
    /// The process could not be started.
    Spawn(String),
    /// No answer before the deadline (the process is still running).
    Timeout,
    /// The process is gone (stdout closed or write failed); the exit status
    /// if it could be collected.
    Exited {
        /// Exit status of the process, when reaped.
        status: Option<ExitStatus>,
    },
    /// A reply other than the expected one (strict policy), as received.
    Unexpected(String),
    /// Other I/O failure.
    Io(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::BadCommand(m) => write!(f, "bad engine command: {m}"),
            EngineError::Spawn(m) => write!(f, "cannot start engine: {m}"),
            EngineError::Timeout => write!(f, "engine did not answer in time"),
            EngineError::Exited { status: Some(s) } => write!(f, "engine exited ({s})"),
            EngineError::Exited { status: None } => write!(f, "engine exited"),
            EngineError::Unexpected(l) => write!(f, "unexpected engine output `{l}`"),
            EngineError::Io(m) => write!(f, "engine I/O error: {m}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// What to do with a non-chatter line that is not the awaited reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReplyPolicy {
    /// Ignore it (collected with the messages) and keep waiting until the
    /// deadline: GomocupJudge and c-gomoku-cli behaviour.
    #[default]
    Lenient,
    /// Fail at once with [`EngineError::Unexpected`]: Piskvork behaviour.
    Strict,
}

/// Direction of a transcript line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Written by us to the brain.
    ToEngine,
    /// Read from the brain's stdout.
    FromEngine,
    /// Read from the brain's stderr.
    Stderr,
}

/// One line of the protocol transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranscriptLine {
    /// Time since the process was started (when the line was handled).
    pub elapsed: Duration,
    /// Who wrote it.
    pub direction: Direction,
    /// The line without terminator.
    pub text: String,
}

/// Kinds of chatter lines a manager skips while waiting for a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatterKind {
    /// `MESSAGE ...`
    Message,
    /// `DEBUG ...`
    Debug,
    /// `INFO ...` (some brains echo settings)
    Info,
    /// An empty line.
    Blank,
}

/// Classifies a chatter line (case-insensitive keyword followed by a blank
/// or the end of the line); `None` for anything else.
pub fn chatter_kind(line: &str) -> Option<ChatterKind> {
    let t = line.trim();
    if t.is_empty() {
        return Some(ChatterKind::Blank);
    }
    let word = t.split_whitespace().next().unwrap_or_default();
    if word.eq_ignore_ascii_case("MESSAGE") {
        Some(ChatterKind::Message)
    } else if word.eq_ignore_ascii_case("DEBUG") {
        Some(ChatterKind::Debug)
    } else if word.eq_ignore_ascii_case("INFO") {
        Some(ChatterKind::Info)
    } else {
        None
    }
}

/// Parses a move reply `x,y`, tolerating blanks around both numbers
/// (` 7 , 8 `). Coordinates are returned signed and unchecked so the caller
/// can tell off-board (`-1,5`, `25,3`) from unparseable (`None`).
pub fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (a, b) = line.trim().split_once(',')?;
    let x = a.trim().parse::<i64>().ok()?;
    let y = b.trim().parse::<i64>().ok()?;
    Some((x, y))
}

/// Parses an ABOUT reply `name="X", version="1.0", ...` into lower-cased
/// keys and values. Quoted values may contain commas; unquoted values run
/// to the next comma. Malformed pieces are skipped.
pub fn parse_about(line: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let chars: Vec<char> = line.trim().chars().collect();
    let mut i = 0;
    while i < chars.len() {
        while i < chars.len() && (chars[i] == ',' || chars[i].is_whitespace()) {
            i += 1;
        }
        let key_start = i;
        while i < chars.len() && chars[i] != '=' && chars[i] != ',' {
            i += 1;
        }
        if i >= chars.len() || chars[i] == ',' {
            continue; // a piece without '=': skip it
        }
        let key: String = chars[key_start..i]
            .iter()
            .collect::<String>()
            .trim()
            .to_lowercase();
        i += 1; // '='
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        let value: String = if i < chars.len() && chars[i] == '"' {
            i += 1;
            let start = i;
            while i < chars.len() && chars[i] != '"' {
                i += 1;
            }
            let v = chars[start..i].iter().collect();
            i += 1; // closing quote (or past the end)
            v
        } else {
            let start = i;
            while i < chars.len() && chars[i] != ',' {
                i += 1;
            }
            chars[start..i]
                .iter()
                .collect::<String>()
                .trim()
                .to_string()
        };
        if !key.is_empty() {
            out.insert(key, value);
        }
    }
    out
}

/// Splits a command line into program and arguments like a POSIX shell
/// does for simple cases: blanks separate words; `'...'` is literal;
/// `"..."` allows `\"`, `\\` (and `\$`, `` \` ``) escapes; a backslash
/// outside quotes escapes the next character. No variables, globs or
/// redirections.
pub fn split_command_line(cmd: &str) -> Result<Vec<String>, EngineError> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut it = cmd.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match it.next() {
                        Some('\'') => break,
                        Some(ch) => cur.push(ch),
                        None => {
                            return Err(EngineError::BadCommand(format!(
                                "unterminated ' in `{cmd}`"
                            )))
                        }
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match it.next() {
                        Some('"') => break,
                        Some('\\') => match it.peek() {
                            Some(&n) if matches!(n, '"' | '\\' | '$' | '`') => {
                                cur.push(n);
                                it.next();
                            }
                            _ => cur.push('\\'),
                        },
                        Some(ch) => cur.push(ch),
                        None => {
                            return Err(EngineError::BadCommand(format!(
                                "unterminated \" in `{cmd}`"
                            )))
                        }
                    }
                }
            }
            '\\' => {
                in_word = true;
                match it.next() {
                    Some(n) => cur.push(n),
                    None => cur.push('\\'),
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err(EngineError::BadCommand("empty command".into()));
    }
    Ok(words)
}

/// Events sent by the reader threads.
enum Event {
    Stdout(String),
    Stderr(String),
    StdoutEof,
}

/// Reads `\n`-terminated lines (CR stripped, invalid UTF-8 replaced) and
/// forwards them; on end of file or error sends `eof` (if any) and stops.
fn spawn_reader<R: Read + Send + 'static>(
    name: String,
    pipe: R,
    tx: Sender<Event>,
    wrap: fn(String) -> Event,
    eof: Option<fn() -> Event>,
) -> std::io::Result<()> {
    std::thread::Builder::new().name(name).spawn(move || {
        let mut reader = BufReader::new(pipe);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    while matches!(buf.last(), Some(b'\n' | b'\r')) {
                        buf.pop();
                    }
                    let line = String::from_utf8_lossy(&buf).into_owned();
                    if tx.send(wrap(line)).is_err() {
                        return;
                    }
                }
            }
        }
        if let Some(e) = eof {
            let _ = tx.send(e());
        }
    })?;
    Ok(())
}

/// A running brain process.
pub struct EngineProcess {
    child: Child,
    /// The job holding the brain and its children (Windows; `None` if it could not be made).
    #[cfg(windows)]
    job: Option<super::job::Job>,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    line_ending: LineEnding,
    started: Instant,
    /// Stdout lines pulled from the channel but not consumed yet.
    pending: VecDeque<String>,
    stdout_closed: bool,
    status: Option<ExitStatus>,
    reaped: bool,
    messages: Vec<String>,
    stderr_lines: Vec<String>,
    transcript: Option<Vec<TranscriptLine>>,
}

impl fmt::Debug for EngineProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EngineProcess")
            .field("pid", &self.child.id())
            .field("stdout_closed", &self.stdout_closed)
            .field("status", &self.status)
            .finish()
    }
}

fn push_capped(v: &mut Vec<String>, s: String) {
    if v.len() < MAX_LOG_LINES {
        v.push(s);
    }
}

impl EngineProcess {
    /// Starts the brain described by `config`.
    pub fn spawn(config: &EngineConfig) -> Result<Self, EngineError> {
        let words = split_command_line(&config.command)?;
        let mut program = PathBuf::from(&words[0]);
        if config.working_dir.is_some() && program.is_relative() && program.components().count() > 1
        {
            let here = std::env::current_dir().map_err(|e| EngineError::Spawn(e.to_string()))?;
            program = here.join(program);
        }
        let mut cmd = Command::new(&program);
        cmd.args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match config.stderr {
                StderrMode::Capture => Stdio::piped(),
                StderrMode::Discard => Stdio::null(),
            });
        if let Some(dir) = &config.working_dir {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", program.display())))?;
        // The job is made right after the start: a brain creates its helpers later than that.
        #[cfg(windows)]
        let job = super::job::Job::holding(&child).ok();
        let pid = child.id();
        let (tx, rx) = mpsc::channel();
        let stdin = child.stdin.take();
        let started = Instant::now();
        let mut setup = || -> std::io::Result<()> {
            if let Some(out) = child.stdout.take() {
                spawn_reader(
                    format!("engine-{pid}-stdout"),
                    out,
                    tx.clone(),
                    Event::Stdout,
                    Some(|| Event::StdoutEof),
                )?;
            }
            if let Some(err) = child.stderr.take() {
                spawn_reader(
                    format!("engine-{pid}-stderr"),
                    err,
                    tx.clone(),
                    Event::Stderr,
                    None,
                )?;
            }
            Ok(())
        };
        let setup_result = setup();
        let mut engine = EngineProcess {
            child,
            #[cfg(windows)]
            job,
            stdin,
            rx,
            line_ending: config.line_ending,
            started,
            pending: VecDeque::new(),
            stdout_closed: false,
            status: None,
            reaped: false,
            messages: Vec::new(),
            stderr_lines: Vec::new(),
            transcript: config.keep_transcript.then(Vec::new),
        };
        if let Err(e) = setup_result {
            engine.kill();
            return Err(EngineError::Spawn(format!(
                "cannot start reader thread: {e}"
            )));
        }
        Ok(engine)
    }

    /// Process id of the brain (also its process group id on Unix).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn log(&mut self, direction: Direction, text: &str) {
        let elapsed = self.started.elapsed();
        if let Some(t) = &mut self.transcript {
            if t.len() < MAX_LOG_LINES {
                t.push(TranscriptLine {
                    elapsed,
                    direction,
                    text: text.to_string(),
                });
            }
        }
    }

    /// Writes one line (the configured terminator is appended) and flushes.
    /// A closed pipe means the brain is gone: it is reaped and
    /// [`EngineError::Exited`] returned.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.log(Direction::ToEngine, line);
        let data = format!("{line}{}", self.line_ending.as_str());
        let result = match &mut self.stdin {
            Some(stdin) => stdin.write_all(data.as_bytes()).and_then(|_| stdin.flush()),
            None => Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe)),
        };
        match result {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe || self.reaped => {
                self.stdin = None;
                self.finish_dead();
                Err(EngineError::Exited {
                    status: self.status,
                })
            }
            Err(e) => Err(EngineError::Io(e.to_string())),
        }
    }

    /// Handles one channel event; returns a stdout line if it was one.
    fn absorb(&mut self, ev: Event) -> Option<String> {
        match ev {
            Event::Stdout(l) => {
                self.log(Direction::FromEngine, &l);
                Some(l)
            }
            Event::Stderr(l) => {
                self.log(Direction::Stderr, &l);
                push_capped(&mut self.stderr_lines, l);
                None
            }
            Event::StdoutEof => {
                self.stdout_closed = true;
                None
            }
        }
    }

    /// Pulls everything already received without blocking (stdout lines are
    /// queued for the next read).
    pub fn poll(&mut self) {
        loop {
            match self.rx.try_recv() {
                Ok(ev) => {
                    if let Some(l) = self.absorb(ev) {
                        self.pending.push_back(l);
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.stdout_closed = true;
                    break;
                }
            }
        }
    }

    /// Reads the next raw stdout line (terminator stripped) before
    /// `deadline`. Stderr lines met on the way are collected.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        loop {
            if let Some(l) = self.pending.pop_front() {
                return Ok(l);
            }
            if self.stdout_closed || self.reaped {
                self.finish_dead();
                return Err(EngineError::Exited {
                    status: self.status,
                });
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineError::Timeout);
            }
            match self.rx.recv_timeout(deadline - now) {
                Ok(ev) => {
                    if let Some(l) = self.absorb(ev) {
                        return Ok(l);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(EngineError::Timeout),
                Err(RecvTimeoutError::Disconnected) => self.stdout_closed = true,
            }
        }
    }

    /// Reads the next non-chatter line (trimmed) before `deadline`;
    /// `MESSAGE` / `DEBUG` / `INFO` lines are collected in the messages and
    /// blank lines ignored.
    pub fn read_reply(&mut self, deadline: Instant) -> Result<String, EngineError> {
        loop {
            let line = self.read_line(deadline)?;
            match chatter_kind(&line) {
                Some(ChatterKind::Blank) => {}
                Some(_) => push_capped(&mut self.messages, line),
                None => return Ok(line.trim().to_string()),
            }
        }
    }

    /// Waits for `OK` (case-insensitive) before `deadline`.
    pub fn wait_for_ok(
        &mut self,
        deadline: Instant,
        policy: ReplyPolicy,
    ) -> Result<(), EngineError> {
        loop {
            let reply = self.read_reply(deadline)?;
            if reply.eq_ignore_ascii_case("OK") {
                return Ok(());
            }
            match policy {
                ReplyPolicy::Strict => return Err(EngineError::Unexpected(reply)),
                ReplyPolicy::Lenient => push_capped(&mut self.messages, reply),
            }
        }
    }

    /// Waits for a move `x,y` before `deadline` (see [`parse_move`]).
    pub fn read_move(
        &mut self,
        deadline: Instant,
        policy: ReplyPolicy,
    ) -> Result<(i64, i64), EngineError> {
        loop {
            let reply = self.read_reply(deadline)?;
            if let Some(m) = parse_move(&reply) {
                return Ok(m);
            }
            match policy {
                ReplyPolicy::Strict => return Err(EngineError::Unexpected(reply)),
                ReplyPolicy::Lenient => push_capped(&mut self.messages, reply),
            }
        }
    }

    /// Sends `ABOUT` and parses the one-line answer (see [`parse_about`]).
    pub fn about(&mut self, deadline: Instant) -> Result<BTreeMap<String, String>, EngineError> {
        self.send("ABOUT")?;
        let reply = self.read_reply(deadline)?;
        Ok(parse_about(&reply))
    }

    /// Chatter and ignored lines collected so far (emptied).
    pub fn take_messages(&mut self) -> Vec<String> {
        std::mem::take(&mut self.messages)
    }

    /// Stderr lines collected so far (emptied). Call [`Self::poll`] first to
    /// pick up lines not yet pulled from the channel.
    pub fn take_stderr(&mut self) -> Vec<String> {
        std::mem::take(&mut self.stderr_lines)
    }

    /// The transcript, if enabled in the config.
    pub fn transcript(&self) -> Option<&[TranscriptLine]> {
        self.transcript.as_deref()
    }

    /// Exit status, once the process has been reaped.
    pub fn exit_status(&self) -> Option<ExitStatus> {
        self.status
    }

    /// True while the process has not exited (a stopped process is alive).
    pub fn is_alive(&mut self) -> bool {
        !self.reaped && !self.leader_exited()
    }

    /// Whether the main process has exited, without reaping it on Unix (so
    /// its pid, which is also the group id, cannot be reused meanwhile).
    fn leader_exited(&mut self) -> bool {
        if self.reaped {
            return true;
        }
        #[cfg(unix)]
        {
            let pid: libc::id_t = self.child.id();
            // SAFETY: plain FFI call with a zeroed out-parameter; WNOWAIT
            // leaves the child waitable for std's `wait` later.
            unsafe {
                let mut info: libc::siginfo_t = std::mem::zeroed();
                let r = libc::waitid(
                    libc::P_PID,
                    pid,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                );
                r == 0 && info.si_pid() != 0
            }
        }
        #[cfg(not(unix))]
        {
            match self.child.try_wait() {
                Ok(Some(s)) => {
                    self.status = Some(s);
                    self.reaped = true;
                    true
                }
                _ => false,
            }
        }
    }

    /// Sends a signal to the brain's process group (Unix), only while the
    /// leader is not reaped (so the group id is still ours).
    #[cfg(unix)]
    fn signal_group(&self, sig: libc::c_int) -> bool {
        if self.reaped {
            return false;
        }
        let Ok(pgid) = libc::pid_t::try_from(self.child.id()) else {
            return false;
        };
        // SAFETY: plain FFI call; the group id is our unreaped child's pid.
        unsafe { libc::kill(-pgid, sig) == 0 }
    }

    /// The brain is gone (stdout closed or broken pipe): give it a moment
    /// to exit by itself (to keep its real exit status), then kill what is
    /// left of the group and reap.
    fn finish_dead(&mut self) {
        if self.reaped {
            return;
        }
        let until = Instant::now() + Duration::from_millis(500);
        while !self.leader_exited() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Kills the brain (its whole process group on Unix, its job on Windows) and reaps it.
    /// Idempotent; never blocks for long.
    pub fn kill(&mut self) {
        self.stdin = None;
        if self.reaped {
            return;
        }
        #[cfg(unix)]
        {
            self.signal_group(libc::SIGKILL);
        }
        #[cfg(windows)]
        if let Some(job) = &self.job {
            job.terminate();
        }
        let _ = self.child.kill();
        if let Ok(s) = self.child.wait() {
            self.status = Some(s);
        }
        self.reaped = true;
    }

    /// Polite stop: sends `END`, closes stdin, waits up to `grace` for the
    /// process to exit, then kills what is left (see [`Self::kill`]).
    /// Returns the exit status if known.
    pub fn shutdown(&mut self, grace: Duration) -> Option<ExitStatus> {
        if !self.reaped {
            let _ = self.send("END");
            self.stdin = None;
            let until = Instant::now() + grace;
            while !self.leader_exited() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill();
        self.status
    }

    /// Stops the brain's process group (SIGSTOP), as GomocupJudge does
    /// while the opponent thinks. Unix only.
    pub fn suspend(&mut self) -> Result<(), EngineError> {
        #[cfg(unix)]
        {
            if self.signal_group(libc::SIGSTOP) {
                return Ok(());
            }
        }
        Err(EngineError::Io("cannot suspend the engine".into()))
    }

    /// Continues a suspended brain (SIGCONT). Unix only.
    pub fn resume(&mut self) -> Result<(), EngineError> {
        #[cfg(unix)]
        {
            if self.signal_group(libc::SIGCONT) {
                return Ok(());
            }
        }
        Err(EngineError::Io("cannot resume the engine".into()))
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// Members of process group `pgid` that are not zombies (Linux /proc);
    /// killed processes may linger as zombies until init reaps them.
    fn live_members(pgid: i32) -> usize {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return 0;
        };
        dir.filter_map(|e| e.ok())
            .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
            .filter(|stat| {
                // pid (comm) state ppid pgrp ...; comm may contain blanks.
                let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
                    return false;
                };
                let f: Vec<&str> = rest.split_whitespace().collect();
                f.len() > 2 && f[0] != "Z" && f[2] == pgid.to_string()
            })
            .count()
    }

    /// Waits up to 5 s for the group to have no live member.
    fn group_gone(pgid: i32) -> bool {
        let until = Instant::now() + Duration::from_secs(5);
        while Instant::now() < until {
            if live_members(pgid) == 0 {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    fn secs(s: f64) -> Instant {
        Instant::now() + Duration::from_secs_f64(s)
    }

    fn sh(script: &str) -> EngineProcess {
        let cfg = EngineConfig::new(format!("sh -c '{script}'"));
        EngineProcess::spawn(&cfg).unwrap()
    }

    #[test]
    fn split_like_a_shell() {
        let s = |c: &str| split_command_line(c).unwrap();
        assert_eq!(s("./b --flag"), vec!["./b", "--flag"]);
        assert_eq!(s("  a   b\tc "), vec!["a", "b", "c"]);
        assert_eq!(
            s(r#""my brain/b" -x 'y z'"#),
            vec!["my brain/b", "-x", "y z"]
        );
        assert_eq!(s(r#"a"b c"d"#), vec!["ab cd"]);
        assert_eq!(
            s(r#"x "q\"uote\\" 'lit\eral'"#),
            vec!["x", "q\"uote\\", "lit\\eral"]
        );
        assert_eq!(s(r"a\ b c"), vec!["a b", "c"]);
        assert_eq!(s("a ''"), vec!["a", ""]);
        assert!(split_command_line("   ").is_err());
        assert!(split_command_line("a 'b").is_err());
        assert!(split_command_line("a \"b").is_err());
    }

    #[test]
    fn move_about_and_chatter_parsing() {
        assert_eq!(parse_move("7,8"), Some((7, 8)));
        assert_eq!(parse_move(" 7 , 8 "), Some((7, 8)));
        assert_eq!(parse_move("-1,25"), Some((-1, 25)));
        assert_eq!(parse_move("7,8,9"), None);
        assert_eq!(parse_move("7 8"), None);
        assert_eq!(parse_move("OK"), None);
        assert_eq!(parse_move("SUGGEST 7,8"), None);
        let a = parse_about(r#"name="Rapfi", version="1.2, beta", author="A B", country="China""#);
        assert_eq!(a.get("name").map(String::as_str), Some("Rapfi"));
        assert_eq!(a.get("version").map(String::as_str), Some("1.2, beta"));
        assert_eq!(a.get("author").map(String::as_str), Some("A B"));
        assert_eq!(a.len(), 4);
        let b = parse_about("Name=foo,VERSION = 3 , junk, x=\"unterminated");
        assert_eq!(b.get("name").map(String::as_str), Some("foo"));
        assert_eq!(b.get("version").map(String::as_str), Some("3"));
        assert_eq!(b.get("x").map(String::as_str), Some("unterminated"));
        assert!(parse_about("").is_empty());
        assert_eq!(chatter_kind("MESSAGE hello"), Some(ChatterKind::Message));
        assert_eq!(chatter_kind("debug"), Some(ChatterKind::Debug));
        assert_eq!(chatter_kind("INFO x 1"), Some(ChatterKind::Info));
        assert_eq!(chatter_kind("  "), Some(ChatterKind::Blank));
        assert_eq!(chatter_kind("MESSAGES"), None);
        assert_eq!(chatter_kind("7,7"), None);
    }

    #[test]
    fn ok_then_hang_times_out_and_kill_reaps_the_group() {
        let mut e = sh("read l; echo OK; read l; sleep 1000");
        e.send("START 15").unwrap();
        e.wait_for_ok(secs(10.0), ReplyPolicy::Strict).unwrap();
        e.send("BEGIN").unwrap();
        let t0 = Instant::now();
        let r = e.read_move(secs(2.0), ReplyPolicy::Lenient);
        let waited = t0.elapsed();
        assert!(matches!(r, Err(EngineError::Timeout)), "{r:?}");
        assert!(waited >= Duration::from_millis(1900), "{waited:?}");
        assert!(waited < Duration::from_secs(10), "{waited:?}");
        assert!(e.is_alive());
        let pgid = e.pid() as i32;
        assert!(
            live_members(pgid) >= 1,
            "the /proc probe must see the running group"
        );
        let t1 = Instant::now();
        e.kill();
        assert!(t1.elapsed() < Duration::from_secs(10));
        assert!(!e.is_alive());
        assert!(e.exit_status().is_some());
        // The `sleep` grandchild went with the group: nobody is left in it.
        assert!(
            group_gone(pgid),
            "process group {pgid} still has live members"
        );
        // Further reads report the exit, never hang.
        assert!(matches!(
            e.read_line(secs(5.0)),
            Err(EngineError::Exited { .. })
        ));
        e.kill(); // idempotent
    }

    #[test]
    fn exit_is_detected_with_its_status() {
        let mut e = sh("read l; exit 3");
        e.send("START 15").unwrap();
        let t0 = Instant::now();
        let r = e.read_reply(secs(8.0));
        assert!(t0.elapsed() < Duration::from_secs(8));
        match r {
            Err(EngineError::Exited { status: Some(s) }) => assert_eq!(s.code(), Some(3)),
            other => panic!("expected exit, got {other:?}"),
        }
        assert!(!e.is_alive());
        // Writing to a dead engine is reported as an exit, not a panic.
        assert!(matches!(
            e.send("TURN 1,1"),
            Err(EngineError::Exited { .. })
        ));
    }

    #[test]
    fn crash_by_signal_is_an_exit_without_code() {
        let mut e = sh("kill -9 $$");
        let r = e.read_line(secs(8.0));
        match r {
            Err(EngineError::Exited { status: Some(s) }) => assert_eq!(s.code(), None),
            other => panic!("expected exit, got {other:?}"),
        }
    }

    #[test]
    fn chatter_is_skipped_and_collected() {
        let mut e =
            sh(r#"read l; echo "MESSAGE thinking"; echo "DEBUG d=3"; echo; printf " 7 , 8 \r\n""#);
        e.send("BEGIN").unwrap();
        assert_eq!(e.read_move(secs(8.0), ReplyPolicy::Strict).unwrap(), (7, 8));
        assert_eq!(e.take_messages(), vec!["MESSAGE thinking", "DEBUG d=3"]);
        assert!(e.take_messages().is_empty());
    }

    #[test]
    fn strict_and_lenient_policies() {
        let script = r#"read l; echo garbage; echo 3,4; read l; echo UNKNOWN x; echo ok"#;
        let mut e = sh(script);
        e.send("BEGIN").unwrap();
        match e.read_move(secs(8.0), ReplyPolicy::Strict) {
            Err(EngineError::Unexpected(l)) => assert_eq!(l, "garbage"),
            other => panic!("{other:?}"),
        }
        let mut e = sh(script);
        e.send("BEGIN").unwrap();
        assert_eq!(
            e.read_move(secs(8.0), ReplyPolicy::Lenient).unwrap(),
            (3, 4)
        );
        assert_eq!(e.take_messages(), vec!["garbage"]);
        e.send("START 15").unwrap();
        e.wait_for_ok(secs(8.0), ReplyPolicy::Lenient).unwrap();
        assert_eq!(e.take_messages(), vec!["UNKNOWN x"]);
    }

    #[test]
    fn about_line() {
        let mut e = sh(r#"read l; echo "name=\"Foo\", version=\"1.0\", author=\"X, Y\"""#);
        let a = e.about(secs(8.0)).unwrap();
        assert_eq!(a.get("name").map(String::as_str), Some("Foo"));
        assert_eq!(a.get("author").map(String::as_str), Some("X, Y"));
    }

    #[test]
    fn line_endings_reach_the_engine() {
        // `read` keeps a CR, so the echoed length tells which ending was sent.
        for (ending, len) in [(LineEnding::Lf, "3"), (LineEnding::CrLf, "4")] {
            let mut cfg = EngineConfig::new(r#"sh -c 'read -r l; echo "${#l}"'"#);
            cfg.line_ending = ending;
            let mut e = EngineProcess::spawn(&cfg).unwrap();
            e.send("ABC").unwrap();
            assert_eq!(e.read_line(secs(8.0)).unwrap(), len, "{ending:?}");
        }
    }

    #[test]
    fn working_dir_stderr_and_transcript() {
        let dir = std::env::temp_dir().canonicalize().unwrap();
        let mut cfg = EngineConfig::new("sh -c 'echo oops >&2; pwd -P; read l'");
        cfg.working_dir = Some(dir.clone());
        cfg.keep_transcript = true;
        let mut e = EngineProcess::spawn(&cfg).unwrap();
        let pwd = e.read_line(secs(8.0)).unwrap();
        assert_eq!(PathBuf::from(pwd), dir);
        let until = secs(8.0);
        let mut err = Vec::new();
        while err.is_empty() && Instant::now() < until {
            e.poll();
            err = e.take_stderr();
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(err, vec!["oops"]);
        e.send("END").unwrap();
        let t = e.transcript().unwrap();
        assert!(t.iter().any(|l| l.direction == Direction::FromEngine));
        assert!(t
            .iter()
            .any(|l| l.direction == Direction::Stderr && l.text == "oops"));
        assert_eq!(t.last().map(|l| l.text.as_str()), Some("END"));
    }

    #[test]
    fn spawn_errors() {
        let r = EngineProcess::spawn(&EngineConfig::new("/nonexistent/pbrain-nothing"));
        assert!(matches!(r, Err(EngineError::Spawn(_))), "{r:?}");
        let r = EngineProcess::spawn(&EngineConfig::new(""));
        assert!(matches!(r, Err(EngineError::BadCommand(_))), "{r:?}");
    }

    #[test]
    fn shutdown_sends_end_and_keeps_exit_code() {
        let mut e = sh(r#"read l; [ "$l" = END ] && exit 7; exit 1"#);
        let t0 = Instant::now();
        let st = e.shutdown(Duration::from_secs(5)).unwrap();
        assert_eq!(st.code(), Some(7));
        assert!(t0.elapsed() < Duration::from_secs(5));
        // An engine ignoring END is killed after the grace period.
        let mut e = sh("sleep 1000");
        let t0 = Instant::now();
        let st = e.shutdown(Duration::from_millis(300)).unwrap();
        assert_eq!(st.code(), None);
        assert!(t0.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn suspend_blocks_answers_until_resume() {
        let mut e = sh("while read l; do echo \"$l\"; done");
        e.send("a").unwrap();
        assert_eq!(e.read_line(secs(8.0)).unwrap(), "a");
        e.suspend().unwrap();
        e.send("b").unwrap();
        assert!(matches!(e.read_line(secs(1.0)), Err(EngineError::Timeout)));
        e.resume().unwrap();
        assert_eq!(e.read_line(secs(8.0)).unwrap(), "b");
    }

    #[test]
    fn drop_kills_a_hung_engine() {
        let e = sh("sleep 1000");
        let pgid = e.pid() as i32;
        assert!(live_members(pgid) >= 1);
        let t0 = Instant::now();
        drop(e);
        assert!(t0.elapsed() < Duration::from_secs(10));
        assert!(
            group_gone(pgid),
            "process group {pgid} still has live members"
        );
    }
}
