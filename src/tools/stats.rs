//! Match statistics: Elo difference with a confidence interval, likelihood of
//! superiority (LOS), pentanomial statistics for paired games, and a
//! sequential probability ratio test (SPRT).
//!
//! # Formulas
//!
//! All scores are from the point of view of the *first* engine ("A") and lie
//! in `[0, 1]` (win = 1, draw = 0.5, loss = 0).
//!
//! * **Logistic Elo model.** `elo(s) = -400 * log10(1/s - 1)` and its inverse
//!   `s(elo) = 1 / (1 + 10^(-elo/400))`. A score of 0 or 1 maps to -inf / +inf.
//! * **Trinomial estimate** (games treated as independent). With `n` games,
//!   `W` wins, `L` losses, `D` draws: `s = (W + D/2) / n`, per-game variance
//!   `var = (W (1-s)^2 + L s^2 + D (1/2-s)^2) / n`, standard error of the mean
//!   `se = sqrt(var / n)`. The interval is `[elo(s - z se), elo(s + z se)]`
//!   with `z = Phi^-1(1/2 + c/2)` (1.95996 for c = 95 %); the printed margin
//!   is half its width, as cutechess does.
//! * **Pentanomial estimate** (each opening played twice with colours
//!   swapped). A pair scores 0, 0.5, 1, 1.5 or 2 points; `N` pairs with
//!   counts `p0..p4`. The pair score is normalised to one game,
//!   `x_i = i/4 in {0, 1/4, 1/2, 3/4, 1}`; `s = sum p_i x_i / N`,
//!   `var = sum p_i (x_i - s)^2 / N` (per pair), `se = sqrt(var / N)`, and the
//!   interval is built as above. This is the estimator fishtest uses; it is
//!   narrower than the trinomial one when the colour bias of the openings is
//!   large, because the two games of a pair are correlated.
//! * **LOS.** Trinomial (draws carry no information):
//!   `LOS = 1/2 (1 + erf((W - L) / sqrt(2 (W + L))))`. Pentanomial (normal
//!   approximation): `LOS = Phi((s - 1/2) / se)`.
//! * **SPRT.** The generalised SPRT with the asymptotic log-likelihood-ratio
//!   approximation of M. Van den Bergh ("A practical introduction to the
//!   GSPRT"), in the *logistic* Elo model. This is exactly what c-gomoku-cli
//!   (`src/sprt.cpp`, inherited from c-chess-cli) computes for trinomial
//!   results, and what fishtest computes for pentanomial results in its
//!   logistic mode: with `s0 = s(elo0)`, `s1 = s(elo1)`, sample mean `s`,
//!   per-observation variance `var` and `n` observations (games, or pairs for
//!   the pentanomial form),
//!   `LLR = n (s1 - s0) (2 s - s0 - s1) / (2 var)`.
//!   The bounds are `A = ln(beta / (1 - alpha))` and
//!   `B = ln((1 - beta) / alpha)` (±2.944 for alpha = beta = 0.05). H1 is
//!   accepted when `LLR > B`, H0 when `LLR < A` (strict, as c-gomoku-cli).
//!   Like c-gomoku-cli, the LLR is 0 while the sample variance is 0 (fewer
//!   than two distinct outcomes).
//!   Note that cutechess-cli's SPRT uses the BayesElo (draw-elo) model
//!   instead, so its LLR differs slightly for the same counts.

/// The z value of a two-sided 95 % normal confidence interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Converts an expected score in `[0, 1]` to an Elo difference (logistic
/// model). Returns `-inf` for a score `<= 0` and `+inf` for a score `>= 1`.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Converts an Elo difference to the expected score (logistic model).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Error function, accurate to about 1e-15: Maclaurin series for
/// `|x| <= 2.5`, otherwise `1 - erfc(x)` from the continued fraction.
/// Exactly odd: `erf(-x) = -erf(x)`, `erf(0) = 0`.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    let v = if a <= 2.5 {
        // erf(a) = 2/sqrt(pi) * sum_n (-1)^n a^(2n+1) / (n! (2n+1))
        let a2 = a * a;
        let mut term = a; // (-1)^n a^(2n+1) / n!
        let mut sum = a;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -a2 / n;
            sum += term / (2.0 * n + 1.0);
        }
        sum * std::f64::consts::FRAC_2_SQRT_PI
    } else {
        1.0 - erfc_cf(a)
    };
    if x < 0.0 {
        -v
    } else {
        v
    }
}

/// `erfc(a)` for `a > 2` by the Laplace continued fraction
/// `erfc(a) = exp(-a^2)/sqrt(pi) / (a + (1/2)/(a + 1/(a + (3/2)/(a + ...))))`,
/// evaluated bottom-up with a fixed depth (ample for `a > 2`).
fn erfc_cf(a: f64) -> f64 {
    let mut f = a;
    for k in (1..=60).rev() {
        f = a + (k as f64 / 2.0) / f;
    }
    (-a * a).exp() / (std::f64::consts::PI.sqrt() * f)
}

/// Complementary error function `1 - erf(x)`, computed without
/// cancellation for large positive `x`.
pub fn erfc(x: f64) -> f64 {
    if x > 2.5 {
        erfc_cf(x)
    } else {
        1.0 - erf(x)
    }
}

/// Standard normal cumulative distribution function `Phi(x)`.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Inverse of [`normal_cdf`] for `p` in `(0, 1)`, by bisection (accurate to
/// about 1e-12). Returns -inf / +inf for `p <= 0` /
/// `p >= 1` and NaN for NaN.
pub fn normal_quantile(p: f64) -> f64 {
    if p.is_nan() {
        return f64::NAN;
    }
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let (mut lo, mut hi) = (-40.0f64, 40.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if normal_cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The outcome of one game from the first engine's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The first engine won (1 point).
    Win,
    /// The first engine lost (0 points).
    Loss,
    /// Draw (1/2 point).
    Draw,
}

impl Outcome {
    /// The points this outcome is worth: 1, 0 or 0.5.
    pub fn points(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Loss => 0.0,
            Outcome::Draw => 0.5,
        }
    }

    /// Half-points (2, 0 or 1), convenient for exact pair sums.
    pub fn half_points(self) -> usize {
        match self {
            Outcome::Win => 2,
            Outcome::Loss => 0,
            Outcome::Draw => 1,
        }
    }

    /// The same game seen from the other engine.
    pub fn flipped(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }
}

/// An Elo difference with a confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// Point estimate (Elo of the observed score).
    pub elo: f64,
    /// Lower end of the interval (may be -inf).
    pub lower: f64,
    /// Upper end of the interval (may be +inf).
    pub upper: f64,
}

impl EloEstimate {
    /// Half the width of the interval, the "±" figure cutechess prints.
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Builds an Elo interval from a sample mean score, the per-observation
/// variance and the number of observations.
fn estimate_from_mean(mean: f64, var: f64, n: f64, confidence: f64) -> EloEstimate {
    let z = normal_quantile(0.5 + confidence / 2.0);
    let se = (var / n).sqrt();
    EloEstimate {
        elo: score_to_elo(mean),
        lower: score_to_elo(mean - z * se),
        upper: score_to_elo(mean + z * se),
    }
}

/// Win / loss / draw counts of the first engine (trinomial model).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games won by the first engine.
    pub wins: u64,
    /// Games lost by the first engine.
    pub losses: u64,
    /// Drawn games.
    pub draws: u64,
}

impl Trinomial {
    /// Creates counts from wins, losses and draws.
    pub fn new(wins: u64, losses: u64, draws: u64) -> Self {
        Trinomial {
            wins,
            losses,
            draws,
        }
    }

    /// Adds one game.
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Loss => self.losses += 1,
            Outcome::Draw => self.draws += 1,
        }
    }

    /// Total number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Mean score per game, `None` without games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// Fraction of drawn games, `None` without games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }

    /// Per-game variance of the score, `None` without games.
    pub fn variance(&self) -> Option<f64> {
        let n = self.games() as f64;
        let s = self.score()?;
        Some(
            (self.wins as f64 * (1.0 - s).powi(2)
                + self.losses as f64 * s.powi(2)
                + self.draws as f64 * (0.5 - s).powi(2))
                / n,
        )
    }

    /// Elo difference with a two-sided interval at `confidence` (e.g. 0.95),
    /// `None` without games.
    pub fn elo(&self, confidence: f64) -> Option<EloEstimate> {
        let s = self.score()?;
        let var = self.variance()?;
        Some(estimate_from_mean(s, var, self.games() as f64, confidence))
    }

    /// Likelihood of superiority in `[0, 1]`, `None` when there are no
    /// decisive games.
    pub fn los(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        (decisive > 0.0).then(|| {
            0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
        })
    }
}

/// Pentanomial counts of game pairs (the same opening played once with each
/// colour): `counts[i]` is the number of pairs in which the first engine
/// scored `i / 2` points (0, 0.5, 1, 1.5, 2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pair counts indexed by half-points scored in the pair (0..=4).
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Creates counts from the five pair-score classes (0, 0.5, 1, 1.5, 2).
    pub fn new(counts: [u64; 5]) -> Self {
        Pentanomial { counts }
    }

    /// Adds one pair from the two game outcomes (first engine's view).
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        self.counts[first.half_points() + second.half_points()] += 1;
    }

    /// Pairs consecutive games (0+1, 2+3, ...), as played when each opening
    /// is repeated with colours swapped; a trailing unpaired game is left
    /// out. Outcomes are from the first engine's point of view.
    pub fn from_consecutive(outcomes: &[Outcome]) -> Self {
        let mut p = Pentanomial::default();
        for pair in outcomes.chunks_exact(2) {
            p.add_pair(pair[0], pair[1]);
        }
        p
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Total points scored by the first engine and games played (2 per pair).
    pub fn points_and_games(&self) -> (f64, u64) {
        let points = self
            .counts
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 * i as f64 / 2.0)
            .sum();
        (points, 2 * self.pairs())
    }

    /// Mean score per game, `None` without pairs.
    pub fn score(&self) -> Option<f64> {
        let n = self.pairs();
        (n > 0).then(|| {
            self.counts
                .iter()
                .enumerate()
                .map(|(i, &c)| c as f64 * i as f64 / 4.0)
                .sum::<f64>()
                / n as f64
        })
    }

    /// Per-pair variance of the pair score normalised to one game
    /// (`i / 4`), `None` without pairs.
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.pairs() as f64;
        Some(
            self.counts
                .iter()
                .enumerate()
                .map(|(i, &c)| c as f64 * (i as f64 / 4.0 - s).powi(2))
                .sum::<f64>()
                / n,
        )
    }

    /// Elo difference with a two-sided interval at `confidence`, from the
    /// pentanomial variance; `None` without pairs.
    pub fn elo(&self, confidence: f64) -> Option<EloEstimate> {
        let s = self.score()?;
        let var = self.variance()?;
        Some(estimate_from_mean(s, var, self.pairs() as f64, confidence))
    }

    /// Likelihood of superiority by the normal approximation
    /// `Phi((s - 1/2) / se)`; `None` without pairs or with zero variance.
    pub fn los(&self) -> Option<f64> {
        let s = self.score()?;
        let var = self.variance()?;
        let se = (var / self.pairs() as f64).sqrt();
        (se > 0.0).then(|| normal_cdf((s - 0.5) / se))
    }
}

/// The asymptotic GSPRT log-likelihood ratio for `n` observations with
/// sample mean `mean` and per-observation variance `var`, between the mean
/// scores `s0` (H0) and `s1` (H1). Zero when the variance is not positive.
pub fn gsprt_llr(n: f64, mean: f64, var: f64, s0: f64, s1: f64) -> f64 {
    if var <= 0.0 || n <= 0.0 {
        return 0.0;
    }
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// What an SPRT concludes for a given LLR.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither bound crossed: keep playing.
    Continue,
    /// LLR below the lower bound: H0 (Elo = elo0) accepted.
    AcceptH0,
    /// LLR above the upper bound: H1 (Elo = elo1) accepted.
    AcceptH1,
}

/// Parameters of a sequential probability ratio test of H0: Elo = `elo0`
/// against H1: Elo = `elo1` (logistic Elo, see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative hypothesis (must exceed `elo0`).
    pub elo1: f64,
    /// Type I error (false H1 acceptance), in (0, 1).
    pub alpha: f64,
    /// Type II error (false H0 acceptance), in (0, 1).
    pub beta: f64,
}

impl Sprt {
    /// Validated constructor: `0 < alpha < 1`, `0 < beta < 1`, `elo0 < elo1`
    /// (the checks of c-gomoku-cli).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Self, String> {
        let ok = alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0 && elo0 < elo1;
        if ok {
            Ok(Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            })
        } else {
            Err(format!(
                "invalid SPRT parameters elo0={elo0} elo1={elo1} alpha={alpha} beta={beta}: \
                 need 0<alpha<1, 0<beta<1 and elo0<elo1"
            ))
        }
    }

    /// Lower (H0) bound `ln(beta / (1 - alpha))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Upper (H1) bound `ln((1 - beta) / alpha)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// LLR from win / loss / draw counts (c-gomoku-cli's formula).
    pub fn llr_trinomial(&self, t: &Trinomial) -> f64 {
        match (t.score(), t.variance()) {
            (Some(s), Some(var)) => gsprt_llr(
                t.games() as f64,
                s,
                var,
                elo_to_score(self.elo0),
                elo_to_score(self.elo1),
            ),
            _ => 0.0,
        }
    }

    /// LLR from pentanomial pair counts (one observation per pair).
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        match (p.score(), p.variance()) {
            (Some(s), Some(var)) => gsprt_llr(
                p.pairs() as f64,
                s,
                var,
                elo_to_score(self.elo0),
                elo_to_score(self.elo1),
            ),
            _ => 0.0,
        }
    }

    /// The decision for an LLR value.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr > self.upper_bound() {
            SprtDecision::AcceptH1
        } else if llr < self.lower_bound() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// A status line in c-gomoku-cli's format, e.g.
    /// `SPRT: LLR = 0.556 [-2.944,2.944]` (with `. H1 accepted.` /
    /// `. H0 accepted.` appended once decided).
    pub fn status_line(&self, llr: f64) -> String {
        let base = format!(
            "SPRT: LLR = {:.3} [{:.3},{:.3}]",
            llr,
            self.lower_bound(),
            self.upper_bound()
        );
        match self.decide(llr) {
            SprtDecision::Continue => base,
            SprtDecision::AcceptH0 => format!("{base}. H0 accepted."),
            SprtDecision::AcceptH1 => format!("{base}. H1 accepted."),
        }
    }
}

/// A one-line summary in the style of c-gomoku-cli's
/// `Score of A vs B: W - L - D [score] n`.
pub fn score_line(first: &str, second: &str, t: &Trinomial) -> String {
    format!(
        "Score of {} vs {}: {} - {} - {} [{:.3}] {}",
        first,
        second,
        t.wins,
        t.losses,
        t.draws,
        t.score().unwrap_or(0.5),
        t.games()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_score_round_trip_and_known_values() {
        // s = 0.6: -400 log10(1/0.6 - 1) = 400 log10(1.5) = 70.437...
        assert!(close(score_to_elo(0.6), 70.437_5, 1e-3));
        assert!(close(score_to_elo(0.5), 0.0, 1e-12));
        // 0.75 -> 400 log10 3 = 190.848...
        assert!(close(score_to_elo(0.75), 190.848_5, 1e-3));
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        for e in [-300.0, -10.0, 0.0, 5.0, 123.4] {
            assert!(close(score_to_elo(elo_to_score(e)), e, 1e-9));
        }
        // 10 Elo -> 1/(1+10^-0.025) = 0.514387...
        assert!(close(elo_to_score(10.0), 0.514_387_4, 1e-6));
    }

    #[test]
    fn erf_and_normal() {
        // Values from Python math.erf.
        assert!(close(erf(0.5), 0.520_499_877_813_046_5, 1e-13));
        assert!(close(erf(-1.0), -0.842_700_792_949_714_9, 1e-13));
        assert!(close(erf(2.0), 0.995_322_265_018_952_7, 1e-13));
        assert!(close(erf(3.0), 0.999_977_909_503_001_4, 1e-13));
        assert_eq!(erf(0.0), 0.0);
        // erfc(4) = 1.541725790028002e-08 (Python math.erfc)
        assert!(close(erfc(4.0) / 1.541_725_790_028_002e-8, 1.0, 1e-10));
        assert!(close(erfc(-1.0), 1.842_700_792_949_715, 1e-13));
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
        assert!(close(normal_quantile(0.975), Z_95, 1e-9));
        assert!(close(normal_quantile(0.5), 0.0, 1e-6));
        assert_eq!(normal_quantile(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn trinomial_60_40_0() {
        let t = Trinomial::new(60, 40, 0);
        assert_eq!(t.games(), 100);
        assert!(close(t.score().unwrap(), 0.6, 1e-12));
        // var = 0.6*0.4^2 + 0.4*0.6^2 = 0.24
        assert!(close(t.variance().unwrap(), 0.24, 1e-12));
        let e = t.elo(0.95).unwrap();
        assert!(close(e.elo, 70.437_5, 1e-3));
        // se = sqrt(0.24/100) = 0.0489898; s +- 1.959964 se = [0.503982, 0.696018]
        // elo(0.503982) = 2.7668, elo(0.696018) = 143.9092 (Python).
        assert!(close(e.lower, 2.766_8, 2e-3), "{}", e.lower);
        assert!(close(e.upper, 143.909_2, 2e-3), "{}", e.upper);
        assert!(close(e.margin(), 70.571, 0.01));
        // LOS = 0.5 (1 + erf(20 / sqrt(200))) = Phi(20 / sqrt(100)) = Phi(2) = 0.9772499
        assert!(
            close(t.los().unwrap(), 0.977_249_868, 1e-8),
            "{}",
            t.los().unwrap()
        );
    }

    #[test]
    fn trinomial_edge_cases() {
        let t = Trinomial::default();
        assert_eq!(t.score(), None);
        assert_eq!(t.elo(0.95), None);
        assert_eq!(t.los(), None);
        // Equal wins and losses: LOS exactly 50 %, Elo 0.
        let t = Trinomial::new(37, 37, 26);
        assert!(close(t.los().unwrap(), 0.5, 1e-9));
        assert!(close(t.elo(0.95).unwrap().elo, 0.0, 1e-9));
        // All draws: no decisive games -> no LOS, zero-width interval at 0.
        let t = Trinomial::new(0, 0, 10);
        assert_eq!(t.los(), None);
        let e = t.elo(0.95).unwrap();
        assert!(close(e.lower, 0.0, 1e-9) && close(e.upper, 0.0, 1e-9));
        // All wins: +inf.
        assert_eq!(
            Trinomial::new(5, 0, 0).elo(0.95).unwrap().elo,
            f64::INFINITY
        );
        let mut t = Trinomial::default();
        t.add(Outcome::Win);
        t.add(Outcome::Draw);
        t.add(Outcome::Loss);
        t.add(Outcome::Draw);
        assert_eq!(t, Trinomial::new(1, 1, 2));
        assert!(close(t.draw_ratio().unwrap(), 0.5, 1e-12));
    }

    #[test]
    fn pentanomial_known_values() {
        // counts for pair scores 0, .5, 1, 1.5, 2 = [5, 10, 50, 20, 15], N = 100
        // s = (10*.25 + 50*.5 + 20*.75 + 15*1)/100 = 0.575
        // var = [5*.575^2 + 10*.325^2 + 50*.075^2 + 20*.175^2 + 15*.425^2]/100
        //     = [1.653125 + 1.05625 + 0.28125 + 0.6125 + 2.709375]/100 = 0.063125
        let p = Pentanomial::new([5, 10, 50, 20, 15]);
        assert_eq!(p.pairs(), 100);
        assert!(close(p.score().unwrap(), 0.575, 1e-12));
        assert!(close(p.variance().unwrap(), 0.063_125, 1e-12));
        let e = p.elo(0.95).unwrap();
        // se = sqrt(0.063125/100) = 0.0251247; interval [0.525757, 0.624243]
        // elo: 52.51 [17.91, 88.18] (Python)
        assert!(close(e.elo, 52.51, 0.01), "{}", e.elo);
        assert!(close(e.lower, 17.913, 0.01), "{}", e.lower);
        assert!(close(e.upper, 88.179, 0.01), "{}", e.upper);
        // LOS = Phi(0.075 / 0.0251247) = Phi(2.98511) = 0.998582
        assert!(
            close(p.los().unwrap(), 0.998_582, 2e-6),
            "{}",
            p.los().unwrap()
        );
        let (pts, games) = p.points_and_games();
        assert!(close(pts, 115.0, 1e-9));
        assert_eq!(games, 200);
    }

    #[test]
    fn pentanomial_add_pair_and_symmetry() {
        let mut p = Pentanomial::default();
        p.add_pair(Outcome::Win, Outcome::Loss); // 1 point
        p.add_pair(Outcome::Win, Outcome::Draw); // 1.5
        p.add_pair(Outcome::Loss, Outcome::Loss); // 0
        p.add_pair(Outcome::Draw, Outcome::Win); // 1.5
        p.add_pair(Outcome::Win, Outcome::Win); // 2
        assert_eq!(p.counts, [1, 0, 1, 2, 1]);
        use Outcome::*;
        let q = Pentanomial::from_consecutive(&[
            Win, Loss, Win, Draw, Loss, Loss, Draw, Win, Win, Win, Draw,
        ]);
        assert_eq!(q, p, "the trailing unpaired game is ignored");
        // Balanced pentanomial: LOS 0.5, Elo 0.
        let p = Pentanomial::new([3, 7, 20, 7, 3]);
        assert!(close(p.los().unwrap(), 0.5, 1e-7));
        assert!(close(p.elo(0.95).unwrap().elo, 0.0, 1e-9));
        assert_eq!(Pentanomial::new([0, 0, 4, 0, 0]).los(), None);
        assert_eq!(Outcome::Win.flipped(), Outcome::Loss);
        assert_eq!(Outcome::Draw.points(), 0.5);
    }

    #[test]
    fn sprt_bounds_and_validation() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        // ln(0.05/0.95) = -2.944439
        assert!(close(s.lower_bound(), -2.944_439, 1e-6));
        assert!(close(s.upper_bound(), 2.944_439, 1e-6));
        let s = Sprt::new(0.0, 5.0, 0.05, 0.1).unwrap();
        // ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = 2.890372
        assert!(close(s.lower_bound(), -2.251_292, 1e-6));
        assert!(close(s.upper_bound(), 2.890_372, 1e-6));
        assert!(Sprt::new(5.0, 5.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 1.0).is_err());
    }

    #[test]
    fn sprt_trinomial_llr_matches_c_gomoku_cli_formula() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        // 60-40-0: s0 = 0.5, s1 = 0.5143874, s = 0.6, var = 0.24, n = 100
        // LLR = 100 * 0.0143874 * (1.2 - 1.0143874) / 0.48 = 0.556343 (Python)
        let llr = s.llr_trinomial(&Trinomial::new(60, 40, 0));
        assert!(close(llr, 0.556_343, 1e-5), "{llr}");
        assert_eq!(s.decide(llr), SprtDecision::Continue);
        assert_eq!(s.status_line(llr), "SPRT: LLR = 0.556 [-2.944,2.944]");
        // 600-400-0 is ten times the evidence (LLR scales with n): 5.563 > 2.944.
        let llr = s.llr_trinomial(&Trinomial::new(600, 400, 0));
        assert!(close(llr, 5.563_43, 1e-4), "{llr}");
        assert_eq!(s.decide(llr), SprtDecision::AcceptH1);
        assert!(s.status_line(llr).ends_with(". H1 accepted."));
        // 400-600-0: s = 0.4, var 0.24; LLR = 1000*0.0143874*(0.8-1.0143874)/0.48 = -6.425891
        let llr = s.llr_trinomial(&Trinomial::new(400, 600, 0));
        assert!(close(llr, -6.425_89, 1e-4), "{llr}");
        assert_eq!(s.decide(llr), SprtDecision::AcceptH0);
        // Only one outcome class -> 0, like c-gomoku-cli.
        assert_eq!(s.llr_trinomial(&Trinomial::new(10, 0, 0)), 0.0);
        assert_eq!(s.llr_trinomial(&Trinomial::default()), 0.0);
    }

    #[test]
    fn sprt_pentanomial_llr() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        // [5,10,50,20,15]: s = 0.575, var = 0.063125, N = 100
        // LLR = 100 * 0.0143874 * (1.15 - 1.0143874) / (2 * 0.063125) = 1.545415
        let llr = s.llr_pentanomial(&Pentanomial::new([5, 10, 50, 20, 15]));
        assert!(close(llr, 1.545_42, 1e-4), "{llr}");
        assert_eq!(s.llr_pentanomial(&Pentanomial::new([0, 0, 9, 0, 0])), 0.0);
    }

    #[test]
    fn score_line_format() {
        assert_eq!(
            score_line("A", "B", &Trinomial::new(60, 40, 0)),
            "Score of A vs B: 60 - 40 - 0 [0.600] 100"
        );
    }
}
