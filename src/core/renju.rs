//! Exact renju fouls (RIF): overline, double four and double three, with the recursive
//! definition of a three and "five beats a foul".
//!
//! The board marks a black cell [`ThreatClass::Forbid`] cheaply from its line patterns. An
//! overline or two fours are fouls outright. Two open threes are a foul only if at least two of
//! them are real: a three is real when some empty point on its line turns it into a straight
//! four and that point is itself not a foul for black (with the three's stone on the board),
//! which is the recursive case.

use super::board::Board;
use super::line::{key_shift, window_key, LinePattern, LineTable, CELL_BLACK, HALF};
use super::pattern::ThreatClass;
use super::pos::Pos;
use super::rule::{Color, Rule};

/// The kind of a renju foul.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Foul {
    /// Six or more in a row.
    Overline,
    /// Two fours at once (in two lines or in one).
    DoubleFour,
    /// Two real open threes at once.
    DoubleThree,
}

impl Board {
    /// Whether black playing the empty cell `p` would be a foul under the current rule (always
    /// `false` outside renju). Exact: false threes are resolved recursively.
    pub fn is_forbidden(&mut self, p: Pos) -> bool {
        self.foul_kind(p).is_some()
    }

    /// The foul black would commit on the empty cell `p`, if any (`None` outside renju, for an
    /// occupied cell, and for any move that makes an exact five).
    pub fn foul_kind(&mut self, p: Pos) -> Option<Foul> {
        if !self.rule().has_fouls() || !self.is_empty(p) {
            return None;
        }
        if self.threat(p, Color::Black) != ThreatClass::Forbid {
            return None;
        }
        let mut fours = 0;
        let mut three_dirs = [0usize; 4];
        let mut threes = 0;
        for dir in 0..4 {
            match self.line_pattern(p, Color::Black, dir) {
                LinePattern::Overline => return Some(Foul::Overline),
                LinePattern::DoubleFour => return Some(Foul::DoubleFour),
                LinePattern::Block4 | LinePattern::Flex4 => fours += 1,
                LinePattern::Flex3 | LinePattern::Flex3S => {
                    three_dirs[threes] = dir;
                    threes += 1;
                }
                _ => {}
            }
        }
        if fours >= 2 {
            return Some(Foul::DoubleFour);
        }
        if threes < 2 {
            return None;
        }
        // Probe: put the black stone down and count the threes that are real.
        self.place(p, Color::Black);
        let mut real = 0;
        for (k, &dir) in three_dirs[..threes].iter().enumerate() {
            // Not enough directions left to reach two real threes.
            if real + (threes - k) < 2 {
                break;
            }
            if self.is_real_three(p, dir) {
                real += 1;
                if real >= 2 {
                    break;
                }
            }
        }
        self.undo();
        (real >= 2).then_some(Foul::DoubleThree)
    }

    /// With a black stone on `p`, whether its line in `dir` is a real three: some empty point
    /// of the line makes a straight four through `p` and is itself a legal black move.
    fn is_real_three(&mut self, p: Pos, dir: usize) -> bool {
        let table = LineTable::for_rule(Rule::Renju);
        let (line, at) = p.line_of(dir);
        let key = window_key(self.line_key(dir, line), at);
        for s in -4..=4isize {
            if s == 0 {
                continue;
            }
            let q = p.step(dir, s);
            if !self.is_empty(q) {
                continue;
            }
            let with_q = key | (CELL_BLACK << key_shift((HALF as isize + s) as usize));
            if table.pattern(with_q, Color::Black) == LinePattern::Flex4 && !self.is_forbidden(q) {
                return true;
            }
        }
        false
    }

    /// Every empty cell that is a foul for black right now (empty outside renju), in index
    /// order (row by row, top first).
    pub fn forbidden_points(&mut self) -> Vec<Pos> {
        if !self.rule().has_fouls() {
            return Vec::new();
        }
        let candidates: Vec<Pos> = self
            .threat_cells(Color::Black, ThreatClass::Forbid)
            .iter()
            .collect();
        candidates
            .into_iter()
            .filter(|&p| self.is_forbidden(p))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A renju foul checker written the slow, obvious way from the rule text, on a plain grid:
    /// no line keys, no tables, no incremental state.
    struct Grid {
        n: usize,
        cells: Vec<Option<Color>>,
    }

    const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

    impl Grid {
        fn get(&self, x: isize, y: isize) -> Option<Option<Color>> {
            (x >= 0 && y >= 0 && (x as usize) < self.n && (y as usize) < self.n)
                .then(|| self.cells[y as usize * self.n + x as usize])
        }

        fn set(&mut self, x: isize, y: isize, c: Option<Color>) {
            self.cells[y as usize * self.n + x as usize] = c;
        }

        fn is_black(&self, x: isize, y: isize) -> bool {
            self.get(x, y) == Some(Some(Color::Black))
        }

        fn is_empty(&self, x: isize, y: isize) -> bool {
            self.get(x, y) == Some(None)
        }

        /// Length of the black run through (x, y) in direction d (the cell itself counted).
        fn run(&self, x: isize, y: isize, (dx, dy): (isize, isize)) -> usize {
            let mut len = 1;
            for sign in [-1, 1] {
                let mut k = 1;
                while self.is_black(x + sign * k * dx, y + sign * k * dy) {
                    len += 1;
                    k += 1;
                }
            }
            len
        }

        /// Black plays (x, y): does it make exactly five in some line?
        fn makes_five(&mut self, x: isize, y: isize) -> bool {
            self.set(x, y, Some(Color::Black));
            let five = DIRS.iter().any(|&d| self.run(x, y, d) == 5);
            self.set(x, y, None);
            five
        }

        /// With black on (x, y): the points on its line in d that complete an exact five
        /// containing (x, y).
        fn five_points(&mut self, x: isize, y: isize, d: (isize, isize)) -> Vec<isize> {
            let mut out = Vec::new();
            for k in -4..=4isize {
                let (qx, qy) = (x + k * d.0, y + k * d.1);
                if k == 0 || !self.is_empty(qx, qy) {
                    continue;
                }
                self.set(qx, qy, Some(Color::Black));
                // The five must contain both stones: the run through q reaches (x, y).
                let len = self.run(qx, qy, d);
                let contains = (1..=k.abs())
                    .all(|j| self.is_black(qx - j * k.signum() * d.0, qy - j * k.signum() * d.1));
                if len == 5 && contains {
                    out.push(k);
                }
                self.set(qx, qy, None);
            }
            out
        }

        /// Number of fours black's stone on (x, y) makes in direction d: a straight four
        /// (two five points five apart) is one four, other pairs are two.
        fn fours(&mut self, x: isize, y: isize, d: (isize, isize)) -> usize {
            let f = self.five_points(x, y, d);
            match f.len() {
                0 => 0,
                1 => 1,
                2 if f[1] - f[0] == 5 => 1,
                n => n,
            }
        }

        fn straight_four(&mut self, x: isize, y: isize, d: (isize, isize)) -> bool {
            let f = self.five_points(x, y, d);
            f.len() == 2 && f[1] - f[0] == 5
        }

        /// With black on (x, y): is its line in d a three, i.e. can one more legal black stone
        /// make a straight four through (x, y)?
        fn is_three(&mut self, x: isize, y: isize, d: (isize, isize)) -> bool {
            for k in -4..=4isize {
                let (qx, qy) = (x + k * d.0, y + k * d.1);
                if k == 0 || !self.is_empty(qx, qy) {
                    continue;
                }
                self.set(qx, qy, Some(Color::Black));
                let straight = self.straight_four(x, y, d);
                self.set(qx, qy, None);
                if straight && !self.forbidden(qx, qy) {
                    return true;
                }
            }
            false
        }

        /// RIF: a black move is a foul if it makes an overline, two fours or two threes,
        /// unless it makes an exact five.
        fn forbidden(&mut self, x: isize, y: isize) -> bool {
            if !self.is_empty(x, y) || self.makes_five(x, y) {
                return false;
            }
            self.set(x, y, Some(Color::Black));
            let overline = DIRS.iter().any(|&d| self.run(x, y, d) >= 6);
            let fours: usize = DIRS.iter().map(|&d| self.fours(x, y, d)).sum();
            let foul = overline || fours >= 2 || {
                let mut threes = 0;
                for &d in &DIRS {
                    // A line that is a four is not also a three.
                    if self.five_points(x, y, d).is_empty() && self.is_three(x, y, d) {
                        threes += 1;
                    }
                }
                threes >= 2
            };
            self.set(x, y, None);
            foul
        }
    }

    /// The fast checker agrees with the slow one on every empty cell of thousands of random
    /// positions dense with black stones (where fouls and false threes are common).
    #[test]
    fn fast_foul_check_agrees_with_the_rule_text() {
        let mut rng = StdRng::seed_from_u64(20261129);
        let n = 15;
        let mut fouls = 0;
        let mut cells_checked = 0;
        for position in 0..3000 {
            let mut board = Board::new(n, n, Rule::Renju).unwrap();
            let mut grid = Grid {
                n,
                cells: vec![None; n * n],
            };
            let stones = rng.gen_range(8..40);
            // Stones in a window around a random centre, black-heavy.
            let (cx, cy) = (rng.gen_range(3..12), rng.gen_range(3..12));
            for _ in 0..stones {
                let x = (cx + rng.gen_range(-4..=4i32)).clamp(0, n as i32 - 1) as usize;
                let y = (cy + rng.gen_range(-4..=4i32)).clamp(0, n as i32 - 1) as usize;
                let p = Pos::new(x, y);
                if board.is_empty(p) {
                    let color = if rng.gen_bool(0.62) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    board.place(p, color);
                    grid.set(x as isize, y as isize, Some(color));
                }
            }
            let mut fast_map = Vec::new();
            let mut slow_map = Vec::new();
            for y in 0..n {
                for x in 0..n {
                    let p = Pos::new(x, y);
                    if !board.is_empty(p) {
                        continue;
                    }
                    cells_checked += 1;
                    let fast = board.is_forbidden(p);
                    let slow = grid.forbidden(x as isize, y as isize);
                    assert_eq!(fast, slow, "position {position} cell ({x},{y})\n{board:?}");
                    if fast {
                        fouls += 1;
                        fast_map.push(p);
                    }
                    if slow {
                        slow_map.push(p);
                    }
                }
            }
            assert_eq!(board.forbidden_points(), fast_map);
            assert_eq!(fast_map, slow_map);
            board.check_consistency().unwrap();
        }
        assert!(cells_checked > 500_000, "{cells_checked} cells checked");
        assert!(fouls > 2_000, "the generator made only {fouls} fouls");
    }

    #[test]
    fn foul_kinds() {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        for (x, y) in [(3, 7), (4, 7), (5, 7), (7, 7), (8, 7)] {
            b.place(Pos::new(x, y), Color::Black);
        }
        assert_eq!(b.foul_kind(Pos::new(6, 7)), Some(Foul::Overline));
        let mut free = Board::new(15, 15, Rule::Freestyle).unwrap();
        free.place(Pos::new(3, 7), Color::Black);
        assert_eq!(free.foul_kind(Pos::new(4, 7)), None);
        assert!(free.forbidden_points().is_empty());
    }
}
