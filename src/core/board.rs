//! The board: stones, incremental line patterns, threat classes, candidates and Zobrist key.
//!
//! Every empty cell keeps, per colour, the [`LinePattern`] of its four lines (one nibble each)
//! and the combined [`ThreatClass`]; per colour, for the renju foul and the classes from the
//! open three up, the board keeps a count and the set of cells, and the cells from two open
//! twos up in one more set. A move re-reads only the empty
//! cells within the rule's reach on its four lines (at most 40), each with one table lookup;
//! undo restores the records the move changed from a log, so both cost O(cells touched).

use super::bitset::CellSet;
use super::line::{
    window_key, window_of, LinePattern, LineTable, CELL_BLACK, CELL_EMPTY, CELL_WALL, CELL_WHITE,
    HALF,
};
use super::pattern::{CellValues, CombineTable, ThreatClass, NUM_CLASSES, NUM_PCODES, PCODE_SLOTS};
use super::pos::{Pos, BORDER, MAX_SIZE, MIN_SIZE, NUM_CELLS, STRIDE};
use super::rule::{Color, Rule};
use super::zobrist::{SIDE_KEY, STONE_KEYS};

const CLASS_SLOTS: usize = 16;

/// The classes whose cells the board keeps as sets ([`Board::threat_cells`]): the renju foul
/// and an open three and up, what move generation and threat search ask for, with their
/// counts. The weaker classes change on most moves and are neither counted nor kept one by
/// one: [`Board::threat_count`] scans the empty cells for them, and the cells from two open
/// twos up are kept together in one set per colour ([`Board::cells_from_flex2x2`]).
const TRACKED_CLASSES: u16 = 1 << ThreatClass::Forbid as u16
    | 1 << ThreatClass::Flex3 as u16
    | 1 << ThreatClass::Flex3Plus as u16
    | 1 << ThreatClass::Flex3x2 as u16
    | 1 << ThreatClass::Block4 as u16
    | 1 << ThreatClass::Block4Plus as u16
    | 1 << ThreatClass::Block4Flex3 as u16
    | 1 << ThreatClass::Flex4 as u16
    | 1 << ThreatClass::Five as u16;

/// Whether the board keeps the cells of class code `class` as a set.
#[inline]
const fn tracked(class: u8) -> bool {
    TRACKED_CLASSES >> (class & 15) & 1 != 0
}

/// Default radius (in cells, square neighbourhood) of the candidate set.
pub const DEFAULT_CANDIDATE_RADIUS: usize = 2;

/// A Gomoku / Renju position with its incrementally kept pattern state.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    reach: usize,
    radius: usize,
    lines: &'static LineTable,
    combine: &'static CombineTable,
    /// Cell codes: `CELL_EMPTY`, `CELL_BLACK`, `CELL_WHITE` or `CELL_WALL`.
    cells: [u8; NUM_CELLS],
    /// Per direction and line, 2 bits per position along the line.
    line_keys: [[u64; 64]; 4],
    /// Per cell and colour: what a stone there would make, in one record, so that a move's
    /// update of a cell touches one cache line rather than one per table.
    state: [[CellState; 2]; NUM_CELLS],
    /// The values summed over the empty cells, per colour and pattern code.
    cell_values: &'static CellValues,
    /// The records by patterns for `combine` and `cell_values` (what a move's update reads).
    records: &'static RecordTable,
    /// Per colour: the sum of `cell_values` over the empty cells.
    value_sums: [i32; 2],
    /// Per colour and class code (16 slots so a masked code needs no bounds check): the
    /// number of cells of each tracked class (zero for the others, which are counted on
    /// demand: they change on most moves and nothing fast asks for them).
    class_counts: [[u16; CLASS_SLOTS]; 2],
    class_cells: [[CellSet; CLASS_SLOTS]; 2],
    /// Per colour: the empty cells whose class is two open twos or stronger, all classes in
    /// one set (what the evaluation's cross term reads; one toggle when a cell crosses the
    /// line, nothing when it moves between two classes above it).
    cells_from_flex2x2: [CellSet; 2],
    /// The occupied cells (the candidates are read off them when asked for).
    stones: CellSet,
    empty_cells: CellSet,
    history: Vec<Pos>,
    /// The old record (patterns, code, value, class) of every (cell, colour) a move changed,
    /// so undo restores them verbatim. The first `undo_len` entries are in use; the slots
    /// beyond are written by index, not pushed (each move first makes room for
    /// [`MAX_UNDO_ENTRIES`]), which keeps a capacity check out of the update's inner loop.
    undo_log: Vec<UndoEntry>,
    undo_len: usize,
    /// Per move: where its entries start in `undo_log`, and the value sums before it.
    move_marks: Vec<MoveMark>,
    side_to_move: Color,
    hash: u64,
}

/// What a stone of one colour on a cell would make: everything a move updates per cell, in
/// one word, so that a move's update and its undo copy it with one load and one store.
///
/// Bits 0–15: the four directional patterns, one nibble each; 16–31: their pattern code;
/// 32–47: the code's cell value (the three kept on occupied cells too); 48–55: the combined
/// threat class (`None` on occupied cells); 56: whether the class is two open twos or stronger
/// ([`Board::cells_from_flex2x2`]); 57: whether the class is tracked (both read off the class,
/// kept beside it so that a change of class is sorted without computing them).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct CellState(u64);

impl CellState {
    #[inline]
    const fn new(pattern: u16, pcode: u16, value: i16, class: u8) -> CellState {
        CellState(
            pattern as u64 | (pcode as u64) << 16 | (value as u16 as u64) << 32 | class_bits(class),
        )
    }

    /// The four directional patterns.
    #[inline]
    const fn pattern(self) -> u16 {
        self.0 as u16
    }

    /// The pattern code of the patterns.
    #[inline]
    const fn pcode(self) -> u16 {
        (self.0 >> 16) as u16
    }

    /// The cell value of the code.
    #[inline]
    const fn value(self) -> i16 {
        (self.0 >> 32) as u16 as i16
    }

    /// The threat class code.
    #[inline]
    const fn class(self) -> u8 {
        (self.0 >> 48) as u8
    }

    /// The same with the value `value`.
    #[inline]
    const fn with_value(self, value: i16) -> CellState {
        CellState(self.0 & !(0xFFFF << 32) | (value as u16 as u64) << 32)
    }

    /// The same with the class `class`.
    #[inline]
    const fn with_class(self, class: u8) -> CellState {
        CellState(self.0 & !(0x3FF << 48) | class_bits(class))
    }
}

/// Bit of [`CellState`] set when the class is two open twos or stronger.
const FROM_FLEX2X2_BIT: u32 = 56;
/// Bit of [`CellState`] set when the class is tracked.
const TRACKED_BIT: u32 = 57;

/// A class's bits in [`CellState`]: the class and its two flags.
#[inline]
const fn class_bits(class: u8) -> u64 {
    (class as u64) << 48
        | ((class >= ThreatClass::Flex2x2 as u8) as u64) << FROM_FLEX2X2_BIT
        | (tracked(class) as u64) << TRACKED_BIT
}

/// A cell's record bits above its patterns (code, value, class and flags), by colour and
/// pattern code, for one rule's classes and one set of values: a move's update reads the code
/// (shared by every rule) and then one word, where the value and the class would be two more
/// lookups and the flags a computation. (A table by packed patterns would save the code's
/// lookup, about 2.5 % of make+unmake, at 1 MiB a table where this one takes 64 KiB: too
/// much for the 16 MiB memory test, whose brain builds the tables of every rule.)
struct RecordTable {
    pcodes: &'static [u16; 1 << 16],
    by_code: [[u64; PCODE_SLOTS]; 2],
}

impl RecordTable {
    /// The bits of colour index `c`'s record with patterns `packed`.
    #[inline]
    fn get(&self, c: usize, packed: u16) -> u64 {
        let code = self.pcodes[packed as usize];
        self.by_code[c & 1][code as usize & (PCODE_SLOTS - 1)]
    }

    /// The table of `combine`'s classes and `values`, built on first use of the pair and
    /// kept (a program uses a handful of pairs: one per rule and set of weights).
    fn of(combine: &'static CombineTable, values: &'static CellValues) -> &'static RecordTable {
        type Key = (usize, usize);
        static BUILT: std::sync::Mutex<Vec<(Key, &'static RecordTable)>> =
            std::sync::Mutex::new(Vec::new());
        let key = (
            combine as *const CombineTable as usize,
            values as *const CellValues as usize,
        );
        let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, table)) = built.iter().find(|(k, _)| *k == key) {
            return table;
        }
        let mut table = Box::new(RecordTable {
            pcodes: combine.pcodes(),
            by_code: [[0; PCODE_SLOTS]; 2],
        });
        for (c, row) in table.by_code.iter_mut().enumerate() {
            for (code, slot) in row.iter_mut().enumerate().take(NUM_PCODES) {
                let code = code as u16;
                let class = combine.of_pcode(c, code);
                *slot = CellState::new(0, code, values.get(c, code) as i16, class).0;
            }
        }
        let table: &'static RecordTable = Box::leak(table);
        built.push((key, table));
        table
    }
}

/// The cells along one side of a line through a cell, nearest first, at most `reach` of them:
/// each cell's index and the shift of the line key that centres its window on it, both stepped
/// by additions. Both walks of the board go this way: a move's update and the test of a
/// defence ([`Board::stone_leaves_none`]).
struct HalfLine {
    q: isize,
    shift: isize,
    cell_step: isize,
    key_step: isize,
    left: usize,
}

impl HalfLine {
    /// The walk from `p` (at `at` along its line in direction `dir`) towards `sign` (±1).
    #[inline]
    fn new(p: Pos, dir: usize, at: usize, sign: isize, reach: usize) -> HalfLine {
        HalfLine {
            q: p.0 as isize,
            // The walk's cell is at `at + k·sign`; its window's shift is `2 · (that − HALF)`.
            shift: 2 * at as isize - 2 * HALF as isize,
            cell_step: sign * super::pos::DIRECTIONS[dir],
            key_step: 2 * sign,
            left: reach,
        }
    }
}

impl Iterator for HalfLine {
    type Item = (usize, u32);

    /// The next cell and its window's shift. (The shift is negative only on a wall before
    /// the board, where every walk stops before reading a window.)
    #[inline]
    fn next(&mut self) -> Option<(usize, u32)> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        self.q += self.cell_step;
        self.shift += self.key_step;
        Some((self.q as usize & (NUM_CELLS - 1), self.shift as u32))
    }
}

/// The tables a move's update reads: line patterns, and cell records by patterns.
type Tables = (&'static LineTable, &'static RecordTable);

/// The most entries one move adds to the undo log: both colours of every cell the update
/// can reach (four directions, two sides, at most a window's half each: no rule reaches
/// further than the window its patterns are read from).
const MAX_UNDO_ENTRIES: usize = 4 * 2 * HALF * 2;

/// What undo needs of a move besides its log entries.
#[derive(Clone, Copy)]
struct MoveMark {
    /// Where the move's entries start in the undo log.
    log: u32,
    /// The value sums before the move.
    sums: [i32; 2],
}

/// One cell's state before a move changed it, for one colour.
#[derive(Clone, Copy, Default)]
struct UndoEntry {
    old: CellState,
    pos: u16,
    color: u8,
}

/// Why a board could not be created or a move not played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// Width or height outside 5..=22.
    BadSize,
    /// The cell is outside the playing area.
    OffBoard,
    /// The cell already holds a stone.
    Occupied,
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BoardError::BadSize => "board size must be 5..22",
            BoardError::OffBoard => "move is off the board",
            BoardError::Occupied => "cell is occupied",
        })
    }
}

impl std::error::Error for BoardError {}

/// The color code stored in cells and line keys.
#[inline]
const fn stone_code(color: Color) -> u8 {
    match color {
        Color::Black => CELL_BLACK as u8,
        Color::White => CELL_WHITE as u8,
    }
}

impl Board {
    /// An empty `width`×`height` board under `rule`, black to move.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, BoardError> {
        Board::with_radius(width, height, rule, DEFAULT_CANDIDATE_RADIUS)
    }

    /// Like [`Board::new`] with the candidate radius (1..=5) given.
    pub fn with_radius(
        width: usize,
        height: usize,
        rule: Rule,
        radius: usize,
    ) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(BoardError::BadSize);
        }
        let mut board = Board {
            width,
            height,
            rule,
            reach: rule.reach(),
            radius: radius.clamp(1, BORDER),
            lines: LineTable::for_rule(rule),
            combine: CombineTable::for_rule(rule),
            cells: [CELL_WALL as u8; NUM_CELLS],
            line_keys: [[u64::MAX; 64]; 4],
            state: [[CellState::default(); 2]; NUM_CELLS],
            cell_values: &CellValues::ZERO,
            records: RecordTable::of(CombineTable::for_rule(rule), &CellValues::ZERO),
            value_sums: [0; 2],
            class_counts: [[0; CLASS_SLOTS]; 2],
            class_cells: [[CellSet::EMPTY; CLASS_SLOTS]; 2],
            cells_from_flex2x2: [CellSet::EMPTY; 2],
            stones: CellSet::EMPTY,
            empty_cells: CellSet::EMPTY,
            history: Vec::with_capacity(width * height),
            undo_log: Vec::new(),
            undo_len: 0,
            move_marks: Vec::with_capacity(width * height),
            side_to_move: Color::Black,
            hash: 0,
        };
        for y in 0..height {
            for x in 0..width {
                let p = Pos::new(x, y);
                board.cells[p.index()] = CELL_EMPTY as u8;
                board.empty_cells.insert(p);
                for dir in 0..4 {
                    let (line, at) = p.line_of(dir);
                    board.line_keys[dir][line] &= !(3u64 << (2 * at));
                }
            }
        }
        for p in board.empty_cells.iter() {
            board.refresh_cell(p);
        }
        Ok(board)
    }

    /// Board width (columns).
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height (rows).
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// The rule in force.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The candidate radius.
    #[inline]
    pub fn candidate_radius(&self) -> usize {
        self.radius
    }

    /// The colour to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The 64-bit Zobrist key of the stones and the side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist key after the side to move plays `p` (without playing it).
    #[inline]
    pub fn hash_after(&self, p: Pos) -> u64 {
        self.hash ^ STONE_KEYS[self.side_to_move.index()][p.index()] ^ SIDE_KEY
    }

    /// The Zobrist key after `color` plays `p` and the other colour then plays `reply` (the
    /// side to move is back where it was), without playing them.
    #[inline]
    pub fn hash_after_pair(&self, p: Pos, color: Color, reply: Pos) -> u64 {
        self.hash
            ^ STONE_KEYS[color.index()][p.index()]
            ^ STONE_KEYS[color.opponent().index()][reply.index()]
    }

    /// The one five point `color` would get by playing the empty cell `p`, when `p` makes
    /// a four on exactly one line and that four has a single five point; `None` for any
    /// other move (no four, an open four, two fours). Read from the line keys without
    /// playing `p`: a forcing search can look its reply up before paying for two moves.
    pub fn five_point_after(&self, p: Pos, color: Color) -> Option<Pos> {
        let packed = self.cell(p, color.index()).pattern();
        let mut four_dir = None;
        for dir in 0..4 {
            match LinePattern::from_u8(((packed >> (4 * dir)) & 0xF) as u8) {
                LinePattern::Block4 if four_dir.is_none() => four_dir = Some(dir),
                LinePattern::Block4 | LinePattern::Flex4 | LinePattern::Five => return None,
                _ => {}
            }
        }
        let dir = four_dir?;
        let (line, at) = p.line_of(dir);
        let code = stone_code(color);
        let key = self.line_keys[dir][line] | (code as u64) << (2 * at);
        let mut point = None;
        for sign in [-1isize, 1] {
            for s in 1..=4isize {
                let q = p.step(dir, sign * s);
                let cell = self.cells[q.index() & (NUM_CELLS - 1)];
                if cell == CELL_EMPTY as u8 {
                    let window = window_key(key, (at as isize + sign * s) as usize);
                    if self.lines.pattern(window, color) == LinePattern::Five {
                        if point.is_some() {
                            return None;
                        }
                        point = Some(q);
                    }
                } else if cell != code {
                    break;
                }
            }
        }
        point
    }

    /// The stones in the order they were placed.
    #[inline]
    pub fn history(&self) -> &[Pos] {
        &self.history
    }

    /// Number of stones on the board.
    #[inline]
    pub fn stone_count(&self) -> usize {
        self.history.len()
    }

    /// The most recent stone.
    #[inline]
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().copied()
    }

    /// The board after the moves of a referee / c-gomoku-cli `pos` string (`h8i9j10`: letter =
    /// x, number = y + 1 counted from the top), played alternately from black.
    pub fn from_pos_string(
        width: usize,
        height: usize,
        rule: Rule,
        moves: &str,
    ) -> Result<Board, String> {
        let mut board = Board::new(width, height, rule).map_err(|e| e.to_string())?;
        let moves = super::notation::parse_pos_string(moves, width, height)
            .ok_or_else(|| format!("bad pos string {moves}"))?;
        for (x, y) in moves {
            board.try_play(x, y).map_err(|e| format!("{x},{y}: {e}"))?;
        }
        Ok(board)
    }

    /// Whether `(x, y)` is inside the playing area.
    #[inline]
    pub fn contains(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.height
    }

    /// The cell at `(x, y)`, if it is on the board.
    #[inline]
    pub fn pos(&self, x: usize, y: usize) -> Option<Pos> {
        self.contains(x, y).then(|| Pos::new(x, y))
    }

    /// Whether `p` is an empty cell of the playing area.
    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.index()] == CELL_EMPTY as u8
    }

    /// The stone on `p`, if any.
    #[inline]
    pub fn stone(&self, p: Pos) -> Option<Color> {
        match self.cells[p.index()] as u32 {
            CELL_BLACK => Some(Color::Black),
            CELL_WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// Whether the board has no empty cell left.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.history.len() == self.width * self.height
    }

    /// Every empty cell of the playing area.
    #[inline]
    pub fn empty_cells(&self) -> &CellSet {
        &self.empty_cells
    }

    /// Empty cells within the candidate radius of some stone (every empty cell's neighbourhood
    /// is the square of side `2 * radius + 1`).
    #[inline]
    pub fn candidates(&self) -> CellSet {
        self.candidates_within(self.radius)
    }

    /// Empty cells within `radius` (1..=5, clamped) of some stone: [`Board::candidates`] with
    /// another radius (the search chooses its own).
    #[inline]
    pub fn candidates_within(&self, radius: usize) -> CellSet {
        // A stone is at least `BORDER` (>= radius) cells from its row's ends: no spill.
        self.stones
            .dilate(radius.clamp(1, BORDER), STRIDE)
            .and(&self.empty_cells)
    }

    /// The pattern of `color`'s line in direction `dir` through the empty cell `p`.
    #[inline]
    pub fn line_pattern(&self, p: Pos, color: Color, dir: usize) -> LinePattern {
        LinePattern::from_u8(((self.cell(p, color.index()).pattern() >> (4 * dir)) & 0xF) as u8)
    }

    /// The four directional patterns of `color` at `p`, one nibble each (direction 0 lowest).
    #[inline]
    pub fn packed_patterns(&self, p: Pos, color: Color) -> u16 {
        self.cell(p, color.index()).pattern()
    }

    /// The pattern code of `color`'s four patterns at `p` (see [`super::pattern::pcode`]).
    #[inline]
    pub fn pcode(&self, p: Pos, color: Color) -> u16 {
        self.cell(p, color.index()).pcode()
    }

    /// Uses `values` for the value sums ([`Board::value_sum`]) and recomputes them, those
    /// before each stone too ([`Board::value_sum_before_last`], and what undo restores): the
    /// stones are taken back and placed again.
    pub fn set_cell_values(&mut self, values: &'static CellValues) {
        let side = self.side_to_move;
        let mut stones = Vec::with_capacity(self.history.len());
        while let Some(p) = self.history.last().copied() {
            let color = self.stone(p).expect("history cell holds a stone");
            self.undo();
            stones.push((p, color));
        }
        self.cell_values = values;
        self.records = RecordTable::of(self.combine, values);
        let mut sums = [0i32; 2];
        for p in self.empty_cells.iter() {
            for (c, sum) in sums.iter_mut().enumerate() {
                let cell = &mut self.state[p.index()][c];
                *cell = cell.with_value(values.get(c, cell.pcode()) as i16);
                *sum += cell.value() as i32;
            }
        }
        self.value_sums = sums;
        for &(p, color) in stones.iter().rev() {
            self.place(p, color);
        }
        if self.side_to_move != side {
            self.pass();
        }
    }

    /// `color`'s value of the empty cell `p`'s pattern code (the term [`Board::value_sum`]
    /// adds up; zero until [`Board::set_cell_values`]).
    #[inline]
    pub fn cell_value(&self, p: Pos, color: Color) -> i32 {
        self.cell(p, color.index()).value() as i32
    }

    /// The sum over the empty cells of `color`'s value of the cell's pattern code, kept as
    /// moves are made and undone (zero until [`Board::set_cell_values`]).
    #[inline]
    pub fn value_sum(&self, color: Color) -> i32 {
        self.value_sums[color.index()]
    }

    /// [`Board::value_sum`] as it was before the last stone (the current sum on an empty board).
    #[inline]
    pub fn value_sum_before_last(&self, color: Color) -> i32 {
        self.move_marks
            .last()
            .map_or(self.value_sums[color.index()], |m| m.sums[color.index()])
    }

    /// The pattern-code changes of the moves after the first `moves` of the history, in the
    /// order they were made: for each (cell, colour index) whose patterns a move changed, the
    /// pattern code it had just before (a move changes a cell's record at most once; a later
    /// move may change it again). The stones themselves keep the code they had when played.
    /// What an evaluation that keeps its own sums per position reads to bring them up to date
    /// without a scan of the board.
    pub fn code_changes_since(&self, moves: usize) -> impl Iterator<Item = (Pos, usize, u16)> + '_ {
        let start = self
            .move_marks
            .get(moves)
            .map_or(self.undo_len, |m| m.log as usize);
        self.undo_log[start..self.undo_len]
            .iter()
            .map(|e| (Pos(e.pos), e.color as usize & 1, e.old.pcode()))
    }

    /// The position's hash without the side to move: equal for the same stones whoever moves
    /// (a pass changes [`Board::hash`], not this).
    #[inline]
    pub fn stones_hash(&self) -> u64 {
        match self.side_to_move {
            Color::Black => self.hash,
            Color::White => self.hash ^ SIDE_KEY,
        }
    }

    /// What a stone of `color` on the empty cell `p` would make (`None` on occupied cells).
    #[inline]
    pub fn threat(&self, p: Pos, color: Color) -> ThreatClass {
        ThreatClass::from_u8(self.cell(p, color.index()).class())
    }

    /// How many empty cells have threat class `class` for `color`: O(1) for the classes whose
    /// cells are kept ([`Board::threat_cells`]), a scan of the board for the weaker ones.
    #[inline]
    pub fn threat_count(&self, color: Color, class: ThreatClass) -> usize {
        if tracked(class as u8) {
            self.class_counts[color.index()][class as usize] as usize
        } else {
            self.count_by_scan(color, class)
        }
    }

    /// [`Board::threat_count`] of a class whose cells are not kept (out of the hot paths).
    #[cold]
    #[inline(never)]
    fn count_by_scan(&self, color: Color, class: ThreatClass) -> usize {
        self.empty_cells
            .iter()
            .filter(|&p| self.cell(p, color.index()).class() == class as u8)
            .count()
    }

    /// The empty cells with threat class `class` for `color`, without a board scan: the renju
    /// foul and the classes from an open three up (neither the sets nor the counts of the
    /// weaker classes are kept).
    #[inline]
    pub fn threat_cells(&self, color: Color, class: ThreatClass) -> &CellSet {
        debug_assert!(tracked(class as u8), "no set kept for {class:?}");
        &self.class_cells[color.index()][class as usize]
    }

    /// The empty cells whose threat class for `color` is two open twos
    /// ([`ThreatClass::Flex2x2`]) or stronger, every such class in one set (the renju foul is
    /// below it).
    #[inline]
    pub fn cells_from_flex2x2(&self, color: Color) -> &CellSet {
        &self.cells_from_flex2x2[color.index()]
    }

    /// Whether `color` can win with its next stone (it has a five point).
    #[inline]
    pub fn has_five_point(&self, color: Color) -> bool {
        self.threat_count(color, ThreatClass::Five) > 0
    }

    /// Plays a stone of the side to move on `p` and passes the turn. The caller guarantees that
    /// `p` is an empty cell (see [`Board::try_play`] for a checked version).
    #[inline]
    pub fn make_move(&mut self, p: Pos) {
        let color = self.side_to_move;
        self.place(p, color);
    }

    /// Plays `(x, y)` for the side to move after checking that it is an empty board cell.
    pub fn try_play(&mut self, x: usize, y: usize) -> Result<Pos, BoardError> {
        let p = self.pos(x, y).ok_or(BoardError::OffBoard)?;
        if !self.is_empty(p) {
            return Err(BoardError::Occupied);
        }
        self.make_move(p);
        Ok(p)
    }

    /// Places a stone of `color` on the empty cell `p`; the other colour moves next. Used to set
    /// up positions whose stones do not alternate.
    pub fn place(&mut self, p: Pos, color: Color) {
        debug_assert!(self.is_empty(p), "place on a non-empty cell {p:?}");
        let code = stone_code(color);
        self.cells[p.index()] = code;
        for dir in 0..4 {
            let (line, at) = p.line_of(dir);
            self.line_keys[dir][line] |= (code as u64) << (2 * at);
        }
        self.hash ^= STONE_KEYS[color.index()][p.index()];
        if self.side_to_move != color.opponent() {
            self.hash ^= SIDE_KEY;
        }
        self.side_to_move = color.opponent();
        self.history.push(p);
        self.move_marks.push(MoveMark {
            log: self.undo_len as u32,
            sums: self.value_sums,
        });
        if self.undo_log.len() < self.undo_len + MAX_UNDO_ENTRIES {
            self.grow_undo_log();
        }
        self.empty_cells.remove(p);
        // The patterns of `p` stay as they were while it is occupied; undo needs them again.
        for c in 0..2 {
            self.set_class(p, c, ThreatClass::None as u8);
            self.value_sums[c] -= self.cell(p, c).value() as i32;
        }
        self.refresh_around(p);
        self.stones.insert(p);
    }

    /// Makes room in the undo log for one more move's entries (out of the hot path).
    #[cold]
    #[inline(never)]
    fn grow_undo_log(&mut self) {
        let slots = (2 * self.undo_log.len()).max(self.undo_len + MAX_UNDO_ENTRIES);
        self.undo_log.resize(slots, UndoEntry::default());
    }

    /// Takes back the most recent stone; the colour that played it is to move again.
    pub fn undo(&mut self) -> Option<Pos> {
        let p = self.history.pop()?;
        let color = self.stone(p).expect("history cell holds a stone");
        self.cells[p.index()] = CELL_EMPTY as u8;
        for dir in 0..4 {
            let (line, at) = p.line_of(dir);
            self.line_keys[dir][line] &= !(3u64 << (2 * at));
        }
        self.hash ^= STONE_KEYS[color.index()][p.index()];
        if self.side_to_move != color {
            self.hash ^= SIDE_KEY;
        }
        self.side_to_move = color;
        self.empty_cells.insert(p);
        self.stones.remove(p);
        let MoveMark { log: mark, sums } = self.move_marks.pop().expect("one mark per move");
        let mark = mark as usize;
        // The log is taken out while it is read, so that writing the board's records cannot
        // be taken for writing the log (the compiler would read it again after each).
        let log = std::mem::take(&mut self.undo_log);
        for e in log[mark..self.undo_len].iter().rev() {
            let q = Pos(e.pos);
            let c = e.color as usize & 1;
            let now = *self.cell(q, c);
            self.state[q.index() & (NUM_CELLS - 1)][c] = e.old;
            self.move_record(q, c, now, e.old);
        }
        self.undo_log = log;
        self.undo_len = mark;
        self.value_sums = sums;
        for c in 0..2 {
            let class = self.combine.of_pcode(c, self.cell(p, c).pcode());
            self.set_class(p, c, class);
        }
        Some(p)
    }

    /// Passes the turn without a stone (used by threat searches that let one side move twice).
    pub fn pass(&mut self) {
        self.side_to_move = self.side_to_move.opponent();
        self.hash ^= SIDE_KEY;
    }

    /// Whether the stone just played on `p` completes a win for its colour under the rule
    /// (renju: black needs an exact five; caro: a five blocked at both ends does not count).
    pub fn is_winning_stone(&self, p: Pos) -> bool {
        let Some(color) = self.stone(p) else {
            return false;
        };
        (0..4).any(|dir| {
            let (line, at) = p.line_of(dir);
            self.lines
                .pattern(window_key(self.line_keys[dir][line], at), color)
                == LinePattern::Five
        })
    }

    /// Whether the last stone won the game.
    pub fn last_move_wins(&self) -> bool {
        self.last_move().is_some_and(|p| self.is_winning_stone(p))
    }

    /// Re-reads the patterns of the empty cells within reach of `p` on its four lines.
    ///
    /// A cell's pattern for one colour depends only on the cells up to the nearest opponent
    /// stone (included, for caro's blocked ends) or wall, so the walk along a line stops at a
    /// wall or once it has passed stones of both colours: beyond that, `p` is out of sight.
    #[inline]
    fn refresh_around(&mut self, p: Pos) {
        let reach = self.reach;
        // The sums and the log's length are kept in registers for the walk: kept in memory,
        // every change would wait for the store of the one before.
        let mut sums = self.value_sums;
        let mut logged = self.undo_len;
        let tables = (self.lines, self.records);
        for dir in 0..4 {
            let (line, at) = p.line_of(dir);
            let key = self.line_keys[dir][line];
            for sign in [-1isize, 1] {
                let mut seen = 0u8;
                for (q, shift) in HalfLine::new(p, dir, at, sign, reach) {
                    let code = self.cells[q];
                    if code == CELL_EMPTY as u8 {
                        let packed = tables.0.get(window_of(key, shift));
                        let q = Pos(q as u16);
                        self.set_line(q, dir, packed, (&mut sums, &mut logged), tables);
                    } else {
                        seen |= code;
                        if seen == 3 {
                            break;
                        }
                    }
                }
            }
        }
        self.value_sums = sums;
        self.undo_len = logged;
    }

    /// Whether a stone of `color`'s opponent on the empty cell `d` would leave `color` with no
    /// cell of any of `classes`: what playing it and reading the threat counts would say, at a
    /// fraction of the cost (only `color`'s patterns on the four lines through `d` are re-read,
    /// along the same walk as a move's update, and nothing is written). Asked for every
    /// candidate defence against an open three or a four-three, and for every cell that
    /// might stop a caro five ([`Board::five_stoppers`]).
    pub fn stone_leaves_none(&self, d: Pos, color: Color, classes: &[ThreatClass]) -> bool {
        let c = color.index();
        let listed = |class: u8| classes.iter().any(|&k| k as u8 == class);
        // Cells of those classes off the stone's lines keep their class.
        let mut untouched: usize = classes.iter().map(|&k| self.threat_count(color, k)).sum();
        untouched -= usize::from(listed(self.cell(d, c).class()));
        let code = stone_code(color.opponent()) as u64;
        for dir in 0..4 {
            let (line, at) = d.line_of(dir);
            let key = self.line_keys[dir][line] | (code << (2 * at));
            let shift = 4 * dir;
            for sign in [-1isize, 1] {
                let mut seen = 0u8;
                for (q, key_shift) in HalfLine::new(d, dir, at, sign, self.reach) {
                    let cell = self.cells[q];
                    if cell != CELL_EMPTY as u8 {
                        seen |= cell;
                        if seen == 3 {
                            break;
                        }
                        continue;
                    }
                    let packed = self.lines.get(window_of(key, key_shift));
                    let cell = self.state[q][c];
                    let old = cell.pattern();
                    let new = (old & !(0xFu16 << shift))
                        | ((((packed >> (4 * c)) & 0xF) as u16) << shift);
                    // A cell lies on one line through `d` only, so it is met once.
                    if new != old {
                        if listed(CellState(self.records.get(c, new)).class()) {
                            return false;
                        }
                        untouched -= usize::from(listed(cell.class()));
                    }
                }
            }
        }
        untouched == 0
    }

    /// Recomputes all four directional patterns of the empty cell `p` and its classes (at the
    /// board's creation, before any values are summed).
    fn refresh_cell(&mut self, p: Pos) {
        let mut black = 0u16;
        let mut white = 0u16;
        for dir in 0..4 {
            let (line, at) = p.line_of(dir);
            let packed = self.lines.get(window_key(self.line_keys[dir][line], at));
            black |= ((packed & 0xF) as u16) << (4 * dir);
            white |= ((packed >> 4) as u16) << (4 * dir);
        }
        for (c, packed) in [black, white].into_iter().enumerate() {
            let old = self.state[p.index()][c];
            let new = CellState(packed as u64 | self.records.get(c, packed));
            self.state[p.index()][c] = new;
            self.move_record(p, c, old, new);
        }
    }

    /// Stores the (black, white) patterns of `p` in direction `dir` and updates its classes
    /// (only for a colour whose patterns changed).
    #[inline]
    fn set_line(
        &mut self,
        p: Pos,
        dir: usize,
        packed: u8,
        (sums, logged): (&mut [i32; 2], &mut usize),
        (_, records): Tables,
    ) {
        let shift = 4 * dir;
        let mask = !(0xFu16 << shift);
        let i = p.index() & (NUM_CELLS - 1);
        for (c, sum) in sums.iter_mut().enumerate() {
            let old = self.state[i][c];
            let new = (old.pattern() & mask) | ((((packed >> (4 * c)) & 0xF) as u16) << shift);
            if new != old.pattern() {
                self.undo_log[*logged] = UndoEntry {
                    old,
                    pos: p.0,
                    color: c as u8,
                };
                *logged += 1;
                let state = CellState(new as u64 | records.get(c, new));
                *sum += state.value() as i32 - old.value() as i32;
                self.state[i][c] = state;
                self.move_record(p, c, old, state);
            }
        }
    }

    /// The state of cell `p` for colour index `c`.
    #[inline]
    fn cell(&self, p: Pos, c: usize) -> &CellState {
        &self.state[p.index() & (NUM_CELLS - 1)][c & 1]
    }

    /// Moves `p` to class `class` for colour index `c`, keeping the counts and cell sets of
    /// the tracked classes.
    #[inline]
    fn set_class(&mut self, p: Pos, c: usize, class: u8) {
        let cell = &mut self.state[p.index() & (NUM_CELLS - 1)][c & 1];
        let (old, new) = (*cell, cell.with_class(class));
        *cell = new;
        self.move_record(p, c, old, new);
    }

    /// Moves `p` from record `old`'s class to record `new`'s in the counts and cell sets of
    /// colour index `c` (the cell's record is the caller's business), with the class's flags
    /// read off the records.
    #[inline]
    fn move_record(&mut self, p: Pos, c: usize, old: CellState, new: CellState) {
        let changed = old.0 ^ new.0;
        if changed >> 48 & 0xFF == 0 {
            return;
        }
        let c = c & 1;
        // Branch-free: whether a change crosses the line is too random for the branch
        // predictor (a branch here costs a tenth of make+unmake).
        self.cells_from_flex2x2[c].toggle_if(p, changed >> FROM_FLEX2X2_BIT & 1 != 0);
        if (old.0 | new.0) >> TRACKED_BIT & 1 != 0 {
            let (old, class) = (old.class(), new.class());
            if tracked(old) {
                self.class_counts[c][old as usize & 15] -= 1;
                self.class_cells[c][old as usize & 15].remove(p);
            }
            if tracked(class) {
                self.class_counts[c][class as usize & 15] += 1;
                self.class_cells[c][class as usize & 15].insert(p);
            }
        }
    }

    /// The raw key of line `line` in direction `dir` (2 bits per position).
    #[inline]
    pub(crate) fn line_key(&self, dir: usize, line: usize) -> u64 {
        self.line_keys[dir][line]
    }

    /// Recomputes every piece of incremental state from the stones alone, by a separate and
    /// slower path (cells read one by one, no line keys), and reports the first difference.
    /// For tests and debugging.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut hash = 0u64;
        let mut counts = [[0u16; CLASS_SLOTS]; 2];
        let mut from_flex2x2 = [CellSet::EMPTY; 2];
        let mut near_cells = CellSet::EMPTY;
        for y in 0..self.height {
            for x in 0..self.width {
                let p = Pos::new(x, y);
                if let Some(c) = self.stone(p) {
                    hash ^= STONE_KEYS[c.index()][p.index()];
                    for dy in -(self.radius as isize)..=self.radius as isize {
                        for dx in -(self.radius as isize)..=self.radius as isize {
                            near_cells
                                .insert(Pos((p.0 as isize + dy * STRIDE as isize + dx) as u16));
                        }
                    }
                }
            }
        }
        if self.side_to_move == Color::White {
            hash ^= SIDE_KEY;
        }
        if hash != self.hash {
            return Err(format!(
                "zobrist key {:#x} != recomputed {:#x}",
                self.hash, hash
            ));
        }
        for y in 0..self.height {
            for x in 0..self.width {
                let p = Pos::new(x, y);
                if !self.is_empty(p) {
                    for c in 0..2 {
                        if self.cell(p, c).class() != 0 {
                            return Err(format!("occupied {p:?} has a class"));
                        }
                    }
                    continue;
                }
                for (c, color) in Color::BOTH.into_iter().enumerate() {
                    let mut packed = 0u16;
                    for dir in 0..4 {
                        let mut key = 0u32;
                        for (slot, s) in (-5..=5isize).filter(|&s| s != 0).enumerate() {
                            let q = p.0 as isize + s * super::pos::DIRECTIONS[dir];
                            let code = if (0..NUM_CELLS as isize).contains(&q) {
                                self.cells[q as usize] as u32
                            } else {
                                CELL_WALL
                            };
                            key |= code << (2 * slot);
                        }
                        packed |= (self.lines.pattern(key, color) as u16) << (4 * dir);
                    }
                    if packed != self.cell(p, c).pattern() {
                        return Err(format!(
                            "{color:?} patterns at {p:?}: {:#06x} != recomputed {packed:#06x}",
                            self.cell(p, c).pattern()
                        ));
                    }
                    let class = self.combine.get(color, packed);
                    if class as u8 != self.cell(p, c).class() {
                        return Err(format!("{color:?} class at {p:?} differs"));
                    }
                    if self.cell(p, c).0 >> 48 != class_bits(class as u8) >> 48 {
                        return Err(format!("{color:?} class flags at {p:?} differ"));
                    }
                    if class >= ThreatClass::Flex2x2 {
                        from_flex2x2[c].insert(p);
                    }
                    if tracked(class as u8) {
                        counts[c][class as usize] += 1;
                        if !self.class_cells[c][class as usize].contains(p) {
                            return Err(format!("{color:?} class set misses {p:?}"));
                        }
                    }
                }
            }
        }
        if counts != self.class_counts {
            return Err("class counts differ".into());
        }
        if from_flex2x2 != self.cells_from_flex2x2 {
            return Err("the sets of cells from two open twos up differ".into());
        }
        let mut sums = [0i32; 2];
        for p in self.empty_cells.iter() {
            for (c, sum) in sums.iter_mut().enumerate() {
                let code = super::pattern::pcode(self.cell(p, c).pattern());
                if code != self.cell(p, c).pcode() {
                    return Err(format!("pattern code of colour {c} at {p:?} differs"));
                }
                if self.cell_values.get(c, code) != self.cell(p, c).value() as i32 {
                    return Err(format!("cell value of colour {c} at {p:?} differs"));
                }
                *sum += self.cell_values.get(c, code);
            }
        }
        if sums != self.value_sums {
            return Err(format!(
                "value sums {:?} != recomputed {sums:?}",
                self.value_sums
            ));
        }
        for (c, (sets, want)) in self.class_cells.iter().zip(counts.iter()).enumerate() {
            for class in (0..NUM_CLASSES).filter(|&k| tracked(k as u8)) {
                if sets[class].len() != want[class] as usize {
                    return Err(format!("class set {class} of colour {c} has stale cells"));
                }
            }
        }
        if self.candidates() != near_cells.and(&self.empty_cells) {
            return Err("candidate set differs".into());
        }
        Ok(())
    }

    /// A text picture of the board (`X` black, `O` white, `.` empty, the last stone in lower
    /// case), top row first, labelled as players and books name points: columns `a`, `b`, …
    /// from the left, rows numbered from the bottom, so that `h8` is the centre of 15×15.
    pub fn to_text(&self) -> String {
        let letters: String = (0..self.width)
            .map(|x| format!(" {}", (b'a' + x as u8) as char))
            .collect();
        let mut out = format!("   {letters}\n");
        for y in 0..self.height {
            let row = self.height - y;
            out.push_str(&format!("{row:>3}"));
            for x in 0..self.width {
                let p = Pos::new(x, y);
                let c = match self.stone(p) {
                    Some(Color::Black) if self.last_move() == Some(p) => " x",
                    Some(Color::White) if self.last_move() == Some(p) => " o",
                    Some(Color::Black) => " X",
                    Some(Color::White) => " O",
                    None => " .",
                };
                out.push_str(c);
            }
            out.push_str(&format!(" {row}\n"));
        }
        out.push_str(&format!("   {letters}\n"));
        out
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Board {}x{} {} \n{}",
            self.width,
            self.height,
            self.rule,
            self.to_text()
        )
    }
}

impl Board {
    /// A random empty cell near the stones (any empty cell on an empty board): for tests that
    /// play random games, and `datagen --random-moves`. Not checked for legality.
    pub fn random_near_cell(&self, rng: &mut impl rand::Rng) -> Pos {
        let near: Vec<Pos> = self.candidates().iter().collect();
        let pool: Vec<Pos> = if near.is_empty() {
            self.empty_cells().iter().collect()
        } else {
            near
        };
        pool[rng.gen_range(0..pool.len())]
    }
}

#[cfg(test)]
impl Board {
    /// A 15×15 board after a random number of random moves near the stones (in `moves`),
    /// stopped before a move that wins.
    pub(crate) fn random_middle_game(
        rule: Rule,
        rng: &mut impl rand::Rng,
        moves: std::ops::Range<usize>,
    ) -> Board {
        let mut board = Board::new(15, 15, rule).unwrap();
        for _ in 0..rng.gen_range(moves) {
            board.make_move(board.random_near_cell(rng));
            if board.last_move_wins() {
                board.undo();
                break;
            }
        }
        board
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Long seeded random sequences of moves and undos, every rule, 15×15 and 20×20: after
    /// every step the incremental state equals the state recomputed from the stones.
    #[test]
    fn incremental_state_matches_recomputation() {
        for (seed, rule) in Rule::ALL.into_iter().enumerate() {
            for (size_w, size_h) in [(15, 15), (20, 20), (7, 19)] {
                let mut rng = StdRng::seed_from_u64(seed as u64 * 1000 + size_w as u64);
                let mut board = Board::with_radius(size_w, size_h, rule, 1 + seed).unwrap();
                // Random values, so that the sums are checked too.
                let mut values = Box::new(CellValues::ZERO);
                for v in values.values.iter_mut().flatten() {
                    *v = rng.gen_range(-1000..1000);
                }
                board.set_cell_values(Box::leak(values));
                let mut steps = 0;
                while steps < 1500 {
                    steps += 1;
                    let undo =
                        !board.history().is_empty() && (board.is_full() || rng.gen_bool(0.3));
                    if undo {
                        board.undo();
                    } else {
                        let empties: Vec<Pos> = board.empty_cells().iter().collect();
                        // Mostly near the stones, as in real games; sometimes anywhere.
                        let near: Vec<Pos> = board.candidates().iter().collect();
                        let pool = if near.is_empty() || rng.gen_bool(0.2) {
                            &empties
                        } else {
                            &near
                        };
                        let p = pool[rng.gen_range(0..pool.len())];
                        if rng.gen_bool(0.1) {
                            let color = if rng.gen_bool(0.5) {
                                Color::Black
                            } else {
                                Color::White
                            };
                            board.place(p, color);
                        } else {
                            board.make_move(p);
                        }
                    }
                    if let Err(e) = board.check_consistency() {
                        panic!("{rule} {size_w}x{size_h} step {steps}: {e}\n{board:?}");
                    }
                }
                // Unwinding everything returns to the empty board's exact state.
                while board.undo().is_some() {}
                // Undo hands the move back to whoever placed the first stone.
                if board.side_to_move() != Color::Black {
                    board.pass();
                }
                let mut fresh = Board::with_radius(size_w, size_h, rule, 1 + seed).unwrap();
                fresh.set_cell_values(board.cell_values);
                assert_eq!(board.hash(), fresh.hash());
                assert!(board.state == fresh.state);
                assert_eq!(board.class_counts, fresh.class_counts);
                assert!(board.cells_from_flex2x2 == fresh.cells_from_flex2x2);
                assert_eq!(board.stones, fresh.stones);
            }
        }
    }

    /// `five_point_after` names the five point a move really makes, for every empty cell and
    /// colour of seeded random middle games in every rule (caro's blocked fives included), and
    /// gives up exactly on the moves that do not make one plain four with one five point.
    #[test]
    fn five_point_after_matches_playing_the_move() {
        let (mut named, mut declined) = (0, 0);
        for (seed, rule) in Rule::ALL.into_iter().enumerate() {
            let mut rng = StdRng::seed_from_u64(seed as u64 + 77);
            for _game in 0..40 {
                let mut board = Board::random_middle_game(rule, &mut rng, 12..60);
                let empties: Vec<Pos> = board.empty_cells().iter().collect();
                for color in Color::BOTH {
                    if board.has_five_point(color) {
                        continue;
                    }
                    for &p in &empties {
                        let said = board.five_point_after(p, color);
                        let fours: Vec<LinePattern> = (0..4)
                            .map(|d| board.line_pattern(p, color, d))
                            .filter(|l| l.is_four() || *l == LinePattern::Five)
                            .collect();
                        let side = board.side_to_move();
                        board.place(p, color);
                        let fives: Vec<Pos> = board
                            .threat_cells(color, ThreatClass::Five)
                            .iter()
                            .collect();
                        board.undo();
                        if board.side_to_move() != side {
                            board.pass();
                        }
                        let plain = fours == [LinePattern::Block4] && fives.len() == 1;
                        match said {
                            Some(q) => {
                                assert!(plain && fives == [q], "{rule} {p:?} {color:?}\n{board:?}");
                                named += 1;
                            }
                            None => {
                                assert!(!plain, "{rule} {p:?} {color:?} missed\n{board:?}");
                                declined += usize::from(!fours.is_empty());
                            }
                        }
                    }
                }
            }
        }
        assert!(
            named > 500 && declined > 20,
            "{named} named, {declined} fours declined"
        );
    }

    /// `stone_leaves_none` says what placing the stone and counting the classes says, for
    /// every empty cell and colour of seeded random middle games in every rule.
    #[test]
    fn stone_leaves_none_matches_playing_the_stone() {
        let sets: [&[ThreatClass]; 3] = [
            &[ThreatClass::Flex4],
            &[ThreatClass::Block4Flex3, ThreatClass::Flex4],
            &[ThreatClass::Flex3, ThreatClass::Flex3Plus],
        ];
        let mut stops = 0;
        for (seed, rule) in Rule::ALL.into_iter().enumerate() {
            let mut rng = StdRng::seed_from_u64(seed as u64 + 401);
            for _game in 0..30 {
                let mut board = Board::random_middle_game(rule, &mut rng, 8..50);
                let empties: Vec<Pos> = board.empty_cells().iter().collect();
                for color in Color::BOTH {
                    for classes in sets {
                        if classes.iter().all(|&k| board.threat_count(color, k) == 0) {
                            continue;
                        }
                        for &d in &empties {
                            let said = board.stone_leaves_none(d, color, classes);
                            let side = board.side_to_move();
                            board.place(d, color.opponent());
                            let none = classes.iter().all(|&k| board.threat_count(color, k) == 0);
                            board.undo();
                            if board.side_to_move() != side {
                                board.pass();
                            }
                            assert_eq!(said, none, "{rule} {d:?} {color:?} {classes:?}\n{board:?}");
                            stops += usize::from(none);
                        }
                    }
                }
            }
        }
        assert!(stops > 300, "{stops} stopping stones");
    }

    #[test]
    fn same_stones_same_key_whatever_the_order() {
        let mut a = Board::new(15, 15, Rule::Renju).unwrap();
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        for (x, y) in [(7, 7), (8, 8), (6, 7), (8, 7)] {
            a.try_play(x, y).unwrap();
        }
        for (x, y) in [(6, 7), (8, 7), (7, 7), (8, 8)] {
            b.try_play(x, y).unwrap();
        }
        assert_eq!(a.hash(), b.hash());
        b.undo();
        assert_ne!(a.hash(), b.hash());
    }

    #[test]
    fn rejects_bad_sizes_and_moves() {
        assert_eq!(
            Board::new(4, 15, Rule::Freestyle).unwrap_err(),
            BoardError::BadSize
        );
        assert_eq!(
            Board::new(15, 23, Rule::Freestyle).unwrap_err(),
            BoardError::BadSize
        );
        let mut b = Board::new(5, 22, Rule::Freestyle).unwrap();
        assert_eq!(b.try_play(5, 0), Err(BoardError::OffBoard));
        b.try_play(4, 21).unwrap();
        assert_eq!(b.try_play(4, 21), Err(BoardError::Occupied));
        assert_eq!(b.side_to_move(), Color::White);
    }

    /// The picture names points as players do: `h8` is the centre of 15×15, row 1 the bottom.
    #[test]
    fn the_picture_uses_renju_coordinates() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        b.try_play(7, 7).unwrap();
        b.try_play(0, 14).unwrap();
        let text = b.to_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 17);
        assert_eq!(lines[0].trim(), "a b c d e f g h i j k l m n o");
        // Row 8 (the eighth from the bottom): X on column h.
        assert_eq!(lines[8], "  8 . . . . . . . X . . . . . . . 8");
        // Row 1: white's a1, the last stone, in lower case.
        assert_eq!(lines[15], "  1 o . . . . . . . . . . . . . . 1");
    }

    #[test]
    fn candidates_follow_the_radius() {
        let mut b = Board::with_radius(15, 15, Rule::Freestyle, 2).unwrap();
        assert!(b.candidates().is_empty());
        b.try_play(0, 0).unwrap();
        assert_eq!(b.candidates().len(), 8); // 3×3 corner square minus the stone
        b.try_play(7, 7).unwrap();
        assert_eq!(b.candidates().len(), 8 + 24);
        b.undo();
        assert_eq!(b.candidates().len(), 8);
        // Another radius on the same stones: the 4×4 corner square minus the stone, then with
        // the 7×7 square around the centre stone.
        assert_eq!(b.candidates_within(3).len(), 15);
        b.try_play(7, 7).unwrap();
        assert_eq!(b.candidates_within(3).len(), 15 + 48);
        assert_eq!(b.candidates_within(2), b.candidates());
        // Radii beyond the border's width are clamped (no cell off the board).
        assert_eq!(b.candidates_within(9), b.candidates_within(5));
    }
}
