//! Rules-core speed: make+unmake with the full pattern update, the renju foul check and the
//! full forbidden map, on middle-game positions from real engine games.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tianyuan::core::{Color, Pos, Rule, ThreatClass};
use tianyuan::tools::bench::{forbidden_maps, make_unmake_all, positions};

fn make_unmake(c: &mut Criterion) {
    let mut group = c.benchmark_group("make_unmake");
    for size in [15, 20] {
        for rule in Rule::ALL {
            let mut boards = positions(rule, size).expect("corpus positions");
            let (pairs, _) = make_unmake_all(&mut boards);
            group.throughput(Throughput::Elements(pairs));
            group.bench_function(BenchmarkId::new(rule.to_string(), size), |b| {
                b.iter(|| black_box(make_unmake_all(&mut boards)))
            });
        }
    }
    group.finish();
}

fn renju_fouls(c: &mut Criterion) {
    let mut boards = positions(Rule::Renju, 15).expect("corpus positions");
    // Every cell the board marks as a possible foul (double-three candidates need the
    // recursive check), across the renju set.
    let cells: Vec<(usize, Pos)> = boards
        .iter()
        .enumerate()
        .flat_map(|(i, b)| {
            b.threat_cells(Color::Black, ThreatClass::Forbid)
                .iter()
                .map(move |p| (i, p))
        })
        .collect();
    let mut group = c.benchmark_group("renju");
    group.throughput(Throughput::Elements(cells.len() as u64));
    group.bench_function("foul_check_marked_cells", |b| {
        b.iter(|| {
            cells
                .iter()
                .filter(|&&(i, p)| boards[i].is_forbidden(p))
                .count()
        })
    });
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("forbidden_map", |b| {
        b.iter(|| black_box(forbidden_maps(&mut boards)))
    });
    group.finish();
}

criterion_group!(benches, make_unmake, renju_fouls);
criterion_main!(benches);
