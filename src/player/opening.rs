//! Opening decisions by search: Swap2, swap after three, Soosorv-8 and balancing moves.
//!
//! Every decision weighs positions with [`Player::analyse`] under slices of the move's time
//! (see [`SearchControl::slice`]), so it answers within the same budget as a move. Values are
//! the evaluation's scale, for the side to move: `v` means a win rate of `1 / (1 + e^(−v/200))`.
//!
//! **The balance target.** A position is *balanced* when its value lies within ±[`BALANCED`]
//! (a win rate between 42.6 % and 57.4 % for either side): the band within which the search's
//! value at these short budgets does not reliably tell the colours apart. Proposals (the first
//! three stones, two more stones, balancing moves, the number of fifth-move offers) aim at the
//! centre of the band; colour choices take the side the search prefers. In Swap2 the second
//! player takes a colour when the three stones are outside the band and places two balancing
//! stones when they are inside it (then the colour choice goes back to the opponent on a position
//! of our choosing); when no balanced pair is found it takes the better colour.
//!
//! Colours: **swap** always means the engine takes the colour that is *not* to move (in Swap2
//! after three stones: black; in Soosorv's fourth-move decision: white).

use std::time::Duration;

use rand::seq::SliceRandom;
use rand::Rng;

use super::fallback::fallback_move;
use super::Player;
use crate::core::{Board, Color, Pos};
use crate::search::params::Tunables;
use crate::search::SearchControl;

/// Half the width of the balanced band (see the module docs).
pub const BALANCED: i32 = 60;

/// The most fifth-move offers Soosorv-8 allows.
pub const MAX_OFFERS: usize = 8;

/// The shortest search worth its slice: fewer candidates are weighed rather than shallower.
const MIN_SLICE: Duration = Duration::from_millis(8);

/// The most lines one multi-line search is asked for (Yixin-Board's `YXNBEST` limit too).
const MAX_LINES: usize = 64;

/// The most three-stone openings weighed for a proposal.
const MAX_PROPOSALS: usize = 12;

/// The openings nearest to balance that a proposal weighs again, longer.
const FINALISTS: usize = 3;

/// What an opening decision is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpeningTask {
    /// Empty board: propose the first three stones (black, white, black), balanced. The
    /// candidates are the 26 standard openings (black in the centre, white next to it, black
    /// within two cells of the centre) in a random orientation.
    ProposeThree,
    /// Swap2, three stones, white to move, our choice: swap, play the fourth move, or place the
    /// fourth and fifth stones.
    Swap2Second,
    /// Swap2 after five stones, or swap after three: swap or play the move.
    ChooseColour,
    /// Balancing moves for the side to move (`moves` of them, alternating colours): the value
    /// after them, for the side then to move, should be `bias`.
    Balance {
        /// 1 or 2.
        moves: usize,
        /// The target value.
        bias: i32,
    },
    /// Soosorv-8, three stones, we are white: the fourth move and the number of fifth-move
    /// offers black must make.
    SoosorvFourth,
    /// Soosorv-8, four stones, we are black, white asked for `offers` fifth moves: keep black
    /// (and offer) or swap.
    SoosorvSwap {
        /// The number of offers asked.
        offers: usize,
    },
    /// Soosorv-8, four stones, we are black: `offers` fifth moves, no two alike by a symmetry of
    /// the position.
    SoosorvOffers {
        /// How many.
        offers: usize,
    },
    /// Soosorv-8, four stones, we are white: the best of black's offered fifth moves for us.
    SoosorvChoose {
        /// Black's offers.
        candidates: Vec<Pos>,
    },
}

/// An opening decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Take the colour that is not to move.
    Swap,
    /// Keep the side to move, without a move now (Soosorv: stay black and make the offers).
    Keep,
    /// Keep the side to move and play this move.
    Play(Pos),
    /// Place these stones, colours alternating from the side to move.
    Place(Vec<Pos>),
    /// Soosorv's fourth move and the number of fifth-move offers asked.
    Fourth {
        /// White's fourth move.
        mv: Pos,
        /// Offers asked (1..=8).
        offers: usize,
    },
    /// Black's fifth-move offers.
    Offers(Vec<Pos>),
    /// The offer white takes.
    Choose(Pos),
}

/// Decides `task` on `board` (whose side to move is the one the task speaks for) by search,
/// within `control`'s soft budget. Reports one summary line through `control`. The board is
/// left as it was found.
pub fn decide(
    player: &mut dyn Player,
    board: &mut Board,
    task: &OpeningTask,
    control: &SearchControl,
) -> Decision {
    let mut weigh = Weigher { player, control };
    let decision = match task {
        OpeningTask::ProposeThree => weigh.propose_three(board, &mut rand::thread_rng()),
        OpeningTask::Swap2Second => weigh.swap2_second(board),
        OpeningTask::ChooseColour => weigh.choose_colour(board),
        OpeningTask::Balance { moves, bias } => weigh.balance(board, *moves, *bias),
        OpeningTask::SoosorvFourth => weigh.soosorv_fourth(board),
        OpeningTask::SoosorvSwap { offers } => weigh.soosorv_swap(board, *offers),
        OpeningTask::SoosorvOffers { offers } => weigh.soosorv_offers(board, *offers),
        OpeningTask::SoosorvChoose { candidates } => weigh.soosorv_choose(board, candidates),
    };
    if is_valid(board, task, &decision) {
        decision
    } else {
        fallback_decision(board, task)
    }
}

/// True when `decision` answers `task` on `board` with legal stones.
pub fn is_valid(board: &mut Board, task: &OpeningTask, decision: &Decision) -> bool {
    let me = board.side_to_move();
    let legal_sequence = |board: &mut Board, moves: &[Pos]| {
        let mut made = 0;
        let mut ok = true;
        for &m in moves {
            if board.pos(m.x(), m.y()) != Some(m) || !board.is_legal(m, board.side_to_move()) {
                ok = false;
                break;
            }
            board.make_move(m);
            made += 1;
        }
        for _ in 0..made {
            board.undo();
        }
        ok
    };
    match (task, decision) {
        (OpeningTask::ProposeThree, Decision::Place(m)) => {
            m.len() == 3 && board.stone_count() == 0 && legal_sequence(board, m)
        }
        (OpeningTask::Swap2Second, Decision::Place(m)) => m.len() == 2 && legal_sequence(board, m),
        (OpeningTask::Balance { moves, .. }, Decision::Place(m)) => {
            m.len() == *moves && legal_sequence(board, m)
        }
        (
            OpeningTask::Swap2Second | OpeningTask::ChooseColour,
            Decision::Swap | Decision::Play(_),
        ) => match decision {
            Decision::Play(m) => legal_sequence(board, &[*m]),
            _ => true,
        },
        (OpeningTask::SoosorvFourth, Decision::Fourth { mv, offers }) => {
            (1..=MAX_OFFERS).contains(offers) && legal_sequence(board, &[*mv])
        }
        (OpeningTask::SoosorvSwap { .. }, Decision::Swap | Decision::Keep) => true,
        (OpeningTask::SoosorvOffers { offers }, Decision::Offers(m)) => {
            let distinct = m.iter().enumerate().all(|(i, a)| !m[..i].contains(a));
            m.len() == *offers
                && distinct
                && me == Color::Black
                && m.iter().all(|&p| legal_sequence(board, &[p]))
        }
        (OpeningTask::SoosorvChoose { candidates }, Decision::Choose(m)) => candidates.contains(m),
        _ => false,
    }
}

/// The quickest acceptable answer to `task` (a panic or a stuck search): the fallback move where
/// a move is due, the first standard opening, the first candidates.
pub fn fallback_decision(board: &mut Board, task: &OpeningTask) -> Decision {
    let play = |board: &mut Board, n: usize| {
        let mut moves = Vec::new();
        for _ in 0..n {
            match fallback_move(board) {
                Some(m) => {
                    board.make_move(m);
                    moves.push(m);
                }
                None => break,
            }
        }
        for _ in 0..moves.len() {
            board.undo();
        }
        moves
    };
    match task {
        OpeningTask::ProposeThree => {
            let (cx, cy) = centre(board);
            let stones = [(0, 0), (1, 0), (2, 2)]
                .iter()
                .filter_map(|&(dx, dy)| cell(board, cx + dx, cy + dy))
                .collect::<Vec<_>>();
            if stones.len() == 3 {
                Decision::Place(stones)
            } else {
                Decision::Place(play(board, 3))
            }
        }
        OpeningTask::Swap2Second | OpeningTask::ChooseColour => match fallback_move(board) {
            Some(m) => Decision::Play(m),
            None => Decision::Swap,
        },
        OpeningTask::Balance { moves, .. } => Decision::Place(play(board, *moves)),
        OpeningTask::SoosorvFourth => match fallback_move(board) {
            Some(mv) => Decision::Fourth { mv, offers: 1 },
            None => Decision::Swap,
        },
        OpeningTask::SoosorvSwap { .. } => Decision::Keep,
        OpeningTask::SoosorvOffers { offers } => {
            let order = board.candidates().iter().chain(board.empty_cells().iter());
            Decision::Offers(distinct_moves(board, order, *offers))
        }
        OpeningTask::SoosorvChoose { candidates } => match candidates.first() {
            Some(&m) => Decision::Choose(m),
            None => Decision::Keep,
        },
    }
}

/// Searches positions for a decision, each in a slice of the decision's time.
struct Weigher<'a> {
    player: &'a mut dyn Player,
    control: &'a SearchControl,
}

impl Weigher<'_> {
    /// The time left of the decision's budget, split into `parts` slices (19/20 of it: the
    /// decision and its summary line are out before the deadline).
    fn share(&self, parts: usize) -> Duration {
        self.control.soft_left().mul_f64(0.95) / parts.max(1) as u32
    }

    /// How many searches of at least [`MIN_SLICE`] the time left allows, at most `most`.
    fn affordable(&self, most: usize) -> usize {
        let left = self.control.soft_left().as_millis() as usize;
        (left / MIN_SLICE.as_millis() as usize).clamp(1, most.max(1))
    }

    /// The value of `board` for its side to move, by a search of `share`.
    fn value(&mut self, board: &mut Board, share: Duration) -> i32 {
        let slice = self.control.slice(share, 1);
        let analysis = self.player.analyse(board, &slice);
        analysis.value.unwrap_or_else(|| static_value(board))
    }

    /// The best `count` moves of `board` with their values for the side to move (best first),
    /// by one multi-line search of `share`.
    fn ranked(&mut self, board: &mut Board, count: usize, share: Duration) -> Vec<(i32, Pos)> {
        let slice = self.control.slice(share, count);
        let analysis = self.player.analyse(board, &slice);
        if analysis.value.is_some() && analysis.lines.len() >= count.min(2) {
            return analysis.lines;
        }
        // A player without a search (or no time): rank by the static value after each move.
        let me = board.side_to_move();
        let moves: Vec<Pos> = board
            .candidates()
            .iter()
            .filter(|&p| board.is_empty(p) && board.is_legal(p, me))
            .collect();
        let mut lines: Vec<(i32, Pos)> = moves
            .into_iter()
            .map(|p| {
                board.make_move(p);
                let v = -static_value(board);
                board.undo();
                (v, p)
            })
            .collect();
        lines.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        lines.truncate(count.max(1));
        lines
    }

    fn propose_three(&mut self, board: &mut Board, rng: &mut impl Rng) -> Decision {
        // Renju's openings are the 26 standard ones; elsewhere black's second stone may also
        // stand three cells from the centre, which gives more balanced openings to choose from.
        let reach = if board.rule() == crate::core::Rule::Renju {
            2
        } else {
            3
        };
        let mut openings = standard_openings(board, reach, rng);
        openings.shuffle(rng);
        // Half the time on a short look at many openings, half on a longer look at the three
        // nearest to balance (short searches misjudge openings by a wide margin).
        openings.truncate(self.affordable(MAX_PROPOSALS * 2) / 2);
        let first = self.control.soft_left() / 2;
        let share = first.mul_f64(0.95) / openings.len().max(1) as u32;
        let mut weighed: Vec<(i32, Vec<Pos>)> = Vec::new();
        for stones in openings {
            let v = self.value_after(board, &stones, share);
            weighed.push((v, stones));
            if self.control.stop_requested() {
                break;
            }
        }
        weighed.sort_by_key(|(v, _)| v.abs());
        weighed.truncate(FINALISTS);
        let share = self.share(weighed.len());
        if share >= MIN_SLICE {
            for (v, stones) in &mut weighed {
                *v = self.value_after(board, stones, share);
            }
            weighed.sort_by_key(|(v, _)| v.abs());
        }
        match weighed.into_iter().next() {
            Some((v, stones)) => {
                self.control.report(&format!(
                    "opening: three stones, white to move {} (the nearest to 0 of the openings weighed)",
                    show(v)
                ));
                Decision::Place(stones)
            }
            None => fallback_decision(board, &OpeningTask::ProposeThree),
        }
    }

    /// The value for the side to move after `stones` are placed, by a search of `share`.
    fn value_after(&mut self, board: &mut Board, stones: &[Pos], share: Duration) -> i32 {
        for &s in stones {
            board.make_move(s);
        }
        let v = self.value(board, share);
        for _ in stones {
            board.undo();
        }
        v
    }

    fn swap2_second(&mut self, board: &mut Board) -> Decision {
        let share = self.share(3);
        let lines = self.ranked(board, 1, share);
        let Some(&(v, best)) = lines.first() else {
            return Decision::Swap;
        };
        if v > BALANCED {
            self.control.report(&format!(
                "opening: swap2, white to move {}: we stay white",
                show(v)
            ));
            return Decision::Play(best);
        }
        if v < -BALANCED {
            self.control.report(&format!(
                "opening: swap2, white to move {}: we swap to black",
                show(v)
            ));
            return Decision::Swap;
        }
        if let Some((bv, pair)) = self.balance_pair(board, 0) {
            if bv.abs() <= BALANCED {
                self.control.report(&format!(
                    "opening: swap2, white to move {}: two more stones, white to move {}",
                    show(v),
                    show(bv)
                ));
                return Decision::Place(pair);
            }
        }
        self.control.report(&format!(
            "opening: swap2, white to move {}: no balanced pair found",
            show(v)
        ));
        if v >= 0 {
            Decision::Play(best)
        } else {
            Decision::Swap
        }
    }

    fn choose_colour(&mut self, board: &mut Board) -> Decision {
        let share = self.share(1);
        let lines = self.ranked(board, 1, share);
        match lines.first() {
            Some(&(v, best)) if v >= 0 => {
                self.control.report(&format!(
                    "opening: swap, side to move {}: we keep it",
                    show(v)
                ));
                Decision::Play(best)
            }
            Some(&(v, _)) => {
                self.control
                    .report(&format!("opening: swap, side to move {}: we swap", show(v)));
                Decision::Swap
            }
            None => Decision::Swap,
        }
    }

    fn balance(&mut self, board: &mut Board, moves: usize, bias: i32) -> Decision {
        if moves == 1 {
            let share = self.share(1);
            let lines = self.ranked(board, MAX_LINES, share);
            // After move k the opponent is to move with −v.
            match lines.iter().min_by_key(|&&(v, _)| (-v - bias).abs()) {
                Some(&(v, m)) => {
                    self.control.report(&format!(
                        "opening: balance, the opponent to move {}",
                        show(-v)
                    ));
                    Decision::Place(vec![m])
                }
                None => fallback_decision(board, &OpeningTask::Balance { moves, bias }),
            }
        } else {
            match self.balance_pair(board, bias) {
                Some((v, pair)) => {
                    self.control.report(&format!(
                        "opening: balance, the side to move after two stones {}",
                        show(v)
                    ));
                    Decision::Place(pair)
                }
                None => fallback_decision(board, &OpeningTask::Balance { moves, bias }),
            }
        }
    }

    /// Two stones (side to move, then the opponent) after which the side to move has a value as
    /// near `bias` as found, with that value.
    fn balance_pair(&mut self, board: &mut Board, bias: i32) -> Option<(i32, Vec<Pos>)> {
        const FIRSTS: usize = 4;
        let share = self.share(FIRSTS + 1);
        let mut firsts = self.ranked(board, MAX_LINES / 2, share);
        // A first stone after which (the opponent replying best) we are at or below the target
        // leaves the opponent a weaker reply that reaches it.
        firsts.sort_by_key(|&(v, _)| ((v - bias).max(0) * 4 + (bias - v).max(0), v));
        firsts.truncate(self.affordable(FIRSTS));
        let share = self.share(firsts.len());
        let mut best: Option<(i32, Vec<Pos>)> = None;
        for (_, first) in firsts {
            board.make_move(first);
            let replies = self.ranked(board, MAX_LINES / 2, share);
            board.undo();
            // After the reply we are to move again, with −w.
            if let Some(&(w, reply)) = replies.iter().min_by_key(|&&(w, _)| (-w - bias).abs()) {
                let v = -w;
                if best
                    .as_ref()
                    .is_none_or(|(b, _)| (v - bias).abs() < (b - bias).abs())
                {
                    best = Some((v, vec![first, reply]));
                }
            }
            if self.control.stop_requested() {
                break;
            }
        }
        best
    }

    fn soosorv_fourth(&mut self, board: &mut Board) -> Decision {
        let share = self.share(2);
        let lines = self.ranked(board, 1, share);
        let Some(&(_, mv)) = lines.first() else {
            return fallback_decision(board, &OpeningTask::SoosorvFourth);
        };
        board.make_move(mv);
        let share = self.share(1);
        let offers = self.distinct_ranked(board, MAX_OFFERS, share);
        board.undo();
        // Black's value is that of its worst offer (we take the best for us): the number of
        // offers that brings it nearest to 0.
        let offers_asked = offers
            .iter()
            .enumerate()
            .min_by_key(|&(_, &(u, _))| u.abs())
            .map_or(1, |(i, _)| i + 1);
        let u = offers.get(offers_asked - 1).map_or(0, |o| o.0);
        self.control.report(&format!(
            "opening: soosorv, fourth move and {offers_asked} offer(s): black's worst offer {}",
            show(u)
        ));
        Decision::Fourth {
            mv,
            offers: offers_asked,
        }
    }

    fn soosorv_swap(&mut self, board: &mut Board, offers: usize) -> Decision {
        let share = self.share(1);
        let ranked = self.distinct_ranked(board, offers.clamp(1, MAX_OFFERS), share);
        let u = ranked.last().map_or(0, |o| o.0);
        if u >= 0 {
            self.control.report(&format!(
                "opening: soosorv, black's worst of {offers} offer(s) {}: we keep black",
                show(u)
            ));
            Decision::Keep
        } else {
            self.control.report(&format!(
                "opening: soosorv, black's worst of {offers} offer(s) {}: we swap",
                show(u)
            ));
            Decision::Swap
        }
    }

    fn soosorv_offers(&mut self, board: &mut Board, offers: usize) -> Decision {
        let share = self.share(1);
        let ranked = self.distinct_ranked(board, offers, share);
        let order = ranked
            .iter()
            .map(|&(_, m)| m)
            .chain(board.candidates().iter())
            .chain(board.empty_cells().iter())
            .collect::<Vec<_>>();
        let chosen = distinct_moves(board, order.into_iter(), offers);
        self.control.report(&format!(
            "opening: soosorv, {} offer(s), the worst for black {}",
            chosen.len(),
            show(ranked.get(offers.saturating_sub(1)).map_or(0, |o| o.0))
        ));
        Decision::Offers(chosen)
    }

    fn soosorv_choose(&mut self, board: &mut Board, candidates: &[Pos]) -> Decision {
        let share = self.share(candidates.len());
        let mut best: Option<(i32, Pos)> = None;
        for &c in candidates {
            if !board.is_empty(c) {
                continue;
            }
            board.make_move(c);
            let v = self.value(board, share);
            board.undo();
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, c));
            }
        }
        match best {
            Some((v, c)) => {
                self.control.report(&format!(
                    "opening: soosorv, we take the offer with white to move {}",
                    show(v)
                ));
                Decision::Choose(c)
            }
            None => fallback_decision(
                board,
                &OpeningTask::SoosorvChoose {
                    candidates: candidates.to_vec(),
                },
            ),
        }
    }

    /// The best `count` moves, no two alike by a symmetry of the position, best first.
    fn distinct_ranked(
        &mut self,
        board: &mut Board,
        count: usize,
        share: Duration,
    ) -> Vec<(i32, Pos)> {
        let lines = self.ranked(board, (count * 2 + 2).min(MAX_LINES), share);
        let symmetries = position_symmetries(board);
        let mut kept: Vec<(i32, Pos)> = Vec::new();
        for (v, m) in lines {
            if !is_twin(board, &symmetries, m, kept.iter().map(|&(_, k)| k)) {
                kept.push((v, m));
            }
            if kept.len() == count {
                break;
            }
        }
        kept
    }
}

/// A value as the search's reports write it (`+M<n>` / `-M<n>` for a mate).
fn show(v: i32) -> String {
    crate::search::value::describe(v)
}

/// The static value of `board` for the side to move (a player without a search): with the
/// evaluation's network only where the search would ask it ([`Tunables::for_game`]; not on
/// boards of more than [`crate::search::params::SMALL_BOARD`] lines).
fn static_value(board: &Board) -> i32 {
    let mut copy = board.clone();
    crate::eval::prepare(&mut copy);
    let size = copy.width().max(copy.height());
    if Tunables::for_game(copy.rule(), size).net_margin < 0 {
        crate::eval::evaluate_linear(&copy)
    } else {
        crate::eval::evaluate(&copy)
    }
}

fn centre(board: &Board) -> (i32, i32) {
    ((board.width() / 2) as i32, (board.height() / 2) as i32)
}

fn cell(board: &Board, x: i32, y: i32) -> Option<Pos> {
    board.pos(usize::try_from(x).ok()?, usize::try_from(y).ok()?)
}

/// The three-stone openings with black in the centre, white next to it (straight or
/// diagonally) and black's second stone within `reach` cells of the centre, one of each pair of
/// mirror images, each in a random orientation of the board. `reach` 2 gives the 26 standard
/// openings of renju.
pub fn standard_openings(board: &Board, reach: i32, rng: &mut impl Rng) -> Vec<Vec<Pos>> {
    let (cx, cy) = centre(board);
    let mut shapes = Vec::new();
    for white in [(1, 0), (1, 1)] {
        for dy in -reach..=reach {
            for dx in -reach..=reach {
                if (dx, dy) == (0, 0) || (dx, dy) == white {
                    continue;
                }
                // One of each mirror pair: across the line through black and white.
                let canonical = if white == (1, 0) { dy >= 0 } else { dx >= dy };
                if canonical {
                    shapes.push([(0, 0), white, (dx, dy)]);
                }
            }
        }
    }
    let orientations = orientations(board);
    shapes
        .iter()
        .filter_map(|shape| {
            let s = *orientations.choose(rng)?;
            shape
                .iter()
                .map(|&(dx, dy)| {
                    let p = cell(board, cx + dx, cy + dy)?;
                    transform(board, p, s)
                })
                .collect::<Option<Vec<Pos>>>()
        })
        .collect()
}

/// The board symmetries (see [`transform`]) that map the board onto itself: eight on a square
/// board, four on a rectangle.
fn orientations(board: &Board) -> Vec<u8> {
    (0..8)
        .filter(|s| s & 4 == 0 || board.width() == board.height())
        .collect()
}

/// `p` under symmetry `s`: bit 2 transposes, bit 0 mirrors x, bit 1 mirrors y (in that order).
fn transform(board: &Board, p: Pos, s: u8) -> Option<Pos> {
    let (mut x, mut y) = (p.x(), p.y());
    if s & 4 != 0 {
        std::mem::swap(&mut x, &mut y);
    }
    if s & 1 != 0 {
        x = board.width().checked_sub(1 + x)?;
    }
    if s & 2 != 0 {
        y = board.height().checked_sub(1 + y)?;
    }
    board.pos(x, y)
}

/// The symmetries other than the identity that map every stone onto a stone of its colour.
fn position_symmetries(board: &Board) -> Vec<u8> {
    let stones: Vec<Pos> = board.history().to_vec();
    orientations(board)
        .into_iter()
        .filter(|&s| s != 0)
        .filter(|&s| {
            stones
                .iter()
                .all(|&p| transform(board, p, s).is_some_and(|q| board.stone(q) == board.stone(p)))
        })
        .collect()
}

/// True when one of `symmetries` maps `m` onto a move of `chosen`.
fn is_twin(
    board: &Board,
    symmetries: &[u8],
    m: Pos,
    mut chosen: impl Iterator<Item = Pos>,
) -> bool {
    chosen.any(|c| {
        symmetries
            .iter()
            .any(|&s| transform(board, m, s) == Some(c))
    })
}

/// The first `count` moves of `order` that are empty, legal for black (Soosorv's offers are
/// fifth moves) and not the image of an earlier one under a symmetry of the position.
fn distinct_moves(board: &mut Board, order: impl Iterator<Item = Pos>, count: usize) -> Vec<Pos> {
    let symmetries = position_symmetries(board);
    let me = board.side_to_move();
    let mut chosen: Vec<Pos> = Vec::new();
    for m in order {
        if chosen.len() == count {
            break;
        }
        if !board.is_empty(m) || !board.is_legal(m, me) || chosen.contains(&m) {
            continue;
        }
        if !is_twin(board, &symmetries, m, chosen.iter().copied()) {
            chosen.push(m);
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rule;
    use crate::player::SearchPlayer;
    use rand::SeedableRng;

    fn board(rule: Rule, moves: &[(usize, usize)]) -> Board {
        let mut b = Board::new(15, 15, rule).expect("board");
        for &(x, y) in moves {
            let p = b.pos(x, y).expect("on board");
            b.make_move(p);
        }
        b
    }

    /// The fallback's static value reads the network where the search does: on 15×15, not
    /// on 20×20 (where it is the linear value).
    #[test]
    fn fallback_value_reads_the_network_only_where_the_search_does() {
        let mut differs = false;
        for rule in [Rule::Freestyle, Rule::Standard] {
            for size in [15, 20] {
                let mut rng = rand::rngs::StdRng::seed_from_u64(size as u64);
                for _ in 0..40 {
                    let mut b = Board::new(size, size, rule).expect("board");
                    let c = size / 2;
                    for _ in 0..8 {
                        let x = c - 3 + rng.gen_range(0..7);
                        let y = c - 3 + rng.gen_range(0..7);
                        let p = b.pos(x, y).expect("on board");
                        if b.is_empty(p) {
                            b.make_move(p);
                        }
                    }
                    let mut prepared = b.clone();
                    crate::eval::prepare(&mut prepared);
                    let linear = crate::eval::evaluate_linear(&prepared);
                    if size > crate::search::params::SMALL_BOARD {
                        assert_eq!(static_value(&b), linear, "{rule:?} {size}");
                    } else {
                        assert_eq!(static_value(&b), crate::eval::evaluate(&prepared));
                        differs |= static_value(&b) != linear;
                    }
                }
            }
        }
        assert!(differs, "the network never changed a 15×15 value");
    }

    #[test]
    fn the_26_standard_openings_are_distinct_and_near_the_centre() {
        let b = board(Rule::Renju, &[]);
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        assert_eq!(standard_openings(&b, 3, &mut rng).len(), 52);
        let openings = standard_openings(&b, 2, &mut rng);
        assert_eq!(openings.len(), 26);
        // Canonical form: the stones brought back to one orientation are all different.
        let canon = |o: &Vec<Pos>| {
            (0..8u8)
                .map(|s| {
                    o.iter()
                        .map(|&p| transform(&b, p, s).map(|q| (q.x(), q.y())))
                        .collect::<Vec<_>>()
                })
                .min()
        };
        let mut seen: Vec<_> = openings.iter().map(canon).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 26);
        for o in &openings {
            assert_eq!(o[0].x(), 7);
            assert_eq!(o[0].y(), 7);
            assert_eq!(o[1].x().abs_diff(7).max(o[1].y().abs_diff(7)), 1);
            assert!(o[2].x().abs_diff(7).max(o[2].y().abs_diff(7)) <= 2);
        }
    }

    #[test]
    fn symmetric_offers_count_once() {
        // Black h8, white h9 (a mirror axis along x = 7): i7 and g7 are twins.
        let mut b = board(Rule::Renju, &[(7, 7), (7, 8), (9, 9), (7, 6)]);
        assert!(position_symmetries(&b).is_empty());
        let mut b2 = board(Rule::Renju, &[(7, 7), (7, 8)]);
        assert_eq!(position_symmetries(&b2), vec![1]);
        let p = |x, y| b2.pos(x, y).expect("cell");
        let (a, twin, c, d) = (p(8, 6), p(6, 6), p(8, 7), p(9, 9));
        let chosen = distinct_moves(&mut b2, [a, twin, c, d].into_iter(), 3);
        assert_eq!(chosen, vec![a, c, d]);
        let offers = fallback_decision(&mut b, &OpeningTask::SoosorvOffers { offers: 5 });
        assert!(is_valid(
            &mut b,
            &OpeningTask::SoosorvOffers { offers: 5 },
            &offers
        ));
    }

    #[test]
    fn decisions_are_valid_for_every_task() {
        let mut player = SearchPlayer::new();
        let tasks: Vec<(OpeningTask, Vec<(usize, usize)>)> = vec![
            (OpeningTask::ProposeThree, vec![]),
            (OpeningTask::Swap2Second, vec![(7, 7), (8, 7), (9, 9)]),
            (
                OpeningTask::ChooseColour,
                vec![(7, 7), (8, 7), (9, 9), (8, 8), (8, 6)],
            ),
            (OpeningTask::Balance { moves: 1, bias: 0 }, vec![(7, 7)]),
            (
                OpeningTask::Balance { moves: 2, bias: 0 },
                vec![(7, 7), (8, 8)],
            ),
            (OpeningTask::SoosorvFourth, vec![(7, 7), (8, 7), (9, 9)]),
            (
                OpeningTask::SoosorvSwap { offers: 3 },
                vec![(7, 7), (8, 7), (9, 9), (8, 8)],
            ),
            (
                OpeningTask::SoosorvOffers { offers: 4 },
                vec![(7, 7), (8, 7), (9, 9), (8, 8)],
            ),
        ];
        for (task, moves) in tasks {
            let mut b = board(Rule::Renju, &moves);
            let before = b.hash();
            let d = decide(&mut player, &mut b, &task, &SearchControl::for_millis(200));
            assert!(is_valid(&mut b, &task, &d), "{task:?}: {d:?}");
            assert_eq!(b.hash(), before, "{task:?} left the board as it was");
        }
        // White takes the offer that is best for white: a black fifth move that makes an open
        // four's neighbour (a four-three threat) is not chosen when a quiet one is offered.
        let mut b = board(Rule::Renju, &[(7, 7), (8, 7), (7, 8), (8, 8)]);
        let p = |x, y| b.pos(x, y).expect("cell");
        let candidates = vec![p(7, 9), p(3, 3)];
        let task = OpeningTask::SoosorvChoose { candidates };
        let quiet = p(3, 3);
        let d = decide(&mut player, &mut b, &task, &SearchControl::for_millis(300));
        assert_eq!(d, Decision::Choose(quiet));
    }

    #[test]
    fn the_colour_with_a_won_position_is_taken() {
        let mut player = SearchPlayer::new();
        // White's open four, white to move: keep white and play.
        let mut won = board(
            Rule::Standard,
            &[
                (0, 0),
                (7, 7),
                (0, 14),
                (8, 7),
                (14, 0),
                (9, 7),
                (14, 14),
                (10, 7),
                (3, 3),
            ],
        );
        let d = decide(
            &mut player,
            &mut won,
            &OpeningTask::ChooseColour,
            &SearchControl::for_millis(200),
        );
        assert!(matches!(d, Decision::Play(_)), "{d:?}");
        // Black's open four, white to move: swap to black.
        let mut lost = board(
            Rule::Standard,
            &[
                (7, 7),
                (0, 0),
                (8, 7),
                (0, 14),
                (9, 7),
                (14, 0),
                (10, 7),
                (14, 14),
                (3, 3),
            ],
        );
        let d = decide(
            &mut player,
            &mut lost,
            &OpeningTask::ChooseColour,
            &SearchControl::for_millis(200),
        );
        assert_eq!(d, Decision::Swap);
        let d = decide(
            &mut player,
            &mut lost,
            &OpeningTask::Swap2Second,
            &SearchControl::for_millis(200),
        );
        assert_eq!(d, Decision::Swap);
    }
}
