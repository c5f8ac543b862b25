//! The game position as the protocol sees it: board size from `START`, stones from `BOARD`,
//! `TURN`, `TAKEBACK` and our own moves, under the rule of the latest `INFO rule`.
//!
//! The rules core's [`Board`] is built lazily, at the first command that needs it: `START` must
//! answer at once, and `INFO rule` usually arrives *after* `START`. When the rule changes mid-game
//! the board is rebuilt from its stones. Every operation either succeeds or leaves the position
//! untouched and returns the text for `ERROR <text>`.

use crate::core::{Board, Color, Pos, Rule};

use super::command::{BoardRow, Coord, Field};
use super::settings::RuleKind;

/// The rules core's rule for a protocol rule family.
pub fn core_rule(kind: RuleKind) -> Rule {
    match kind {
        RuleKind::Freestyle => Rule::Freestyle,
        RuleKind::Standard => Rule::Standard,
        RuleKind::Renju => Rule::Renju,
        RuleKind::Caro8 => Rule::Caro8,
        RuleKind::Caro9 => Rule::Caro9,
    }
}

/// A position of known size whose board is built on demand.
#[derive(Debug, Clone)]
pub struct Position {
    width: usize,
    height: usize,
    board: Option<Board>,
}

/// Which colour a `BOARD` block makes us: equal counts → black (we move first), one opponent stone
/// more → white; anything else (stones not listed alternately) by the parity of the total.
pub fn own_colour(own: usize, opponent: usize) -> Color {
    if own == opponent {
        Color::Black
    } else if opponent == own + 1 || (own + opponent) % 2 == 1 {
        Color::White
    } else {
        Color::Black
    }
}

impl Position {
    /// An empty `width`×`height` position (sizes already checked by `check_board_size`).
    pub fn new(width: usize, height: usize) -> Self {
        Position {
            width,
            height,
            board: None,
        }
    }

    /// Board width and height.
    pub fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// Removes every stone (`RESTART`).
    pub fn clear(&mut self) {
        self.board = None;
    }

    /// The board under `rule`, built or rebuilt (same stones, same side to move) if needed.
    pub fn board(&mut self, rule: Rule) -> Result<&mut Board, String> {
        let stale = self.board.as_ref().is_none_or(|b| b.rule() != rule);
        if stale {
            let mut fresh = Board::new(self.width, self.height, rule).map_err(|e| e.to_string())?;
            if let Some(old) = &self.board {
                for &p in old.history() {
                    let color = old.stone(p).ok_or("inconsistent board history")?;
                    fresh.place(p, color);
                }
                if fresh.side_to_move() != old.side_to_move() {
                    fresh.pass();
                }
            }
            self.board = Some(fresh);
        }
        self.board.as_mut().ok_or_else(|| "no board".to_owned())
    }

    /// The cell of a wire coordinate, if it is on the board.
    pub fn cell(&self, at: Coord) -> Option<Pos> {
        at.on_board(self.width, self.height)
            .map(|(x, y)| Pos::new(x, y))
    }

    /// Plays a stone for the side to move at `at` (`TURN`: the opponent's move; `PLAY`: ours).
    pub fn play(&mut self, rule: Rule, at: Coord) -> Result<Pos, String> {
        let p = self
            .cell(at)
            .ok_or_else(|| format!("{at} is outside the {}x{} board", self.width, self.height))?;
        let board = self.board(rule)?;
        if !board.is_empty(p) {
            return Err(format!("{at} is already occupied"));
        }
        board.make_move(p);
        Ok(p)
    }

    /// Replaces the position with the stones of a `BOARD` / `YXBOARD` block (rows in move order,
    /// field 3 ignored); afterwards the side to move is "own" (field 1).
    pub fn set_rows(&mut self, rule: Rule, rows: &[BoardRow]) -> Result<(), String> {
        let own = rows.iter().filter(|r| r.field == Field::Own).count();
        let opp = rows.iter().filter(|r| r.field == Field::Opponent).count();
        let mine = own_colour(own, opp);
        let mut board = Board::new(self.width, self.height, rule).map_err(|e| e.to_string())?;
        for row in rows {
            let color = match row.field {
                Field::Own => mine,
                Field::Opponent => mine.opponent(),
                Field::Blocked => continue,
            };
            let p = self.cell(row.at).ok_or_else(|| {
                format!(
                    "{} is outside the {}x{} board",
                    row.at, self.width, self.height
                )
            })?;
            if !board.is_empty(p) {
                return Err(format!("{} is listed twice", row.at));
            }
            board.place(p, color);
        }
        if board.side_to_move() != mine {
            board.pass();
        }
        self.board = Some(board);
        Ok(())
    }

    /// Replaces the position with `moves` played alternately from black (`SWAP2BOARD`).
    pub fn set_sequence(&mut self, rule: Rule, moves: &[Coord]) -> Result<(), String> {
        let mut board = Board::new(self.width, self.height, rule).map_err(|e| e.to_string())?;
        for &at in moves {
            let p = self.cell(at).ok_or_else(|| {
                format!("{at} is outside the {}x{} board", self.width, self.height)
            })?;
            if !board.is_empty(p) {
                return Err(format!("{at} is listed twice"));
            }
            board.make_move(p);
        }
        self.board = Some(board);
        Ok(())
    }

    /// Removes the stone at `at` (`TAKEBACK`); the colour that played it is to move again.
    pub fn take_back(&mut self, rule: Rule, at: Coord) -> Result<(), String> {
        let p = self
            .cell(at)
            .ok_or_else(|| format!("{at} is outside the {}x{} board", self.width, self.height))?;
        let (w, h) = (self.width, self.height);
        let board = self.board(rule)?;
        let Some(color) = board.stone(p) else {
            return Err(format!("no stone at {at}"));
        };
        if board.last_move() == Some(p) {
            board.undo();
            return Ok(());
        }
        // Not the newest stone: rebuild without it.
        let mut fresh = Board::new(w, h, rule).map_err(|e| e.to_string())?;
        for &q in board.history().iter().filter(|&&q| q != p) {
            let c = board.stone(q).ok_or("inconsistent board history")?;
            fresh.place(q, c);
        }
        if fresh.side_to_move() != color {
            fresh.pass();
        }
        *board = fresh;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(x: i32, y: i32, field: Field) -> BoardRow {
        BoardRow {
            at: Coord::new(x, y),
            field,
        }
    }

    #[test]
    fn colour_from_counts() {
        assert_eq!(own_colour(0, 0), Color::Black);
        assert_eq!(own_colour(2, 2), Color::Black);
        assert_eq!(own_colour(1, 2), Color::White);
        assert_eq!(own_colour(0, 1), Color::White);
        assert_eq!(own_colour(3, 0), Color::White);
        assert_eq!(own_colour(4, 0), Color::Black);
    }

    #[test]
    fn board_rows_turns_and_rule_changes() {
        let mut pos = Position::new(15, 15);
        let rows = [
            row(7, 7, Field::Opponent),
            row(8, 7, Field::Own),
            row(8, 10, Field::Opponent),
            row(0, 0, Field::Blocked),
        ];
        pos.set_rows(Rule::Freestyle, &rows).expect("rows");
        let b = pos.board(Rule::Freestyle).expect("board");
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(b.stone_count(), 3);
        assert_eq!(b.stone(Pos::new(7, 7)), Some(Color::Black));
        assert!(b.is_empty(Pos::new(0, 0)));
        // Rule change keeps the stones and the side to move.
        let b = pos.board(Rule::Renju).expect("board");
        assert_eq!(
            (b.rule(), b.stone_count(), b.side_to_move()),
            (Rule::Renju, 3, Color::White)
        );
        // Errors leave the position as it was.
        assert!(pos.play(Rule::Renju, Coord::new(7, 7)).is_err());
        assert!(pos.play(Rule::Renju, Coord::new(15, 0)).is_err());
        assert!(pos.play(Rule::Renju, Coord::new(-1, 0)).is_err());
        let bad = [row(1, 1, Field::Own), row(1, 1, Field::Opponent)];
        assert!(pos.set_rows(Rule::Renju, &bad).is_err());
        assert!(pos
            .set_rows(Rule::Renju, &[row(1, 15, Field::Own)])
            .is_err());
        assert_eq!(pos.board(Rule::Renju).expect("board").stone_count(), 3);
        let p = pos.play(Rule::Renju, Coord::new(9, 9)).expect("turn");
        assert_eq!(
            pos.board(Rule::Renju).expect("board").stone(p),
            Some(Color::White)
        );
    }

    #[test]
    fn takeback_newest_and_older_stones() {
        let mut pos = Position::new(15, 15);
        for (x, y) in [(7, 7), (8, 8), (9, 9)] {
            pos.play(Rule::Standard, Coord::new(x, y)).expect("play");
        }
        pos.take_back(Rule::Standard, Coord::new(9, 9))
            .expect("takeback");
        let b = pos.board(Rule::Standard).expect("board");
        assert_eq!((b.stone_count(), b.side_to_move()), (2, Color::Black));
        pos.take_back(Rule::Standard, Coord::new(7, 7))
            .expect("takeback");
        let b = pos.board(Rule::Standard).expect("board");
        assert_eq!((b.stone_count(), b.side_to_move()), (1, Color::Black));
        assert!(pos.take_back(Rule::Standard, Coord::new(7, 7)).is_err());
        assert!(pos.take_back(Rule::Standard, Coord::new(70, 7)).is_err());
        pos.clear();
        assert_eq!(pos.board(Rule::Standard).expect("board").stone_count(), 0);
    }

    #[test]
    fn sequences_alternate_from_black() {
        let mut pos = Position::new(15, 15);
        let moves = [Coord::new(7, 7), Coord::new(8, 7), Coord::new(9, 9)];
        pos.set_sequence(Rule::Standard, &moves).expect("sequence");
        let b = pos.board(Rule::Standard).expect("board");
        assert_eq!(b.stone(Pos::new(8, 7)), Some(Color::White));
        assert_eq!(b.side_to_move(), Color::White);
        assert!(pos
            .set_sequence(Rule::Standard, &[Coord::new(1, 1), Coord::new(1, 1)])
            .is_err());
        assert!(pos
            .set_sequence(Rule::Standard, &[Coord::new(1, 15)])
            .is_err());
        assert_eq!(pos.board(Rule::Standard).expect("board").stone_count(), 3);
    }

    #[test]
    fn rectangular_positions() {
        let mut pos = Position::new(20, 8);
        assert!(pos.play(Rule::Freestyle, Coord::new(19, 7)).is_ok());
        assert!(pos.play(Rule::Freestyle, Coord::new(7, 19)).is_err());
        assert_eq!(pos.size(), (20, 8));
    }
}
