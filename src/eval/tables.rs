//! The evaluation's tables per rule: a value per colour and pattern code, and a value per
//! threat mask. These are the hand-set weights: a cell is worth the sum of what its four lines
//! would become plus a bonus for the combination (a four-three, two open threes), and the
//! threat mask adds what the threats mean with the side to move moving first. A fitted
//! version-2 file adds the cross term ([`CrossTables`]), which the hand-set weights leave out.

use super::THREAT_BITS;
#[cfg(test)]
use crate::core::line::LinePattern;
use crate::core::pattern::{combine, pcode_patterns, CellValues, NUM_PCODES};
use crate::core::{Color, Rule, ThreatClass};
use std::sync::OnceLock;

/// The evaluation's tables for one rule.
pub struct EvalTables {
    /// Value of an empty cell per colour and pattern code, from that colour's side.
    pub cells: CellValues,
    /// Value of each threat mask for the side to move.
    pub threats: Vec<i32>,
    /// The cross term of a version-2 or 3 weight file ([`CrossTables`]); `None` for version 1.
    pub cross: Option<Box<CrossTables>>,
    /// The network of a version-3 weight file ([`super::Network`]); `None` before.
    pub network: Option<Box<super::Network>>,
}

/// How many groups the cross term sorts the threat classes into ([`CLASS_GROUP`]).
pub const GROUPS: usize = 4;

/// The group of each [`ThreatClass`] in the cross term: 0 below two open twos (and renju's
/// foul), 1 two twos or a blocked three with more, 2 the open threes, 3 the fours and five
/// (the classes from [`ThreatClass::Flex2x2`] up, in order, are the groups above 0).
pub const CLASS_GROUP: [u8; crate::core::pattern::NUM_CLASSES] =
    [0, 0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3];

/// The cross term of a version-2 weight file: what a cell is worth to one colour also depends
/// on what the other colour would make there (a point both sides want is worth more to the
/// side that moves first), read on the cells where either colour has a group above 0.
pub struct CrossTables {
    /// `cells[colour][pcode][g]`: added to the colour's value of a cell whose other-colour
    /// class is in group `g` (`g = 0` is always 0).
    pub cells: [Vec<[i16; GROUPS]>; 2],
    /// `joint[side to move][own group][other group]`: the cell's value for the side to move
    /// from both groups together (`[0][0]` is always 0).
    pub joint: [[[i32; GROUPS]; GROUPS]; 2],
}

impl CrossTables {
    /// All zero.
    pub fn zero() -> CrossTables {
        CrossTables {
            cells: [vec![[0; GROUPS]; NUM_PCODES], vec![[0; GROUPS]; NUM_PCODES]],
            joint: [[[0; GROUPS]; GROUPS]; 2],
        }
    }
}

/// Value of one line pattern a stone would make, indexed by [`LinePattern`]: what the line
/// could become, growing with its closeness to five and its openness.
const LINE: [i32; 15] = [
    0,  // Dead
    0,  // Overline (renju black: a foul, worth nothing)
    0,  // DoubleFour (renju black: a foul)
    1,  // Block1
    3,  // Flex1
    5,  // Block2
    12, // Flex2
    16, // Flex2A
    20, // Flex2B
    14, // Block3
    40, // Flex3
    48, // Flex3S
    30, // Block4
    45, // Flex4
    60, // Five
];

/// Bonus for the combination of a cell's lines, indexed by [`ThreatClass`].
const COMBINATION: [i32; 14] = [
    0,   // None
    -12, // Forbid: renju black may not play here (a false double three is rare)
    0,   // Flex2
    0,   // Block3
    10,  // Flex2x2
    12,  // Block3Plus
    0,   // Flex3
    25,  // Flex3Plus
    40,  // Flex3x2
    0,   // Block4
    12,  // Block4Plus
    55,  // Block4Flex3
    90,  // Flex4
    120, // Five
];

/// Value of each threat for the side to move (own) and against it (opponent's), indexed by
/// [`super::ThreatBit`]. The opponent's five point must be blocked at once; an own open-four point
/// wins unless the opponent has a five (the search sees those as mates before it evaluates).
const THREAT: [i32; THREAT_BITS] = [
    -60,  // OppFive
    300,  // OwnFlex4
    -120, // OppFlex4: an open three the side to move must answer
    200,  // OwnFourThree
    -100, // OppFourThree
    30,   // OwnFour
    -15,  // OppFour
    70,   // OwnThreePlus
    -40,  // OppThreePlus
    45,   // OwnThree
    -20,  // OppThree
];

/// Each rule's tables, installed from a weight file or built from the hand-set weights on first
/// use.
static TABLES: [OnceLock<EvalTables>; 5] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];

/// Weight files fitted by `tune` and compiled into the binary, per rule (`src/eval/weights/`);
/// a rule without one uses the hand-set weights. Each is kept only after a match showed that
/// it beats what it replaces (docs/results.md).
const FITTED: &[(Rule, &str)] = &[
    (Rule::Freestyle, include_str!("weights/freestyle.txt")),
    (Rule::Standard, include_str!("weights/standard.txt")),
    (Rule::Renju, include_str!("weights/renju.txt")),
];

/// The value of every threat mask: the sum of the values of its bits.
fn threat_table(bits: &[i32]) -> Vec<i32> {
    (0..1usize << THREAT_BITS)
        .map(|mask| {
            (0..THREAT_BITS)
                .filter(|b| mask & (1 << b) != 0)
                .map(|b| bits[b])
                .sum()
        })
        .collect()
}

/// FNV-1a of a text: the short version of a weight file shown by `bench` and `ABOUT`.
fn fnv32(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    })
}

impl EvalTables {
    /// The tables of `rule`, built on first use: a weight file installed from the command
    /// line, else the fitted weights compiled in, else the hand-set ones.
    pub fn for_rule(rule: Rule) -> &'static EvalTables {
        TABLES[rule.index()].get_or_init(|| EvalTables::built_in(rule))
    }

    /// True when black's and white's values differ anywhere (cells, cross term or joint
    /// values): the tables were fitted apart, as renju's always are.
    pub fn colours_apart(&self) -> bool {
        (0..NUM_PCODES as u16).any(|code| self.cells.get(0, code) != self.cells.get(1, code))
            || self
                .cross
                .as_ref()
                .is_some_and(|c| c.cells[0] != c.cells[1] || c.joint[0] != c.joint[1])
    }

    /// The built-in tables of `rule`: fitted if a weight file for it is compiled in.
    pub fn built_in(rule: Rule) -> EvalTables {
        FITTED
            .iter()
            .find(|(r, _)| *r == rule)
            .map(|(_, text)| {
                EvalTables::from_text(text)
                    .expect("a compiled-in weight file is checked by the tests")
                    .1
            })
            .unwrap_or_else(|| EvalTables::hand_set(rule))
    }

    /// Which weights the built-in evaluation of each rule uses: `freestyle fitted-1a2b3c4d,
    /// standard hand-set, …` (the hash identifies the weight file).
    pub fn built_in_version() -> String {
        Rule::ALL
            .iter()
            .map(|&rule| match FITTED.iter().find(|(r, _)| *r == rule) {
                Some((_, text)) => format!("{rule} fitted-{:08x}", fnv32(text)),
                None => format!("{rule} hand-set"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Makes `tables` the evaluation of `rule` for the rest of the process (a weight file
    /// given on the command line); an error once the rule's tables are in use.
    pub fn install(rule: Rule, tables: EvalTables) -> Result<(), String> {
        TABLES[rule.index()]
            .set(tables)
            .map_err(|_| format!("the {rule} evaluation is already in use"))
    }

    /// Reads a weight file written by `tune` (see [`crate::tools::tune`]): its rule and tables.
    pub fn from_text(text: &str) -> Result<(Rule, EvalTables), String> {
        let mut lines = text.lines().filter(|l| !l.trim().is_empty());
        let header: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
        let (version, rule) = match header[..] {
            ["tianyuan-eval", version @ ("1" | "2" | "3"), rule] => (
                version,
                Rule::parse(rule).ok_or_else(|| format!("unknown rule {rule}"))?,
            ),
            _ => return Err("not a tianyuan-eval 1, 2 or 3 weight file".into()),
        };
        let numbers = |line: Option<&str>, name: &str, count: usize| -> Result<Vec<i32>, String> {
            let line = line.ok_or_else(|| format!("missing line {name}"))?;
            let rest = line
                .strip_prefix(name)
                .ok_or_else(|| format!("expected a line {name}"))?;
            let v: Vec<i32> = rest
                .split_whitespace()
                .map(|t| t.parse().map_err(|_| format!("bad number {t} in {name}")))
                .collect::<Result<_, _>>()?;
            if v.len() != count {
                return Err(format!("{name}: {} values, {count} expected", v.len()));
            }
            Ok(v)
        };
        let threat_bits = numbers(lines.next(), "threats", THREAT_BITS)?;
        let mut cells = CellValues::ZERO;
        for (color, name) in [(Color::Black, "cells black"), (Color::White, "cells white")] {
            let values = numbers(lines.next(), name, NUM_PCODES)?;
            for (code, v) in values.into_iter().enumerate() {
                cells.values[color.index()][code] =
                    i16::try_from(v).map_err(|_| format!("{name}: {v} out of range"))?;
            }
        }
        let cross = if version != "1" {
            let mut cross = CrossTables::zero();
            for (color, name) in [(Color::Black, "cross black"), (Color::White, "cross white")] {
                let values = numbers(lines.next(), name, NUM_PCODES * (GROUPS - 1))?;
                for (i, v) in values.into_iter().enumerate() {
                    cross.cells[color.index()][i / (GROUPS - 1)][1 + i % (GROUPS - 1)] =
                        i16::try_from(v).map_err(|_| format!("{name}: {v} out of range"))?;
                }
            }
            for (color, name) in [(Color::Black, "joint black"), (Color::White, "joint white")] {
                let values = numbers(lines.next(), name, GROUPS * GROUPS - 1)?;
                for (i, v) in values.into_iter().enumerate() {
                    let k = i + 1;
                    cross.joint[color.index()][k / GROUPS][k % GROUPS] = v;
                }
            }
            Some(Box::new(cross))
        } else {
            None
        };
        let network = if version == "3" {
            Some(Box::new(super::Network::from_lines(&mut lines)?))
        } else {
            None
        };
        Ok((
            rule,
            EvalTables {
                cells,
                threats: threat_table(&threat_bits),
                cross,
                network,
            },
        ))
    }

    /// The hand-set tables of `rule`.
    pub fn hand_set(rule: Rule) -> EvalTables {
        let mut cells = CellValues::ZERO;
        for color in Color::BOTH {
            for code in 0..NUM_PCODES {
                let lines = pcode_patterns(code as u16);
                let packed: u16 = lines
                    .iter()
                    .enumerate()
                    .map(|(dir, &l)| (l as u16) << (4 * dir))
                    .sum();
                let class = combine(rule, color, packed);
                let value = if class == ThreatClass::Forbid {
                    COMBINATION[ThreatClass::Forbid as usize]
                } else {
                    lines.iter().map(|&l| LINE[l as usize]).sum::<i32>()
                        + COMBINATION[class as usize]
                };
                cells.values[color.index()][code] = value as i16;
            }
        }
        EvalTables {
            cells,
            threats: threat_table(&THREAT),
            cross: None,
            network: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Renju's tables are fitted apart, the hand-set ones are one for both colours, and one
    /// value changed for one colour sets them apart.
    #[test]
    fn colours_apart_tells_a_table_per_colour() {
        assert!(EvalTables::built_in(Rule::Renju).colours_apart());
        let mut hand = EvalTables::hand_set(Rule::Caro8);
        assert!(!hand.colours_apart());
        let mut cross = CrossTables::zero();
        cross.joint[1][2][1] = 5;
        hand.cross = Some(Box::new(cross));
        assert!(hand.colours_apart());
    }

    /// Every compiled-in weight file reads back as the rule it is filed under.
    #[test]
    fn compiled_in_weight_files_are_valid() {
        for (rule, text) in FITTED {
            let (named, _) = EvalTables::from_text(text).unwrap();
            assert_eq!(named, *rule);
        }
        let version = EvalTables::built_in_version();
        assert_eq!(version.split(", ").count(), Rule::ALL.len(), "{version}");
    }
    use crate::core::pattern::pcode;

    #[test]
    fn stronger_cells_are_worth_more() {
        let t = EvalTables::for_rule(Rule::Freestyle);
        let value = |lines: [LinePattern; 4]| {
            let packed: u16 = lines
                .iter()
                .enumerate()
                .map(|(d, &l)| (l as u16) << (4 * d))
                .sum();
            t.cells.get(0, pcode(packed))
        };
        use LinePattern as L;
        let order = [
            value([L::Dead; 4]),
            value([L::Flex2, L::Dead, L::Dead, L::Dead]),
            value([L::Flex3, L::Dead, L::Dead, L::Dead]),
            value([L::Flex3, L::Flex3, L::Dead, L::Dead]),
            value([L::Block4, L::Flex3, L::Dead, L::Dead]),
            value([L::Flex4, L::Dead, L::Dead, L::Dead]),
            value([L::Five, L::Dead, L::Dead, L::Dead]),
        ];
        // From an open two up every stronger shape is worth more. A fitted table may value an
        // open two about like a dead cell (the two codes cover most empty cells, so they are
        // nearly collinear in the fit; the freestyle fit of the thirteenth session puts the
        // open two 5 units, about 1 % of a win, below), never far below.
        assert!(order[1] >= order[0] - 10, "{order:?}");
        assert!(order[1..].windows(2).all(|w| w[0] < w[1]), "{order:?}");
        // Renju: black's double four is a foul, worth less than white's.
        let r = EvalTables::for_rule(Rule::Renju);
        let packed = (L::Block4 as u16) | (L::Block4 as u16) << 4;
        assert!(r.cells.get(0, pcode(packed)) < r.cells.get(1, pcode(packed)));
    }
}
