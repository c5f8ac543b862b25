//! The search worker: one long-lived thread that owns the [`Player`] and runs one search at a
//! time, so the session thread stays free to read `YXSTOP`, `END` and `INFO` during a search.
//!
//! Tables are sized and cleared by a [`Worker::prepare`] task that the session sends when the
//! manager changes the memory settings or starts a game (`INFO max_memory`, `INFO hash_size`,
//! `START`, `RESTART`, `YXHASHCLEAR`), so that this work is done between moves and never on a
//! move's clock; a [`Job`] repeats the budget only as a safety net.
//!
//! A panic inside [`Player::choose`] is caught (`catch_unwind`; the silent panic hook keeps stderr
//! clean): the report carries the panic text instead of a move, and the player is rebuilt from its
//! factory before the next search, since its state may be broken.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::thread;

use crate::core::Board;
use crate::player::opening::{self, Decision, OpeningTask};
use crate::player::{Player, SearchOutcome};
use crate::search::{MemoryBudget, SearchControl};

use super::output::take_last_panic;

/// Builds a fresh player (at start-up and after a panic).
pub type PlayerFactory = Arc<dyn Fn() -> Box<dyn Player> + Send + Sync>;

/// One search request.
pub struct Job {
    /// Identifies the search in its [`Report`].
    pub id: u64,
    /// A copy of the position; the side to move is the engine's colour.
    pub board: Board,
    /// Deadline and stop flag.
    pub control: SearchControl,
    /// Memory for the player's tables.
    pub memory: MemoryBudget,
    /// Forget learnt state first (new game, `YXHASHCLEAR`).
    pub clear: bool,
    /// What to do with the position.
    pub task: JobTask,
}

/// What a [`Job`] asks of the player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobTask {
    /// Choose a move ([`Player::choose`]).
    Move,
    /// Decide an opening question ([`opening::decide`]).
    Opening(OpeningTask),
    /// Search the position for the table's sake, on the opponent's time; nothing is answered.
    Ponder,
}

/// What a finished [`Job`] found.
#[derive(Debug)]
pub enum Answer {
    /// The move of a [`JobTask::Move`].
    Move(SearchOutcome),
    /// The decision of a [`JobTask::Opening`].
    Opening(Decision),
    /// A [`JobTask::Ponder`] ended.
    Pondered,
}

/// What the worker thread is asked to do.
enum Task {
    /// Size the player's tables to a budget and optionally forget them, between moves.
    Prepare { memory: MemoryBudget, clear: bool },
    /// Choose a move.
    Search(Box<Job>),
}

/// The answer to a [`Job`].
#[derive(Debug)]
pub struct Report {
    /// The job's id.
    pub id: u64,
    /// The player's answer, or the panic message.
    pub result: Result<Answer, String>,
}

/// The message of a panic payload (`&str` or `String`), else `"panic"`.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_owned())
}

/// Handle of the worker thread.
pub struct Worker {
    tasks: Sender<Task>,
}

impl Worker {
    /// Starts the worker; every finished search is passed to `notify`.
    pub fn spawn(
        factory: PlayerFactory,
        notify: impl Fn(Report) + Send + 'static,
    ) -> std::io::Result<Worker> {
        let (tasks, rx) = mpsc::channel::<Task>();
        thread::Builder::new()
            .name("search".to_owned())
            .spawn(move || {
                let mut player: Option<Box<dyn Player>> = None;
                // The budget the player's tables are sized to (none yet for a fresh player).
                let mut applied: Option<MemoryBudget> = None;
                for task in rx {
                    let (job, memory, clear) = match task {
                        Task::Prepare { memory, clear } => (None, memory, clear),
                        Task::Search(job) => {
                            let (memory, clear) = (job.memory, job.clear);
                            (Some(job), memory, clear)
                        }
                    };
                    let id = job.as_ref().map(|j| j.id);
                    let result = catch_unwind(AssertUnwindSafe(|| {
                        let p = player.get_or_insert_with(|| {
                            applied = None;
                            factory()
                        });
                        if applied != Some(memory) {
                            p.set_memory(&memory);
                            applied = Some(memory);
                        }
                        if clear {
                            p.clear();
                        }
                        job.map(|job| {
                            let mut board = job.board;
                            match job.task {
                                JobTask::Move => Answer::Move(p.choose(&mut board, &job.control)),
                                JobTask::Opening(task) => Answer::Opening(opening::decide(
                                    p.as_mut(),
                                    &mut board,
                                    &task,
                                    &job.control,
                                )),
                                JobTask::Ponder => {
                                    p.analyse(&mut board, &job.control);
                                    Answer::Pondered
                                }
                            }
                        })
                    }));
                    let result = match result {
                        Ok(outcome) => outcome.map(Ok),
                        Err(payload) => {
                            // Its state may be broken: the next task gets a fresh player.
                            player = None;
                            let text =
                                take_last_panic().unwrap_or_else(|| panic_text(payload.as_ref()));
                            Some(Err(text))
                        }
                    };
                    // A panic while preparing has no search to report to.
                    if let (Some(id), Some(result)) = (id, result) {
                        notify(Report { id, result });
                    }
                }
            })?;
        Ok(Worker { tasks })
    }

    /// Queues a search. False if the worker thread is gone.
    pub fn submit(&self, job: Job) -> bool {
        self.tasks.send(Task::Search(Box::new(job))).is_ok()
    }

    /// Queues the sizing (and, with `clear`, the emptying) of the player's tables, to be done
    /// before the next search. False if the worker thread is gone.
    pub fn prepare(&self, memory: MemoryBudget, clear: bool) -> bool {
        self.tasks.send(Task::Prepare { memory, clear }).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Pos, Rule};
    use crate::player::RandomPlayer;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    /// Panics on an empty board, plays randomly otherwise.
    struct PanicsOnEmpty;

    impl Player for PanicsOnEmpty {
        fn name(&self) -> &str {
            "panics-on-empty"
        }
        fn choose(&mut self, board: &mut Board, c: &SearchControl) -> SearchOutcome {
            assert!(board.stone_count() > 0, "empty board");
            RandomPlayer::new(1).choose(board, c)
        }
    }

    #[test]
    fn panics_are_reported_and_the_player_rebuilt() {
        let built = Arc::new(AtomicUsize::new(0));
        let b2 = built.clone();
        let factory: PlayerFactory = Arc::new(move || {
            b2.fetch_add(1, Ordering::SeqCst);
            Box::new(PanicsOnEmpty) as Box<dyn Player>
        });
        let (tx, rx) = mpsc::channel();
        let worker = Worker::spawn(factory, move |r| {
            let _ = tx.send(r);
        })
        .expect("spawn");
        let job = |id, stones: usize| {
            let mut board = Board::new(15, 15, Rule::Freestyle).expect("board");
            for i in 0..stones {
                board.make_move(Pos::new(i, 0));
            }
            Job {
                id,
                board,
                control: SearchControl::for_millis(100),
                memory: MemoryBudget::new(Some(1 << 24), None),
                clear: false,
                task: JobTask::Move,
            }
        };
        let next = |j| {
            assert!(worker.submit(j));
            rx.recv_timeout(Duration::from_secs(5)).expect("report")
        };
        let r = next(job(1, 0));
        assert_eq!(r.id, 1);
        assert!(
            r.result.as_ref().is_err_and(|m| m.contains("empty board")),
            "{r:?}"
        );
        let r = next(job(2, 3));
        assert_eq!(r.id, 2);
        let Ok(Answer::Move(outcome)) = r.result else {
            panic!("a move expected: {r:?}");
        };
        let m = outcome.best;
        assert!(m.y() > 0 || m.x() >= 3);
        let r = next(job(3, 1));
        assert!(r.result.is_ok());
        assert_eq!(
            built.load(Ordering::SeqCst),
            2,
            "rebuilt once, after the panic"
        );
    }
}
