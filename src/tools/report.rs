//! Per-pairing results and how they are shown: the live progress line, the one-line game log
//! and the final report (W/L/D, score, Elo ± 95 %, LOS, pentanomial counts, the games that
//! replay an earlier one, result reasons, SPRT).
//!
//! Everything is from the point of view of the pairing's *first* engine.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::records::{GameRecord, GameResult, IllegalKind, ResultReason};
use super::stats::{EloEstimate, Outcome, Pentanomial, Sprt, Trinomial};

/// The 95 % confidence level used in every interval printed.
pub const CONFIDENCE: f64 = 0.95;

/// The first engine's outcome of a game with `result`, the first engine playing black or not.
pub fn outcome_for_first(result: GameResult, first_is_black: bool) -> Outcome {
    match (result, first_is_black) {
        (GameResult::Draw, _) => Outcome::Draw,
        (GameResult::BlackWin, true) | (GameResult::WhiteWin, false) => Outcome::Win,
        _ => Outcome::Loss,
    }
}

/// A short name of how a game ended, from the winner's side (`five`, `opponent time-out`,
/// ...) or of a draw (`full board`, `200 stones`).
pub fn reason_label(reason: ResultReason) -> String {
    match reason {
        ResultReason::Five => "five".into(),
        ResultReason::Foul => "opponent foul".into(),
        ResultReason::Timeout => "opponent time-out".into(),
        ResultReason::Crash => "opponent crash".into(),
        ResultReason::IllegalMove(k) => format!(
            "opponent illegal move ({})",
            match k {
                IllegalKind::Occupied => "occupied",
                IllegalKind::OffBoard => "off board",
                IllegalKind::Unparseable => "unparseable",
            }
        ),
        ResultReason::BoardFull => "full board".into(),
        ResultReason::DrawAfter(n) => format!("{n} stones"),
        ResultReason::Adjudication => "adjudication".into(),
    }
}

/// Signed Elo with one decimal, `+inf` / `-inf` spelt out.
fn elo_text(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        // `+ 0.0` turns -0.0 into 0.0.
        format!("{:+.1}", e + 0.0)
    }
}

/// ` ± margin` when the margin is finite, empty otherwise (all wins, all losses).
fn margin_text(e: &EloEstimate) -> String {
    let m = e.margin();
    if m.is_finite() {
        format!(" ± {m:.1}")
    } else {
        String::new()
    }
}

/// Results of one pairing.
#[derive(Debug, Clone, PartialEq)]
pub struct PairStats {
    /// Name of the first engine.
    pub first: String,
    /// Name of the second engine.
    pub second: String,
    /// Win / loss / draw counts of the first engine.
    pub tri: Trinomial,
    /// Outcomes by game number within the pairing (for pentanomial pairs).
    outcomes: BTreeMap<usize, Outcome>,
    /// Count of each way a game ended, keyed `WINNER: reason` (or `draw: reason`).
    pub reasons: BTreeMap<String, u64>,
    /// Every game seen, as the first engine's colour and the stones in order: a deterministic
    /// engine (ours at a fixed node count) replays an opening's game move for move, and those
    /// repeats are no new evidence.
    seen: BTreeSet<(bool, Vec<(usize, usize)>)>,
    /// Win / loss / draw counts of the first engine over the games not seen before.
    pub distinct: Trinomial,
}

impl PairStats {
    /// Empty statistics for `first` vs `second`.
    pub fn new(first: impl Into<String>, second: impl Into<String>) -> PairStats {
        PairStats {
            first: first.into(),
            second: second.into(),
            tri: Trinomial::default(),
            outcomes: BTreeMap::new(),
            reasons: BTreeMap::new(),
            seen: BTreeSet::new(),
            distinct: Trinomial::default(),
        }
    }

    /// Adds the game number `game_in_pair` of this pairing.
    pub fn add(&mut self, game_in_pair: usize, first_is_black: bool, record: &GameRecord) {
        let outcome = outcome_for_first(record.result, first_is_black);
        self.tri.add(outcome);
        self.outcomes.insert(game_in_pair, outcome);
        let key = match outcome {
            Outcome::Draw => format!("draw: {}", reason_label(record.reason)),
            Outcome::Win => format!("{}: {}", self.first, reason_label(record.reason)),
            Outcome::Loss => format!("{}: {}", self.second, reason_label(record.reason)),
        };
        *self.reasons.entry(key).or_default() += 1;
        if self.seen.insert((first_is_black, record.moves.clone())) {
            self.distinct.add(outcome);
        }
    }

    /// Pentanomial counts of the complete opening pairs (games `2j` and `2j + 1`).
    pub fn pentanomial(&self) -> Pentanomial {
        let mut p = Pentanomial::default();
        for (&k, &first) in &self.outcomes {
            if k % 2 == 0 {
                if let Some(&second) = self.outcomes.get(&(k + 1)) {
                    p.add_pair(first, second);
                }
            }
        }
        p
    }

    /// The SPRT log-likelihood ratio, from the pentanomial pairs.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        sprt.llr_pentanomial(&self.pentanomial())
    }

    /// `W-L-D` and the Elo so far (and the LLR when an SPRT runs), for the progress line.
    pub fn progress(&self, sprt: Option<&Sprt>) -> String {
        let mut s = format!(
            "{} vs {} {}-{}-{}",
            self.first, self.second, self.tri.wins, self.tri.losses, self.tri.draws
        );
        if let Some(e) = self.tri.elo(CONFIDENCE) {
            let _ = write!(s, " Elo {}{}", elo_text(e.elo), margin_text(&e));
        }
        if let Some(sp) = sprt {
            let _ = write!(
                s,
                " LLR {:.2} [{:.2},{:.2}]",
                self.llr(sp),
                sp.lower_bound(),
                sp.upper_bound()
            );
        }
        s
    }

    /// The final multi-line report of this pairing.
    pub fn report(&self, sprt: Option<&Sprt>) -> String {
        let mut s = String::new();
        let t = &self.tri;
        let _ = writeln!(
            s,
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {} games",
            self.first,
            self.second,
            t.wins,
            t.losses,
            t.draws,
            t.score().unwrap_or(0.5),
            t.games()
        );
        if let Some(e) = t.elo(CONFIDENCE) {
            let _ = write!(
                s,
                "Elo difference: {}{} (95 %, [{}, {}])",
                elo_text(e.elo),
                margin_text(&e),
                elo_text(e.lower),
                elo_text(e.upper)
            );
            match t.los() {
                Some(los) => {
                    let _ = writeln!(s, ", LOS {:.1} %", 100.0 * los);
                }
                None => s.push('\n'),
            }
        }
        let p = self.pentanomial();
        if p.pairs() > 0 {
            let c = p.counts;
            let _ = write!(
                s,
                "Pentanomial [0, 0.5, 1, 1.5, 2]: [{}, {}, {}, {}, {}] over {} opening pairs",
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                p.pairs()
            );
            if let Some(e) = p.elo(CONFIDENCE) {
                let _ = write!(s, "; Elo {}{}", elo_text(e.elo), margin_text(&e));
            }
            if let Some(los) = p.los() {
                let _ = write!(s, ", LOS {:.1} %", 100.0 * los);
            }
            s.push('\n');
        }
        let d = &self.distinct;
        if d.games() < t.games() {
            // Said plainly, since the intervals above count every repeat as a new game.
            let _ = write!(
                s,
                "Distinct games: {} of {} (the others replayed one of them move for move); \
                 over them {} - {} - {}",
                d.games(),
                t.games(),
                d.wins,
                d.losses,
                d.draws
            );
            if let Some(e) = d.elo(CONFIDENCE) {
                let _ = write!(s, ", Elo {}{}", elo_text(e.elo), margin_text(&e));
            }
            s.push('\n');
        }
        if !self.reasons.is_empty() {
            let list: Vec<String> = self
                .reasons
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            let _ = writeln!(s, "Results by reason: {}", list.join(", "));
        }
        if let Some(sp) = sprt {
            let _ = writeln!(
                s,
                "{} (elo0 {}, elo1 {}, alpha {}, beta {}; pentanomial)",
                sp.status_line(self.llr(sp)),
                sp.elo0,
                sp.elo1,
                sp.alpha,
                sp.beta
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::records::GameRecord;

    fn rec(result: GameResult, reason: ResultReason) -> GameRecord {
        GameRecord::new("A", "B", (15, 15), 0, vec![(7, 7)], result, reason)
    }

    #[test]
    fn outcome_by_colour() {
        assert_eq!(outcome_for_first(GameResult::BlackWin, true), Outcome::Win);
        assert_eq!(
            outcome_for_first(GameResult::BlackWin, false),
            Outcome::Loss
        );
        assert_eq!(outcome_for_first(GameResult::WhiteWin, false), Outcome::Win);
        assert_eq!(outcome_for_first(GameResult::Draw, false), Outcome::Draw);
    }

    /// 60 wins, 40 losses: Elo +70.4, interval [+2.8, +143.9], LOS 97.7 % (known values:
    /// s = 0.6, se = sqrt(0.24 / 100)).
    #[test]
    fn report_numbers_against_known_values() {
        let mut st = PairStats::new("A", "B");
        for k in 0..100 {
            // Pairs (2j, 2j+1): 20 pairs won twice, 20 split, 10 lost twice.
            let j = k / 2;
            let first_wins = if j < 20 {
                true
            } else if j < 40 {
                k % 2 == 0
            } else {
                false
            };
            let first_is_black = k % 2 == 0;
            let result = if first_wins == first_is_black {
                GameResult::BlackWin
            } else {
                GameResult::WhiteWin
            };
            st.add(k, first_is_black, &rec(result, ResultReason::Five));
        }
        assert_eq!((st.tri.wins, st.tri.losses, st.tri.draws), (60, 40, 0));
        assert_eq!(st.pentanomial().counts, [10, 0, 20, 0, 20]);
        let r = st.report(None);
        assert!(
            r.contains("Score of A vs B: 60 - 40 - 0  [0.600] 100 games"),
            "{r}"
        );
        assert!(
            r.contains("Elo difference: +70.4 ± 70.6 (95 %, [+2.8, +143.9]), LOS 97.7 %"),
            "{r}"
        );
        // Pentanomial: pair scores 0 x10, 0.5 x20, 1 x20 -> s = 0.6, var = 0.14 per pair.
        assert!(
            r.contains("[10, 0, 20, 0, 20] over 50 opening pairs; Elo +70.4 ± 76.4, LOS 97.1 %"),
            "{r}"
        );
        assert!(r.contains("A: five 60, B: five 40"), "{r}");
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let line = st.progress(Some(&sprt));
        assert_eq!(
            line,
            "A vs B 60-40-0 Elo +70.4 ± 70.6 LLR 0.48 [-2.94,2.94]"
        );
    }

    /// Four games, one of them a replay of the first move for move: three distinct games, and
    /// the report says so; a game of the same stones with the colours swapped is not a replay.
    #[test]
    fn replayed_games_are_counted_once() {
        let game = |moves: Vec<(usize, usize)>, result| {
            GameRecord::new("A", "B", (15, 15), 0, moves, result, ResultReason::Five)
        };
        let line = vec![
            (7, 7),
            (8, 7),
            (7, 8),
            (8, 8),
            (7, 9),
            (8, 9),
            (7, 10),
            (8, 10),
            (7, 11),
        ];
        let mut st = PairStats::new("A", "B");
        st.add(0, true, &game(line.clone(), GameResult::BlackWin));
        st.add(1, false, &game(line.clone(), GameResult::BlackWin));
        st.add(2, true, &game(line.clone(), GameResult::BlackWin));
        st.add(3, false, &game(line[..8].to_vec(), GameResult::Draw));
        assert_eq!((st.tri.wins, st.tri.losses, st.tri.draws), (2, 1, 1));
        assert_eq!(
            (st.distinct.wins, st.distinct.losses, st.distinct.draws),
            (1, 1, 1)
        );
        let r = st.report(None);
        assert!(
            r.contains("Distinct games: 3 of 4 (the others replayed one of them move for move); over them 1 - 1 - 1, Elo +0.0"),
            "{r}"
        );
        let mut fresh = PairStats::new("A", "B");
        fresh.add(0, true, &game(line.clone(), GameResult::BlackWin));
        fresh.add(1, false, &game(line[..8].to_vec(), GameResult::Draw));
        assert!(
            !fresh.report(None).contains("Distinct"),
            "no repeat, no line"
        );
    }

    #[test]
    fn reasons_and_incomplete_pairs() {
        let mut st = PairStats::new("A", "B");
        st.add(0, true, &rec(GameResult::WhiteWin, ResultReason::Timeout));
        st.add(
            3,
            false,
            &rec(GameResult::Draw, ResultReason::DrawAfter(200)),
        );
        st.add(
            2,
            true,
            &rec(
                GameResult::BlackWin,
                ResultReason::IllegalMove(IllegalKind::Occupied),
            ),
        );
        assert_eq!(
            st.pentanomial().pairs(),
            1,
            "only games 2 and 3 form a pair"
        );
        assert_eq!(st.pentanomial().counts, [0, 0, 0, 1, 0]);
        assert_eq!(st.reasons.get("B: opponent time-out"), Some(&1));
        assert_eq!(st.reasons.get("draw: 200 stones"), Some(&1));
        assert_eq!(
            st.reasons.get("A: opponent illegal move (occupied)"),
            Some(&1)
        );
    }
}
