//! `tune`: fits the evaluation's weights to `datagen` records by logistic regression.
//!
//! The evaluation is linear in its weights (see [`crate::eval`]): for the side to move `me`,
//!
//! `value = ½ Σ_{cells, now and before the last stone} (cell[me][code_me] − cell[opp][code_opp])
//!          + Σ_{threat bits set} threat[bit]`
//!
//! so every record becomes a sparse feature vector (how often each pattern code occurs for
//! either side, the threat bits) and the fit is a logistic regression of the game's result on
//! it, with the evaluation's own scale: `P(win) = 1 / (1 + e^(−value/200))`. The target may mix
//! in the search's value (`--score-weight λ`: `(1−λ)·result + λ·σ(search value)`). Adam on
//! mini-batches, L2 regularisation towards the starting weights (the built-in ones, so that
//! codes the data never shows keep their value), a held-out validation split; each epoch
//! prints its training and validation loss. Renju fits black's and white's cell values apart;
//! the other rules one table for both colours, unless `--colours-apart` asks for two or the
//! built-in tables the fit starts from are already apart (today's freestyle ones).
//!
//! With `--cross` the fit adds the evaluation's cross term ([`crate::eval::CrossTables`]): for
//! each cell where either colour's class is in a group above 0, the side to move's feature of
//! its own pattern code by the other's group, the opponent's (negated) the same way, and the
//! joint feature of both groups, counted on this position only.
//!
//! With `--network` the fit adds the evaluation's network ([`crate::eval::network`]) and fits
//! it together with the linear weights (and the cross term): the hidden layer's rows per
//! pattern code, colour and role, the threat bits' rows, the bias and the output weights, by
//! backpropagation through the ReLU, Adam at `--network-lr`. The network starts from the
//! built-in one if the rule has one, else from small random rows and a zero output (so the
//! first loss is the linear weights'). A network can learn a game by heart from its other
//! positions, so its validation split holds out whole games; and the openings' first
//! positions recur in many games, so `--min-stones` can leave them out. With the search's
//! values as targets (`--score-weight 1`), `--quiet-margin M` leaves out the training
//! positions whose value the starting weights miss by M or more: there the value is a tactic
//! the search saw, which at a leaf the quiescence search resolves, and a network fitted to it
//! would count it twice (docs/results.md, twenty-third session).
//!
//! The weight file: a line `tianyuan-eval 1 <rule>` (`2` with the cross term), a line
//! `threats` with the [`THREAT_BITS`] values, then `cells black` and `cells white` lines with
//! [`NUM_PCODES`] values each; version 2 adds `cross black` and `cross white` lines with
//! `NUM_PCODES × 3` values (code by code, groups 1 to 3) and `joint black` and `joint white`
//! lines with 15 values (own group × 4 + other group, from 1) ([`crate::eval::EvalTables::from_text`]
//! reads it). Version 3 (`--network`) holds version 2's lines and then the network's: `net
//! bias` and `net out` ([`HIDDEN`] values each), `net threats` (`THREAT_BITS × HIDDEN`) and four
//! `net cells <mover|other> <black|white>` lines (`NUM_PCODES × HIDDEN`, code by code), the
//! first layer in fixed point at [`NET_SCALE`].

use std::collections::HashSet;
use std::fmt::Write as _;

use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::core::pattern::{pcode, NUM_PCODES};
use crate::core::{Board, Color, Rule};
use crate::eval::network::{HIDDEN, NET_SCALE, ROLES};
use crate::eval::tables::{CLASS_GROUP, GROUPS};
use crate::eval::{threat_mask, EvalTables, Network, THREAT_BITS};
use crate::search::params::SMALL_BOARD;
use crate::tools::datagen::{canonical_key, Record};

/// The evaluation's scale: a value `v` means a win probability of `σ(v / SCALE)`.
const SCALE: f64 = 200.0;

/// A record as features: (weight index, coefficient) pairs and the target probability.
#[derive(Clone, Debug)]
pub struct Sample {
    features: Vec<(u32, f32)>,
    target: f32,
}

/// Where each weight sits in the parameter vector: the threat bits, the cell tables, then (with
/// the cross term) the cross tables and the joint tables.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// A table per colour (renju, `--colours-apart`, or built-in tables already apart);
    /// otherwise one shared.
    per_colour: bool,
    /// Fit the cross term too (a version-2 weight file).
    cross: bool,
}

/// Cross-term weights per pattern code: one per group above 0.
const CROSS_PER_CODE: usize = GROUPS - 1;
/// Joint weights per table: every pair of groups but (0, 0).
const JOINT_PER_TABLE: usize = GROUPS * GROUPS - 1;

impl Layout {
    fn tables(&self) -> usize {
        if self.per_colour {
            2
        } else {
            1
        }
    }

    fn table(&self, colour: Color) -> usize {
        if self.per_colour {
            colour as usize
        } else {
            0
        }
    }

    fn cell(&self, colour: Color, code: u16) -> u32 {
        (THREAT_BITS + self.table(colour) * NUM_PCODES + code as usize) as u32
    }

    /// The cross weight of `code` for `colour` when the other colour's group is `group` ≥ 1.
    fn cross_cell(&self, colour: Color, code: u16, group: usize) -> u32 {
        let base = THREAT_BITS + self.tables() * NUM_PCODES;
        (base + (self.table(colour) * NUM_PCODES + code as usize) * CROSS_PER_CODE + group - 1)
            as u32
    }

    /// The joint weight of the side to move `colour` for its group `own` and the other's.
    fn joint(&self, colour: Color, own: usize, other: usize) -> u32 {
        let base = THREAT_BITS + self.tables() * NUM_PCODES * (1 + CROSS_PER_CODE);
        (base + self.table(colour) * JOINT_PER_TABLE + own * GROUPS + other - 1) as u32
    }

    fn len(&self) -> usize {
        let cells = THREAT_BITS + NUM_PCODES * self.tables();
        if self.cross {
            cells + self.tables() * (NUM_PCODES * CROSS_PER_CODE + JOINT_PER_TABLE)
        } else {
            cells
        }
    }
}

/// Adds the cross-term features of `board` (side to move `me`), as
/// [`crate::eval`]'s cross term reads them.
fn add_cross(board: &Board, me: Color, layout: Layout, out: &mut Vec<(u32, f32)>) {
    let opp = me.opponent();
    for p in board.empty_cells().iter() {
        let own = CLASS_GROUP[board.threat(p, me) as usize] as usize;
        let other = CLASS_GROUP[board.threat(p, opp) as usize] as usize;
        if own + other == 0 {
            continue;
        }
        if other > 0 {
            out.push((layout.cross_cell(me, board.pcode(p, me), other), 1.0));
        }
        if own > 0 {
            out.push((layout.cross_cell(opp, board.pcode(p, opp), own), -1.0));
        }
        out.push((layout.joint(me, own, other), 1.0));
    }
}

/// Adds the cell features of `board` (side to move `me`) with coefficient `k`.
fn add_cells(board: &Board, me: Color, k: f32, layout: Layout, out: &mut Vec<(u32, f32)>) {
    for p in board.empty_cells().iter() {
        for (c, sign) in [(me, 1.0), (me.opponent(), -1.0)] {
            let code = pcode(board.packed_patterns(p, c));
            out.push((layout.cell(c, code), sign * k));
        }
    }
}

/// The features and target of one record.
fn sample(record: &Record, layout: Layout, score_weight: f64) -> Result<Sample, String> {
    let board = record.board()?;
    let me = board.side_to_move();
    let mut raw = Vec::with_capacity(4 * board.width() * board.height());
    add_cells(&board, me, 0.5, layout, &mut raw);
    let mut before = board.clone();
    if before.undo().is_some() {
        add_cells(&before, me, 0.5, layout, &mut raw);
    } else {
        add_cells(&board, me, 0.5, layout, &mut raw);
    }
    if layout.cross {
        add_cross(&board, me, layout, &mut raw);
    }
    let mask = threat_mask(&board);
    for bit in 0..THREAT_BITS {
        if mask & (1 << bit) != 0 {
            raw.push((bit as u32, 1.0));
        }
    }
    // Merge equal indices (most cells share a few codes).
    raw.sort_unstable_by_key(|&(i, _)| i);
    let mut features: Vec<(u32, f32)> = Vec::with_capacity(raw.len() / 4);
    for (i, k) in raw {
        match features.last_mut() {
            Some((j, sum)) if *j == i => *sum += k,
            _ => features.push((i, k)),
        }
    }
    features.retain(|&(_, k)| k != 0.0);
    let result = (record.result as f64 + 1.0) / 2.0;
    let target = (1.0 - score_weight) * result + score_weight * sigmoid(record.value as f64);
    Ok(Sample {
        features,
        target: target as f32,
    })
}

/// The number of each record's game: a record that does not extend the one before it (its
/// stones are not the earlier record's followed by more) starts a new game.
fn game_numbers(records: &[Record]) -> Vec<u64> {
    let mut game = 0u64;
    let mut prev: &[(usize, usize)] = &[];
    records
        .iter()
        .map(|r| {
            if !(r.stones.len() > prev.len() && r.stones.starts_with(prev)) {
                game += 1;
            }
            prev = &r.stones;
            game
        })
        .collect()
}

/// The cross-entropy of the prediction `σ(value)` against the target probability.
fn cross_entropy(value: f64, target: f32) -> f64 {
    let p = sigmoid(value).clamp(1e-9, 1.0 - 1e-9);
    let t = target as f64;
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v / SCALE).exp())
}

/// Mean cross-entropy of `weights` on `samples`.
fn loss(weights: &[f64], samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            let v: f64 = s
                .features
                .iter()
                .map(|&(i, k)| weights[i as usize] * k as f64)
                .sum();
            cross_entropy(v, s.target)
        })
        .sum();
    total / samples.len() as f64
}

/// What a fit does.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The rule whose records are fitted (others are left out).
    pub rule: Rule,
    /// Passes over the training set.
    pub epochs: usize,
    /// Adam's step size, in evaluation units.
    pub learning_rate: f64,
    /// L2 pull towards the starting weights, per sample.
    pub l2: f64,
    /// Share of the (deduplicated) records held out for validation.
    pub validation: f64,
    /// Mini-batch size.
    pub batch: usize,
    /// The search value's share of the target (0 = the game's result alone).
    pub score_weight: f64,
    /// Also fit each record's seven symmetric images.
    pub augment: bool,
    /// Seed of the split and the batch order.
    pub seed: u64,
    /// Fit the cross term too and write a version-2 weight file.
    pub cross: bool,
    /// Fit black's and white's tables apart under every rule (renju always does, and so
    /// does a fit whose built-in tables are already apart).
    pub colours_apart: bool,
    /// Fit the evaluation's network too, with the linear weights (a version-3 weight file;
    /// black's and white's tables apart; the validation split by game).
    pub network: bool,
    /// Adam's step size for the network's weights.
    pub network_lr: f64,
    /// Records with fewer stones are left out (the openings' first positions recur in many
    /// games: a network learns their results by heart, which is no use to a search).
    pub min_stones: usize,
    /// Leave out the training positions whose target, as a value, is this far or further from
    /// the starting weights' value (with `score_weight` 1 the target is the search's value:
    /// what it leaves out are the positions whose value is a tactic the search saw).
    pub quiet_margin: Option<f64>,
}

/// A parameter vector for `layout` holding the threat values and cell tables of `tables`
/// (zero elsewhere; with one shared table, white's values are the ones kept).
fn threat_and_cell_weights(layout: Layout, tables: &EvalTables) -> Vec<f64> {
    let mut weights = vec![0.0f64; layout.len()];
    for (bit, w) in weights.iter_mut().take(THREAT_BITS).enumerate() {
        *w = tables.threats[1 << bit] as f64;
    }
    for colour in Color::BOTH {
        for code in 0..NUM_PCODES as u16 {
            weights[layout.cell(colour, code) as usize] =
                tables.cells.get(colour.index(), code) as f64;
        }
    }
    weights
}

/// The fitted tables and the loss of each epoch (training, validation).
pub struct TuneOutcome {
    /// The weight file's text.
    pub weights_text: String,
    /// `(training loss, validation loss)` before the first epoch and after each.
    pub losses: Vec<(f64, f64)>,
    /// Records used for training and for validation (after deduplication and augmentation).
    pub sizes: (usize, usize),
    /// True when black's and white's tables were fitted apart.
    pub colours_apart: bool,
}

/// Fits the weights of `config.rule` to `records`, calling `on_epoch(epoch, train, valid)`.
pub fn fit(
    records: &[Record],
    config: &TuneConfig,
    on_epoch: &mut dyn FnMut(usize, f64, f64),
) -> Result<TuneOutcome, String> {
    // Start from the built-in weights (hand-set, or fitted before). Tables that start apart
    // stay apart: one shared table would keep only one colour's values.
    let start = EvalTables::built_in(config.rule);
    let layout = Layout {
        per_colour: config.rule == Rule::Renju
            || config.colours_apart
            || config.network
            || start.colours_apart(),
        // The network's file is a version 3, which holds the cross term.
        cross: config.cross || config.network,
    };
    // Deduplicate across files and shards; split by position so that a record and its
    // symmetric images stay on the same side.
    let mut seen = HashSet::new();
    let games = game_numbers(records);
    let (mut unique, mut unique_games): (Vec<&Record>, Vec<u64>) = records
        .iter()
        .zip(games)
        .filter(|(r, _)| r.rule == config.rule && r.stones.len() >= config.min_stones)
        .filter(|(r, _)| seen.insert(canonical_key(&r.stones, r.size)))
        .unzip();
    if unique.len() < 10 {
        return Err(format!(
            "{} records of rule {} (at least 10 needed)",
            unique.len(),
            config.rule
        ));
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(config.seed);
    let n_valid = if config.network {
        // A network could learn a game by heart from its other positions: hold out whole
        // games (consecutive records that extend each other), chosen by a hash of their
        // number, before the deduplicated records are shuffled.
        let every = (1.0 / config.validation.max(1e-3)).round().max(1.0) as u64;
        let held: Vec<bool> = unique_games
            .drain(..)
            .map(|game| (game.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33) % every == 0)
            .collect();
        let (mut valid, mut train): (Vec<&Record>, Vec<&Record>) = (0..unique.len())
            .map(|i| (held[i], unique[i]))
            .fold((Vec::new(), Vec::new()), |(mut v, mut t), (h, r)| {
                if h {
                    v.push(r);
                } else {
                    t.push(r);
                }
                (v, t)
            });
        valid.shuffle(&mut rng);
        train.shuffle(&mut rng);
        let n = valid.len();
        valid.append(&mut train);
        unique = valid;
        n.max(1)
    } else {
        unique.shuffle(&mut rng);
        ((unique.len() as f64 * config.validation) as usize).max(1)
    };
    let to_samples = |rs: &[&Record], augment: bool| -> Result<Vec<Sample>, String> {
        let mut out = Vec::new();
        for r in rs {
            let syms = if augment { 8 } else { 1 };
            for sym in 0..syms {
                out.push(sample(&r.transformed(sym), layout, config.score_weight)?);
            }
        }
        Ok(out)
    };
    let valid = to_samples(&unique[..n_valid], false)?;
    let mut train = to_samples(&unique[n_valid..], config.augment)?;

    let mut weights = threat_and_cell_weights(layout, &start);
    if let (true, Some(cross)) = (layout.cross, &start.cross) {
        for colour in Color::BOTH {
            for code in 0..NUM_PCODES as u16 {
                for group in 1..GROUPS {
                    weights[layout.cross_cell(colour, code, group) as usize] =
                        cross.cells[colour.index()][code as usize][group] as f64;
                }
            }
            for own in 0..GROUPS {
                for other in 0..GROUPS {
                    if own + other > 0 {
                        weights[layout.joint(colour, own, other) as usize] =
                            cross.joint[colour.index()][own][other] as f64;
                    }
                }
            }
        }
    }
    let anchor = weights.clone();
    if let Some(margin) = config.quiet_margin {
        if config.score_weight != 1.0 {
            return Err(
                "--quiet-margin compares the search's value: it needs --score-weight 1".into(),
            );
        }
        // Positions whose search value the starting weights miss by far hold tactics the
        // search saw; at a leaf the quiescence search resolves those, and an evaluation fitted
        // to them would count them twice.
        train.retain(|s| {
            let t = (s.target as f64).clamp(1e-6, 1.0 - 1e-6);
            let searched = SCALE * (t / (1.0 - t)).ln();
            let value: f64 = s
                .features
                .iter()
                .map(|&(i, k)| weights[i as usize] * k as f64)
                .sum();
            (searched - value).abs() < margin
        });
    }
    if config.network {
        let (network, losses) = train_network(
            start.network.as_deref(),
            &mut weights,
            &anchor,
            &mut train,
            &valid,
            config,
            &mut rng,
            on_epoch,
        )?;
        let mut text = weights_text(layout, &weights, config.rule, 3);
        text.push_str(&network.to_text());
        return Ok(TuneOutcome {
            weights_text: text,
            losses,
            sizes: (train.len(), valid.len()),
            colours_apart: layout.per_colour,
        });
    }
    let mut losses = vec![(loss(&weights, &train), loss(&weights, &valid))];
    on_epoch(0, losses[0].0, losses[0].1);

    let mut linear = LinearAdam::new(weights.len());
    let mut grad = vec![0.0f64; weights.len()];
    let mut step = 0i32;
    for epoch in 1..=config.epochs {
        train.shuffle(&mut rng);
        for batch in train.chunks(config.batch.max(1)) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for s in batch {
                let value: f64 = s
                    .features
                    .iter()
                    .map(|&(i, k)| weights[i as usize] * k as f64)
                    .sum();
                let err = (sigmoid(value) - s.target as f64) / SCALE;
                for &(i, k) in &s.features {
                    grad[i as usize] += err * k as f64;
                }
            }
            step += 1;
            linear.step(
                &mut weights,
                &grad,
                anchor.as_slice(),
                batch.len(),
                config,
                step,
            );
        }
        let l = (loss(&weights, &train), loss(&weights, &valid));
        on_epoch(epoch, l.0, l.1);
        losses.push(l);
    }

    let version = if layout.cross { 2 } else { 1 };
    let text = weights_text(layout, &weights, config.rule, version);
    Ok(TuneOutcome {
        weights_text: text,
        losses,
        sizes: (train.len(), valid.len()),
        colours_apart: layout.per_colour,
    })
}

/// The weight file's text of the linear weights (version 3 goes on with the network's lines).
fn weights_text(layout: Layout, weights: &[f64], rule: Rule, version: u32) -> String {
    let mut text = format!("tianyuan-eval {version} {}\nthreats", rule);
    for w in &weights[..THREAT_BITS] {
        let _ = write!(text, " {}", w.round() as i64);
    }
    for (colour, name) in [(Color::Black, "black"), (Color::White, "white")] {
        let _ = write!(text, "\ncells {name}");
        for code in 0..NUM_PCODES as u16 {
            let w = weights[layout.cell(colour, code) as usize];
            let _ = write!(
                text,
                " {}",
                w.round().clamp(i16::MIN as f64, i16::MAX as f64) as i64
            );
        }
    }
    if layout.cross {
        for (colour, name) in [(Color::Black, "black"), (Color::White, "white")] {
            let _ = write!(text, "\ncross {name}");
            for code in 0..NUM_PCODES as u16 {
                for group in 1..GROUPS {
                    let w = weights[layout.cross_cell(colour, code, group) as usize];
                    let w = w.round().clamp(i16::MIN as f64, i16::MAX as f64) as i64;
                    let _ = write!(text, " {w}");
                }
            }
        }
        for (colour, name) in [(Color::Black, "black"), (Color::White, "white")] {
            let _ = write!(text, "\njoint {name}");
            for k in 1..GROUPS * GROUPS {
                let w = weights[layout.joint(colour, k / GROUPS, k % GROUPS) as usize];
                let _ = write!(text, " {}", w.round() as i64);
            }
        }
    }
    text.push('\n');
    text
}

/// The network's weights while they are fitted, in floating point (what
/// [`crate::eval::Network`] holds in fixed point).
struct FloatNetwork {
    /// The first layer's rows, `HIDDEN` weights each: the cell rows (`(role · 2 + colour) ·
    /// NUM_PCODES + code`), then one per threat bit ([`THREAT_ROWS_START`] on).
    rows: Vec<f32>,
    bias: Vec<f32>,
    out: Vec<f32>,
}

/// The first threat row of [`FloatNetwork::rows`].
const THREAT_ROWS_START: usize = ROLES * 2 * NUM_PCODES;

/// Where a sample's feature enters the network: its row in [`FloatNetwork::rows`] and its count
/// (a cell counts for the side to move's role when its coefficient is positive), or `None` for
/// the cross term's features, which the network does not read.
#[inline]
fn network_row(i: u32, k: f32) -> Option<(usize, f32)> {
    let i = i as usize;
    if i < THREAT_BITS {
        Some((THREAT_ROWS_START + i, 1.0))
    } else if i < THREAT_BITS + 2 * NUM_PCODES {
        let role = usize::from(k < 0.0);
        Some((role * 2 * NUM_PCODES + i - THREAT_BITS, k.abs()))
    } else {
        None
    }
}

impl FloatNetwork {
    fn new(start: Option<&Network>, rng: &mut rand::rngs::StdRng) -> FloatNetwork {
        use rand::Rng;
        let scale = NET_SCALE as f32;
        match start {
            Some(net) => FloatNetwork {
                rows: net
                    .cells
                    .iter()
                    .chain(net.threats.iter())
                    .flatten()
                    .map(|&w| w as f32 / scale)
                    .collect(),
                bias: net.bias.iter().map(|&b| b as f32 / scale).collect(),
                out: net.out.to_vec(),
            },
            // Small random first-layer weights and a zero output: the fit starts from the
            // linear weights' own loss.
            None => FloatNetwork {
                rows: (0..(THREAT_ROWS_START + THREAT_BITS) * HIDDEN)
                    .map(|_| rng.gen_range(-0.05..0.05))
                    .collect(),
                bias: vec![0.0; HIDDEN],
                out: vec![0.0; HIDDEN],
            },
        }
    }

    /// The hidden layer's inputs `z` of a sample, and the value (linear weights included).
    fn forward(&self, linear: &[f64], s: &Sample, z: &mut [f32; HIDDEN]) -> f64 {
        let mut value = 0.0f64;
        z.copy_from_slice(&self.bias);
        for &(i, k) in &s.features {
            value += linear[i as usize] * k as f64;
            if let Some((row, count)) = network_row(i, k) {
                let row = &self.rows[row * HIDDEN..(row + 1) * HIDDEN];
                for j in 0..HIDDEN {
                    z[j] += count * row[j];
                }
            }
        }
        let hidden: f32 = self.out.iter().zip(z).map(|(&w, z)| w * z.max(0.0)).sum();
        value + hidden as f64
    }

    fn loss(&self, linear: &[f64], samples: &[Sample]) -> f64 {
        let mut z = [0.0; HIDDEN];
        let total: f64 = samples
            .iter()
            .map(|s| cross_entropy(self.forward(linear, s, &mut z), s.target))
            .sum();
        total / samples.len().max(1) as f64
    }

    /// The fixed-point network (first layer at [`NET_SCALE`]).
    fn quantized(&self) -> Network {
        let q = |w: f32| {
            (w * NET_SCALE as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        };
        let mut net = Network::zero();
        let rows = net.cells.iter_mut().chain(net.threats.iter_mut());
        for (row, w) in rows.zip(self.rows.chunks(HIDDEN)) {
            for j in 0..HIDDEN {
                row[j] = q(w[j]);
            }
        }
        for j in 0..HIDDEN {
            net.bias[j] = (self.bias[j] * NET_SCALE as f32).round() as i32;
            net.out[j] = self.out[j];
        }
        net
    }
}

/// Adam's decay rates and its guard against a zero second moment (every fit's).
const ADAM_BETA1: f64 = 0.9;
/// See [`ADAM_BETA1`].
const ADAM_BETA2: f64 = 0.999;
/// See [`ADAM_BETA1`].
const ADAM_EPS: f64 = 1e-8;

/// Adam's moments of the linear weights, with the L2 pull towards the starting weights.
struct LinearAdam {
    m: Vec<f64>,
    v: Vec<f64>,
}

impl LinearAdam {
    fn new(n: usize) -> LinearAdam {
        LinearAdam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// Step number `step` (from 1) on `weights` with the gradient `grad` summed over a batch
    /// of `n` samples.
    fn step(
        &mut self,
        weights: &mut [f64],
        grad: &[f64],
        anchor: &[f64],
        n: usize,
        config: &TuneConfig,
        step: i32,
    ) {
        let (beta1, beta2) = (ADAM_BETA1, ADAM_BETA2);
        let n = n as f64;
        for i in 0..weights.len() {
            let g = grad[i] / n + config.l2 * (weights[i] - anchor[i]);
            self.m[i] = beta1 * self.m[i] + (1.0 - beta1) * g;
            self.v[i] = beta2 * self.v[i] + (1.0 - beta2) * g * g;
            let m_hat = self.m[i] / (1.0 - beta1.powi(step));
            let v_hat = self.v[i] / (1.0 - beta2.powi(step));
            weights[i] -= config.learning_rate * m_hat / (v_hat.sqrt() + ADAM_EPS);
        }
    }
}

/// Adam's moments of one parameter vector of the network (f32, sparse rows).
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One step on `w[range]` with the gradient `g[range]` (averaged over `n` samples), which
    /// is zeroed.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        w: &mut [f32],
        g: &mut [f32],
        range: std::ops::Range<usize>,
        n: f64,
        lr: f64,
        c1: f64,
        c2: f64,
    ) {
        let (b1, b2, eps) = (ADAM_BETA1, ADAM_BETA2, ADAM_EPS);
        for i in range {
            let gi = g[i] as f64 / n;
            g[i] = 0.0;
            let m = b1 * self.m[i] as f64 + (1.0 - b1) * gi;
            let v = b2 * self.v[i] as f64 + (1.0 - b2) * gi * gi;
            self.m[i] = m as f32;
            self.v[i] = v as f32;
            w[i] -= (lr * (m / c1) / ((v / c2).sqrt() + eps)) as f32;
        }
    }
}

/// Fits the network and the linear weights together (Adam on mini-batches; the linear
/// weights' step size and L2 pull as in the linear fit, the network's `network_lr`).
#[allow(clippy::too_many_arguments)]
fn train_network(
    start: Option<&Network>,
    weights: &mut [f64],
    anchor: &[f64],
    train: &mut [Sample],
    valid: &[Sample],
    config: &TuneConfig,
    rng: &mut rand::rngs::StdRng,
    on_epoch: &mut dyn FnMut(usize, f64, f64),
) -> Result<(Network, Vec<(f64, f64)>), String> {
    let mut net = FloatNetwork::new(start, rng);
    let mut losses = vec![(net.loss(weights, train), net.loss(weights, valid))];
    on_epoch(0, losses[0].0, losses[0].1);
    let (b1, b2) = (ADAM_BETA1, ADAM_BETA2);
    let mut linear = LinearAdam::new(weights.len());
    let mut lg = vec![0.0f64; weights.len()];
    let mut rows_grad = vec![0.0f32; net.rows.len()];
    let mut bias_grad = vec![0.0f32; HIDDEN];
    let mut out_grad = vec![0.0f32; HIDDEN];
    let mut rows_adam = Adam::new(net.rows.len());
    let (mut bias_adam, mut out_adam) = (Adam::new(HIDDEN), Adam::new(HIDDEN));
    // The rows a batch touched (most codes are rare: only their rows take a step).
    let mut touched = vec![false; net.rows.len() / HIDDEN];
    let mut touched_list = Vec::new();
    let mut z = [0.0f32; HIDDEN];
    let mut step = 0;
    for epoch in 1..=config.epochs {
        train.shuffle(rng);
        for batch in train.chunks(config.batch.max(1)) {
            lg.iter_mut().for_each(|g| *g = 0.0);
            for s in batch {
                let value = net.forward(weights, s, &mut z);
                let err = (sigmoid(value) - s.target as f64) / SCALE;
                let e = err as f32;
                let mut dz = [0.0f32; HIDDEN];
                for j in 0..HIDDEN {
                    if z[j] > 0.0 {
                        out_grad[j] += e * z[j];
                        dz[j] = e * net.out[j];
                        bias_grad[j] += dz[j];
                    }
                }
                for &(i, k) in &s.features {
                    lg[i as usize] += err * k as f64;
                    if let Some((row, count)) = network_row(i, k) {
                        if !touched[row] {
                            touched[row] = true;
                            touched_list.push(row);
                        }
                        let g = &mut rows_grad[row * HIDDEN..(row + 1) * HIDDEN];
                        for j in 0..HIDDEN {
                            g[j] += count * dz[j];
                        }
                    }
                }
            }
            step += 1;
            let n = batch.len() as f64;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            linear.step(weights, &lg, anchor, batch.len(), config, step);
            let lr = config.network_lr;
            for r in touched_list.drain(..) {
                touched[r] = false;
                let range = r * HIDDEN..(r + 1) * HIDDEN;
                rows_adam.step(&mut net.rows, &mut rows_grad, range, n, lr, c1, c2);
            }
            bias_adam.step(&mut net.bias, &mut bias_grad, 0..HIDDEN, n, lr, c1, c2);
            out_adam.step(&mut net.out, &mut out_grad, 0..HIDDEN, n, lr, c1, c2);
        }
        let l = (net.loss(weights, train), net.loss(weights, valid));
        on_epoch(epoch, l.0, l.1);
        losses.push(l);
    }
    // The kept sums are 16-bit: the largest sum of one colour and role over the training
    // positions (this position's and the one's before the last stone averaged, as the
    // features count them), in fixed point, must stay well below `i16::MAX`.
    let mut largest = 0.0f32;
    for s in train.iter() {
        let mut sums = [[0.0f32; HIDDEN]; 4];
        for &(i, k) in &s.features {
            match network_row(i, k) {
                Some((row, count)) if row < THREAT_ROWS_START => {
                    let weights = &net.rows[row * HIDDEN..(row + 1) * HIDDEN];
                    for (sum, w) in sums[row / NUM_PCODES].iter_mut().zip(weights) {
                        *sum += count * w;
                    }
                }
                _ => {}
            }
        }
        largest = sums.iter().flatten().fold(largest, |m, &v| m.max(v.abs()));
    }
    let largest = largest * NET_SCALE as f32;
    println!("largest kept sum over the training positions: {largest:.0} in fixed point");
    // The search reads a network on boards of up to `SMALL_BOARD` lines only
    // (`Tunables::for_game`), which have up to 1.3 times a 15×15 board's cells, and a 16-bit
    // sum that overflows wraps without a sound. (A network switched on by name on a larger
    // board, `--search-param net_margin`, may wrap there.)
    let area_ratio = (SMALL_BOARD * SMALL_BOARD) as f32 / (15.0 * 15.0);
    if area_ratio * largest >= i16::MAX as f32 {
        return Err(format!(
            "the network's sums (up to {largest:.0}) would not fit in 16 bits on boards of \
             {SMALL_BOARD} lines"
        ));
    }
    let quantized = net.quantized();
    let rounded = FloatNetwork::new(Some(&quantized), rng);
    println!(
        "validation loss with the network in fixed point: {:.5}",
        rounded.loss(weights, valid)
    );
    Ok((quantized, losses))
}

/// Arguments of `tune`.
#[derive(Clone, Debug, clap::Args)]
pub struct TuneArgs {
    /// Record files from `datagen` (shards may simply be listed).
    #[arg(required = true)]
    pub data: Vec<std::path::PathBuf>,
    /// The rule to fit (records of other rules are left out).
    #[arg(long, default_value = "freestyle")]
    pub rule: String,
    /// Passes over the training set.
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Adam's step size, in evaluation units.
    #[arg(long, default_value_t = 0.5)]
    pub learning_rate: f64,
    /// L2 pull towards the built-in weights.
    #[arg(long, default_value_t = 1e-5)]
    pub l2: f64,
    /// Share of the records held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Mini-batch size.
    #[arg(long, default_value_t = 1024)]
    pub batch: usize,
    /// The search value's share of the target (0 = the game's result alone).
    #[arg(long, default_value_t = 0.0)]
    pub score_weight: f64,
    /// Also fit the seven symmetric images of each training record.
    #[arg(long)]
    pub augment: bool,
    /// Seed of the split and the batch order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also fit the evaluation's cross term (writes a version-2 weight file).
    #[arg(long)]
    pub cross: bool,
    /// Fit black's and white's tables apart under every rule (renju always does, and so does
    /// a fit that starts from built-in tables already apart; the first player's and the
    /// second's shapes may be worth different amounts in freestyle too).
    #[arg(long)]
    pub colours_apart: bool,
    /// Fit the evaluation's network too (see [`crate::eval::network`]), with the linear
    /// weights and the cross term: a version-3 weight file. The validation split holds out
    /// whole games.
    #[arg(long)]
    pub network: bool,
    /// Adam's step size for the network's weights.
    #[arg(long, default_value_t = 0.002)]
    pub network_lr: f64,
    /// Leave out the records with fewer stones than this.
    #[arg(long, default_value_t = 0)]
    pub min_stones: usize,
    /// Leave out the training positions whose target (with `--score-weight 1`, the search's
    /// value) differs from the starting weights' value by this much or more.
    #[arg(long)]
    pub quiet_margin: Option<f64>,
    /// The weight file to write.
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// Runs `tune`: reads the records, fits, prints the loss of each epoch, writes the weights.
pub fn run_command(args: &TuneArgs) -> anyhow::Result<()> {
    use anyhow::Context;
    let rule = Rule::parse(&args.rule).with_context(|| format!("unknown rule {}", args.rule))?;
    let started = std::time::Instant::now();
    let mut records = Vec::new();
    for path in &args.data {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            records.push(
                Record::parse(line)
                    .map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), i + 1))?,
            );
        }
    }
    let config = TuneConfig {
        rule,
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        l2: args.l2,
        validation: args.validation.clamp(0.0, 0.9),
        batch: args.batch,
        score_weight: args.score_weight.clamp(0.0, 1.0),
        augment: args.augment,
        seed: args.seed,
        cross: args.cross,
        colours_apart: args.colours_apart,
        network: args.network,
        network_lr: args.network_lr,
        min_stones: args.min_stones,
        quiet_margin: args.quiet_margin,
    };
    let outcome = fit(&records, &config, &mut |epoch, train, valid| {
        println!(
            "epoch {epoch:3}  training loss {train:.5}  validation loss {valid:.5}  ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
    })
    .map_err(|e| anyhow::anyhow!(e))?;
    std::fs::write(&args.out, &outcome.weights_text)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!(
        "{} training and {} validation positions, {}; weights written to {} ({} bytes) in {:.1} s",
        outcome.sizes.0,
        outcome.sizes.1,
        if outcome.colours_apart {
            "black's and white's tables apart"
        } else {
            "one table for both colours"
        },
        args.out.display(),
        outcome.weights_text.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::datagen::{run, DatagenConfig, OpeningSource};

    fn records(games: usize) -> Vec<Record> {
        let config = DatagenConfig {
            rule: Rule::Freestyle,
            size: 15,
            games,
            nodes: 2000,
            openings: OpeningSource::Random {
                stones: 3,
                radius: 3,
            },
            seed: 11,
            shard: (0, 1),
            table_bytes: 1 << 20,
            vct_nodes: 0,
            random_moves: 0,
        };
        let mut out = Vec::new();
        run(&config, &mut out, &mut |_| {}).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| Record::parse(l).unwrap())
            .collect()
    }

    /// The records read as games of `rule` (freestyle's games are standard games too, except
    /// for overlines, which the tests do not need).
    fn as_rule(records: &[Record], rule: Rule) -> Vec<Record> {
        records
            .iter()
            .map(|r| Record { rule, ..r.clone() })
            .collect()
    }

    fn config(epochs: usize) -> TuneConfig {
        TuneConfig {
            rule: Rule::Freestyle,
            epochs,
            learning_rate: 0.5,
            l2: 0.0,
            validation: 0.2,
            batch: 64,
            score_weight: 0.0,
            augment: false,
            seed: 3,
            cross: false,
            colours_apart: false,
            network: false,
            network_lr: 0.002,
            min_stones: 0,
            quiet_margin: None,
        }
    }

    /// A fit with the cross term writes a version-2 file that reads back with a cross term.
    #[test]
    fn a_cross_fit_writes_a_version_2_file() {
        // Standard's built-in tables are one for both colours; a fit keeps them so.
        let mut c = config(2);
        c.cross = true;
        c.rule = Rule::Standard;
        let out = fit(&as_rule(&records(3), Rule::Standard), &c, &mut |_, _, _| {}).unwrap();
        assert!(out.weights_text.starts_with("tianyuan-eval 2 standard"));
        let (_, tables) = EvalTables::from_text(&out.weights_text).unwrap();
        let cross = tables.cross.expect("a cross term");
        let start = EvalTables::built_in(Rule::Standard)
            .cross
            .expect("a cross term");
        assert!(
            cross.cells[0] != start.cells[0],
            "the fit left the cross term as it was"
        );
        assert_eq!(cross.cells[0], cross.cells[1], "one table for both colours");
        let (last, first) = (out.losses[2].0, out.losses[0].0);
        assert!(last < first, "training loss {first} -> {last}");
    }

    /// A fit with the network writes a version-3 file that reads back with a network, its
    /// training loss falls, and the evaluation's network term of a record is the fit's own
    /// (the trainer's float forward pass over the file's fixed-point weights), to its rounding.
    #[test]
    fn a_network_fit_writes_a_version_3_file_the_evaluation_reads_alike() {
        let mut c = config(3);
        c.network = true;
        c.learning_rate = 0.03;
        c.network_lr = 0.01;
        let recs = records(4);
        let out = fit(&recs, &c, &mut |_, _, _| {}).unwrap();
        assert!(out.weights_text.starts_with("tianyuan-eval 3 freestyle"));
        let (last, first) = (out.losses[3].0, out.losses[0].0);
        assert!(last < first, "training loss {first} -> {last}");
        let (_, tables) = EvalTables::from_text(&out.weights_text).unwrap();
        let net = tables.network.as_deref().expect("a network");
        assert!(
            tables.cross.is_some(),
            "a version-3 file holds the cross term"
        );
        let mut plain_tables = EvalTables::from_text(&out.weights_text).unwrap().1;
        plain_tables.network = None;
        let layout = Layout {
            per_colour: true,
            cross: true,
        };
        let float = FloatNetwork::new(Some(net), &mut rand::rngs::StdRng::seed_from_u64(0));
        let zero = vec![0.0; layout.len()];
        let mut felt = 0;
        for r in recs.iter().take(60) {
            let mut board = r.board().unwrap();
            crate::eval::prepare(&mut board);
            let with_net = crate::eval::evaluate_with(&board, &tables) as f64;
            let term = with_net - crate::eval::evaluate_with(&board, &plain_tables) as f64;
            let mut z = [0.0; HIDDEN];
            let expected = float.forward(&zero, &sample(r, layout, 0.0).unwrap(), &mut z);
            assert!(
                (term - expected).abs() <= 1.0,
                "{r}: evaluation {term}, fit {expected}"
            );
            felt += usize::from(term.abs() >= 1.0);
        }
        assert!(felt > 30, "the network is rarely felt: {felt} of 60");
    }

    /// The quiet margin leaves out the training positions whose search value the starting
    /// weights miss by it or more, and no validation position; it wants search values as
    /// targets.
    #[test]
    fn the_quiet_margin_leaves_out_the_positions_the_weights_miss() {
        let recs = records(3);
        let mut c = config(0);
        c.score_weight = 1.0;
        let all = fit(&recs, &c, &mut |_, _, _| {}).unwrap().sizes;
        c.quiet_margin = Some(100.0);
        let quiet = fit(&recs, &c, &mut |_, _, _| {}).unwrap().sizes;
        assert!(quiet.0 < all.0 && quiet.0 > 0, "{quiet:?} of {all:?}");
        assert_eq!(quiet.1, all.1);
        c.quiet_margin = Some(1e9);
        assert_eq!(fit(&recs, &c, &mut |_, _, _| {}).unwrap().sizes, all);
        // Game results are no values to compare with.
        c.score_weight = 0.5;
        assert!(fit(&recs, &c, &mut |_, _, _| {}).is_err());
    }

    /// Records that extend the one before are one game; a record that does not starts the
    /// next (the network fit's validation holds out whole games).
    #[test]
    fn games_are_told_apart_by_their_records() {
        let recs: Vec<Record> = [
            "0 15 hhih 1 0",
            "0 15 hhihgi -1 0",
            "0 15 hhihgigj 1 0",
            "0 15 hhij 1 0",
            "0 15 hhijgi -1 0",
            "0 15 hh 1 0",
        ]
        .iter()
        .map(|l| Record::parse(l).unwrap())
        .collect();
        assert_eq!(game_numbers(&recs), vec![0, 0, 0, 1, 1, 2]);
    }

    /// With the colours apart, a standard fit moves black's and white's tables apart (they
    /// start equal), and the file reads back with both.
    #[test]
    fn a_fit_with_the_colours_apart_writes_two_tables() {
        let mut c = config(2);
        c.cross = true;
        c.colours_apart = true;
        c.rule = Rule::Standard;
        let out = fit(&as_rule(&records(3), Rule::Standard), &c, &mut |_, _, _| {}).unwrap();
        let (rule, tables) = EvalTables::from_text(&out.weights_text).unwrap();
        assert_eq!(rule, Rule::Standard);
        assert!(!EvalTables::built_in(Rule::Standard).colours_apart());
        let differ = (0..NUM_PCODES as u16)
            .filter(|&code| tables.cells.get(0, code) != tables.cells.get(1, code))
            .count();
        assert!(differ > 0, "black's and white's cell tables stayed equal");
        let cross = tables.cross.as_ref().expect("a cross term");
        assert_ne!(cross.cells[0], cross.cells[1]);
        assert!(tables.colours_apart());
    }

    /// A fit of no epoch writes the built-in tables back, whether they are one for both
    /// colours (standard) or apart (freestyle: a fit that starts apart stays apart).
    #[test]
    fn no_epoch_writes_the_built_in_tables_back() {
        for rule in [Rule::Freestyle, Rule::Standard] {
            let mut c = config(0);
            c.rule = rule;
            c.cross = true;
            let out = fit(&as_rule(&records(3), rule), &c, &mut |_, _, _| {}).unwrap();
            let (read, tables) = EvalTables::from_text(&out.weights_text).unwrap();
            assert_eq!(read, rule);
            let hand = EvalTables::built_in(rule);
            assert_eq!(tables.threats, hand.threats);
            assert_eq!(tables.cells.values, hand.cells.values, "{rule:?}");
            let (cross, hand_cross) = (tables.cross.unwrap(), hand.cross.unwrap());
            assert_eq!(cross.cells, hand_cross.cells, "{rule:?}");
            assert_eq!(cross.joint, hand_cross.joint, "{rule:?}");
        }
    }

    #[test]
    fn the_fit_lowers_the_training_loss_and_the_features_match_the_evaluation() {
        let recs = records(12);
        // A record's features times the weights: the fit's value of the record.
        let fitted = |r: &Record, layout: Layout, w: &[f64]| -> f64 {
            let s = sample(r, layout, 0.0).unwrap();
            s.features
                .iter()
                .map(|&(i, k)| w[i as usize] * k as f64)
                .sum()
        };
        // The evaluation's value of a record under `tables`.
        let evaluated = |r: &Record, tables: &EvalTables| -> f64 {
            let mut board = r.board().unwrap();
            crate::eval::prepare(&mut board);
            crate::eval::evaluate_with(&board, tables) as f64
        };
        // The features give the evaluation's own value (before its integer rounding): with one
        // table for both colours (standard's built-in tables) and with a table per colour
        // (freestyle's).
        for (rule, per_colour) in [(Rule::Standard, false), (Rule::Freestyle, true)] {
            // Each layout is only covered while the rule's built-in tables are so.
            assert_eq!(
                EvalTables::built_in(rule).colours_apart(),
                per_colour,
                "{rule:?}"
            );
            let recs = as_rule(&recs, rule);
            let layout = Layout {
                per_colour,
                cross: false,
            };
            let hand = EvalTables::built_in(rule);
            let weights = threat_and_cell_weights(layout, &hand);
            // The built-in tables without their cross term (the layout has none).
            let plain = EvalTables {
                cells: hand.cells.clone(),
                threats: hand.threats.clone(),
                cross: None,
                network: None,
            };
            for r in recs.iter().take(50) {
                let v = fitted(r, layout, &weights);
                let e = evaluated(r, &plain);
                assert!((v - e).abs() <= 1.0, "{r}: features {v}, evaluation {e}");
            }
            // With the cross term: random cross weights (the same for both colours, or apart),
            // read back as the evaluation's tables.
            let layout = Layout {
                per_colour,
                cross: true,
            };
            let mut rng = rand::rngs::StdRng::seed_from_u64(5);
            let mut cross = crate::eval::CrossTables::zero();
            let mut wide = weights.clone();
            wide.resize(layout.len(), 0.0);
            let mut random = |wide: &mut Vec<f64>, index: u32| -> i16 {
                let w: i16 = rand::Rng::gen_range(&mut rng, -40..40);
                wide[index as usize] = w as f64;
                w
            };
            for colour in Color::BOTH {
                let tables = if per_colour {
                    colour.index()..colour.index() + 1
                } else if colour == Color::Black {
                    0..2
                } else {
                    continue;
                };
                for code in 0..NUM_PCODES as u16 {
                    for group in 1..GROUPS {
                        let w = random(&mut wide, layout.cross_cell(colour, code, group));
                        for t in tables.clone() {
                            cross.cells[t][code as usize][group] = w;
                        }
                    }
                }
                for k in 1..GROUPS * GROUPS {
                    let w = random(&mut wide, layout.joint(colour, k / GROUPS, k % GROUPS));
                    for t in tables.clone() {
                        cross.joint[t][k / GROUPS][k % GROUPS] = w as i32;
                    }
                }
            }
            let tables = EvalTables {
                cells: hand.cells.clone(),
                threats: hand.threats.clone(),
                cross: Some(Box::new(cross)),
                network: None,
            };
            let mut crossed = 0;
            for r in recs.iter().take(50) {
                let v = fitted(r, layout, &wide);
                let e = evaluated(r, &tables);
                assert!((v - e).abs() <= 1.0, "{r}: features {v}, evaluation {e}");
                let without = evaluated(r, &plain);
                crossed += usize::from((e - without).abs() > 1.0);
            }
            assert!(
                crossed > 10,
                "the cross term is rarely felt: {crossed} of 50"
            );
        }
        let out = fit(&recs, &config(8), &mut |_, _, _| {}).unwrap();
        let (first, last) = (out.losses[0].0, out.losses.last().unwrap().0);
        assert!(last < first - 0.01, "training loss {first} -> {last}");
    }
}
