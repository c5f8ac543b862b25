//! Threat-solver speed on fixed corpus subsets: VCF puzzles and VCT puzzles (renju, from the
//! lfz084 collections), each position solved from an empty table, node-limited so that every
//! run does the same work. The checksum (positions proved) must stay the same across changes
//! that only claim speed.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tianyuan::core::Board;
use tianyuan::corpus::read_corpus;
use tianyuan::tactics::{Limits, VcfSolver, VctSolver};

/// Every `step`-th position of a corpus file.
fn subset(dir: &str, file: &str, step: usize) -> Vec<Board> {
    read_corpus(dir, file)
        .expect("corpus file")
        .iter()
        .step_by(step)
        .map(|r| r.board().expect("corpus position"))
        .collect()
}

/// Benches `proves` (which must start from an empty table) over `boards` and prints the
/// checksum: how many of them it proves.
fn bench_positions(
    c: &mut Criterion,
    group: &str,
    name: &str,
    mut boards: Vec<Board>,
    mut proves: impl FnMut(&mut Board) -> bool,
) {
    let mut run = |boards: &mut [Board]| boards.iter_mut().map(|b| proves(b) as usize).sum();
    let proved: usize = run(&mut boards);
    println!("{group}/{name}: {proved}/{} proved", boards.len());
    let mut g = c.benchmark_group(group);
    g.sample_size(10);
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.bench_function(name, |b| b.iter(|| black_box(run(&mut boards))));
    g.finish();
}

fn vcf(c: &mut Criterion) {
    let boards = subset("vcf", "renju_vcf_puzzles_lfz084.txt", 25);
    let mut solver = VcfSolver::new(16);
    bench_positions(c, "vcf", "lfz_puzzles_every_25th", boards, |board| {
        solver.clear();
        solver.solve(board, 200, Limits::nodes(1_000_000)).is_win()
    });
}

fn vct(c: &mut Criterion) {
    let boards = subset("vct", "renju_vct_puzzles_lfz084.txt", 60);
    let mut solver = VctSolver::new(16);
    solver.set_threat_limit(4);
    bench_positions(
        c,
        "vct",
        "lfz_puzzles_every_60th_100k_nodes",
        boards,
        |board| {
            solver.clear();
            solver.solve(board, 200, Limits::nodes(100_000)).is_win()
        },
    );
}

criterion_group!(benches, vcf, vct);
criterion_main!(benches);
