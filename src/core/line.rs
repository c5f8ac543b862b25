//! Line patterns: what a stone on an empty cell would make along one line.
//!
//! The shape of a line around a cell is read from an 11-cell window centred on it (five cells
//! each side; the centre is implicit). Each cell is 2 bits ([`CELL_EMPTY`], [`CELL_BLACK`],
//! [`CELL_WHITE`], [`CELL_WALL`]), so a window is a 20-bit key. For every rule a table maps each
//! key to the [`LinePattern`] of both colours. The tables are generated at start-up by a
//! recursive definition (a shape's class follows from what one more own stone can make of it),
//! never typed in; the tests compare them with a direct classifier over every window.

use super::rule::{Color, Rule};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Empty cell code in line keys.
pub const CELL_EMPTY: u32 = 0;
/// Black stone code in line keys.
pub const CELL_BLACK: u32 = 1;
/// White stone code in line keys.
pub const CELL_WHITE: u32 = 2;
/// Wall (off-board) code in line keys.
pub const CELL_WALL: u32 = 3;

/// Cells on each side of the centre in a window.
pub const HALF: usize = 5;
/// Cells in a window, centre included.
pub const WINDOW: usize = 2 * HALF + 1;
/// Number of distinct window keys.
pub const NUM_KEYS: usize = 1 << (4 * HALF);

/// The class of the line shape a stone of one colour on the centre would make, strongest last.
/// "Open" (F) shapes can still become an open four in enough ways; "blocked" (B) ones cannot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum LinePattern {
    /// Nothing can come of this line.
    Dead = 0,
    /// Renju black: the stone makes six or more (a foul unless it also makes five elsewhere).
    Overline = 1,
    /// Renju black: the stone makes two separate fours in this one line (`X.XXX.X`), a foul.
    DoubleFour = 2,
    /// One stone that can only become a blocked two.
    Block1 = 3,
    /// One stone that can become an open two.
    Flex1 = 4,
    /// A two that can only become a blocked three.
    Block2 = 5,
    /// A two that can become an open three at one or two points.
    Flex2 = 6,
    /// A two that can become an open three at three points.
    Flex2A = 7,
    /// A two that can become an open three at four or more points.
    Flex2B = 8,
    /// A three that can become a four, but not an open four.
    Block3 = 9,
    /// An open three: one point makes it an open four.
    Flex3 = 10,
    /// An open three with two points that make an open four.
    Flex3S = 11,
    /// A four: exactly one point completes a winning five.
    Block4 = 12,
    /// An open four (two five points), or for non-fouling colours two fours in one line.
    Flex4 = 13,
    /// A winning five under the rule.
    Five = 14,
}

impl LinePattern {
    /// All patterns, weakest first.
    pub const ALL: [LinePattern; 15] = [
        LinePattern::Dead,
        LinePattern::Overline,
        LinePattern::DoubleFour,
        LinePattern::Block1,
        LinePattern::Flex1,
        LinePattern::Block2,
        LinePattern::Flex2,
        LinePattern::Flex2A,
        LinePattern::Flex2B,
        LinePattern::Block3,
        LinePattern::Flex3,
        LinePattern::Flex3S,
        LinePattern::Block4,
        LinePattern::Flex4,
        LinePattern::Five,
    ];

    /// The pattern with this numeric code (codes above 14 map to `Dead`).
    #[inline]
    pub const fn from_u8(v: u8) -> LinePattern {
        if v <= 14 {
            // SAFETY-free lookup: the table holds every value 0..=14 in order.
            Self::ALL[v as usize]
        } else {
            LinePattern::Dead
        }
    }

    /// A four of either kind (one or two five points) in this line.
    #[inline]
    pub const fn is_four(self) -> bool {
        matches!(self, LinePattern::Block4 | LinePattern::Flex4)
    }

    /// An open three of either kind.
    #[inline]
    pub const fn is_flex3(self) -> bool {
        matches!(self, LinePattern::Flex3 | LinePattern::Flex3S)
    }

    /// An open two of any kind.
    #[inline]
    pub const fn is_flex2(self) -> bool {
        matches!(
            self,
            LinePattern::Flex2 | LinePattern::Flex2A | LinePattern::Flex2B
        )
    }
}

/// Bit offset of window cell `i` (0..WINDOW, centre excluded) inside a key.
#[inline]
pub const fn key_shift(i: usize) -> u32 {
    if i < HALF {
        2 * i as u32
    } else {
        2 * (i as u32 - 1)
    }
}

/// Code of window cell `i` in `key` (the centre is reported as empty).
#[inline]
pub const fn key_cell(key: u32, i: usize) -> u32 {
    if i == HALF {
        CELL_EMPTY
    } else {
        (key >> key_shift(i)) & 3
    }
}

/// Extracts the window key of the cell at `pos` (5..=26) from a 64-bit line key holding
/// 2 bits per position.
#[inline]
pub const fn window_key(line_key: u64, pos: usize) -> u32 {
    window_of(line_key, 2 * (pos - HALF) as u32)
}

/// [`window_key`] with the shift `2 · (pos − HALF)` given (a walk along a line steps it by 2);
/// `shift` < 64 (a cell's position along its line is at least `HALF`: the walls before it).
#[inline]
pub const fn window_of(line_key: u64, shift: u32) -> u32 {
    debug_assert!(shift < 64);
    let w = (line_key >> shift) as u32 & 0x3F_FFFF;
    (w & 0x3FF) | ((w >> 12) << 10)
}

/// The line-pattern tables of one rule: for every window key, black's pattern in the low
/// nibble and white's in the high nibble.
///
/// Stored in two steps so the tables stay in cache (a flat table of every key is 1 MiB per
/// rule; the gain measured is memory, the board's speed is unchanged within noise): each half window
/// (five cells, 10 bits) maps to the class of what it shows each colour — its own stones and
/// empty cells up to the first opponent stone or wall, and which of the two that is (beyond
/// it nothing counts). 172 classes occur; a 256 × 256 table holds the patterns of every pair
/// of classes. The tests check it against the flat table on every window a board can show.
pub struct LineTable {
    /// Three tables in one block, so that a lookup needs one base address: from 0 the
    /// class of a left half (window cells 0..5, the key's low 10 bits), from [`HALF_KEYS`]
    /// the class of a right half (cells 6..11, the key's high 10 bits), from [`PAIRS_AT`]
    /// the packed patterns by `left class << 8 | right class`.
    table: Box<[u8; PAIRS_AT + (1 << 16)]>,
}

/// Number of distinct half-window keys.
const HALF_KEYS: usize = 1 << (2 * HALF);
/// Where the pair table starts in [`LineTable`]'s block.
const PAIRS_AT: usize = 2 * HALF_KEYS;

impl LineTable {
    /// The patterns of (black, white) for a window key.
    #[inline]
    pub fn get(&self, key: u32) -> u8 {
        let left = self.table[key as usize & (HALF_KEYS - 1)] as usize;
        let right =
            self.table[HALF_KEYS + ((key >> (2 * HALF)) as usize & (HALF_KEYS - 1))] as usize;
        self.table[PAIRS_AT + ((left << 8) | right)]
    }

    /// The pattern of one colour for a window key.
    #[inline]
    pub fn pattern(&self, key: u32, color: Color) -> LinePattern {
        LinePattern::from_u8((self.get(key) >> (4 * color.index())) & 0xF)
    }

    /// The table for `rule`, generated on first use and shared afterwards.
    pub fn for_rule(rule: Rule) -> &'static LineTable {
        static TABLES: [OnceLock<LineTable>; 5] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        TABLES[rule.index()].get_or_init(|| LineTable::generate(rule))
    }

    /// Generates the table for `rule`.
    pub fn generate(rule: Rule) -> LineTable {
        LineTable::compress(&generate_flat(rule))
    }

    /// The two-step form of a flat table (one packed byte per window key).
    fn compress(flat: &[u8]) -> LineTable {
        let mut ids: HashMap<HalfView, u8> = HashMap::new();
        // A half key per class, taken from halves a board can show (walls only as a run at
        // the far end), so that every pair of them is a window a board can show.
        let mut left_of: Vec<u32> = Vec::new();
        let mut right_of: Vec<u32> = Vec::new();
        let mut left = Box::new([0u8; HALF_KEYS]);
        let mut right = Box::new([0u8; HALF_KEYS]);
        for half in 0..HALF_KEYS as u32 {
            // `half` lists the cells outward from the centre, 2 bits each.
            let outward: [u32; HALF] = std::array::from_fn(|i| (half >> (2 * i)) & 3);
            let left_key = (0..HALF).map(|i| outward[i] << (2 * (HALF - 1 - i))).sum();
            let right_key = half;
            let view = half_view(&outward);
            let id = match ids.get(&view) {
                Some(&id) => id,
                None if on_board(&outward) => {
                    let id = u8::try_from(ids.len()).expect("at most 256 half classes");
                    ids.insert(view, id);
                    left_of.push(left_key);
                    right_of.push(right_key);
                    id
                }
                // A half no board shows (a wall before a cell): any class will do.
                None => continue,
            };
            left[left_key as usize] = id;
            right[right_key as usize] = id;
        }
        let mut pairs = Box::new([0u8; 1 << 16]);
        for (l, &left_key) in left_of.iter().enumerate() {
            for (r, &right_key) in right_of.iter().enumerate() {
                pairs[(l << 8) | r] = flat[(left_key | (right_key << (2 * HALF))) as usize];
            }
        }
        let mut table = Box::new([0u8; PAIRS_AT + (1 << 16)]);
        table[..HALF_KEYS].copy_from_slice(&left[..]);
        table[HALF_KEYS..PAIRS_AT].copy_from_slice(&right[..]);
        table[PAIRS_AT..].copy_from_slice(&pairs[..]);
        LineTable { table }
    }
}

/// What a half window shows each colour (black, white): its own stones and empty cells,
/// outward from the centre, up to the first blocker, and that blocker's code.
type HalfView = ([u8; HALF + 1], [u8; HALF + 1]);

fn half_view(outward: &[u32; HALF]) -> HalfView {
    let seen_by = |own: u32| {
        let mut view = [0xFFu8; HALF + 1];
        for (i, &code) in outward.iter().enumerate() {
            view[i] = code as u8;
            if code != CELL_EMPTY && code != own {
                break;
            }
        }
        view
    };
    (seen_by(CELL_BLACK), seen_by(CELL_WHITE))
}

/// Whether a board can show this half: walls only as a run at the far end.
fn on_board(outward: &[u32; HALF]) -> bool {
    let first_wall = outward.iter().position(|&c| c == CELL_WALL).unwrap_or(HALF);
    outward[first_wall..].iter().all(|&c| c == CELL_WALL)
}

/// One packed byte per window key: black's pattern in the low nibble, white's in the high.
fn generate_flat(rule: Rule) -> Vec<u8> {
    let black = generate_colour(rule, Color::Black);
    let white = generate_colour(rule, Color::White);
    black
        .iter()
        .zip(white.iter())
        .map(|(&b, &w)| b | (w << 4))
        .collect()
}

const UNKNOWN: u8 = 0xFF;

fn generate_colour(rule: Rule, color: Color) -> Vec<u8> {
    let mut memo = vec![UNKNOWN; NUM_KEYS];
    for key in board_keys() {
        classify_memo(rule, color, key, &mut memo);
    }
    // Keys with a wall between stones never occur on a board; they stay `Dead`.
    for m in memo.iter_mut().filter(|m| **m == UNKNOWN) {
        *m = LinePattern::Dead as u8;
    }
    memo
}

/// Every window key that can occur on a board: walls only as a run at either end (about an
/// eighth of all keys, which keeps start-up to a few milliseconds per rule).
pub fn board_keys() -> impl Iterator<Item = u32> {
    (0..=HALF).flat_map(|left_walls| {
        (0..=HALF).flat_map(move |right_walls| {
            let free: Vec<usize> = (left_walls..WINDOW - right_walls)
                .filter(|&i| i != HALF)
                .collect();
            let walls: u32 = (0..WINDOW)
                .filter(|&i| i != HALF && (i < left_walls || i >= WINDOW - right_walls))
                .map(|i| CELL_WALL << key_shift(i))
                .sum();
            (0..3u32.pow(free.len() as u32)).map(move |mut code| {
                let mut key = walls;
                for &i in &free {
                    key |= (code % 3) << key_shift(i);
                    code /= 3;
                }
                key
            })
        })
    })
}

/// The class of `key` with the centre holding `color`, from the classes of the windows with one
/// more own stone (memoised; recursion depth is at most the number of empty cells, ≤ 10).
fn classify_memo(rule: Rule, color: Color, key: u32, memo: &mut [u8]) -> LinePattern {
    let cached = memo[key as usize];
    if cached != UNKNOWN {
        return LinePattern::from_u8(cached);
    }
    let own = color.index() as u32 + 1;
    let (len, blocked) = run_through_centre(key, own);
    let result = if rule.run_wins(color, len, blocked) {
        LinePattern::Five
    } else if rule.is_overline_foul(color, len) {
        LinePattern::Overline
    } else {
        let mut children = [LinePattern::Dead; WINDOW];
        let mut empties = [false; WINDOW];
        for i in (0..WINDOW).filter(|&i| i != HALF) {
            if key_cell(key, i) == CELL_EMPTY {
                empties[i] = true;
                children[i] = classify_memo(rule, color, key | (own << key_shift(i)), memo);
            }
        }
        combine_children(rule, color, &children, &empties)
    };
    memo[key as usize] = result as u8;
    result
}

/// Length of the run of `own` stones through the centre (which holds `own`) and how many of
/// its two end cells hold opponent stones.
fn run_through_centre(key: u32, own: u32) -> (usize, usize) {
    let opp = 3 - own;
    let mut len = 1;
    let mut blocked = 0;
    let mut i = HALF;
    while i > 0 && key_cell(key, i - 1) == own {
        i -= 1;
        len += 1;
    }
    if i > 0 && key_cell(key, i - 1) == opp {
        blocked += 1;
    }
    let mut j = HALF;
    while j + 1 < WINDOW && key_cell(key, j + 1) == own {
        j += 1;
        len += 1;
    }
    if j + 1 < WINDOW && key_cell(key, j + 1) == opp {
        blocked += 1;
    }
    (len, blocked)
}

/// The class of a line from the classes its empty cells would give (the recursive definition
/// shared by the generated table and, in the tests, by the direct classifier).
pub(crate) fn combine_children(
    rule: Rule,
    color: Color,
    children: &[LinePattern; WINDOW],
    empties: &[bool; WINDOW],
) -> LinePattern {
    let mut five_points = [0usize; WINDOW];
    let mut num_fives = 0;
    let (mut flex4, mut block4, mut flex3, mut block3, mut block2, mut flex2, mut block1) =
        (0, 0, 0, 0, 0, 0, 0);
    for i in 0..WINDOW {
        if !empties[i] {
            continue;
        }
        match children[i] {
            LinePattern::Five => {
                five_points[num_fives] = i;
                num_fives += 1;
            }
            LinePattern::Flex4 => flex4 += 1,
            LinePattern::Block4 => block4 += 1,
            LinePattern::Flex3 | LinePattern::Flex3S => flex3 += 1,
            LinePattern::Block3 => block3 += 1,
            LinePattern::Flex2 | LinePattern::Flex2A | LinePattern::Flex2B => flex2 += 1,
            LinePattern::Block2 => block2 += 1,
            LinePattern::Flex1 | LinePattern::Block1 => block1 += 1,
            _ => {}
        }
    }
    if num_fives >= 2 {
        // Two five points exactly five apart complete one straight four; any other pair means
        // two separate fours in this line, a foul for a fouling colour.
        let straight = num_fives == 2 && five_points[1] - five_points[0] == 5;
        if straight || !(rule.has_fouls() && color == Color::Black) {
            LinePattern::Flex4
        } else {
            LinePattern::DoubleFour
        }
    } else if num_fives == 1 {
        LinePattern::Block4
    } else if flex4 >= 2 {
        LinePattern::Flex3S
    } else if flex4 == 1 {
        LinePattern::Flex3
    } else if block4 > 0 {
        LinePattern::Block3
    } else if flex3 >= 4 {
        LinePattern::Flex2B
    } else if flex3 == 3 {
        LinePattern::Flex2A
    } else if flex3 > 0 {
        LinePattern::Flex2
    } else if block3 > 0 {
        LinePattern::Block2
    } else if flex2 > 0 {
        LinePattern::Flex1
    } else if block2 > 0 || block1 > 0 {
        LinePattern::Block1
    } else {
        LinePattern::Dead
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A window as an explicit array, centre included.
    type Cells = [u32; WINDOW];

    /// Direct classifier: works on explicit arrays, scans runs the plain way and recurses
    /// without the key encoding or the generated table (a cache keeps it affordable).
    struct Direct {
        rule: Rule,
        color: Color,
        cache: HashMap<Cells, LinePattern>,
    }

    impl Direct {
        fn own(&self) -> u32 {
            if self.color == Color::Black {
                CELL_BLACK
            } else {
                CELL_WHITE
            }
        }

        /// Does the run of own stones containing the centre win, or make an overline?
        fn runs(&self, cells: &Cells) -> (bool, bool) {
            let own = self.own();
            let opp = if own == CELL_BLACK {
                CELL_WHITE
            } else {
                CELL_BLACK
            };
            let mut lo = HALF;
            while lo > 0 && cells[lo - 1] == own {
                lo -= 1;
            }
            let mut hi = HALF;
            while hi < WINDOW - 1 && cells[hi + 1] == own {
                hi += 1;
            }
            let len = hi - lo + 1;
            let left_blocked = lo > 0 && cells[lo - 1] == opp;
            let right_blocked = hi < WINDOW - 1 && cells[hi + 1] == opp;
            let both_blocked = left_blocked && right_blocked;
            let win = match (self.rule, self.color) {
                (Rule::Freestyle, _) | (Rule::Renju, Color::White) => len >= 5,
                (Rule::Standard, _) | (Rule::Renju, Color::Black) => len == 5,
                (Rule::Caro8, _) => len >= 6 || (len == 5 && !both_blocked),
                (Rule::Caro9, _) => len == 5 && !both_blocked,
            };
            let overline = self.rule == Rule::Renju && self.color == Color::Black && len >= 6;
            (win, overline)
        }

        fn classify(&mut self, cells: Cells) -> LinePattern {
            if let Some(&p) = self.cache.get(&cells) {
                return p;
            }
            let (win, overline) = self.runs(&cells);
            let result = if win {
                LinePattern::Five
            } else if overline {
                LinePattern::Overline
            } else {
                let own = self.own();
                let mut children = [LinePattern::Dead; WINDOW];
                let mut empties = [false; WINDOW];
                for i in 0..WINDOW {
                    if i != HALF && cells[i] == CELL_EMPTY {
                        let mut next = cells;
                        next[i] = own;
                        empties[i] = true;
                        children[i] = self.classify(next);
                    }
                }
                // The same reading of the definition, spelled out directly on the children.
                direct_combine(self.rule, self.color, &children, &empties)
            };
            self.cache.insert(cells, result);
            result
        }
    }

    /// The definition in words: five points first (two, exactly five apart = straight four;
    /// otherwise two fours in one line); then points making a straight four (open three), a
    /// four (blocked three), open threes (open twos by count), blocked threes, open twos.
    fn direct_combine(
        rule: Rule,
        color: Color,
        children: &[LinePattern; WINDOW],
        empties: &[bool; WINDOW],
    ) -> LinePattern {
        let points = |want: &dyn Fn(LinePattern) -> bool| -> Vec<usize> {
            (0..WINDOW)
                .filter(|&i| empties[i] && want(children[i]))
                .collect()
        };
        let fives = points(&|p| p == LinePattern::Five);
        if fives.len() >= 2 {
            let fouling = rule == Rule::Renju && color == Color::Black;
            let straight = fives.len() == 2 && fives[1] - fives[0] == 5;
            return if fouling && !straight {
                LinePattern::DoubleFour
            } else {
                LinePattern::Flex4
            };
        }
        if fives.len() == 1 {
            return LinePattern::Block4;
        }
        let open_four_points = points(&|p| p == LinePattern::Flex4).len();
        if open_four_points >= 2 {
            return LinePattern::Flex3S;
        }
        if open_four_points == 1 {
            return LinePattern::Flex3;
        }
        if !points(&|p| p == LinePattern::Block4).is_empty() {
            return LinePattern::Block3;
        }
        match points(&|p| p.is_flex3()).len() {
            0 => {}
            1 | 2 => return LinePattern::Flex2,
            3 => return LinePattern::Flex2A,
            _ => return LinePattern::Flex2B,
        }
        if !points(&|p| p == LinePattern::Block3).is_empty() {
            return LinePattern::Block2;
        }
        if !points(&|p| p.is_flex2()).is_empty() {
            return LinePattern::Flex1;
        }
        if !points(&|p| {
            matches!(
                p,
                LinePattern::Block2 | LinePattern::Block1 | LinePattern::Flex1
            )
        })
        .is_empty()
        {
            return LinePattern::Block1;
        }
        LinePattern::Dead
    }

    /// Every window that can occur on a board: walls only as a contiguous run at either end.
    fn all_board_windows() -> Vec<Cells> {
        let mut out = Vec::new();
        for left_walls in 0..=HALF {
            for right_walls in 0..=HALF {
                let free: Vec<usize> = (left_walls..WINDOW - right_walls)
                    .filter(|&i| i != HALF)
                    .collect();
                let n = free.len() as u32;
                for code in 0..3u32.pow(n) {
                    let mut cells = [CELL_WALL; WINDOW];
                    cells[left_walls..WINDOW - right_walls].fill(CELL_EMPTY);
                    let mut c = code;
                    for &i in &free {
                        cells[i] = c % 3;
                        c /= 3;
                    }
                    out.push(cells);
                }
            }
        }
        out
    }

    fn key_of(cells: &Cells) -> u32 {
        (0..WINDOW)
            .filter(|&i| i != HALF)
            .map(|i| cells[i] << key_shift(i))
            .sum()
    }

    #[test]
    fn tables_match_the_direct_classifier_on_every_window() {
        let windows = all_board_windows();
        assert!(windows.len() > 100_000);
        for rule in Rule::ALL {
            let table = LineTable::for_rule(rule);
            for color in Color::BOTH {
                let mut direct = Direct {
                    rule,
                    color,
                    cache: HashMap::new(),
                };
                let own = if color == Color::Black {
                    CELL_BLACK
                } else {
                    CELL_WHITE
                };
                for w in &windows {
                    let mut cells = *w;
                    cells[HALF] = own;
                    let want = direct.classify(cells);
                    let got = table.pattern(key_of(w), color);
                    assert_eq!(got, want, "{rule} {color:?} window {w:?}");
                }
            }
        }
    }

    /// The two-step table gives what the flat table (one byte per key) gives, on every
    /// window a board can show, in every rule.
    #[test]
    fn half_classes_lose_nothing() {
        for rule in Rule::ALL {
            let flat = generate_flat(rule);
            let table = LineTable::compress(&flat);
            let mut checked = 0;
            for key in board_keys() {
                assert_eq!(table.get(key), flat[key as usize], "{rule} key {key:#x}");
                checked += 1;
            }
            assert!(checked > 100_000);
        }
    }

    #[test]
    fn freestyle_ignores_the_outermost_cells() {
        // The board only refreshes cells within `reach` of a move: freestyle must not depend on
        // the cells five away (whatever they hold, as long as the window stays a board window).
        let table = LineTable::for_rule(Rule::Freestyle);
        let mut checked = 0;
        for key in board_keys() {
            for (outer, inner) in [(0, 1), (WINDOW - 1, WINDOW - 2)] {
                if key_cell(key, inner) == CELL_WALL {
                    continue;
                }
                for v in [CELL_EMPTY, CELL_BLACK, CELL_WHITE, CELL_WALL] {
                    let other = (key & !(3 << key_shift(outer))) | (v << key_shift(outer));
                    assert_eq!(table.get(key), table.get(other), "key {key:#x}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 500_000);
    }

    #[test]
    fn board_keys_are_the_board_windows() {
        let mut keys: Vec<u32> = board_keys().collect();
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n);
        let windows: Vec<u32> = all_board_windows().iter().map(key_of).collect();
        assert_eq!(windows.len(), n);
    }

    fn parse(s: &str) -> u32 {
        // 11 characters, centre marked '*': x black, o white, . empty, # wall.
        let cells: Vec<u32> = s
            .chars()
            .map(|c| match c {
                'x' => CELL_BLACK,
                'o' => CELL_WHITE,
                '#' => CELL_WALL,
                _ => CELL_EMPTY,
            })
            .collect();
        assert_eq!(cells.len(), WINDOW);
        (0..WINDOW)
            .filter(|&i| i != HALF)
            .map(|i| cells[i] << key_shift(i))
            .sum()
    }

    #[test]
    fn named_shapes() {
        use LinePattern::*;
        let free = LineTable::for_rule(Rule::Freestyle);
        let std = LineTable::for_rule(Rule::Standard);
        let renju = LineTable::for_rule(Rule::Renju);
        let caro8 = LineTable::for_rule(Rule::Caro8);
        let caro9 = LineTable::for_rule(Rule::Caro9);
        let b = Color::Black;
        let w = Color::White;
        assert_eq!(free.pattern(parse("...xx*xx..."), b), Five);
        assert_eq!(free.pattern(parse("..xxx*xx..."), b), Five);
        assert_eq!(std.pattern(parse("..xxx*xx..."), b), Dead);
        assert_eq!(renju.pattern(parse("..xxx*xx..."), b), Overline);
        assert_eq!(renju.pattern(parse("..ooo*oo..."), w), Five);
        assert_eq!(free.pattern(parse("...xx*x...."), b), Flex4);
        assert_eq!(free.pattern(parse("..oxx*x...."), b), Block4);
        assert_eq!(free.pattern(parse("...x.*xx..."), b), Block4);
        assert_eq!(renju.pattern(parse(".x.xx*.x..."), b), DoubleFour);
        assert_eq!(free.pattern(parse(".x.xx*.x..."), b), Flex4);
        assert_eq!(free.pattern(parse("....x*x...."), b), Flex3S);
        assert_eq!(free.pattern(parse("...ox*x...."), b), Block3);
        assert_eq!(free.pattern(parse("....x*.x..."), b), Flex3);
        assert_eq!(free.pattern(parse("#####*x...."), b), Block2);
        // Renju: a three whose open-four extension on one side makes an overline and whose
        // other side is blocked is no open three; in freestyle it is.
        assert_eq!(renju.pattern(parse(".x..x*x.o.."), b), Block3);
        assert_eq!(free.pattern(parse(".x..x*x.o.."), b), Flex3);
        assert_eq!(renju.pattern(parse("..x.x*x.x.."), b), DoubleFour);
        // Caro: a five with opponent stones at both ends is no win; the edge is no block.
        assert_eq!(caro9.pattern(parse("..oxx*xxo.."), b), Dead);
        assert_eq!(caro8.pattern(parse("..oxx*xx..."), b), Five);
        assert_eq!(caro9.pattern(parse("#xxxx*o...."), b), Five);
        assert_eq!(caro8.pattern(parse("..oxx*xxxo."), b), Five);
        assert_eq!(caro9.pattern(parse("..oxx*xxxo."), b), Dead);
        assert_eq!(caro9.pattern(parse("..oxx*x.o.."), b), Dead);
    }
}
