//! `pbrain-tianyuan solve`: runs the VCF or VCT solver over positions in the corpora line
//! format (or plain move lists) and prints one line per position and a summary.

use crate::core::notation::{format_renju, parse_renju};
use crate::core::{Pos, Rule};
use crate::corpus::{parse_text, Record};
use crate::tactics::validate::{validate_line, ThreatKind};
use crate::tactics::{Limits, SolveOutcome, VcfSolver, VctSolver};
use crate::tools::disputed;
use anyhow::{anyhow, bail, Context, Result};
use std::io::{Read, Write};
use std::time::{Duration, Instant};

/// Which solver to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolveKind {
    /// Victory by continuous fours.
    Vcf,
    /// Victory by continuous threats (fours, open threes and, with a deeper threat limit,
    /// fukumi moves).
    Vct,
}

/// Arguments of `solve`.
#[derive(Clone, Debug, clap::Args)]
pub struct SolveArgs {
    /// Position file in the corpora line format, or `-` for stdin. Lines without `=` are
    /// plain move lists (`h8,h9,i8` in renju notation, black first) under --rule/--size.
    #[arg(default_value = "-")]
    pub input: String,
    /// Solver.
    #[arg(long, value_enum, default_value_t = SolveKind::Vcf)]
    pub kind: SolveKind,
    /// Time limit per position, milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub time_ms: u64,
    /// Node limit per position (0 = none).
    #[arg(long, default_value_t = 0)]
    pub nodes: u64,
    /// Depth cap, used when a line gives no `limit=`: attacker fours (VCF), or attacker moves
    /// up to the decisive one (VCT, quintet's `limit`). Without it a VCT has no depth bound.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Rule of plain move lists (freestyle, standard, renju, caro8, caro9 or a Gomocup code).
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Board size of plain move lists.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// VCT threat definition when a line gives no `threat_limit=`: a non-four move is a
    /// threat if it would give a VCF of at most this many fours (1 = classical threes).
    #[arg(long, default_value_t = 1)]
    pub threat_limit: u32,
    /// VCT: also print `proof=<n>`, the number of positions in the proof tree of a win.
    #[arg(long)]
    pub proof_size: bool,
    /// Print only the summary and the lines that contradict `expect=` or fail validation.
    #[arg(long)]
    pub quiet: bool,
}

/// The answer for one position.
pub struct Solved {
    /// The position's id.
    pub id: String,
    /// The solver's outcome.
    pub outcome: SolveOutcome,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Set when the answer contradicts `expect=` or a claimed line fails validation.
    pub wrong: Option<String>,
    /// Positions in the proof tree of a VCT win, when asked for.
    pub proof: Option<u64>,
    /// Set instead of `wrong` when the answer contradicts an `expect=` the project disputes
    /// (see [`crate::tools::disputed`]), with the reason.
    pub disputed: Option<String>,
}

/// Default depth cap of a VCF.
const DEFAULT_VCF_FOURS: u32 = 120;

/// Solves one record.
pub fn solve_record(
    rec: &Record,
    args: &SolveArgs,
    vcf: &mut VcfSolver,
    vct: &mut VctSolver,
) -> Result<Solved> {
    let mut board = rec.board()?;
    let limit: Option<u32> = rec
        .get("limit")
        .map(|l| l.parse())
        .transpose()
        .context("limit=")?;
    let bound = limit.or(args.depth);
    let depth = bound.unwrap_or(DEFAULT_VCF_FOURS);
    let start = Instant::now();
    let limits = Limits {
        max_nodes: args.nodes,
        deadline: Some(start + Duration::from_millis(args.time_ms)),
        stop: None,
    };
    let threat_limit: u32 = rec
        .get("threat_limit")
        .map(|t| t.parse())
        .transpose()
        .context("threat_limit=")?
        .unwrap_or(args.threat_limit);
    let (outcome, nodes) = match args.kind {
        SolveKind::Vcf => {
            let o = vcf.solve(&mut board, depth, limits);
            (o, vcf.nodes())
        }
        SolveKind::Vct => {
            vct.set_threat_limit(threat_limit);
            // A `limit=` (or `--depth`) is quintet's: every attacker move counts.
            vct.set_count_all_moves(bound.is_some());
            // Positions of a file are unrelated: each starts from an empty df-pn table, so
            // its answer does not depend on the lines before it.
            vct.clear_dfpn();
            let o = vct.solve(&mut board, depth, limits);
            (o, vct.nodes())
        }
    };
    let elapsed = start.elapsed();
    let proof = match (&outcome, args.kind, args.proof_size) {
        (SolveOutcome::Win(_), SolveKind::Vct, true) => Some(vct.proof_size(&mut board)),
        _ => None,
    };
    let kind = match args.kind {
        SolveKind::Vcf => ThreatKind::Vcf,
        SolveKind::Vct => ThreatKind::Vct { threat_limit },
    };
    let mut wrong = None;
    if let SolveOutcome::Win(line) = &outcome {
        if let Err(e) = validate_line(&mut board, line, kind) {
            wrong = Some(format!("claimed line fails validation: {e}"));
        }
    }
    let contradiction = match (rec.get("expect"), &outcome) {
        (Some("win"), SolveOutcome::NoWin) => Some("expected win, solver says nowin"),
        (Some("nowin"), SolveOutcome::Win(_)) if wrong.is_none() => {
            Some("expected nowin, solver claims a win")
        }
        _ => None,
    };
    let mut disputed = None;
    if let Some(c) = contradiction {
        match disputed::dispute(rec) {
            Some(reason) => disputed = Some(format!("{c}; the source is in question: {reason}")),
            None => wrong = Some(c.into()),
        }
    }
    Ok(Solved {
        id: rec.id.clone(),
        outcome,
        nodes,
        elapsed,
        wrong,
        proof,
        disputed,
    })
}

/// Formats a line in renju notation.
pub fn format_line(board_height: usize, line: &[Pos]) -> String {
    if line.is_empty() {
        return "-".into();
    }
    line.iter()
        .map(|p| format_renju(p.x(), p.y(), board_height))
        .collect::<Vec<_>>()
        .join(",")
}

/// Turns plain move-list lines into records.
fn records_from_text(text: &str, args: &SolveArgs) -> Result<Vec<Record>> {
    let rule = Rule::parse(&args.rule).ok_or_else(|| anyhow!("unknown rule {}", args.rule))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if t.contains('=') {
            out.extend(parse_text(t, &format!("line {}", i + 1))?);
        } else {
            let moves: Vec<&str> = t.split([',', ' ']).filter(|m| !m.is_empty()).collect();
            for m in &moves {
                if parse_renju(m, args.size, args.size).is_none() {
                    bail!("line {}: bad move {m}", i + 1);
                }
            }
            let synthetic = format!(
                "line{} rule={} size={} moves={}",
                i + 1,
                rule,
                args.size,
                moves.join(",")
            );
            out.extend(parse_text(&synthetic, "input")?);
        }
    }
    Ok(out)
}

/// Runs `solve`; returns whether every answer agreed with its `expect=`.
pub fn run(args: &SolveArgs, out: &mut impl Write) -> Result<bool> {
    let text = if args.input == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s)?;
        s
    } else {
        std::fs::read_to_string(&args.input)
            .with_context(|| format!("cannot read {}", args.input))?
    };
    let records = records_from_text(&text, args)?;
    let mut vcf = VcfSolver::new(22);
    let mut vct = VctSolver::new(20);
    let mut times = Vec::new();
    let (mut solved, mut wrong, mut disputed) = (0, 0, 0);
    for rec in &records {
        let size = rec.size()?;
        let r = solve_record(rec, args, &mut vcf, &mut vct)?;
        let verdict = match &r.outcome {
            SolveOutcome::Win(_) => "win",
            SolveOutcome::NoWin => "nowin",
            SolveOutcome::Unknown => "unknown",
        };
        let line = match &r.outcome {
            SolveOutcome::Win(l) => format_line(size, l),
            _ => "-".into(),
        };
        let agrees = match rec.get("expect") {
            Some(e) => e == verdict,
            None => r.outcome != SolveOutcome::Unknown,
        };
        if agrees && r.wrong.is_none() {
            solved += 1;
        }
        if r.wrong.is_some() {
            wrong += 1;
        }
        if r.disputed.is_some() {
            disputed += 1;
        }
        let ms = r.elapsed.as_secs_f64() * 1000.0;
        times.push(ms);
        if !args.quiet || r.wrong.is_some() || r.disputed.is_some() {
            write!(
                out,
                "{} {} line={} nodes={} ms={:.1}",
                r.id, verdict, line, r.nodes, ms
            )?;
            if let Some(p) = r.proof {
                write!(out, " proof={p}")?;
            }
            if let Some(w) = &r.wrong {
                write!(out, " WRONG: {w}")?;
            }
            if let Some(d) = &r.disputed {
                write!(out, " DISPUTED: {d}")?;
            }
            writeln!(out)?;
        }
    }
    times.sort_by(f64::total_cmp);
    let pct = |q: f64| {
        times
            .get(((times.len() as f64 * q).ceil() as usize).saturating_sub(1))
            .copied()
            .unwrap_or(0.0)
    };
    writeln!(
        out,
        "solved {}/{}, wrong {}, disputed {}, median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        solved,
        records.len(),
        wrong,
        disputed,
        pct(0.5),
        pct(0.99),
        times.last().copied().unwrap_or(0.0)
    )?;
    Ok(wrong == 0)
}
