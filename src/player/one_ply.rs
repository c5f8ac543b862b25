//! [`OnePlyPlayer`]: one-ply play by the rules core's threat classes, until the real search exists.
//!
//! Order of decisions for the side to move (`me`, opponent `opp`):
//!
//! 1. **Own five** → play it (five beats a renju foul).
//! 2. **Opponent's five point** → block it (a non-foul block; if every block is a foul for black,
//!    fall through: a foul loses at once, an unblocked five only if the opponent sees it).
//! 3. **Win probe** → if a [`WinProbe`] is installed and finds a forced win, play its first move
//!    (the brain installs [`super::ThreatProbe`]: a VCF, then a VCT; this player itself does not
//!    search).
//! 4. **Score every candidate** (empty cells within two of a stone; the centre on an empty board):
//!    `ATTACK[threat(c, me)] + DEFENCE[threat(c, opp)]`, ties broken by nearby stones and then by
//!    the distance to the centre. The tables order the cases a one-ply player must get right: an
//!    own open four beats blocking the opponent's open-four point, an own four-three beats it too
//!    (the four gains the tempo), and blocking the opponent's open-four or four-three points beats
//!    every non-forcing attack.
//!
//! Renju fouls: as black, cells the core marks [`ThreatClass::Forbid`] are checked exactly with
//! [`Board::is_forbidden`]; real fouls are never played while a non-foul move exists, and a
//! double-three that turns out legal (a false three) is scored as an open three.
//!
//! **Timing.** Forced answers (steps 1–3) go out at once. Otherwise the player, like the search
//! that will replace it, keeps its move until the soft deadline, at most `OnePlyPlayer::think_cap`
//! (default [`DEFAULT_THINK_CAP_MS`]), polling the stop flag every millisecond: managers then see
//! real-looking timing, and `YXSTOP` / `END` / `INFO timeout_turn 0` act on a running search.

use std::time::{Duration, Instant};

use super::fallback::{centre, centre_distance, five_blocks};
use super::win_probe::WinProbe;
use super::{Player, SearchInfo, SearchOutcome};
use crate::core::{Board, Color, Pos, ThreatClass};
use crate::search::SearchControl;

/// Default upper bound on the time the one-ply player keeps a non-forced move (ms).
pub const DEFAULT_THINK_CAP_MS: u64 = 250;

/// Value of a cell by the class of what an own stone there makes, indexed by [`ThreatClass`].
const ATTACK: [i64; 14] = [
    0,          // None
    0,          // Forbid (a real foul is never scored; a false one is re-scored as Flex3)
    20,         // Flex2
    15,         // Block3
    60,         // Flex2x2
    45,         // Block3Plus
    120,        // Flex3
    180,        // Flex3Plus
    2_000,      // Flex3x2
    100,        // Block4
    150,        // Block4Plus
    60_000,     // Block4Flex3
    100_000,    // Flex4
    10_000_000, // Five
];

/// Value of a cell by the class of what an opponent stone there would make.
const DEFENCE: [i64; 14] = [
    0,         // None
    0,         // Forbid: the opponent (black) may not play there
    10,        // Flex2
    8,         // Block3
    40,        // Flex2x2
    30,        // Block3Plus
    80,        // Flex3
    120,       // Flex3Plus
    1_500,     // Flex3x2
    60,        // Block4
    90,        // Block4Plus
    15_000,    // Block4Flex3
    50_000,    // Flex4
    5_000_000, // Five
];

/// The one-ply threat-class player.
pub struct OnePlyPlayer {
    think_cap: Duration,
    probe: Option<Box<dyn WinProbe>>,
}

impl Default for OnePlyPlayer {
    fn default() -> Self {
        OnePlyPlayer::new()
    }
}

impl std::fmt::Debug for OnePlyPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnePlyPlayer")
            .field("think_cap", &self.think_cap)
            .field("probe", &self.probe.is_some())
            .finish()
    }
}

/// The result of scoring one cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Score {
    value: i64,
    near: i64,
    centre: i64,
}

impl OnePlyPlayer {
    /// A player with the default think cap and no win probe.
    pub fn new() -> Self {
        OnePlyPlayer {
            think_cap: Duration::from_millis(DEFAULT_THINK_CAP_MS),
            probe: None,
        }
    }

    /// Sets the longest time a non-forced move is kept before answering (0 = answer at once).
    pub fn with_think_cap(mut self, cap: Duration) -> Self {
        self.think_cap = cap;
        self
    }

    /// Installs a forced-win probe (step 3 of the module docs).
    pub fn with_probe(mut self, probe: Box<dyn WinProbe>) -> Self {
        self.probe = Some(probe);
        self
    }

    /// The move this player makes, without waiting: `(move, score, cells scored, forced)`.
    fn decide(&mut self, board: &mut Board, control: &SearchControl) -> (Pos, i64, u64, bool) {
        let me = board.side_to_move();
        let opp = me.opponent();
        if let Some(p) = board.threat_cells(me, ThreatClass::Five).first() {
            return (p, ATTACK[ThreatClass::Five as usize], 1, true);
        }
        let blocks: Vec<Pos> = five_blocks(board, opp)
            .into_iter()
            .filter(|&p| !board.is_foul(p))
            .collect();
        if !blocks.is_empty() {
            let n = blocks.len() as u64;
            let (p, s) = self.best_of(board, blocks, me);
            return (p, s.value, n, true);
        }
        if let Some(probe) = self.probe.as_mut() {
            if let Some(p) = probe.find_win(board, control) {
                if board.may_play(p.x(), p.y()) {
                    return (p, ATTACK[ThreatClass::Five as usize] / 2, 1, true);
                }
            }
        }
        if board.stone_count() == 0 {
            return (centre(board), 0, 1, false);
        }
        let mut pool: Vec<Pos> = board.candidates().iter().collect();
        pool.retain(|&p| !board.is_foul(p));
        if pool.is_empty() {
            pool = board.legal_moves();
        }
        if pool.is_empty() {
            // Every empty cell is a foul: any of them is the only legal answer.
            pool = board.empty_cells().iter().collect();
        }
        let n = pool.len() as u64;
        let (p, s) = self.best_of(board, pool, me);
        (p, s.value, n, false)
    }

    /// The best-scoring cell of a non-empty `pool` for `me`.
    fn best_of(&self, board: &Board, pool: Vec<Pos>, me: Color) -> (Pos, Score) {
        let mut best: Option<(Pos, Score)> = None;
        for p in pool {
            let s = score(board, p, me);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((p, s));
            }
        }
        best.expect("non-empty pool")
    }
}

/// The score of the empty cell `p` for `me` (see the module docs).
fn score(board: &Board, p: Pos, me: Color) -> Score {
    let opp = me.opponent();
    let mut mine = board.threat(p, me);
    if mine == ThreatClass::Forbid {
        // Only reached for a legal cell: a false double-three makes at least an open three.
        mine = ThreatClass::Flex3;
    }
    let theirs = board.threat(p, opp);
    let mut near = 0;
    for dy in -2isize..=2 {
        for dx in -2isize..=2 {
            let (x, y) = (p.x() as isize + dx, p.y() as isize + dy);
            if x < 0 || y < 0 || (dx == 0 && dy == 0) {
                continue;
            }
            if let Some(q) = board.pos(x as usize, y as usize) {
                if board.stone(q).is_some() {
                    near += if dx.abs() <= 1 && dy.abs() <= 1 { 2 } else { 1 };
                }
            }
        }
    }
    Score {
        value: ATTACK[mine as usize] + DEFENCE[theirs as usize],
        near,
        centre: -(centre_distance(board, p) as i64),
    }
}

impl Player for OnePlyPlayer {
    fn name(&self) -> &str {
        "first"
    }

    fn set_memory(&mut self, budget: &crate::player::MemoryBudget) {
        if let Some(probe) = self.probe.as_mut() {
            probe.set_memory(budget);
        }
    }

    fn clear(&mut self) {
        if let Some(probe) = self.probe.as_mut() {
            probe.clear();
        }
    }

    fn choose(&mut self, board: &mut Board, control: &SearchControl) -> SearchOutcome {
        let started = Instant::now();
        let (best, value, nodes, forced) = self.decide(board, control);
        if !forced {
            let until = (started + self.think_cap).min(control.budget().soft_deadline());
            while !control.should_stop() && Instant::now() < until {
                let left = until.saturating_duration_since(Instant::now());
                std::thread::sleep(left.min(Duration::from_millis(1)));
            }
        }
        SearchOutcome {
            best,
            info: Some(SearchInfo {
                depth: 1,
                eval: value.clamp(i32::MIN as i64, i32::MAX as i64) as i32,
                nodes,
                pv: vec![best],
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::parse_pos_string;
    use crate::core::Rule;

    fn board(rule: Rule, moves: &str) -> Board {
        Board::from_pos_string(15, 15, rule, moves).expect("position")
    }

    fn play(b: &mut Board) -> Pos {
        let before = b.hash();
        let m = OnePlyPlayer::new()
            .with_think_cap(Duration::ZERO)
            .choose(b, &SearchControl::for_millis(1000))
            .best;
        assert_eq!(b.hash(), before, "board restored");
        assert!(b.is_empty(m));
        m
    }

    fn at(name: &str) -> Pos {
        let v = parse_pos_string(name, 15, 15).expect("pos");
        Pos::new(v[0].0, v[0].1)
    }

    #[test]
    fn takes_the_win_under_every_rule() {
        for rule in Rule::ALL {
            let mut b = board(rule, "h8h9i8i9j8j9k8k9");
            let m = play(&mut b);
            assert!(m == at("g8") || m == at("l8"), "{rule}: {m:?}");
        }
    }

    #[test]
    fn blocks_a_five_under_every_rule() {
        for rule in Rule::ALL {
            // Black has four in a row h8..k8 with g8 blocked; white to move must take l8.
            let mut b = board(rule, "h8h9i8i9j8j9k8g8");
            let m = play(&mut b);
            assert_eq!(m, at("l8"), "{rule}");
        }
    }

    #[test]
    fn caro_stops_a_straight_four_at_the_only_working_end() {
        // Black e8 f8 g8 h8 with white c8: both d8 and i8 make five, but in caro white i8
        // leaves d8 a five blocked at both ends. White must take i8 (d8 loses to i8).
        for rule in [Rule::Caro8, Rule::Caro9] {
            let mut b = board(rule, "e8c8f8a1g8a15h8");
            assert_eq!(play(&mut b), at("i8"), "{rule}");
            let mut b = board(rule, "e8c8f8a1g8a15h8");
            assert_eq!(
                crate::player::fallback::fallback_move(&mut b),
                Some(at("i8")),
                "{rule}"
            );
        }
    }

    #[test]
    fn prefers_own_five_to_blocking() {
        // Both sides have four; the side to move (black) wins instead of blocking.
        let mut b = board(Rule::Freestyle, "a1h9b1i9c1j9d1k9");
        let m = play(&mut b);
        assert_eq!(m, at("e1"));
    }

    #[test]
    fn standard_referee_position_defends_the_three() {
        // protocol-reference §8: white must answer f8 or j8 (h13 would be an overline).
        let mut b = board(Rule::Standard, "h8h9i8h10g8h11j13h12g14h14i15");
        let m = play(&mut b);
        assert!(m == at("f8") || m == at("j8"), "{m:?}");
    }

    #[test]
    fn renju_referee_position_avoids_the_foul() {
        let mut b = board(Rule::Renju, "h8h9i7i9h10i6i11i12");
        assert!(b.is_forbidden(at("g9")));
        let m = play(&mut b);
        assert_ne!(m, at("g9"));
        assert!(!b.is_forbidden(m));
    }

    #[test]
    fn caro_referee_position_defends() {
        for rule in [Rule::Caro8, Rule::Caro9] {
            let mut b = board(rule, "h8f8g8f9i8f7j8l8");
            let m = play(&mut b);
            let ok = ["f5", "f6", "f10", "f11"].map(at);
            assert!(ok.contains(&m), "{rule}: {m:?}");
        }
    }

    #[test]
    fn blocks_an_open_three_and_makes_an_open_four() {
        // White to move against black's open three h8 i8 j8: block at g8 or k8.
        let mut b = board(Rule::Freestyle, "h8a1i8a2j8");
        let m = play(&mut b);
        assert!(m == at("g8") || m == at("k8"), "{m:?}");
        // Black to move with its own open three: make the open four.
        let mut b = board(Rule::Freestyle, "h8a1i8a2j8a15");
        let m = play(&mut b);
        assert!(m == at("g8") || m == at("k8"), "{m:?}");
    }

    #[test]
    fn all_fouls_still_gives_a_legal_move() {
        // A 6x5 renju board whose only empty cell is an overline foul for black.
        let mut b = Board::new(6, 5, Rule::Renju).expect("board");
        // Row 0: X X X . X X  → (3,0) would be an overline of six for black.
        for x in [0, 1, 2, 4, 5] {
            b.place(Pos::new(x, 0), Color::Black);
        }
        // Fill every other cell except (3,0) with a mix that makes no five.
        for y in 1..5 {
            for x in 0..6 {
                let c = if (x + y) % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                b.place(Pos::new(x, y), c);
            }
        }
        if b.side_to_move() != Color::Black {
            b.pass();
        }
        assert_eq!(b.empty_cells().len(), 1);
        assert!(b.is_foul(Pos::new(3, 0)));
        assert_eq!(play(&mut b), Pos::new(3, 0));
    }

    #[test]
    fn nearly_full_board_every_rule() {
        for rule in Rule::ALL {
            let mut b = Board::new(5, 5, rule).expect("board");
            for y in 0..5 {
                for x in 0..5 {
                    if (x, y) != (2, 2) && (x, y) != (4, 4) {
                        let black = (x + 2 * y) % 4 < 2;
                        b.place(
                            Pos::new(x, y),
                            if black { Color::Black } else { Color::White },
                        );
                    }
                }
            }
            let m = play(&mut b);
            assert!(m == Pos::new(2, 2) || m == Pos::new(4, 4), "{rule}");
        }
    }

    #[test]
    fn empty_board_centre_and_rectangles() {
        let mut b = Board::new(20, 20, Rule::Freestyle).expect("board");
        assert_eq!(play(&mut b), Pos::new(10, 10));
        let mut b = Board::new(9, 6, Rule::Standard).expect("board");
        assert_eq!(play(&mut b), Pos::new(4, 3));
    }

    #[test]
    fn probe_seam_is_used_and_checked() {
        struct Fixed(Pos);
        impl WinProbe for Fixed {
            fn find_win(&mut self, _: &mut Board, _: &SearchControl) -> Option<Pos> {
                Some(self.0)
            }
        }
        let mut b = board(Rule::Freestyle, "h8h9");
        let ctl = SearchControl::for_millis(1000);
        let mut p = OnePlyPlayer::new().with_probe(Box::new(Fixed(at("a1"))));
        assert_eq!(p.choose(&mut b, &ctl).best, at("a1"));
        // An occupied "win" is ignored.
        let mut p = OnePlyPlayer::new()
            .with_think_cap(Duration::ZERO)
            .with_probe(Box::new(Fixed(at("h8"))));
        assert_ne!(p.choose(&mut b, &ctl).best, at("h8"));
    }

    #[test]
    fn waits_until_the_cap_but_stops_on_request() {
        let mut b = board(Rule::Freestyle, "h8h9");
        let ctl = SearchControl::for_millis(5_000);
        let t = Instant::now();
        OnePlyPlayer::new()
            .with_think_cap(Duration::from_millis(80))
            .choose(&mut b, &ctl);
        let took = t.elapsed();
        assert!(took >= Duration::from_millis(80) && took < Duration::from_millis(1000));
        let ctl = SearchControl::for_millis(5_000);
        let flag = ctl.stop_flag().clone();
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let t = Instant::now();
        OnePlyPlayer::new()
            .with_think_cap(Duration::from_secs(60))
            .choose(&mut b, &ctl);
        assert!(t.elapsed() < Duration::from_millis(1000));
        assert!(stopper.join().is_ok());
        // Immediate budget: no waiting at all.
        let ctl = SearchControl::for_millis(0);
        let t = Instant::now();
        OnePlyPlayer::new().choose(&mut b, &ctl);
        assert!(t.elapsed() < Duration::from_millis(50));
    }
}
