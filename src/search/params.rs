//! The search's parameters: which pruning and reduction steps run ([`SearchParams`]'s
//! switches, the hidden brain flag `--search-off`) and the constants they use
//! ([`Tunables`], the hidden brain flag `--search-param name=value,…`), so that a match can
//! measure a step (with it against without it) and a tuner can move a constant
//! (`pbrain-tianyuan spsa`) without rebuilding the engine. The constants' defaults are per
//! rule and board size ([`Tunables::for_game`]): each set is the one a match proved for it.

use crate::core::Rule;

/// What a tuner needs to know of one constant: its name, the value the engine plays with, the
/// range it may take and the size of a tuning perturbation at the end of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TunableSpec {
    /// The field's name (as `--search-param` takes it).
    pub name: &'static str,
    /// The declared default: the first tune's value (caro with exact fives plays it; the other
    /// rules play the renju tune's set or one near it, [`Tunables::for_game`]).
    pub default: i32,
    /// The smallest value allowed.
    pub min: i32,
    /// The largest value allowed.
    pub max: i32,
    /// SPSA's perturbation at the end of a run (`c_end`): about the smallest change a few
    /// thousand games could tell apart.
    pub step: i32,
}

/// Declares [`Tunables`] once: its fields, defaults, ranges and steps.
macro_rules! tunables {
    ($( $(#[$doc:meta])* $name:ident = $default:literal in $min:literal..=$max:literal step $step:literal; )*) => {
        /// The constants of the pruning and reduction steps (see each step in
        /// [`super::searcher`]). Integers, so that a tuner's values are exact.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Tunables {
            $( $(#[$doc])* pub $name: i32, )*
        }

        impl Default for Tunables {
            fn default() -> Self {
                Self::DEFAULT
            }
        }

        impl Tunables {
            /// The macro's defaults (the first tune's set, which caro plays).
            pub const DEFAULT: Tunables = Tunables { $( $name: $default, )* };

            /// The index of the constant `name` in [`Tunables::SPECS`].
            fn index(name: &str) -> Option<usize> {
                Self::SPECS.iter().position(|s| s.name == name)
            }

            /// Every constant, in declaration order.
            pub const SPECS: &'static [TunableSpec] = &[
                $( TunableSpec { name: stringify!($name), default: $default, min: $min, max: $max, step: $step }, )*
            ];

            /// The value of the constant `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $( stringify!($name) => Some(self.$name), )*
                    _ => None,
                }
            }

            /// The spec of the constant `name` (an unknown name is an error).
            pub fn spec(name: &str) -> Result<TunableSpec, String> {
                Self::index(name)
                    .map(|i| Self::SPECS[i])
                    .ok_or_else(|| format!("unknown search parameter {name}"))
            }

            /// Sets the constant `name` (an unknown name or a value outside its range is an
            /// error).
            pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
                let spec = Self::spec(name)?;
                if !(spec.min..=spec.max).contains(&value) {
                    return Err(format!(
                        "search parameter {name} = {value} is outside {}..={}",
                        spec.min, spec.max
                    ));
                }
                match name {
                    $( stringify!($name) => self.$name = value, )*
                    _ => unreachable!("every spec names a field"),
                }
                Ok(())
            }
        }
    };
}

// The values are the first SPSA tune's (`spsa --iterations 700 --pairs 3 --nodes 12000`,
// freestyle 15×15, 4,200 games at 12,000 nodes a move; docs/results.md): +53.1 ± 26.4 Elo
// against the hand-set values (beside each), 335-244-21 over 600 games, freestyle 15×15,
// 150 ms a move. The hand-set values are the ones each step's own Elo was measured with.
tunables! {
    /// Step 7a: reverse futility's margin per ply of depth. (Hand-set: 70.)
    rfp_margin = 63 in 20..=200 step 8;
    /// Step 7a: what an improving evaluation takes off that margin. (Hand-set: 30.)
    rfp_improving = 25 in 0..=150 step 8;
    /// Step 7a: the deepest node it prunes. (Hand-set: 6.)
    rfp_depth = 5 in 2..=12 step 1;
    /// Step 7b: razoring's margin per ply of depth. (Hand-set: 250.)
    razor_margin = 235 in 50..=800 step 25;
    /// Step 7b: the deepest node it razors. (Hand-set: 3.)
    razor_depth = 3 in 1..=8 step 1;
    /// Step 7c: the shallowest node that tries the null move. (Hand-set: 5.)
    null_depth = 3 in 2..=12 step 1;
    /// Step 7c: the null move's reduction is `null_base + depth / null_divisor` (plus the
    /// ply of the pass). (Hand-set: 3.)
    null_base = 4 in 1..=6 step 1;
    /// Step 7c: see `null_base`. (Hand-set: 4.)
    null_divisor = 4 in 2..=12 step 1;
    /// Step 7d: the shallowest node that internal iterative reduction shortens. (Hand-set: 6.)
    iir_depth = 5 in 2..=14 step 1;
    /// Step 8a: a quiet move is pruned after `(lmp_base + depth² · lmp_scale / 100) / (2 −
    /// improving)` moves. (Hand-set: 3.)
    lmp_base = 3 in 0..=20 step 1;
    /// Step 8a: the deepest node it prunes. (Hand-set: 8.)
    lmp_depth = 9 in 2..=14 step 1;
    /// Step 8b: the reduction is `(lmr_base + ln depth · ln count · 100 / lmr_divisor) / 100`
    /// plies. (Hand-set: 40.)
    lmr_base = 37 in -100..=200 step 10;
    /// Step 8b: see `lmr_base` (hundredths). (Hand-set: 230; SPSA at 12,000 nodes a move:
    /// 226. At 150 ms a move, where the search is ten times deeper in nodes, 180 against 226:
    /// +19.7 ± 27.0 Elo, 298-264-38 over 600 games, freestyle 15×15; against renju's 221:
    /// +15.1 ± 27.2, 299-273-28; together 597-537-66 over 1,200, about +17, LOS about 96 %.
    /// 150 against 180: −7.8 ± 32.8 over 400 games, freestyle.)
    lmr_divisor = 180 in 100..=500 step 15;
    /// Step 8b: a ply less of reduction per this much history score. (Hand-set: 6000.)
    lmr_history = 5580 in 1000..=30000 step 500;
    /// The aspiration window's first half-width. (Hand-set: 30.)
    aspiration_delta = 34 in 5..=150 step 5;
    /// Move order: the weight of the evaluation's values of a cell (for both colours) in a
    /// move's score. (Against 0, 300 games each at 12,000 nodes a move, freestyle: 6 gave
    /// +2.3 ± 39.4 Elo, 20 gave −34.9 ± 39.4; so 0, for a tuner to move.)
    order_value = 0 in 0..=100 step 2;
    /// Move order: a move's history score counts divided by this.
    order_history = 8 in 1..=64 step 1;
    /// Move order: the bonus of the ply's first killer.
    order_killer = 3000 in 0..=20000 step 250;
    /// Move order: the bonus of the ply's second killer.
    order_killer2 = 2500 in 0..=20000 step 250;
    /// Move order: the bonus of the counter-move to the opponent's last stone.
    order_counter = 2000 in 0..=20000 step 250;
    /// Step 9: a cut-off's history bonus is `hist_quad · depth² + hist_lin · depth`, at most
    /// `hist_max`.
    hist_quad = 16 in 0..=64 step 2;
    /// Step 9: see `hist_quad`.
    hist_lin = 32 in 0..=256 step 8;
    /// Step 9: see `hist_quad`.
    hist_max = 2000 in 200..=8000 step 150;
    /// Step 8a: the move count's depth term is `depth² · lmp_scale / 100`. (Hand-set: 100;
    /// against it, as `order_value`: 60 gave −27.9 ± 39.1 Elo, 40 gave +1.2 ± 40.4; freestyle
    /// on small boards plays 40 since, [`Tunables::FREESTYLE_SMALL_TUNE`].)
    lmp_scale = 100 in 20..=200 step 8;
    /// The move order's value of a move by what it makes for the mover (its threat class;
    /// a five, an open four, a four-three and a double three are fixed far above). These
    /// sixteen are hand-set. (A freestyle SPSA run over them, `spsa --tune att_…,def_…
    /// --iterations 400 --pairs 3 --nodes 12000 --r-end 0.006 --rule 0 --seed 2030`, moved
    /// them a few per cent: +41.9 ± 39.6 Elo at 12,000 nodes a move over 300 games, but
    /// +16.2 ± 27.3 and +1.2 ± 27.3 in two 600-game runs at 150 ms a move: not taken.)
    /// An open two.
    att_flex2 = 200 in 0..=1000 step 25;
    /// … a closed three.
    att_block3 = 150 in 0..=1000 step 25;
    /// … two open twos.
    att_flex2x2 = 600 in 0..=3000 step 50;
    /// … a closed three with more.
    att_block3plus = 450 in 0..=3000 step 50;
    /// … an open three (and a renju black cell that may be a false double three).
    att_flex3 = 1200 in 0..=5000 step 100;
    /// … an open three with more.
    att_flex3plus = 1800 in 0..=6000 step 100;
    /// … a four.
    att_block4 = 1000 in 0..=5000 step 100;
    /// … a four with more.
    att_block4plus = 1500 in 0..=6000 step 100;
    /// The move order's value of a move by what it takes from the opponent (his class on the
    /// cell; his four-three, open four and five fixed far above): an open two.
    def_flex2 = 100 in 0..=1000 step 25;
    /// … a closed three.
    def_block3 = 80 in 0..=1000 step 25;
    /// … two open twos.
    def_flex2x2 = 400 in 0..=3000 step 50;
    /// … a closed three with more.
    def_block3plus = 300 in 0..=3000 step 50;
    /// … an open three.
    def_flex3 = 800 in 0..=5000 step 100;
    /// … an open three with more.
    def_flex3plus = 1200 in 0..=6000 step 100;
    /// … a four (his, blocked in advance).
    def_block4 = 600 in 0..=5000 step 100;
    /// … a four with more.
    def_block4plus = 900 in 0..=6000 step 100;
    /// Step 8b at the root: the plies a late quiet root move is reduced less than the same
    /// move at an inner node. (0 against 1: −4.0 ± 40.9 Elo over 263 games at 12,000 nodes
    /// a move, freestyle.)
    root_lmr_less = 1 in 0..=4 step 1;
    /// Step 8: the last stage's moves are the empty cells within this many cells of a stone
    /// (a square of side `2 · cand_radius + 1` around each), besides the cells where either
    /// side makes a three or more.
    cand_radius = 2 in 1..=4 step 1;
    /// The evaluation's network (a weight file with one: freestyle's and standard's) is asked
    /// only when the linear value lies within this much of the node's window, never when
    /// negative ([`crate::eval::evaluate_near`]). At 20,000 nodes a move, freestyle 15×15, 150
    /// against asking it at every node: −3.5 ± 33.5 Elo over 400 games, level, for 15 % of the
    /// nodes per second instead of 30 % (docs/results.md, twenty-seventh session).
    net_margin = 150 in -1..=20000 step 25;
}

/// The longest side of a board that plays a small board's constants ([`Tunables::for_game`]):
/// the sizes measured are 15 and 20, and each board plays the set of the nearer one; for every
/// rule, the longest side whose search asks the evaluation's network.
pub const SMALL_BOARD: usize = 17;

// `SearchParams::set_by_name` has one bit per constant.
const _: () = assert!(Tunables::SPECS.len() <= 64);

impl Tunables {
    /// The renju tune's set, which freestyle (on the larger boards), standard, renju and caro
    /// with overlines play (see [`Tunables::for_game`]; on boards of more than
    /// [`SMALL_BOARD`] lines with `net_margin` −1): the first tune's set with the renju tune's
    /// pruning and reduction constants.
    pub const RENJU_TUNE: Tunables = Tunables {
        rfp_margin: 44,
        razor_margin: 202,
        razor_depth: 4,
        null_divisor: 3,
        iir_depth: 3,
        lmp_base: 2,
        lmr_base: 39,
        lmr_history: 5814,
        aspiration_delta: 32,
        ..Tunables::DEFAULT
    };

    /// Freestyle's set on boards of up to [`SMALL_BOARD`] lines: the renju tune's with a
    /// smaller depth term in late-move pruning (`lmp_scale` 40: at depth 5 a quiet move is
    /// pruned after 12 moves instead of 27). Freestyle 15×15, 150 ms a move, against the
    /// renju tune's set: +23.8 ± 26.4 Elo, 288-247-65 over 600 games (`--seed 2001`), and
    /// +25.5 ± 26.4, 291-247-62 over 600 (`--seed 2102`). On 20×20 it lost: −8.2 ± 37.1 over
    /// 339 games and −29.6 ± 41.7 over 271 (`--seed 2005`, `2103`); nor did standard gain
    /// (−4.4 ± 35.7 over 316). (`selfplay --args "--search-param lmp_scale=40"
    /// --baseline-args "" --rule R [--size 20] --tc 150/0 --games 600 --sprt 0,10 --openings
    /// …balanced_<rule>_<S>x<S>_pos.txt --openings-order random --seed N --concurrency 1`;
    /// docs/results.md, twentieth and twenty-first sessions.)
    pub const FREESTYLE_SMALL_TUNE: Tunables = Tunables {
        lmp_scale: 40,
        ..Tunables::RENJU_TUNE
    };

    /// The constants a search under `rule` on a board whose longer side is `size` plays with
    /// by default: the renju tune's set for freestyle, standard, renju and caro with
    /// overlines (a match proved it in each), freestyle's own on the smaller boards, the
    /// first tune's set (the macro's defaults above) for caro with exact fives, where none
    /// was measured. Every rule plays without the evaluation's network on boards of more
    /// than [`SMALL_BOARD`] lines.
    pub fn for_game(rule: Rule, size: usize) -> Tunables {
        let set = Tunables::for_rule(rule, size);
        if size > SMALL_BOARD {
            // The networks (freestyle's and standard's) are fitted on 15×15 games almost
            // only. On 20×20 freestyle's showed no gain against Rapfi at 40,000 nodes a
            // move (81-319-0, 20.3 %, against 88-312-0, 22.0 %, without it over 400 games, and
            // 38-162-0 again with the cells far from every stone counted as on 15×15;
            // docs/results.md, twenty-seventh and twenty-eighth sessions): no gain to pay its
            // cost in speed for, so the larger boards play without a network (standard's was
            // not measured on 20×20).
            Tunables {
                net_margin: -1,
                ..set
            }
        } else {
            set
        }
    }

    /// [`Tunables::for_game`] before the network is switched off on the larger boards.
    fn for_rule(rule: Rule, size: usize) -> Tunables {
        match rule {
            Rule::Freestyle if size <= SMALL_BOARD => Tunables::FREESTYLE_SMALL_TUNE,
            Rule::Freestyle => Tunables::RENJU_TUNE,
            // The renju tune (`spsa --iterations 600 --pairs 3 --nodes 12000 --r-end 0.006
            // --rule 4 --tc 300/0 --openings …balanced_renju_15x15_pos.txt --openings-order
            // random --concurrency 2 --seed 2027`, 3,600 games from the first tune's set):
            // +99.0 ± 43.9 Elo against the first tune's set, 160-89-7, SPRT (0, 10) H1 accepted
            // after 256 games, renju 15×15, 150 ms a move. (Its `lmr_divisor`, 221, gave way
            // to the first set's 180 after the 150 ms match beside that constant.)
            // Standard plays it too: +85.7 ± 38.1 Elo against the first tune's set,
            // 171-98-33, SPRT (0, 10) H1 accepted after 302 games, standard 15×15, 150 ms a
            // move (`selfplay --args "--search-param <renju's set>" --baseline-args "" --rule
            // standard --tc 150/0 --games 600 --sprt 0,10 --openings …balanced_standard_15x15_pos.txt
            // --openings-order random --seed 1901`). Against Rapfi at 0.3 s a move, seeds 1–4:
            // 34-202-4 (15.0 %) against the first set's 36-201-3 (15.6 %), level.
            // And freestyle: +37.8 ± 26.5 Elo, 301-236-63 over 600 games (the same command
            // with `--rule freestyle`, its balanced openings and `--seed 1902`; the SPRT's LLR
            // reached 2.71 of 2.94 at the 600-game cap); on 20×20 (`--size 20`, its balanced
            // openings, `--seed 1904`): +90.7 ± 41.8 Elo, 179-106-1, H1 accepted after 286
            // games. Against Rapfi at 0.3 s a move, level with the first set: 15×15 seeds 1, 4
            // and 2 25-151-4 (15.0 %) against 26-153-1 (14.7 %); 20×20 seeds 1–4 35-205-0
            // (14.6 %) against 36-204-0 (15.0 %) (docs/results.md, nineteenth session).
            // Caro with overlines (`Caro8`) too: +30.8 ± 24.6 Elo, 259-206-135 over 600
            // games (the same command with `--rule 8`, freestyle's balanced openings and
            // `--seed 2101`; LOS 99.3 %, the SPRT's LLR 1.85 at the cap).
            // (Freestyle on the larger boards plays it too.)
            Rule::Standard | Rule::Renju | Rule::Caro8 => Tunables::RENJU_TUNE,
            Rule::Caro9 => Tunables::DEFAULT,
        }
    }
}

/// The pruning and reduction steps, each of which can be switched off (the hidden brain flag
/// `--search-off`), so that a match measures what each one is worth, and their constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Step 7a: reverse futility pruning.
    pub reverse_futility: bool,
    /// Step 7b: razoring into the VCF search.
    pub razoring: bool,
    /// Step 7c: the null move.
    pub null_move: bool,
    /// Step 8a: late-move pruning (move-count pruning).
    pub late_move_pruning: bool,
    /// Step 8b: late-move reductions.
    pub late_move_reductions: bool,
    /// Step 7d: internal iterative reduction (no table move at a deep node).
    pub iir: bool,
    /// Step 6a: a table value that bounds the node replaces the static evaluation in the
    /// pruning steps.
    pub tt_eval: bool,
    /// Step 8: the defence against an open three or a four-three costs no depth, like the
    /// block of a four (so a threat sequence costs one ply per threat).
    pub threat_extension: bool,
    /// Step 1: the quiescence search plays only fours near its own last stone, and after
    /// two of them only fours that make something more.
    pub narrow_qsearch: bool,
    /// The root: late quiet root moves are searched shallower first (step 8b at the root).
    pub root_reductions: bool,
    /// The steps' constants (the game's set once [`SearchParams::for_game`] chose it).
    pub tune: Tunables,
    /// The constants set by name ([`SearchParams::with_values`]), one bit per index in
    /// [`Tunables::SPECS`]: they stay as set whatever the rule.
    set_by_name: u64,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            reverse_futility: true,
            razoring: true,
            null_move: true,
            late_move_pruning: true,
            late_move_reductions: true,
            iir: true,
            tt_eval: true,
            threat_extension: true,
            narrow_qsearch: true,
            root_reductions: true,
            tune: Tunables::default(),
            set_by_name: 0,
        }
    }
}

impl SearchParams {
    /// The names `--search-off` takes.
    pub const NAMES: [&'static str; 10] = [
        "rfp",
        "razoring",
        "nullmove",
        "lmp",
        "lmr",
        "iir",
        "tteval",
        "threatext",
        "qsnarrow",
        "rootlmr",
    ];

    /// These parameters with the named steps switched off (unknown names are an error).
    pub fn without(mut self, names: &str) -> Result<SearchParams, String> {
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "rfp" => self.reverse_futility = false,
                "razoring" => self.razoring = false,
                "nullmove" => self.null_move = false,
                "lmp" => self.late_move_pruning = false,
                "lmr" => self.late_move_reductions = false,
                "iir" => self.iir = false,
                "tteval" => self.tt_eval = false,
                "threatext" => self.threat_extension = false,
                "qsnarrow" => self.narrow_qsearch = false,
                "rootlmr" => self.root_reductions = false,
                other => {
                    return Err(format!(
                        "unknown search step {other} (known: {:?})",
                        Self::NAMES
                    ))
                }
            }
        }
        Ok(self)
    }

    /// These parameters with constants set from `name=value` pairs, comma-separated (what
    /// `--search-param` and the tuner pass).
    pub fn with_values(mut self, pairs: &str) -> Result<SearchParams, String> {
        for pair in pairs.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("expected name=value, got {pair}"))?;
            let value: i32 = value
                .trim()
                .parse()
                .map_err(|_| format!("search parameter {name}: {value} is not an integer"))?;
            let name = name.trim();
            self.tune.set(name, value)?;
            self.set_by_name |= 1u64 << Tunables::index(name).expect("set checked the name");
        }
        Ok(self)
    }

    /// These parameters with the constants of `rule` on a board whose longer side is `size`
    /// ([`Tunables::for_game`]), except those set by name, which keep their values. (The
    /// search calls it with each position's rule and size, so that one brain plays every
    /// game with its own set.)
    pub fn for_game(mut self, rule: Rule, size: usize) -> SearchParams {
        let mut tune = Tunables::for_game(rule, size);
        for (i, spec) in Tunables::SPECS.iter().enumerate() {
            if self.set_by_name & (1u64 << i) != 0 {
                let value = self.tune.get(spec.name).expect("a spec names a constant");
                tune.set(spec.name, value).expect("a set value is in range");
            }
        }
        self.tune = tune;
        self
    }

    /// The late-move reduction of the `count`-th move at `depth`: grows with the logarithms
    /// of both.
    #[inline]
    pub fn lmr_reduction(&self, depth: i32, count: i32) -> i32 {
        let (d, c) = (depth.max(1) as f64, count.max(1) as f64);
        let t = &self.tune;
        // Hundredths divided first, so that the defaults give exactly 0.4 and 2.3.
        (t.lmr_base as f64 / 100.0 + d.ln() * c.ln() / (t.lmr_divisor as f64 / 100.0)) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAX_DEPTH_CHECKED: i32 = 96;

    /// Every name `--search-off` lists switches off a step of its own; an unknown name is an
    /// error.
    #[test]
    fn each_search_off_name_switches_off_one_step() {
        let all = SearchParams::default();
        let mut seen = Vec::new();
        for name in SearchParams::NAMES {
            let off = all.without(name).unwrap();
            assert_ne!(off, all, "{name} switched nothing off");
            assert!(!seen.contains(&off), "{name} repeats another name's step");
            seen.push(off);
        }
        assert!(all.without("tteval").is_ok_and(|p| !p.tt_eval));
        assert!(all.without("nosuchstep").is_err());
    }

    /// Every constant can be read and set by its name, within its range only; the defaults lie
    /// in their ranges; the reduction formula keeps the values it had as a fixed function.
    #[test]
    fn constants_are_set_by_name_within_their_ranges() {
        let p = SearchParams::default();
        for s in Tunables::SPECS {
            assert!(
                s.min <= s.default && s.default <= s.max && s.step > 0,
                "{s:?}"
            );
            assert_eq!(p.tune.get(s.name), Some(s.default));
            let moved = p.with_values(&format!("{}={}", s.name, s.max)).unwrap();
            assert_eq!(moved.tune.get(s.name), Some(s.max));
            assert_ne!(moved, p);
            assert!(p.with_values(&format!("{}={}", s.name, s.max + 1)).is_err());
        }
        let two = p.with_values(" rfp_margin=80 , lmp_depth=9 ").unwrap().tune;
        assert_eq!((two.rfp_margin, two.lmp_depth), (80, 9));
        assert!(p.with_values("nosuch=1").is_err());
        assert!(p.with_values("rfp_margin").is_err());
        assert!(p.with_values("rfp_margin=x").is_err());
        // Set to 40 and 230: 0.4 + ln d · ln c / 2.3, as before the constants could move.
        let old_lmr = p.with_values("lmr_base=40,lmr_divisor=230").unwrap();
        for d in 1..=MAX_DEPTH_CHECKED {
            for c in 1..=200 {
                let old = (0.4 + (d as f64).ln() * (c as f64).ln() / 2.3) as i32;
                assert_eq!(old_lmr.lmr_reduction(d, c), old, "depth {d} count {c}");
            }
        }
        assert_eq!(old_lmr.lmr_reduction(8, 10), 2);
    }

    /// Freestyle plays its small boards' set up to [`SMALL_BOARD`] lines and the renju
    /// tune's beyond (the sizes measured are 15 and 20); the other rules' sets do not depend
    /// on the size but for `net_margin`, negative on the larger boards for every rule.
    #[test]
    fn freestyle_boards_play_the_set_of_the_nearer_measured_size() {
        for size in 5..=22 {
            let small = size <= SMALL_BOARD;
            let want = if small {
                Tunables::FREESTYLE_SMALL_TUNE
            } else {
                Tunables {
                    net_margin: -1,
                    ..Tunables::RENJU_TUNE
                }
            };
            assert_eq!(Tunables::for_game(Rule::Freestyle, size), want, "{size}");
            for rule in Rule::ALL {
                let set = Tunables::for_game(rule, size);
                assert_eq!(set.net_margin < 0, !small, "{rule:?} {size}");
                if rule != Rule::Freestyle {
                    assert_eq!(
                        Tunables {
                            net_margin: 0,
                            ..set
                        },
                        Tunables {
                            net_margin: 0,
                            ..Tunables::for_game(rule, 15)
                        },
                        "{rule:?} {size}"
                    );
                }
            }
        }
        assert_ne!(Tunables::FREESTYLE_SMALL_TUNE, Tunables::RENJU_TUNE);
        assert_eq!(Tunables::for_game(Rule::Freestyle, 15).lmp_scale, 40);
        assert_eq!(Tunables::for_game(Rule::Freestyle, 20).lmp_scale, 100);
        assert_eq!(Tunables::for_game(Rule::Standard, 15), Tunables::RENJU_TUNE);
    }

    /// Each rule's search plays its own set, except the constants set by name, which keep
    /// their values under every rule; choosing a rule twice changes nothing.
    #[test]
    fn constants_set_by_name_survive_the_rule_choice() {
        let named = SearchParams::default()
            .with_values("lmp_base=7,aspiration_delta=99")
            .unwrap();
        for (rule, size) in Rule::ALL.into_iter().flat_map(|r| [(r, 15), (r, 20)]) {
            let plain = SearchParams::default().for_game(rule, size);
            assert_eq!(plain.tune, Tunables::for_game(rule, size), "{rule:?}");
            let p = named.for_game(rule, size);
            let mut expected = Tunables::for_game(rule, size);
            expected.lmp_base = 7;
            expected.aspiration_delta = 99;
            assert_eq!(p.tune, expected, "{rule:?}");
            assert_eq!(p.for_game(rule, size), p, "{rule:?}");
            for other in Rule::ALL {
                assert_eq!(
                    p.for_game(other, 20).for_game(rule, size),
                    p,
                    "{other:?} then {rule:?} {size}"
                );
            }
        }
    }
}
