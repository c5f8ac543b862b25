//! The rule sets, chosen at run time.

use std::fmt;

/// Stone colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player.
    Black = 0,
    /// The second player.
    White = 1,
}

impl Color {
    /// The other colour.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white (index into per-colour arrays).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Both colours, black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];
}

/// A rule set. Every rule is a run-time value: one binary plays them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins (Gomocup rule 0).
    Freestyle,
    /// Exactly five wins; six or more is simply not a win (Gomocup rule 1).
    Standard,
    /// RIF renju (Gomocup rule 4): black needs exactly five and may not make a double three,
    /// double four or overline; white wins with five or more and has no fouls.
    Renju,
    /// Caro with overlines (Gomocup rule 8): six or more wins; an exact five wins unless both of
    /// its ends are opponent stones (the board edge is never a block).
    Caro8,
    /// Standard caro (Gomocup rule 9): only an exact five that is not blocked at both ends by
    /// opponent stones wins.
    Caro9,
}

impl Rule {
    /// Every rule, in Gomocup code order.
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro8,
        Rule::Caro9,
    ];

    /// Index into per-rule tables.
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 2,
            Rule::Caro8 => 3,
            Rule::Caro9 => 4,
        }
    }

    /// The rule of a Gomocup `INFO rule` code (bit 2 "continuous game" and Yixin's renju code 2
    /// are accepted; see protocol.md).
    pub fn from_gomocup_code(code: i64) -> Option<Rule> {
        match code {
            0 => Some(Rule::Freestyle),
            1 => Some(Rule::Standard),
            2 | 4 => Some(Rule::Renju),
            8 => Some(Rule::Caro8),
            9 => Some(Rule::Caro9),
            _ => None,
        }
    }

    /// The Gomocup code of this rule.
    pub const fn gomocup_code(self) -> i64 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro8 => 8,
            Rule::Caro9 => 9,
        }
    }

    /// Parses a rule name as used on the command line and in the corpora (`freestyle`,
    /// `standard`, `renju`, `caro8`, `caro9`) or a Gomocup code.
    pub fn parse(text: &str) -> Option<Rule> {
        match text.to_ascii_lowercase().as_str() {
            "freestyle" | "free" | "gomoku" => Some(Rule::Freestyle),
            "standard" | "exact" | "exact5" => Some(Rule::Standard),
            "renju" => Some(Rule::Renju),
            "caro8" | "caro" => Some(Rule::Caro8),
            "caro9" => Some(Rule::Caro9),
            other => other.parse::<i64>().ok().and_then(Rule::from_gomocup_code),
        }
    }

    /// Whether a five blocked at both ends by the opponent fails to win (caro): then two five
    /// points need not win, and a five can be stopped at the far end of its run.
    #[inline]
    pub const fn blocked_fives_fail(self) -> bool {
        matches!(self, Rule::Caro8 | Rule::Caro9)
    }

    /// Whether black has fouls (renju only).
    #[inline]
    pub const fn has_fouls(self) -> bool {
        matches!(self, Rule::Renju)
    }

    /// How far (in cells) a stone changes the line patterns of other cells. Freestyle needs
    /// four; the other rules look one cell further to see overlines and blocked ends.
    #[inline]
    pub const fn reach(self) -> usize {
        match self {
            Rule::Freestyle => 4,
            _ => 5,
        }
    }

    /// Whether a run of `len` stones of `color` through a move, with `ends_blocked_by_opponent`
    /// of its two end cells holding opponent stones, wins under this rule.
    #[inline]
    pub fn run_wins(self, color: Color, len: usize, ends_blocked_by_opponent: usize) -> bool {
        match self {
            Rule::Freestyle => len >= 5,
            Rule::Standard => len == 5,
            Rule::Renju => match color {
                Color::Black => len == 5,
                Color::White => len >= 5,
            },
            Rule::Caro8 => len >= 6 || (len == 5 && ends_blocked_by_opponent < 2),
            Rule::Caro9 => len == 5 && ends_blocked_by_opponent < 2,
        }
    }

    /// Whether a run this long is an overline foul for `color`.
    #[inline]
    pub fn is_overline_foul(self, color: Color, len: usize) -> bool {
        self == Rule::Renju && color == Color::Black && len >= 6
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro8 => "caro8",
            Rule::Caro9 => "caro9",
        };
        f.write_str(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for rule in Rule::ALL {
            assert_eq!(Rule::from_gomocup_code(rule.gomocup_code()), Some(rule));
            assert_eq!(Rule::parse(&rule.to_string()), Some(rule));
        }
        assert_eq!(Rule::from_gomocup_code(2), Some(Rule::Renju));
        assert_eq!(Rule::from_gomocup_code(3), None);
    }

    #[test]
    fn run_wins_per_rule() {
        use Color::*;
        assert!(Rule::Freestyle.run_wins(Black, 6, 0));
        assert!(!Rule::Standard.run_wins(White, 6, 0));
        assert!(Rule::Standard.run_wins(White, 5, 2));
        assert!(!Rule::Renju.run_wins(Black, 6, 0));
        assert!(Rule::Renju.run_wins(White, 6, 0));
        assert!(!Rule::Caro8.run_wins(Black, 5, 2));
        assert!(Rule::Caro8.run_wins(Black, 5, 1));
        assert!(Rule::Caro8.run_wins(Black, 6, 2));
        assert!(!Rule::Caro9.run_wins(Black, 6, 0));
        assert!(Rule::Caro9.run_wins(Black, 5, 1));
    }
}
