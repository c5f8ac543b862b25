//! `pbrain-tianyuan demo`: watch Tianyuan play itself.
//!
//! Two copies of this very executable are started as brains and driven through the Gomocup
//! protocol exactly as a manager would (`START`, `INFO`, `BEGIN`, then `TURN` for every move); the
//! demo keeps the referee's board, checks every move (on the board, empty, no renju foul), and
//! prints the board after each one until a win, a full board or the move limit.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::core::notation::format_renju;
use crate::core::{Board, MoveVerdict, Rule};
use crate::tools::engine_process::{EngineConfig, EngineProcess, ReplyPolicy};

/// Options of the `demo` subcommand.
#[derive(Debug, Clone, clap::Args)]
pub struct DemoOptions {
    /// Board size (5..22).
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Gomocup rule code: 0 freestyle, 1 standard, 4 renju, 8 caro, 9 caro (exact five).
    #[arg(long, default_value_t = 0)]
    pub rule: i64,
    /// Per-move time limit sent as `INFO timeout_turn` (ms).
    #[arg(long, default_value_t = 1000)]
    pub turn_ms: u64,
    /// Stop after this many moves (0 = until the board is full).
    #[arg(long, default_value_t = 0)]
    pub max_moves: usize,
    /// The brain executable (default: this one).
    #[arg(long)]
    pub brain: Option<PathBuf>,
    /// Extra arguments for the brain, e.g. `--weak random` (one string, split like a shell).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub brain_args: String,
}

fn quote(path: &std::path::Path) -> String {
    format!("\"{}\"", path.display().to_string().replace('"', "\\\""))
}

/// Starts one brain and sends it the game set-up (`START`, `INFO …`).
fn start_brain(cmd: &str, opts: &DemoOptions) -> Result<EngineProcess> {
    let mut e = EngineProcess::spawn(&EngineConfig::new(cmd)).context("starting the brain")?;
    e.send(&format!("START {}", opts.size))?;
    e.wait_for_ok(Instant::now() + Duration::from_secs(5), ReplyPolicy::Strict)
        .context("waiting for OK after START")?;
    for info in [
        format!("INFO rule {}", opts.rule),
        format!("INFO timeout_turn {}", opts.turn_ms),
        "INFO timeout_match 0".to_owned(),
        "INFO time_left 2147483647".to_owned(),
        "INFO max_memory 367001600".to_owned(),
        "INFO game_type 1".to_owned(),
    ] {
        e.send(&info)?;
    }
    Ok(e)
}

/// Plays one self-game and prints it.
pub fn run_demo(opts: &DemoOptions) -> Result<()> {
    let rule = Rule::from_gomocup_code(opts.rule)
        .with_context(|| format!("unknown rule code {}", opts.rule))?;
    let mut board = Board::new(opts.size, opts.size, rule)
        .map_err(|e| anyhow::anyhow!("board size {}: {e}", opts.size))?;
    let exe = match &opts.brain {
        Some(p) => p.clone(),
        None => std::env::current_exe().context("locating this executable")?,
    };
    let cmd = format!("{} {}", quote(&exe), opts.brain_args);
    let mut brains = [start_brain(&cmd, opts)?, start_brain(&cmd, opts)?];
    println!(
        "Tianyuan demo: {}x{} {rule}, {} ms per move, brain {}",
        opts.size,
        opts.size,
        opts.turn_ms,
        exe.display()
    );
    let limit = if opts.max_moves == 0 {
        opts.size * opts.size
    } else {
        opts.max_moves
    };
    let mut last: Option<(usize, usize)> = None;
    let result = loop {
        let n = board.stone_count();
        if n >= limit {
            break "move limit reached".to_owned();
        }
        let color = board.side_to_move();
        let brain = &mut brains[color.index()];
        let command = match last {
            None => "BEGIN".to_owned(),
            Some((x, y)) => format!("TURN {x},{y}"),
        };
        let t = Instant::now();
        brain.send(&command)?;
        let deadline = t + Duration::from_millis(opts.turn_ms) + Duration::from_secs(2);
        let (x, y) = brain
            .read_move(deadline, ReplyPolicy::Strict)
            .with_context(|| format!("{color:?}'s move"))?;
        let ms = t.elapsed().as_millis();
        let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) else {
            bail!("{color:?} played off the board: {x},{y}");
        };
        let Some(p) = board.pos(x, y).filter(|&p| board.is_empty(p)) else {
            bail!("{color:?} played an illegal move: {x},{y}");
        };
        let foul = board.verdict(p) == MoveVerdict::Foul;
        board.make_move(p);
        last = Some((x, y));
        println!(
            "\nMove {}: {color:?} {} ({x},{y} on the wire), {ms} ms",
            n + 1,
            format_renju(x, y, board.height())
        );
        for m in brain.take_messages() {
            println!("  {m}");
        }
        print!("{}", board.to_text());
        if foul {
            break format!("{color:?} played a renju foul and loses");
        }
        if board.last_move_wins() {
            break format!("{color:?} wins");
        }
        if board.is_full() {
            break "draw: the board is full".to_owned();
        }
    };
    for b in &mut brains {
        b.shutdown(Duration::from_millis(500));
    }
    println!("\nResult: {result} after {} moves.", board.stone_count());
    Ok(())
}
