//! The main search on positions with known answers: forced wins found at their distance (never
//! longer than the shortest VCF, the principal line a real win), the only defence found where
//! every other move loses to a VCF, and the search bench's node counts the same on every run.

use tianyuan::core::{Board, Color, Pos};
use tianyuan::corpus::read_corpus;
use tianyuan::search::mate::{static_mate, StaticMate};
use tianyuan::search::searcher::SearchParams;
use tianyuan::search::value::{mate_in, MATE, MATE_BOUND};
use tianyuan::search::Searcher;
use tianyuan::tactics::{Limits, SolveOutcome, VcfSolver};
use tianyuan::tools::bench;

/// The fewest fours of a VCF of the side to move (exact: every bound tried in turn), if any
/// within `max`.
fn shortest_vcf(board: &mut Board, max: u32) -> Option<u32> {
    let mut solver = VcfSolver::new(18);
    (1..=max).find(|&k| {
        solver.clear();
        solver.solve(board, k, Limits::nodes(2_000_000)).is_win()
    })
}

/// Plays `line` from `board` (every stone legal) and says in how many plies from `board` the
/// side that started it wins: at a five, or where the line stops on a position whose win the
/// threat classes prove (static mate detection, whose distance is added).
fn line_wins_in(board: &Board, line: &[Pos]) -> Option<i32> {
    let mut b = board.clone();
    let me = b.side_to_move();
    for (i, &p) in line.iter().enumerate() {
        if !b.is_legal(p, b.side_to_move()) {
            return None;
        }
        b.make_move(p);
        if b.last_move_wins() {
            return (b.stone(p) == Some(me)).then_some(i as i32 + 1);
        }
    }
    let played = line.len() as i32;
    match static_mate(&mut b)? {
        StaticMate::Win(n) if b.side_to_move() == me => Some(played + n),
        StaticMate::Loss(n) if b.side_to_move() != me => Some(played + n),
        _ => None,
    }
}

/// A searcher whose quiescence plays every four (`--search-off qsnarrow`): at depth 3 it sees
/// every VCF, so every corpus win must be found, at its distance.
fn full_width_searcher() -> Searcher {
    let mut s = Searcher::new(16 << 20);
    s.set_params(SearchParams::default().without("qsnarrow").unwrap());
    s
}

#[test]
fn forced_wins_are_found_at_their_distance() {
    let mut searcher = full_width_searcher();
    // The default search's quiescence plays only fours near its last stone: it sees most of
    // these wins at depth 3 (the others are left to deeper iterations; a win it finds may be
    // longer than the shortest VCF).
    let mut narrow = Searcher::new(16 << 20);
    let mut narrow_found = 0;
    let mut checked = 0;
    for file in [
        "games_freestyle_vcf.txt",
        "games_standard_vcf.txt",
        "games_renju_vcf.txt",
    ] {
        for rec in read_corpus("vcf", file).unwrap() {
            let mut board = rec.board().unwrap();
            let Some(k) = shortest_vcf(&mut board, 12) else {
                continue;
            };
            narrow.clear();
            let nv = narrow.search_depth(&board, 3).last.value;
            if nv >= MATE_BOUND {
                narrow_found += 1;
                assert_eq!((MATE - nv) % 2, 1, "{}: narrow {nv}", rec.id);
            }
            searcher.clear();
            let r = searcher.search_depth(&board, 3);
            let v = r.last.value;
            assert!(v >= MATE_BOUND, "{}: no win found ({v})", rec.id);
            let plies = MATE - v;
            // A win ends on the winner's move; never longer than the shortest VCF
            // (k fours, k blocks, the five); a shorter win (by threats) may exist.
            assert_eq!(plies % 2, 1, "{}: {plies} plies", rec.id);
            assert!(
                plies <= 2 * k as i32 + 1,
                "{}: {plies} plies, VCF of {k}",
                rec.id
            );
            // The principal line may stop early (a table hit ends it): from its end, a fresh
            // search sees the rest of the same win.
            if line_wins_in(&board, &r.last.pv) != Some(plies) {
                let mut end = board.clone();
                for &p in &r.last.pv {
                    assert!(end.is_legal(p, end.side_to_move()), "{}", rec.id);
                    end.make_move(p);
                }
                let rest = plies - r.last.pv.len() as i32;
                let want = if end.side_to_move() == board.side_to_move() {
                    mate_in(rest)
                } else {
                    -mate_in(rest)
                };
                let again = full_width_searcher().search_depth(&end, 3).last.value;
                assert_eq!(again, want, "{}: pv {:?}", rec.id, r.last.pv);
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 171, "positions checked");
    // 170 of 171 when the narrowing was introduced.
    assert!(
        narrow_found >= 165,
        "narrow quiescence found {narrow_found} of {checked}"
    );
}

/// A board with these black and white stones, black to move.
fn stones(black: &[(usize, usize)], white: &[(usize, usize)]) -> Board {
    let mut b = Board::new(15, 15, tianyuan::core::Rule::Freestyle).unwrap();
    for &(x, y) in black {
        b.place(Pos::new(x, y), Color::Black);
    }
    for &(x, y) in white {
        b.place(Pos::new(x, y), Color::White);
    }
    if b.side_to_move() != Color::Black {
        b.pass();
    }
    b
}

#[test]
fn short_mates_have_exact_distances() {
    let mut s = Searcher::new(1 << 20);
    let corners = [(0, 0), (14, 0), (0, 14), (14, 14)];
    // An open three: the open four, the block, the five.
    let b = stones(&[(6, 7), (7, 7), (8, 7)], &corners[..3]);
    let r = s.search_depth(&b, 4);
    assert_eq!(r.last.value, mate_in(3));
    assert_eq!(line_wins_in(&b, &r.last.pv), Some(3));
    // A four-three and nothing shorter: (8,7) makes the four (8,4)-(8,7), blocked at (8,3),
    // and the open three (6,7)-(8,7).
    let b = stones(
        &[(6, 7), (7, 7), (8, 4), (8, 5), (8, 6)],
        &[(8, 3), (0, 0), (14, 0), (0, 14), (14, 14)],
    );
    let r = s.search_depth(&b, 6);
    assert_eq!(r.last.value, mate_in(5));
    assert_eq!(r.best, Some(Pos::new(8, 7)));
    // The side that must answer it sees its loss at the same distance.
    let mut w = b.clone();
    w.make_move(Pos::new(8, 7));
    w.make_move(Pos::new(8, 8));
    let r = s.search_depth(&w, 6);
    assert_eq!(r.last.value, mate_in(3));
}

/// Positions where the side that had a VCF must now defend: the defender to move, and all
/// legal moves but a few (at most four) leave the VCF standing. The search plays one that
/// holds.
#[test]
fn a_defence_that_holds_is_found() {
    let mut searcher = Searcher::new(16 << 20);
    let mut vcf = VcfSolver::new(18);
    let mut positions = 0;
    let sources = [
        ("games_freestyle_vcf.txt", 1),
        ("games_standard_vcf.txt", 1),
        ("games_renju_vcf.txt", 1),
        ("renju_vcf_puzzles_lfz084.txt", 11),
    ];
    for (file, step) in sources {
        for rec in read_corpus("vcf", file).unwrap().iter().step_by(step) {
            let mut board = rec.board().unwrap();
            // The attacker's VCF, the defender to move.
            board.pass();
            let defender = board.side_to_move();
            if board.has_five_point(defender) || board.has_five_point(defender.opponent()) {
                continue;
            }
            let moves: Vec<Pos> = board.legal_moves();
            let mut holding = Vec::new();
            for m in moves {
                board.make_move(m);
                vcf.clear();
                let loses = board.has_five_point(defender.opponent())
                    || !matches!(
                        vcf.solve(&mut board, 30, Limits::nodes(300_000)),
                        SolveOutcome::NoWin
                    );
                board.undo();
                if !loses {
                    holding.push(m);
                    if holding.len() > 4 {
                        break;
                    }
                }
            }
            if holding.is_empty() || holding.len() > 4 {
                continue;
            }
            positions += 1;
            searcher.clear();
            let r = searcher.search_depth(&board, 4);
            let best = r.best.expect("a move");
            assert!(
                holding.contains(&best),
                "{}: played {best:?}, the defences are {holding:?}\n{}",
                rec.id,
                board.to_text()
            );
        }
    }
    assert_eq!(positions, 39, "positions with at most four defences");
}

/// The search bench is deterministic: the same node counts on every run.
#[test]
fn the_search_bench_signature_is_stable() {
    let a = bench::search_bench(4, bench::SEARCH_BENCH_TABLE_BYTES).unwrap();
    let b = bench::search_bench(4, bench::SEARCH_BENCH_TABLE_BYTES).unwrap();
    let nodes = |v: &[bench::SearchBenchLine]| v.iter().map(|l| l.nodes).collect::<Vec<_>>();
    assert_eq!(nodes(&a), nodes(&b));
    assert_eq!(a.len(), 12);
    assert!(a.iter().all(|l| l.nodes > 0 && l.best.is_some()));
}
