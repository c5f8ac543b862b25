//! The evaluation's network: a hidden layer over the same pattern codes the linear tables read.
//!
//! The linear evaluation adds one value per empty cell and colour. The network adds what a
//! sum cannot say — that two threats together are worth more than apart, that a shape
//! counts for less when the other side has the initiative — in the way NNUE does, with the
//! board's pattern codes as its inputs:
//!
//! * every empty cell and colour contributes a row of [`HIDDEN`] weights chosen by the cell's
//!   pattern code, the colour and whether the colour is the side to move's (its **role**);
//!   the rows are summed over the board, this position and the one before the last stone
//!   counting half each (as the linear cells' term does);
//! * each set bit of the threat mask ([`super::threat_mask`]) adds a row, and a bias;
//! * the sum goes through a ReLU, and the output is `Σ out[j] · relu(z[j])` evaluation units,
//!   added to the linear value.
//!
//! Weights are fixed point: the first layer's at [`NET_SCALE`] per unit, so that sums are
//! exact integers and the kept sums equal the sums from scratch bit for bit.
//!
//! **Kept sums.** A search keeps a [`NetStack`]: per position on its line from the root, per
//! colour and role, the sum of the rows over the empty cells. A position's sums are made from
//! the nearest position before it on the line whose sums are known, by the pattern-code
//! changes the board logged for the moves in between ([`Board::code_changes_since`]) — so
//! make and unmake do no work for the network, and a node that is never evaluated costs
//! nothing (the sums are brought up to date when a value is asked for, as Stockfish's
//! accumulators are). The update is compiled twice, for the baseline instruction set and for
//! AVX2 (chosen at run time, [`NetStack::value`]): the row adds are most of its cost.

use crate::core::pattern::NUM_PCODES;
use crate::core::pos::NUM_CELLS;
use crate::core::zobrist::STONE_KEYS;
use crate::core::{Board, Color};

use super::THREAT_BITS;

/// Width of the hidden layer.
pub const HIDDEN: usize = 32;
/// Fixed-point scale of the first layer's weights and bias (a weight `w` is stored as
/// `round(w · NET_SCALE)`). The sums are kept in 16 bits (eight lanes to an SSE2 add), so the
/// scale is small: the fitted freestyle network's largest sum over the data is far below
/// `i16::MAX` at this scale (`tune` prints it, and refuses a network whose sums could reach
/// it on the largest boards that read a network, 17×17), and the adds wrap, so that a sum
/// that fits is exact whatever the order of the adds.
pub const NET_SCALE: i32 = 64;

/// Roles of a colour: the side to move's (0) or the other side's (1).
pub const ROLES: usize = 2;

/// One row of first-layer weights.
pub type Row = [i16; HIDDEN];

/// The network's weights (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// `cells[(role · 2 + colour) · NUM_PCODES + code]`.
    pub cells: Vec<Row>,
    /// One row per threat bit.
    pub threats: [Row; THREAT_BITS],
    /// The hidden layer's bias (fixed point).
    pub bias: [i32; HIDDEN],
    /// The output weights, in evaluation units per unit of a hidden value.
    pub out: [f32; HIDDEN],
}

/// The sums of the rows over a position's empty cells: `[colour · 2 + role]`.
pub type Sums = [[i16; HIDDEN]; 4];

impl Network {
    /// All zero (a network that adds nothing).
    pub fn zero() -> Network {
        Network {
            cells: vec![[0; HIDDEN]; ROLES * 2 * NUM_PCODES],
            threats: [[0; HIDDEN]; THREAT_BITS],
            bias: [0; HIDDEN],
            out: [0.0; HIDDEN],
        }
    }

    /// The row of `code` for colour index `colour` in `role`.
    #[inline]
    fn row(&self, role: usize, colour: usize, code: u16) -> &Row {
        &self.cells[(role * 2 + colour) * NUM_PCODES + code as usize]
    }

    /// Adds (`ADD`) or takes away the rows of `code` for colour index `colour`.
    #[inline(always)]
    fn apply<const ADD: bool>(&self, sums: &mut Sums, colour: usize, code: u16) {
        for role in 0..ROLES {
            let row = self.row(role, colour, code);
            let sum = &mut sums[colour * 2 + role];
            for j in 0..HIDDEN {
                sum[j] = if ADD {
                    sum[j].wrapping_add(row[j])
                } else {
                    sum[j].wrapping_sub(row[j])
                };
            }
        }
    }

    /// The sums of `board` from its empty cells.
    pub fn sums_from_scratch(&self, board: &Board) -> Sums {
        let mut sums = [[0; HIDDEN]; 4];
        for p in board.empty_cells().iter() {
            for c in Color::BOTH {
                self.apply::<true>(&mut sums, c.index(), board.pcode(p, c));
            }
        }
        sums
    }

    /// The network's value for the side to move of `board`, from the sums of this position
    /// and of the one before the last stone, and the threat mask.
    #[inline(always)]
    pub fn value(&self, board: &Board, now: &Sums, before: &Sums, mask: usize) -> i32 {
        let me = board.side_to_move().index();
        let opp = 1 - me;
        // Twice z, so that the half-weights of both positions stay integers.
        let mut z = [0i32; HIDDEN];
        for j in 0..HIDDEN {
            z[j] = 2 * self.bias[j]
                + now[me * 2][j] as i32
                + now[opp * 2 + 1][j] as i32
                + before[me * 2][j] as i32
                + before[opp * 2 + 1][j] as i32;
        }
        for (bit, row) in self.threats.iter().enumerate() {
            if mask & (1 << bit) != 0 {
                for j in 0..HIDDEN {
                    z[j] += 2 * row[j] as i32;
                }
            }
        }
        let value: f32 = self
            .out
            .iter()
            .zip(z)
            .map(|(&w, z)| w * z.max(0) as f32)
            .sum();
        (value / (2 * NET_SCALE) as f32).round() as i32
    }

    /// [`Network::value`] with both positions' sums computed from the stones (this position
    /// and a copy with the last stone taken back): what a [`NetStack`] must agree with.
    pub fn value_from_scratch(&self, board: &Board, mask: usize) -> i32 {
        let now = self.sums_from_scratch(board);
        let before = if board.last_move().is_some() {
            let mut previous = board.clone();
            previous.undo();
            self.sums_from_scratch(&previous)
        } else {
            now
        };
        self.value(board, &now, &before, mask)
    }

    /// Reads the network's lines of a weight file (see [`crate::tools::tune`]): `net bias`,
    /// `net out`, `net threats` and the four `net cells <role> <colour>` lines.
    pub fn from_lines<'a>(lines: &mut impl Iterator<Item = &'a str>) -> Result<Network, String> {
        let mut net = Network::zero();
        let mut next = |name: &str, count: usize| -> Result<Vec<&'a str>, String> {
            let line = lines.next().ok_or_else(|| format!("missing line {name}"))?;
            let rest = line
                .strip_prefix(name)
                .ok_or_else(|| format!("expected a line {name}"))?;
            let v: Vec<&str> = rest.split_whitespace().collect();
            if v.len() != count {
                return Err(format!("{name}: {} values, {count} expected", v.len()));
            }
            Ok(v)
        };
        let int = |t: &str, name: &str| -> Result<i32, String> {
            t.parse().map_err(|_| format!("bad number {t} in {name}"))
        };
        let short = |t: &str, name: &str| -> Result<i16, String> {
            i16::try_from(int(t, name)?).map_err(|_| format!("{name}: {t} out of range"))
        };
        for (j, t) in next("net bias", HIDDEN)?.into_iter().enumerate() {
            net.bias[j] = int(t, "net bias")?;
        }
        for (j, t) in next("net out", HIDDEN)?.into_iter().enumerate() {
            net.out[j] = t
                .parse()
                .map_err(|_| format!("bad number {t} in net out"))?;
        }
        for (i, t) in next("net threats", THREAT_BITS * HIDDEN)?
            .into_iter()
            .enumerate()
        {
            net.threats[i / HIDDEN][i % HIDDEN] = short(t, "net threats")?;
        }
        for (role, role_name) in ROLE_NAMES.iter().enumerate() {
            for colour in Color::BOTH {
                let name = format!("net cells {role_name} {}", colour_name(colour));
                for (i, t) in next(&name, NUM_PCODES * HIDDEN)?.into_iter().enumerate() {
                    net.cells[(role * 2 + colour.index()) * NUM_PCODES + i / HIDDEN][i % HIDDEN] =
                        short(t, &name)?;
                }
            }
        }
        Ok(net)
    }

    /// The network's lines of a weight file (what [`Network::from_lines`] reads).
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut text = String::from("net bias");
        for b in self.bias {
            let _ = write!(text, " {b}");
        }
        text.push_str("\nnet out");
        for w in self.out {
            let _ = write!(text, " {w}");
        }
        text.push_str("\nnet threats");
        for w in self.threats.iter().flatten() {
            let _ = write!(text, " {w}");
        }
        for (role, role_name) in ROLE_NAMES.iter().enumerate() {
            for colour in Color::BOTH {
                let _ = write!(text, "\nnet cells {role_name} {}", colour_name(colour));
                for code in 0..NUM_PCODES as u16 {
                    for w in self.row(role, colour.index(), code) {
                        let _ = write!(text, " {w}");
                    }
                }
            }
        }
        text.push('\n');
        text
    }
}

/// The roles' names in a weight file.
const ROLE_NAMES: [&str; ROLES] = ["mover", "other"];

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A position's key in the stack: its stones' hash made odd, so that no key is the 0 of an
/// unknown entry (the empty board's hash is 0).
#[inline]
fn tag(hash: u64) -> u64 {
    hash | 1
}

/// Known sums of one position on the search's line.
#[derive(Clone, Copy)]
struct Entry {
    /// [`tag`] of the position's [`Board::stones_hash`] (0 when unknown: a tag is odd).
    key: u64,
    sums: Sums,
}

/// The sums of the positions on a search's line from the root, brought up to date when a
/// value is asked for (see the module docs). Positions are known by their stones alone, not
/// by the rule, the board's size or the network: a search clears the stack for each root
/// ([`NetStack::clear`]).
pub struct NetStack {
    /// By number of stones played (the board's history length).
    entries: Vec<Entry>,
    /// Per cell and colour index: the stamp of the update that last saw it change.
    seen: Vec<u32>,
    stamp: u32,
}

impl Default for NetStack {
    fn default() -> Self {
        NetStack::new()
    }
}

impl NetStack {
    /// An empty stack.
    pub fn new() -> NetStack {
        NetStack {
            entries: Vec::new(),
            seen: vec![0; NUM_CELLS * 2],
            stamp: 0,
        }
    }

    /// Forgets every position (a new root, or a board that was set up again).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The network's value of `board` for the side to move, with the threat mask `mask`.
    pub fn value(&mut self, net: &Network, board: &Board, mask: usize) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above).
            return unsafe { self.value_avx2(net, board, mask) };
        }
        self.value_inline(net, board, mask)
    }

    /// [`NetStack::value`] compiled for AVX2, whose adds take sixteen 16-bit lanes where
    /// the baseline's SSE2 takes eight: the row adds of the update are most of the network's
    /// cost.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn value_avx2(&mut self, net: &Network, board: &Board, mask: usize) -> i32 {
        self.value_inline(net, board, mask)
    }

    /// The body of [`NetStack::value`], inlined into each instruction set's copy.
    #[inline(always)]
    fn value_inline(&mut self, net: &Network, board: &Board, mask: usize) -> i32 {
        let n = board.history().len();
        self.update(net, board);
        let now = self.entries[n].sums;
        let before = if n > 0 {
            self.before_last(net, board)
        } else {
            now
        };
        net.value(board, &now, &before, mask)
    }

    /// Makes the entry of the board's position (`history().len()`) right.
    #[inline(always)]
    fn update(&mut self, net: &Network, board: &Board) {
        let history = board.history();
        let n = history.len();
        if self.entries.len() <= n {
            self.entries.resize(
                n + 1,
                Entry {
                    key: 0,
                    sums: [[0; HIDDEN]; 4],
                },
            );
        }
        let mut key = board.stones_hash();
        if self.entries[n].key == tag(key) {
            return;
        }
        // The nearest known position on the line.
        let mut base = n;
        while base > 0 && self.entries[base].key != tag(key) {
            let p = history[base - 1];
            let colour = board.stone(p).expect("history cell holds a stone");
            key ^= STONE_KEYS[colour.index()][p.index()];
            base -= 1;
        }
        // (`base < n`: the position itself was checked above.)
        let sums = if self.entries[base].key == tag(key) {
            let mut sums = self.entries[base].sums;
            self.apply_moves_since(net, board, base, &mut sums);
            sums
        } else {
            net.sums_from_scratch(board)
        };
        self.entries[n] = Entry {
            key: tag(board.stones_hash()),
            sums,
        };
    }

    /// Brings `sums` from the position after `base` stones to the board's: each (cell,
    /// colour) that changed since loses the row of its code then and gains its code's now if
    /// still empty; the stones played since lose theirs.
    #[inline(always)]
    fn apply_moves_since(&mut self, net: &Network, board: &Board, base: usize, sums: &mut Sums) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        for (q, c, old) in board.code_changes_since(base) {
            let slot = &mut self.seen[q.index() * 2 + c];
            if *slot == stamp {
                continue;
            }
            *slot = stamp;
            net.apply::<false>(sums, c, old);
            if board.is_empty(q) {
                net.apply::<true>(sums, c, board.pcode(q, Color::BOTH[c]));
            }
        }
        for &p in &board.history()[base..] {
            for c in 0..2 {
                if self.seen[p.index() * 2 + c] != stamp {
                    net.apply::<false>(sums, c, board.pcode(p, Color::BOTH[c]));
                }
            }
        }
    }

    /// The sums of the position before the last stone: the entry if known, else the board's
    /// sums with the last move taken back (each (cell, colour) it changed gets its code
    /// before again; the stone's cell is empty again with the code it still holds).
    #[inline(always)]
    fn before_last(&mut self, net: &Network, board: &Board) -> Sums {
        let history = board.history();
        let n = history.len();
        let last = history[n - 1];
        let colour = board.stone(last).expect("history cell holds a stone");
        let key = tag(board.stones_hash() ^ STONE_KEYS[colour.index()][last.index()]);
        if self.entries[n - 1].key == key {
            return self.entries[n - 1].sums;
        }
        let mut sums = self.entries[n].sums;
        for (q, c, old) in board.code_changes_since(n - 1) {
            if board.is_empty(q) {
                net.apply::<false>(&mut sums, c, board.pcode(q, Color::BOTH[c]));
            }
            net.apply::<true>(&mut sums, c, old);
        }
        for c in 0..2 {
            net.apply::<true>(&mut sums, c, board.pcode(last, Color::BOTH[c]));
        }
        self.entries[n - 1] = Entry { key, sums };
        sums
    }
}

/// A network with random weights, for tests (the sums stay far inside 16 bits).
#[cfg(test)]
pub(crate) fn random_network(rng: &mut rand::rngs::StdRng) -> Network {
    use rand::Rng;
    let mut net = Network::zero();
    for row in net.cells.iter_mut() {
        for w in row.iter_mut() {
            *w = rng.gen_range(-40..40);
        }
    }
    for row in net.threats.iter_mut() {
        for w in row.iter_mut() {
            *w = rng.gen_range(-300..300);
        }
    }
    for j in 0..HIDDEN {
        net.bias[j] = rng.gen_range(-200..200);
        net.out[j] = rng.gen_range(-8.0..8.0);
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn value_from_scratch(net: &Network, board: &Board) -> i32 {
        net.value_from_scratch(board, MASK)
    }

    /// The threat mask the tests' values are taken with (a few bits of either side).
    const MASK: usize = 0b101_0010_0110;

    /// Long seeded random walks of moves, take-backs and passes in every rule, with the value
    /// asked for at some positions only (as a search skips the nodes its table answers): the
    /// kept sums give the value the stones give, bit for bit.
    #[test]
    fn kept_sums_equal_scratch() {
        let mut rng = StdRng::seed_from_u64(0x4E37);
        let net = random_network(&mut rng);
        for rule in Rule::ALL {
            for size in [15, 20] {
                let mut board = Board::new(size, size, rule).unwrap();
                let mut stack = NetStack::new();
                let mut baseline_stack = NetStack::new();
                #[cfg(target_arch = "x86_64")]
                let mut avx2_stack = NetStack::new();
                let (mut asked, mut nonzero) = (0, 0);
                for step in 0..3000 {
                    let undo = !board.history().is_empty()
                        && (board.is_full() || board.last_move_wins() || rng.gen_bool(0.4));
                    if undo {
                        board.undo();
                    } else if rng.gen_bool(0.05) {
                        board.pass();
                    } else {
                        board.make_move(board.random_near_cell(&mut rng));
                    }
                    if rng.gen_bool(0.5) {
                        let v = stack.value(&net, &board, MASK);
                        assert_eq!(v, value_from_scratch(&net, &board), "{rule} {size} {step}");
                        // Both instruction sets' copies, whichever `value` ran.
                        let baseline = baseline_stack.value_inline(&net, &board, MASK);
                        assert_eq!(baseline, v, "{rule} {size} {step}");
                        #[cfg(target_arch = "x86_64")]
                        if std::is_x86_feature_detected!("avx2") {
                            // SAFETY: the CPU has AVX2 (checked just above).
                            let avx2 = unsafe { avx2_stack.value_avx2(&net, &board, MASK) };
                            assert_eq!(avx2, v, "{rule} {size} {step}");
                        }
                        asked += 1;
                        nonzero += usize::from(v != 0);
                    }
                }
                assert!(
                    asked > 1000 && nonzero > asked / 2,
                    "{rule}: {nonzero} of {asked}"
                );
            }
        }
    }

    /// A search's stack is reused across positions that share no line (a new game, a board
    /// set up again): the keys tell, and the value is still the scratch one.
    #[test]
    fn a_new_position_is_not_mistaken_for_an_old_one() {
        let mut rng = StdRng::seed_from_u64(7);
        let net = random_network(&mut rng);
        let mut stack = NetStack::new();
        for text in ["h8i9j10", "h8i9j11", "a1", "", "o15n14h8"] {
            let board = Board::from_pos_string(15, 15, Rule::Freestyle, text).unwrap();
            let v = stack.value(&net, &board, MASK);
            assert_eq!(v, value_from_scratch(&net, &board), "{text}");
        }
    }

    /// The weight file's lines read back to the same network.
    #[test]
    fn text_round_trip() {
        let mut rng = StdRng::seed_from_u64(3);
        let net = random_network(&mut rng);
        let text = net.to_text();
        let read = Network::from_lines(&mut text.lines()).unwrap();
        assert!(read == net);
        // A line with a value too many is an error, not a network.
        let cut = text.replacen("net bias ", "net bias 1 ", 1);
        assert!(Network::from_lines(&mut cut.lines()).is_err());
    }
}
