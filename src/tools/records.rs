//! Game records: SGF in the layout c-gomoku-cli writes (`-sgf`) and PGN
//! headers for BayesElo / Ordo (`-pgn`).
//!
//! # SGF
//!
//! One game per `(...)` block, like c-gomoku-cli's `game_export_sgf`:
//!
//! ```text
//! (;FF[4]GM[4]GN[1]EV[A x B]RU[0]SZ[15]PB[A]PW[B]RE[B+1]TE[Black win by five connection]
//! ;B[hh]C[opening move];W[ih]C[opening move]
//! ;B[ii]C[15ms];W[jj]C[9ms]
//! )
//! ```
//!
//! * `GM[4]` = Gomoku, `RU[rule]` = the Gomocup rule code, `SZ[n]` (or
//!   `SZ[w:h]` for rectangular boards, per SGF 4).
//! * `RE[B+1]` / `RE[W+1]` / `RE[0]` as c-gomoku-cli; `TE[...]` the reason.
//! * Points are SGF letters counted from the top-left: `x` then `y`,
//!   `a` = 0 (`A`..`Z` for 26..51). The centre of 15x15 is `hh`.
//! * Opening stones carry `C[opening move]` and stand on one line; played
//!   moves carry `C[<ms>ms]` when a time is known, 8 per line.
//! * `DT[...]` is written only when [`GameRecord::date`] is set (output is
//!   otherwise deterministic).
//!
//! # PGN
//!
//! Tags only plus the result (no moves), which is what BayesElo and Ordo
//! read. Colours are kept literally: `[White "..."]` is the Gomoku white
//! (second) player and `[Black "..."]` the first player; `1-0` means
//! *White* won, `0-1` Black, `1/2-1/2` a draw (PGN / chess convention, as
//! c-gomoku-cli's `-pgn`). The movetext is `{reason} result`.

use std::fmt::Write as _;

/// The outcome of a game by colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Black (the first player) won.
    BlackWin,
    /// White (the second player) won.
    WhiteWin,
    /// Draw.
    Draw,
}

impl GameResult {
    /// SGF `RE` value as c-gomoku-cli writes it: `B+1`, `W+1` or `0`.
    pub fn sgf(self) -> &'static str {
        match self {
            GameResult::BlackWin => "B+1",
            GameResult::WhiteWin => "W+1",
            GameResult::Draw => "0",
        }
    }

    /// PGN result (chess convention, `1-0` = White won).
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::BlackWin => "0-1",
            GameResult::WhiteWin => "1-0",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Black-first result as on c-gomoku-cli's stdout (`1-0` = Black won).
    pub fn black_first(self) -> &'static str {
        match self {
            GameResult::BlackWin => "1-0",
            GameResult::WhiteWin => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// `"Black"`, `"White"` or `None` for a draw.
    pub fn winner_name(self) -> Option<&'static str> {
        match self {
            GameResult::BlackWin => Some("Black"),
            GameResult::WhiteWin => Some("White"),
            GameResult::Draw => None,
        }
    }
}

/// Why a move was illegal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IllegalKind {
    /// The point was already occupied.
    Occupied,
    /// The point is outside the board.
    OffBoard,
    /// The reply could not be parsed as `x,y`.
    Unparseable,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultReason {
    /// A winning line (five, or five-or-more depending on the rule).
    Five,
    /// Black played a forbidden move (renju).
    Foul,
    /// A player exceeded its time.
    Timeout,
    /// A player's process crashed or exited.
    Crash,
    /// A player returned an illegal move.
    IllegalMove(IllegalKind),
    /// No empty point left.
    BoardFull,
    /// Draw declared once the board held this many stones (opening
    /// included), like c-gomoku-cli `-drawafter` or the renju 200-stone rule.
    DrawAfter(usize),
    /// Adjudicated by the manager (e.g. stopped by the user, resignation
    /// rule).
    Adjudication,
}

impl ResultReason {
    /// Human-readable reason in c-gomoku-cli's wording where it has one,
    /// e.g. `Black win by five connection`.
    pub fn describe(self, result: GameResult) -> String {
        let winner = result.winner_name().unwrap_or("Nobody");
        match self {
            ResultReason::Five => format!("{winner} win by five connection"),
            ResultReason::Foul => "Black play on forbidden position".to_string(),
            ResultReason::Timeout => format!("{winner} win by time forfeit"),
            ResultReason::Crash => format!("{winner} win by opponent crash"),
            ResultReason::IllegalMove(kind) => {
                let what = match kind {
                    IllegalKind::Occupied => "occupied square",
                    IllegalKind::OffBoard => "off-board move",
                    IllegalKind::Unparseable => "unparseable move",
                };
                format!("{winner} win by opponent illegal move ({what})")
            }
            ResultReason::BoardFull => "Draw by full board".to_string(),
            ResultReason::DrawAfter(n) => format!("Draw after {n} stones"),
            ResultReason::Adjudication => match result.winner_name() {
                Some(w) => format!("{w} win by adjudication"),
                None => "Draw by adjudication".to_string(),
            },
        }
    }
}

/// A finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Name of the black (first) player.
    pub black: String,
    /// Name of the white (second) player.
    pub white: String,
    /// Board size `(width, height)`.
    pub size: (usize, usize),
    /// Gomocup rule code (0 freestyle, 1 standard, 4 renju, ...).
    pub rule: u32,
    /// All stones in order, black first, opening included; `(x, y)` from
    /// the top-left, 0-based.
    pub moves: Vec<(usize, usize)>,
    /// How many of `moves` came from the opening.
    pub opening_len: usize,
    /// Thinking time in ms of each played (non-opening) move, in order; may
    /// be shorter than the played moves (missing times are not written).
    pub move_times_ms: Vec<u64>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: ResultReason,
    /// 1-based game number (SGF `GN`, PGN `Round`).
    pub game_index: usize,
    /// Optional date/time text (SGF `DT`, PGN `Date`), e.g.
    /// `2024.05.01 12:00:00`.
    pub date: Option<String>,
}

impl GameRecord {
    /// A record with no opening, no times, game number 1 and no date.
    pub fn new(
        black: impl Into<String>,
        white: impl Into<String>,
        size: (usize, usize),
        rule: u32,
        moves: Vec<(usize, usize)>,
        result: GameResult,
        reason: ResultReason,
    ) -> Self {
        GameRecord {
            black: black.into(),
            white: white.into(),
            size,
            rule,
            moves,
            opening_len: 0,
            move_times_ms: Vec::new(),
            result,
            reason,
            game_index: 1,
            date: None,
        }
    }

    /// The reason text (see [`ResultReason::describe`]).
    pub fn reason_text(&self) -> String {
        self.reason.describe(self.result)
    }

    /// The game as one SGF block (c-gomoku-cli layout), ending in `)\n\n`.
    pub fn to_sgf(&self) -> String {
        const MOVES_PER_LINE: usize = 8;
        let mut out = String::new();
        out.push_str("(;FF[4]GM[4]");
        let _ = write!(out, "GN[{}]", self.game_index);
        let _ = write!(
            out,
            "EV[{} x {}]",
            sgf_escape(&self.black),
            sgf_escape(&self.white)
        );
        if let Some(d) = &self.date {
            let _ = write!(out, "DT[{}]", sgf_escape(d));
        }
        let _ = write!(out, "RU[{}]", self.rule);
        let (w, h) = self.size;
        if w == h {
            let _ = write!(out, "SZ[{w}]");
        } else {
            let _ = write!(out, "SZ[{w}:{h}]");
        }
        let _ = write!(out, "PB[{}]", sgf_escape(&self.black));
        let _ = write!(out, "PW[{}]", sgf_escape(&self.white));
        let _ = write!(out, "RE[{}]", self.result.sgf());
        let _ = write!(out, "TE[{}]", sgf_escape(&self.reason_text()));
        out.push('\n');
        let opening = self.opening_len.min(self.moves.len());
        let mut on_line = 0;
        for (j, &(x, y)) in self.moves.iter().enumerate() {
            if opening > 0 && j == opening {
                out.push('\n');
            }
            if on_line >= MOVES_PER_LINE {
                out.push('\n');
                on_line = 0;
            }
            let colour = if j % 2 == 0 { 'B' } else { 'W' };
            let _ = write!(out, ";{colour}[{}{}]", sgf_coord(x), sgf_coord(y));
            if j < opening {
                out.push_str("C[opening move]");
            } else {
                if let Some(ms) = self.move_times_ms.get(j - opening) {
                    let _ = write!(out, "C[{ms}ms]");
                }
                on_line += 1;
            }
        }
        out.push_str(")\n\n");
        out
    }

    /// The game as a PGN entry for BayesElo / Ordo (tags, then
    /// `{reason} result`, then a blank line).
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        out.push_str("[Event \"?\"]\n[Site \"?\"]\n");
        let date = self
            .date
            .as_deref()
            .map(|d| d.split_whitespace().next().unwrap_or("????.??.??"))
            .unwrap_or("????.??.??");
        let _ = writeln!(out, "[Date \"{}\"]", pgn_escape(date));
        let _ = writeln!(out, "[Round \"{}\"]", self.game_index);
        let _ = writeln!(out, "[White \"{}\"]", pgn_escape(&self.white));
        let _ = writeln!(out, "[Black \"{}\"]", pgn_escape(&self.black));
        let _ = writeln!(out, "[Result \"{}\"]", self.result.pgn());
        let _ = writeln!(out, "[Termination \"{}\"]", pgn_escape(&self.reason_text()));
        let _ = writeln!(out, "[PlyCount \"{}\"]", self.moves.len());
        out.push('\n');
        let comment = self.reason_text().replace(['{', '}'], "");
        let _ = writeln!(out, "{{{}}} {}", comment, self.result.pgn());
        out.push('\n');
        out
    }

    /// A c-gomoku-cli style summary with a black-first result, e.g.
    /// `Finished game 3 (A vs B): 1-0 {Black win by five connection}`.
    pub fn summary_line(&self) -> String {
        format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            self.game_index,
            self.black,
            self.white,
            self.result.black_first(),
            self.reason_text()
        )
    }
}

/// One SGF coordinate letter: `a`..`z` for 0..25, `A`..`Z` for 26..51,
/// `?` beyond.
pub fn sgf_coord(v: usize) -> char {
    match u8::try_from(v) {
        Ok(b) if b < 26 => char::from(b'a' + b),
        Ok(b) if b < 52 => char::from(b'A' + (b - 26)),
        _ => '?',
    }
}

/// Escapes SGF text: `\` and `]` get a backslash.
pub fn sgf_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Escapes a PGN tag value: `\` and `"` get a backslash; newlines become
/// blanks.
pub fn pgn_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        // Opening h8 i8 i11 as in §6.3 (7,7 8,7 8,10), then 3 played moves,
        // black wins.
        let mut r = GameRecord::new(
            "A",
            "B",
            (15, 15),
            0,
            vec![(7, 7), (8, 7), (8, 10), (7, 8), (6, 7), (0, 14)],
            GameResult::BlackWin,
            ResultReason::Five,
        );
        r.opening_len = 3;
        r.move_times_ms = vec![15, 9, 120];
        r.game_index = 3;
        r
    }

    #[test]
    fn sgf_exact_layout() {
        let r = sample();
        assert_eq!(
            r.to_sgf(),
            "(;FF[4]GM[4]GN[3]EV[A x B]RU[0]SZ[15]PB[A]PW[B]RE[B+1]TE[Black win by five connection]\n\
             ;B[hh]C[opening move];W[ih]C[opening move];B[ik]C[opening move]\n\
             ;W[hi]C[15ms];B[gh]C[9ms];W[ao]C[120ms])\n\n"
        );
    }

    #[test]
    fn sgf_wraps_after_eight_played_moves_and_handles_rect_and_date() {
        let moves: Vec<(usize, usize)> = (0..10).map(|i| (i, 0)).collect();
        let mut r = GameRecord::new(
            "x]y",
            "w\\z",
            (20, 15),
            4,
            moves,
            GameResult::Draw,
            ResultReason::DrawAfter(10),
        );
        r.date = Some("2024.05.01 12:00:00".into());
        let s = r.to_sgf();
        assert_eq!(
            s,
            "(;FF[4]GM[4]GN[1]EV[x\\]y x w\\\\z]DT[2024.05.01 12:00:00]RU[4]SZ[20:15]PB[x\\]y]PW[w\\\\z]RE[0]TE[Draw after 10 stones]\n\
             ;B[aa];W[ba];B[ca];W[da];B[ea];W[fa];B[ga];W[ha]\n\
             ;B[ia];W[ja])\n\n"
        );
        assert_eq!(sgf_coord(25), 'z');
        assert_eq!(sgf_coord(26), 'A');
        assert_eq!(sgf_coord(60), '?');
    }

    #[test]
    fn pgn_exact_output() {
        let r = sample();
        assert_eq!(
            r.to_pgn(),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"3\"]\n\
             [White \"B\"]\n[Black \"A\"]\n[Result \"0-1\"]\n\
             [Termination \"Black win by five connection\"]\n[PlyCount \"6\"]\n\n\
             {Black win by five connection} 0-1\n\n"
        );
        let mut w = sample();
        w.result = GameResult::WhiteWin;
        w.reason = ResultReason::Timeout;
        w.black = "a \"q\"".into();
        w.date = Some("2024.05.01 12:00:00".into());
        let p = w.to_pgn();
        assert!(p.contains("[Result \"1-0\"]\n"), "{p}");
        assert!(p.contains("[Black \"a \\\"q\\\"\"]\n"), "{p}");
        assert!(p.contains("[Date \"2024.05.01\"]\n"), "{p}");
        assert!(p.ends_with("{White win by time forfeit} 1-0\n\n"), "{p}");
    }

    #[test]
    fn reasons_and_results() {
        use GameResult::*;
        assert_eq!(
            ResultReason::Foul.describe(WhiteWin),
            "Black play on forbidden position"
        );
        assert_eq!(
            ResultReason::IllegalMove(IllegalKind::Occupied).describe(BlackWin),
            "Black win by opponent illegal move (occupied square)"
        );
        assert_eq!(
            ResultReason::IllegalMove(IllegalKind::OffBoard).describe(WhiteWin),
            "White win by opponent illegal move (off-board move)"
        );
        assert_eq!(
            ResultReason::Crash.describe(WhiteWin),
            "White win by opponent crash"
        );
        assert_eq!(ResultReason::BoardFull.describe(Draw), "Draw by full board");
        assert_eq!(
            ResultReason::Adjudication.describe(Draw),
            "Draw by adjudication"
        );
        assert_eq!(BlackWin.sgf(), "B+1");
        assert_eq!(WhiteWin.sgf(), "W+1");
        assert_eq!(Draw.pgn(), "1/2-1/2");
        assert_eq!(BlackWin.black_first(), "1-0");
        assert_eq!(
            sample().summary_line(),
            "Finished game 3 (A vs B): 1-0 {Black win by five connection}"
        );
    }

    #[test]
    fn sgf_without_opening_or_times() {
        let r = GameRecord::new(
            "A",
            "B",
            (15, 15),
            1,
            vec![(7, 7), (7, 6)],
            GameResult::WhiteWin,
            ResultReason::IllegalMove(IllegalKind::Unparseable),
        );
        assert_eq!(
            r.to_sgf(),
            "(;FF[4]GM[4]GN[1]EV[A x B]RU[1]SZ[15]PB[A]PW[B]RE[W+1]\
             TE[White win by opponent illegal move (unparseable move)]\n;B[hh];W[hg])\n\n"
        );
    }
}
