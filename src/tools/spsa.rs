//! `spsa`: tunes the search's constants ([`Tunables`]) by simultaneous perturbation
//! stochastic approximation, as Fishtest tunes Stockfish's.
//!
//! Each iteration `k` moves every tuned constant `θᵢ` by `±cₖ,ᵢ` (one random sign per
//! constant), plays this binary with `θ + c·Δ` against itself with `θ − c·Δ` (`selfplay`'s
//! games: balanced openings, each opening with both colours, a fixed node count a move so
//! that a loaded machine does not bias the games), and moves `θ` along the result:
//!
//! `θᵢ += aₖ,ᵢ / cₖ,ᵢ · (wins − losses) · Δᵢ`, with `cₖ = c / k^0.101` and
//! `aₖ = a / (A + k)^0.602`, `A = N / 10`,
//!
//! the constants `c` and `a` chosen so that at the last iteration `N` the perturbation is the
//! constant's `step` ([`crate::search::params::TunableSpec`]) and `aₙ = r_end · step²`
//! (Fishtest's parametrisation). The engine plays rounded values; `θ` itself stays real. One
//! line per iteration on stdout (the score and the new `θ`), and at the end the
//! `--search-param` string of the tuned values. A tuned set is then proven or not by a match
//! at a real time control against the defaults, like every other search change.

use std::fmt::Write as _;

use anyhow::{bail, Result};
use clap::Args;
use rand::{Rng, SeedableRng};

use super::match_options::{CommonArgs, MatchConfig, SelfplayArgs};
use super::match_runner::run_match;
use crate::core::Rule;
use crate::search::params::{SearchParams, TunableSpec, Tunables};

/// Options of `pbrain-tianyuan spsa`.
#[derive(Args, Debug, Clone)]
pub struct SpsaArgs {
    /// List the tunable constants (name, the default under `--rule`, range, step) and stop.
    #[arg(long)]
    pub list: bool,
    /// The constants to tune, comma-separated (default: every one).
    #[arg(long, default_value = "")]
    pub tune: String,
    /// Starting values, `name=value` comma-separated (default: the engine's for `--rule`), e.g.
    /// to resume.
    #[arg(long, default_value = "")]
    pub start: String,
    /// Iterations (`N`).
    #[arg(long, default_value_t = 500)]
    pub iterations: usize,
    /// Opening pairs per iteration (two games each, colours swapped).
    #[arg(long, default_value_t = 2)]
    pub pairs: usize,
    /// Nodes a move (`INFO max_node`).
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// The learning rate at the last iteration, relative to the step squared (Fishtest's
    /// `r_end`).
    #[arg(long, default_value_t = 0.005)]
    pub r_end: f64,
    /// The games' options (`--games` and `--seed` are set per iteration: the seed of
    /// iteration k is `--seed + k`).
    #[command(flatten)]
    pub common: CommonArgs,
}

/// The state of a run: the tuned constants' specs and current real values.
#[derive(Clone, Debug)]
struct Spsa {
    specs: Vec<TunableSpec>,
    theta: Vec<f64>,
    iterations: usize,
    r_end: f64,
}

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;

impl Spsa {
    /// `cₖ` and `aₖ` of constant `i` at iteration `k` (1-based).
    fn gains(&self, i: usize, k: usize) -> (f64, f64) {
        let n = self.iterations as f64;
        let big_a = 0.1 * n;
        let c_end = self.specs[i].step as f64;
        let c = c_end * n.powf(GAMMA);
        let a = self.r_end * c_end * c_end * (big_a + n).powf(ALPHA);
        (
            c / (k as f64).powf(GAMMA),
            a / (big_a + k as f64).powf(ALPHA),
        )
    }

    /// The `--search-param` string of `values` (rounded, clamped to each range).
    fn param_string(&self, values: &[f64]) -> String {
        let mut s = String::new();
        for (spec, &v) in self.specs.iter().zip(values) {
            let v = (v.round() as i32).clamp(spec.min, spec.max);
            let _ = write!(
                s,
                "{}{}={v}",
                if s.is_empty() { "" } else { "," },
                spec.name
            );
        }
        s
    }

    /// The two sides of iteration `k` with signs `flips`.
    fn sides(&self, k: usize, flips: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let shift = |sign: f64| {
            (0..self.specs.len())
                .map(|i| self.theta[i] + sign * self.gains(i, k).0 * flips[i])
                .collect()
        };
        (shift(1.0), shift(-1.0))
    }

    /// Moves `θ` after iteration `k`, where the plus side scored `result` (wins − losses).
    fn update(&mut self, k: usize, flips: &[f64], result: f64) {
        for (i, flip) in flips.iter().enumerate() {
            let (c, a) = self.gains(i, k);
            let spec = self.specs[i];
            self.theta[i] =
                (self.theta[i] + a / c * result * flip).clamp(spec.min as f64, spec.max as f64);
        }
    }
}

/// The specs of the constants named in `names` (every one when empty).
fn chosen_specs(names: &str) -> Result<Vec<TunableSpec>> {
    let names: Vec<&str> = names
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    if names.is_empty() {
        return Ok(Tunables::SPECS.to_vec());
    }
    names
        .iter()
        .map(|&n| Tunables::spec(n).map_err(anyhow::Error::msg))
        .collect()
}

/// `pbrain-tianyuan spsa`.
pub fn run_command(args: &SpsaArgs) -> Result<()> {
    let Some(rule) = Rule::parse(&args.common.rule) else {
        bail!("unknown rule {}", args.common.rule);
    };
    let defaults = Tunables::for_game(rule, args.common.size);
    if args.list {
        let size = args.common.size;
        println!("name default min max step (the defaults of rule {rule:?} on {size}x{size})");
        for s in Tunables::SPECS {
            let default = defaults.get(s.name).expect("a spec names a constant");
            println!("{} {default} {} {} {}", s.name, s.min, s.max, s.step);
        }
        return Ok(());
    }
    if args.iterations == 0 || args.pairs == 0 {
        bail!("--iterations and --pairs must be at least 1");
    }
    let specs = chosen_specs(&args.tune)?;
    let start = SearchParams::default()
        .for_game(rule, args.common.size)
        .with_values(&args.start)
        .map_err(anyhow::Error::msg)?
        .tune;
    let theta = specs
        .iter()
        .map(|s| start.get(s.name).expect("a spec names a constant") as f64)
        .collect();
    let mut spsa = Spsa {
        specs,
        theta,
        iterations: args.iterations,
        r_end: args.r_end,
    };
    let me = std::env::current_exe()?;
    let seed = args.common.seed.unwrap_or_else(rand::random);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    println!(
        "spsa: {} constants, {} iterations of {} games, {} nodes a move, seed {seed}",
        spsa.specs.len(),
        args.iterations,
        2 * args.pairs,
        args.nodes
    );
    println!("start {}", spsa.param_string(&spsa.theta));
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for k in 1..=args.iterations {
        let flips: Vec<f64> = (0..spsa.specs.len())
            .map(|_| if rng.gen::<bool>() { 1.0 } else { -1.0 })
            .collect();
        let (plus, minus) = spsa.sides(k, &flips);
        let mut common = args.common.clone();
        common.games = 2 * args.pairs;
        common.seed = Some(seed.wrapping_add(k as u64));
        common.quiet = true;
        common.info.push(format!("max_node={}", args.nodes));
        let selfplay = SelfplayArgs {
            baseline: None,
            args: format!("--search-param {}", spsa.param_string(&plus)),
            baseline_args: Some(format!("--search-param {}", spsa.param_string(&minus))),
            common,
        };
        let config = MatchConfig::from_selfplay_args(&selfplay, &me)?;
        let summary = run_match(config, &mut std::io::sink())?;
        let Some(pair) = summary.pairs.first() else {
            bail!("iteration {k}: no game was played");
        };
        if let Some(why) = &summary.stopped {
            bail!("iteration {k}: the games stopped: {why}");
        }
        let t = pair.tri;
        wins += t.wins;
        losses += t.losses;
        draws += t.draws;
        spsa.update(k, &flips, t.wins as f64 - t.losses as f64);
        let theta: Vec<String> = spsa.theta.iter().map(|v| format!("{v:.2}")).collect();
        println!(
            "iter {k} plus {}-{}-{} total {wins}-{losses}-{draws} theta {}",
            t.wins,
            t.losses,
            t.draws,
            theta.join(" ")
        );
    }
    println!("final --search-param {}", spsa.param_string(&spsa.theta));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(iterations: usize) -> Spsa {
        Spsa {
            specs: chosen_specs("rfp_margin,lmp_base").unwrap(),
            theta: vec![70.0, 3.0],
            iterations,
            r_end: 0.005,
        }
    }

    /// The gains follow Fishtest's parametrisation: the perturbation ends at the step, the
    /// learning rate at `r_end · step²`, and both shrink as the iterations go.
    #[test]
    fn gains_end_at_the_step_and_shrink() {
        let s = run(400);
        let (c_end, a_end) = s.gains(0, 400);
        assert!((c_end - 8.0).abs() < 1e-9, "{c_end}");
        assert!((a_end - 0.005 * 64.0).abs() < 1e-9, "{a_end}");
        let (c1, a1) = s.gains(0, 1);
        assert!(c1 > c_end && a1 > a_end);
    }

    /// A win of the plus side moves every constant towards its own perturbation, a loss away
    /// from it; the values stay in their ranges; the engine is given rounded values.
    #[test]
    fn the_update_follows_the_result_and_keeps_the_ranges() {
        let mut s = run(100);
        let flips = [1.0, -1.0];
        let (plus, minus) = s.sides(5, &flips);
        assert!(plus[0] > 70.0 && minus[0] < 70.0 && plus[1] < 3.0 && minus[1] > 3.0);
        s.update(5, &flips, 2.0);
        assert!(s.theta[0] > 70.0 && s.theta[1] < 3.0);
        let mut t = run(100);
        t.update(5, &flips, -2.0);
        assert!(t.theta[0] < 70.0 && t.theta[1] > 3.0);
        t.update(1, &flips, -1e9);
        assert_eq!(t.theta, vec![20.0, 20.0]);
        assert_eq!(t.param_string(&[20.4, 19.6]), "rfp_margin=20,lmp_base=20");
        assert_eq!(s.param_string(&[1e9, -5.0]), "rfp_margin=200,lmp_base=0");
        assert!(chosen_specs("nosuch").is_err());
        assert_eq!(chosen_specs("").unwrap().len(), Tunables::SPECS.len());
    }
}
