//! Per-cell threat classes: the four line patterns of a cell combined into one class.

use super::line::LinePattern;
use super::rule::{Color, Rule};
use std::sync::OnceLock;

/// What a stone of one colour on an empty cell would make, over all four directions,
/// weakest first. Classes from [`ThreatClass::Block4`] up are forcing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum ThreatClass {
    /// Nothing notable.
    None = 0,
    /// Renju black: the move is (or, for a double three, may be) a foul. Fouls from an overline
    /// or a double four are certain; a double three needs [`crate::core::Board::is_forbidden`],
    /// which resolves false threes. A five always outranks this class.
    Forbid = 1,
    /// An open two.
    Flex2 = 2,
    /// A blocked three.
    Block3 = 3,
    /// Two open twos.
    Flex2x2 = 4,
    /// A blocked three with another blocked three or an open two.
    Block3Plus = 5,
    /// An open three.
    Flex3 = 6,
    /// An open three with a blocked three or an open two.
    Flex3Plus = 7,
    /// Two open threes (a win in two moves unless answered by fours).
    Flex3x2 = 8,
    /// A four.
    Block4 = 9,
    /// A four with a blocked three or an open two.
    Block4Plus = 10,
    /// A four and an open three (four-three).
    Block4Flex3 = 11,
    /// An open four or two fours: wins next move unless the opponent makes five first.
    Flex4 = 12,
    /// Five: wins now.
    Five = 13,
}

/// Number of threat classes.
pub const NUM_CLASSES: usize = 14;

impl ThreatClass {
    /// All classes, weakest first.
    pub const ALL: [ThreatClass; NUM_CLASSES] = [
        ThreatClass::None,
        ThreatClass::Forbid,
        ThreatClass::Flex2,
        ThreatClass::Block3,
        ThreatClass::Flex2x2,
        ThreatClass::Block3Plus,
        ThreatClass::Flex3,
        ThreatClass::Flex3Plus,
        ThreatClass::Flex3x2,
        ThreatClass::Block4,
        ThreatClass::Block4Plus,
        ThreatClass::Block4Flex3,
        ThreatClass::Flex4,
        ThreatClass::Five,
    ];

    /// The class with this code (codes out of range map to `None`).
    #[inline]
    pub const fn from_u8(v: u8) -> ThreatClass {
        if (v as usize) < NUM_CLASSES {
            Self::ALL[v as usize]
        } else {
            ThreatClass::None
        }
    }

    /// Makes a four (or better): the opponent must answer at once.
    #[inline]
    pub const fn is_four(self) -> bool {
        self as u8 >= ThreatClass::Block4 as u8
    }

    /// Makes at least an open three (or better), excluding the foul class.
    #[inline]
    pub const fn is_three_or_better(self) -> bool {
        self as u8 >= ThreatClass::Flex3 as u8
    }
}

/// Combines four directional patterns (one nibble each in `packed`, direction 0 lowest) into
/// the threat class of one colour under `rule`.
pub fn combine(rule: Rule, color: Color, packed: u16) -> ThreatClass {
    let mut fives = 0;
    let mut fours = 0;
    let mut flex4 = 0;
    let mut flex3 = 0;
    let mut block3 = 0;
    let mut flex2 = 0;
    let mut foul_line = false;
    for dir in 0..4 {
        match LinePattern::from_u8(((packed >> (4 * dir)) & 0xF) as u8) {
            LinePattern::Five => fives += 1,
            LinePattern::Flex4 => {
                flex4 += 1;
                fours += 1
            }
            LinePattern::Block4 => fours += 1,
            LinePattern::Flex3 | LinePattern::Flex3S => flex3 += 1,
            LinePattern::Block3 => block3 += 1,
            LinePattern::Flex2 | LinePattern::Flex2A | LinePattern::Flex2B => flex2 += 1,
            LinePattern::Overline | LinePattern::DoubleFour => foul_line = true,
            _ => {}
        }
    }
    if fives > 0 {
        return ThreatClass::Five;
    }
    if rule.has_fouls() && color == Color::Black && (foul_line || fours >= 2 || flex3 >= 2) {
        return ThreatClass::Forbid;
    }
    let support = block3 > 0 || flex2 > 0;
    if flex4 > 0 || fours >= 2 {
        ThreatClass::Flex4
    } else if fours == 1 && flex3 > 0 {
        ThreatClass::Block4Flex3
    } else if fours == 1 && support {
        ThreatClass::Block4Plus
    } else if fours == 1 {
        ThreatClass::Block4
    } else if flex3 >= 2 {
        ThreatClass::Flex3x2
    } else if flex3 == 1 && support {
        ThreatClass::Flex3Plus
    } else if flex3 == 1 {
        ThreatClass::Flex3
    } else if block3 >= 2 || (block3 == 1 && flex2 > 0) {
        ThreatClass::Block3Plus
    } else if flex2 >= 2 {
        ThreatClass::Flex2x2
    } else if block3 == 1 {
        ThreatClass::Block3
    } else if flex2 == 1 {
        ThreatClass::Flex2
    } else {
        ThreatClass::None
    }
}

/// Number of pattern codes: the unordered choices of four line patterns (one per direction)
/// out of the 15 [`LinePattern`]s, repetition allowed: C(18, 4).
pub const NUM_PCODES: usize = 3060;
/// Slots of a table indexed by pattern code: a power of two above [`NUM_PCODES`], so that a
/// masked code needs no bounds check (and no division).
pub const PCODE_SLOTS: usize = 4096;

/// The map from packed four-direction patterns to their pattern code: the same code for the
/// same four line patterns in any order of the directions (what a stone on the cell makes
/// does not depend on which line is which). Everything derived from a cell's patterns — its
/// threat class, an evaluation's value — is a table over these codes.
struct PcodeTable {
    code: Box<[u16; 1 << 16]>,
    patterns: Vec<[LinePattern; 4]>,
}

impl PcodeTable {
    fn get() -> &'static PcodeTable {
        static TABLE: OnceLock<PcodeTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            // Codes in the lexicographic order of the sorted quadruples.
            let mut index = std::collections::HashMap::new();
            let mut patterns = Vec::with_capacity(NUM_PCODES);
            for a in 0..15u8 {
                for b in a..15 {
                    for c in b..15 {
                        for d in c..15 {
                            index.insert([a, b, c, d], patterns.len() as u16);
                            patterns.push([a, b, c, d].map(LinePattern::from_u8));
                        }
                    }
                }
            }
            debug_assert_eq!(patterns.len(), NUM_PCODES);
            let code = (0..=u16::MAX)
                .map(|packed| {
                    let mut q = [0u8; 4];
                    for (dir, slot) in q.iter_mut().enumerate() {
                        *slot = LinePattern::from_u8(((packed >> (4 * dir)) & 0xF) as u8) as u8;
                    }
                    q.sort_unstable();
                    index[&q]
                })
                .collect::<Vec<u16>>()
                .into_boxed_slice()
                .try_into()
                .expect("one code per packed value");
            PcodeTable { code, patterns }
        })
    }
}

/// The pattern code of packed four-direction patterns (one nibble per direction).
#[inline]
pub fn pcode(packed: u16) -> u16 {
    PcodeTable::get().code[packed as usize]
}

/// The four line patterns of a pattern code, weakest first.
pub fn pcode_patterns(code: u16) -> [LinePattern; 4] {
    PcodeTable::get().patterns[code as usize]
}

/// A value per colour and pattern code, which the board sums over its empty cells as it
/// plays and takes back moves ([`crate::core::Board::value_sum`]). What the values mean is the
/// evaluation's business; the rules core only keeps the sums.
#[derive(Clone)]
pub struct CellValues {
    /// `values[colour][pcode]` (slots past [`NUM_PCODES`] unused).
    pub values: [[i16; PCODE_SLOTS]; 2],
}

impl CellValues {
    /// All values zero (a board's default: its sums stay zero).
    pub const ZERO: CellValues = CellValues {
        values: [[0; PCODE_SLOTS]; 2],
    };

    /// The value of `code` for colour index `c`.
    #[inline]
    pub fn get(&self, c: usize, code: u16) -> i32 {
        self.values[c & 1][code as usize & (PCODE_SLOTS - 1)] as i32
    }
}

/// The class a stone of either colour makes under one rule, by pattern code.
pub struct CombineTable {
    classes: [Box<[u8; PCODE_SLOTS]>; 2],
    pcodes: &'static [u16; 1 << 16],
}

impl CombineTable {
    /// The class of `color` for packed patterns.
    #[inline]
    pub fn get(&self, color: Color, packed: u16) -> ThreatClass {
        ThreatClass::from_u8(self.get_raw(color.index(), packed))
    }

    /// The class code of `color` for packed patterns (a valid [`ThreatClass`] code).
    #[inline]
    pub fn get_raw(&self, color_index: usize, packed: u16) -> u8 {
        self.of_pcode(color_index, self.pcodes[packed as usize])
    }

    /// The class code of `color` for a pattern code.
    #[inline]
    pub fn of_pcode(&self, color_index: usize, code: u16) -> u8 {
        self.classes[color_index & 1][code as usize & (PCODE_SLOTS - 1)]
    }

    /// The whole map from packed patterns to pattern codes.
    pub fn pcodes(&self) -> &'static [u16; 1 << 16] {
        self.pcodes
    }

    /// The pattern code of packed patterns (as [`pcode`], through this table's reference).
    #[inline]
    pub fn pcode(&self, packed: u16) -> u16 {
        self.pcodes[packed as usize]
    }

    /// The table for `rule`, built on first use.
    pub fn for_rule(rule: Rule) -> &'static CombineTable {
        static TABLES: [OnceLock<CombineTable>; 5] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        TABLES[rule.index()].get_or_init(|| {
            let codes = PcodeTable::get();
            let build = |color| {
                let mut classes = Box::new([0u8; PCODE_SLOTS]);
                for (code, p) in codes.patterns.iter().enumerate() {
                    let packed = p
                        .iter()
                        .enumerate()
                        .map(|(dir, &l)| (l as u16) << (4 * dir))
                        .sum();
                    classes[code] = combine(rule, color, packed) as u8;
                }
                classes
            };
            CombineTable {
                classes: [build(Color::Black), build(Color::White)],
                pcodes: &codes.code,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use LinePattern as L;

    fn pack(p: [LinePattern; 4]) -> u16 {
        p.iter()
            .enumerate()
            .map(|(d, &x)| (x as u16) << (4 * d))
            .sum()
    }

    #[test]
    fn classes_follow_the_strongest_combination() {
        let b = Color::Black;
        let w = Color::White;
        let c = |rule, color, p| CombineTable::for_rule(rule).get(color, pack(p));
        assert_eq!(
            c(Rule::Freestyle, b, [L::Dead, L::Five, L::Dead, L::Dead]),
            ThreatClass::Five
        );
        assert_eq!(
            c(Rule::Freestyle, b, [L::Block4, L::Block4, L::Dead, L::Dead]),
            ThreatClass::Flex4
        );
        assert_eq!(
            c(Rule::Renju, b, [L::Block4, L::Block4, L::Dead, L::Dead]),
            ThreatClass::Forbid
        );
        assert_eq!(
            c(Rule::Renju, w, [L::Block4, L::Block4, L::Dead, L::Dead]),
            ThreatClass::Flex4
        );
        assert_eq!(
            c(Rule::Renju, b, [L::Block4, L::Flex3, L::Dead, L::Dead]),
            ThreatClass::Block4Flex3
        );
        assert_eq!(
            c(Rule::Renju, b, [L::Flex3, L::Flex3S, L::Dead, L::Dead]),
            ThreatClass::Forbid
        );
        assert_eq!(
            c(Rule::Renju, b, [L::Overline, L::Five, L::Dead, L::Dead]),
            ThreatClass::Five
        );
        assert_eq!(
            c(Rule::Renju, b, [L::Overline, L::Dead, L::Dead, L::Dead]),
            ThreatClass::Forbid
        );
        assert_eq!(
            c(Rule::Freestyle, b, [L::Flex3, L::Flex3, L::Dead, L::Dead]),
            ThreatClass::Flex3x2
        );
        assert_eq!(
            c(Rule::Freestyle, b, [L::Flex3, L::Block3, L::Dead, L::Dead]),
            ThreatClass::Flex3Plus
        );
        assert_eq!(
            c(Rule::Freestyle, b, [L::Flex2, L::Dead, L::Dead, L::Dead]),
            ThreatClass::Flex2
        );
        assert_eq!(c(Rule::Freestyle, b, [L::Dead; 4]), ThreatClass::None);
    }

    /// Pattern codes ignore the order of the directions and tell different patterns apart.
    #[test]
    fn pattern_codes_are_order_free_and_exact() {
        let mut seen = std::collections::HashSet::new();
        for packed in 0..=u16::MAX {
            let code = pcode(packed);
            assert!((code as usize) < NUM_PCODES);
            let mut want: Vec<LinePattern> = (0..4)
                .map(|d| LinePattern::from_u8(((packed >> (4 * d)) & 0xF) as u8))
                .collect();
            want.sort();
            assert_eq!(pcode_patterns(code).to_vec(), want, "{packed:#06x}");
            let rotated = packed.rotate_left(4);
            assert_eq!(pcode(rotated), code);
            seen.insert(code);
        }
        assert_eq!(seen.len(), NUM_PCODES);
    }

    #[test]
    fn table_agrees_with_the_function() {
        for rule in Rule::ALL {
            let t = CombineTable::for_rule(rule);
            for p in (0..=u16::MAX).step_by(7) {
                for color in Color::BOTH {
                    assert_eq!(t.get(color, p), combine(rule, color, p));
                }
            }
        }
    }
}
