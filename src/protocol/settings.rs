//! Game settings received through `INFO key value` (protocol-reference §4).
//!
//! [`Settings::apply`] never fails loudly: unknown keys and invalid values are ignored, because a brain
//! must never answer an `INFO` line (protocol-reference §3.7). Keys are case-insensitive.
//!
//! ## Keys, units and defaults (when the key never arrives)
//!
//! | Key | Unit | Stored as | Default when missing |
//! |---|---|---|---|
//! | `timeout_turn` | ms, 0 = move at once | [`Settings::timeout_turn`] | `None`: see [`crate::search::timeman`] (no per-move cap if match time is known, else 5 s) |
//! | `timeout_match` | ms, 0 = unlimited | [`Settings::timeout_match`] | `None` = unlimited |
//! | `time_left` | ms, may be negative, 2147483647 = unlimited | [`Settings::time_left`] | `None`: fall back to `timeout_match` |
//! | `max_memory` | bytes, 0 = unlimited | [`Settings::max_memory`] | `None`: [`Settings::memory_limit`] assumes Gomocup's 350 MiB ([`DEFAULT_MAX_MEMORY`]) |
//! | `game_type` | 0 human, 1 brain, 2 tournament, 3 network tournament | [`Settings::game_type`] | `None` (treated like 1) |
//! | `rule` | bitmask, see [`RuleCode`] | [`Settings::rule`] | freestyle (code 0); an unrecognised code keeps the current rule |
//! | `evaluate` | `x,y` | [`Settings::evaluate`] | `None`; never print anything for it |
//! | `folder` | path, rest of line, may contain spaces | [`Settings::folder`] | `None`: keep no persistent files |
//! | `max_depth` | plies | [`Settings::max_depth`] | `None` = unlimited (≤ 0 also means unlimited) |
//! | `max_node` | nodes, −1 = unlimited | [`Settings::max_node`] | `None` = unlimited (≤ 0 also means unlimited) |
//! | `thread_num` | threads | [`Settings::thread_num`] | `None`: single thread (Gomocup's rules on threads are unclear, §7.2); the search uses at most the machine's logical processors |
//! | `hash_size` | KiB (Yixin) | [`Settings::hash_size_kib`] | `None`: size the table from `max_memory` |
//! | `time_increment` | ms (Yixin) | [`Settings::time_increment`] | 0 |
//! | `caution_factor`, `pondering`, `vcthread`, `thread_split_depth`, `show_detail`, `usedatabase`, `nbestsym`, `start_depth`, `database_readonly`, `checkmate` | integers (Yixin GUI knobs) | [`Settings::yixin`] | `None` each; stored; `show_detail` ≥ 2 adds Yixin-Board's analysis lines to the search's reports, the others are not acted upon |
//! | anything else | – | [`Settings::extra`] (first [`MAX_EXTRA_KEYS`] keys) | ignored (c-gomoku-cli `option.KEY=VALUE` lands here) |
//!
//! Settings survive `START`/`RESTART`: Yixin-Board sends its `INFO` block only once at start-up and
//! again on level changes, then `start N` before every position. Call [`Settings::new_game`] on
//! `START`/`RESTART`, which only forgets `time_left` (stale from the previous game).

use std::collections::BTreeMap;

use super::command::{parse_coord, parse_int, Coord};

/// `time_left` value that means "no match limit" (c-gomoku-cli sends `INT32_MAX` when match time is 0).
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;

/// Memory limit assumed when `max_memory` never arrives: Gomocup's 350 MiB.
pub const DEFAULT_MAX_MEMORY: u64 = 367_001_600;

/// At most this many unknown keys are kept in [`Settings::extra`].
pub const MAX_EXTRA_KEYS: usize = 64;

/// The rule family, independent of the rules core's own type (the session maps it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RuleKind {
    /// Five or more in a row wins (code 0).
    #[default]
    Freestyle,
    /// Exactly five wins; an overline is not a win (code 1).
    Standard,
    /// Renju: black's double-three, double-four and overline are fouls (codes 4, Yixin's 2).
    Renju,
    /// Caro with overlines (code 8): 6+ wins; a five blocked by the opponent at both ends does not.
    Caro8,
    /// Standard caro (code 9): only an exact five not blocked by the opponent at both ends wins.
    Caro9,
}

impl RuleKind {
    /// The canonical Gomocup code to send to another brain (renju = 4, not Yixin's 2).
    pub fn gomocup_code(self) -> i64 {
        match self {
            RuleKind::Freestyle => 0,
            RuleKind::Standard => 1,
            RuleKind::Renju => 4,
            RuleKind::Caro8 => 8,
            RuleKind::Caro9 => 9,
        }
    }
}

/// A decoded `INFO rule` value.
///
/// | Code | Meaning |
/// |---|---|
/// | 0 | freestyle |
/// | 1 | standard (exact five) |
/// | 2 | renju (Yixin-Board / Rapfi convention; Piskvork's "continuous freestyle" is never used) |
/// | 3 | standard + continuous (bit 2) |
/// | 4, 5 | renju (bit 4; bit 1 is implied by renju) |
/// | 6, 7 | renju + continuous |
/// | 8 | caro with overlines |
/// | 9 | standard caro (exact five) |
/// | 10, 11 | caro 8 / 9 + continuous |
/// | anything else (negative, 12+) | not recognised: keep the current rule |
///
/// The continuous-game flag is reported but the engine plays normally (Gomocup never uses it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RuleCode {
    /// The number that was sent.
    pub raw: i64,
    /// The rule family.
    pub kind: RuleKind,
    /// Bit 2 ("continuous game") was set (never for code 2, which is renju).
    pub continuous: bool,
}

impl RuleCode {
    /// Decodes a rule code; `None` if it is not recognised.
    pub fn from_raw(raw: i64) -> Option<RuleCode> {
        let continuous = raw != 2 && raw & 2 != 0;
        let kind = match raw {
            0 | 1 | 3 => {
                if raw & 1 != 0 {
                    RuleKind::Standard
                } else {
                    RuleKind::Freestyle
                }
            }
            2 | 4..=7 => RuleKind::Renju,
            8 | 10 => RuleKind::Caro8,
            9 | 11 => RuleKind::Caro9,
            _ => return None,
        };
        Some(RuleCode {
            raw,
            kind,
            continuous,
        })
    }
}

impl Default for RuleCode {
    fn default() -> Self {
        RuleCode {
            raw: 0,
            kind: RuleKind::Freestyle,
            continuous: false,
        }
    }
}

/// Yixin-Board GUI knobs (protocol-reference §4). Stored for completeness; the engine may ignore them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct YixinKnobs {
    /// `caution_factor`.
    pub caution_factor: Option<i64>,
    /// `pondering` (0/1).
    pub pondering: Option<i64>,
    /// `vcthread`.
    pub vcthread: Option<i64>,
    /// `thread_split_depth`.
    pub thread_split_depth: Option<i64>,
    /// `show_detail` (≥ 2: the GUI wants its analysis lines, `MESSAGE REALTIME BEST` and
    /// `INFO PV …`).
    pub show_detail: Option<i64>,
    /// `usedatabase`.
    pub usedatabase: Option<i64>,
    /// `nbestsym`.
    pub nbestsym: Option<i64>,
    /// `start_depth`.
    pub start_depth: Option<i64>,
    /// `database_readonly`.
    pub database_readonly: Option<i64>,
    /// `checkmate`.
    pub checkmate: Option<i64>,
}

/// Which known key an `INFO` line set (returned by [`Settings::apply`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InfoKey {
    /// `timeout_turn`.
    TimeoutTurn,
    /// `timeout_match`.
    TimeoutMatch,
    /// `time_left`.
    TimeLeft,
    /// `max_memory`.
    MaxMemory,
    /// `game_type`.
    GameType,
    /// `rule`.
    Rule,
    /// `evaluate`.
    Evaluate,
    /// `folder`.
    Folder,
    /// `max_depth`.
    MaxDepth,
    /// `max_node`.
    MaxNode,
    /// `thread_num`.
    ThreadNum,
    /// `hash_size`.
    HashSize,
    /// `time_increment`.
    TimeIncrement,
    /// One of the [`YixinKnobs`].
    Yixin,
}

/// What [`Settings::apply`] did with an `INFO` line. Nothing of it is ever sent to the manager.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InfoOutcome {
    /// A known key was updated.
    Applied(InfoKey),
    /// A known key with an unusable value; the previous value is kept.
    Invalid(InfoKey),
    /// An unknown key (kept in [`Settings::extra`] if there is room).
    Unknown,
}

/// Everything learnt from `INFO` lines. `None` means "never received" (see the module table for what
/// that implies).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings {
    /// `timeout_turn` in ms (0 = move at once; negative values are stored and treated as 0).
    pub timeout_turn: Option<i64>,
    /// `timeout_match` in ms (0 or negative = unlimited).
    pub timeout_match: Option<i64>,
    /// `time_left` in ms (negative = already over; ≥ 2147483647 = unlimited).
    pub time_left: Option<i64>,
    /// `max_memory` in bytes (0 = unlimited).
    pub max_memory: Option<u64>,
    /// `game_type` (0 human, 1 brain, 2 tournament, 3 network tournament).
    pub game_type: Option<i64>,
    /// The current rule (default freestyle).
    pub rule: RuleCode,
    /// Last `evaluate` position (GUI mouse; debug only, never answered).
    pub evaluate: Option<Coord>,
    /// `folder` for persistent files (rest of the line, spaces kept).
    pub folder: Option<String>,
    /// `max_depth` (positive) — `None` = unlimited.
    pub max_depth: Option<i64>,
    /// `max_node` (positive) — `None` = unlimited.
    pub max_node: Option<i64>,
    /// `thread_num` (≥ 1).
    pub thread_num: Option<i64>,
    /// Yixin `hash_size` in KiB (≥ 0; 0 = engine default).
    pub hash_size_kib: Option<i64>,
    /// Yixin `time_increment` in ms added after each move (default 0).
    pub time_increment: i64,
    /// Other Yixin GUI knobs.
    pub yixin: YixinKnobs,
    /// Unknown keys and their raw values (at most [`MAX_EXTRA_KEYS`] distinct keys).
    pub extra: BTreeMap<String, String>,
}

impl Settings {
    /// Settings with every key at its default.
    pub fn new() -> Self {
        Settings::default()
    }

    /// Forgets what must not leak into a new game (`time_left`). Call on `START` and `RESTART`.
    pub fn new_game(&mut self) {
        self.time_left = None;
    }

    /// Applies one `INFO key value` line. `key` is matched case-insensitively; `value` is the rest of
    /// the line. Unknown keys and bad values are ignored (reported in the return value only).
    pub fn apply(&mut self, key: &str, value: &str) -> InfoOutcome {
        let key_lc = key.trim().to_ascii_lowercase();
        let value = value.trim();
        let int = parse_int(value);
        let set_int = |slot: &mut Option<i64>, k: InfoKey, ok: fn(i64) -> bool| match int {
            Some(v) if ok(v) => {
                *slot = Some(v);
                InfoOutcome::Applied(k)
            }
            _ => InfoOutcome::Invalid(k),
        };
        match key_lc.as_str() {
            "timeout_turn" => set_int(&mut self.timeout_turn, InfoKey::TimeoutTurn, |_| true),
            "timeout_match" => set_int(&mut self.timeout_match, InfoKey::TimeoutMatch, |_| true),
            "time_left" => set_int(&mut self.time_left, InfoKey::TimeLeft, |_| true),
            "game_type" => set_int(&mut self.game_type, InfoKey::GameType, |_| true),
            "max_memory" => match int.and_then(|v| u64::try_from(v).ok()) {
                Some(v) => {
                    self.max_memory = Some(v);
                    InfoOutcome::Applied(InfoKey::MaxMemory)
                }
                None => InfoOutcome::Invalid(InfoKey::MaxMemory),
            },
            "rule" => match int.and_then(RuleCode::from_raw) {
                Some(code) => {
                    self.rule = code;
                    InfoOutcome::Applied(InfoKey::Rule)
                }
                None => InfoOutcome::Invalid(InfoKey::Rule),
            },
            "evaluate" => match parse_coord(value) {
                Some(c) => {
                    self.evaluate = Some(c);
                    InfoOutcome::Applied(InfoKey::Evaluate)
                }
                None => InfoOutcome::Invalid(InfoKey::Evaluate),
            },
            "folder" => {
                if value.is_empty() {
                    InfoOutcome::Invalid(InfoKey::Folder)
                } else {
                    self.folder = Some(value.to_owned());
                    InfoOutcome::Applied(InfoKey::Folder)
                }
            }
            "max_depth" => match int {
                Some(v) => {
                    self.max_depth = (v > 0).then_some(v);
                    InfoOutcome::Applied(InfoKey::MaxDepth)
                }
                None => InfoOutcome::Invalid(InfoKey::MaxDepth),
            },
            "max_node" => match int {
                Some(v) => {
                    self.max_node = (v > 0).then_some(v);
                    InfoOutcome::Applied(InfoKey::MaxNode)
                }
                None => InfoOutcome::Invalid(InfoKey::MaxNode),
            },
            "thread_num" => set_int(&mut self.thread_num, InfoKey::ThreadNum, |v| v >= 1),
            "hash_size" => set_int(&mut self.hash_size_kib, InfoKey::HashSize, |v| v >= 0),
            "time_increment" => match int {
                Some(v) if v >= 0 => {
                    self.time_increment = v;
                    InfoOutcome::Applied(InfoKey::TimeIncrement)
                }
                _ => InfoOutcome::Invalid(InfoKey::TimeIncrement),
            },
            "caution_factor" | "pondering" | "vcthread" | "thread_split_depth" | "show_detail"
            | "usedatabase" | "nbestsym" | "start_depth" | "database_readonly" | "checkmate" => {
                let y = &mut self.yixin;
                let slot = match key_lc.as_str() {
                    "caution_factor" => &mut y.caution_factor,
                    "pondering" => &mut y.pondering,
                    "vcthread" => &mut y.vcthread,
                    "thread_split_depth" => &mut y.thread_split_depth,
                    "show_detail" => &mut y.show_detail,
                    "usedatabase" => &mut y.usedatabase,
                    "nbestsym" => &mut y.nbestsym,
                    "start_depth" => &mut y.start_depth,
                    "database_readonly" => &mut y.database_readonly,
                    _ => &mut y.checkmate,
                };
                set_int(slot, InfoKey::Yixin, |_| true)
            }
            _ => {
                if !key_lc.is_empty()
                    && (self.extra.len() < MAX_EXTRA_KEYS || self.extra.contains_key(&key_lc))
                {
                    self.extra.insert(key_lc, value.to_owned());
                }
                InfoOutcome::Unknown
            }
        }
    }

    /// The current rule family.
    pub fn rule_kind(&self) -> RuleKind {
        self.rule.kind
    }

    /// The memory limit in bytes: `None` if unlimited (`max_memory 0`), [`DEFAULT_MAX_MEMORY`] if the
    /// key never arrived.
    pub fn memory_limit(&self) -> Option<u64> {
        match self.max_memory {
            None => Some(DEFAULT_MAX_MEMORY),
            Some(0) => None,
            Some(v) => Some(v),
        }
    }

    /// Number of search threads to use: `thread_num` if given, else 1.
    pub fn threads(&self) -> usize {
        self.thread_num
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(1)
            .max(1)
    }

    /// True when the manager asked to "move now" by sending `INFO timeout_turn 0` (Piskvork's GUI stop
    /// trick, protocol-reference §4). Check it after applying an `INFO timeout_turn` during a search.
    pub fn stop_requested(&self) -> bool {
        matches!(self.timeout_turn, Some(t) if t <= 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_keys() {
        let mut s = Settings::new();
        assert_eq!(
            s.apply("timeout_turn", "30000"),
            InfoOutcome::Applied(InfoKey::TimeoutTurn)
        );
        assert_eq!(s.timeout_turn, Some(30000));
        s.apply("TIMEOUT_MATCH", "180000");
        assert_eq!(s.timeout_match, Some(180000));
        s.apply("time_left", "2147483647");
        assert_eq!(s.time_left, Some(UNLIMITED_TIME_LEFT));
        s.apply("time_left", "-150");
        assert_eq!(s.time_left, Some(-150));
        assert_eq!(
            s.apply("time_left", "soon"),
            InfoOutcome::Invalid(InfoKey::TimeLeft)
        );
        assert_eq!(s.time_left, Some(-150), "invalid value keeps the old one");
        assert!(!s.stop_requested());
        s.apply("timeout_turn", "0");
        assert!(s.stop_requested());
        s.new_game();
        assert_eq!(s.time_left, None);
        assert_eq!(s.timeout_match, Some(180000), "new_game keeps the limits");
    }

    #[test]
    fn memory_and_threads() {
        let mut s = Settings::new();
        assert_eq!(s.memory_limit(), Some(DEFAULT_MAX_MEMORY));
        s.apply("max_memory", "0");
        assert_eq!(s.memory_limit(), None);
        s.apply("max_memory", "83886080");
        assert_eq!(s.memory_limit(), Some(83_886_080));
        assert_eq!(
            s.apply("max_memory", "-5"),
            InfoOutcome::Invalid(InfoKey::MaxMemory)
        );
        assert_eq!(s.memory_limit(), Some(83_886_080));
        assert_eq!(s.threads(), 1);
        s.apply("thread_num", "4");
        assert_eq!(s.threads(), 4);
        assert_eq!(
            s.apply("thread_num", "0"),
            InfoOutcome::Invalid(InfoKey::ThreadNum)
        );
        assert_eq!(s.threads(), 4);
    }

    #[test]
    fn rule_codes() {
        let k = |raw| RuleCode::from_raw(raw).map(|c| (c.kind, c.continuous));
        assert_eq!(k(0), Some((RuleKind::Freestyle, false)));
        assert_eq!(k(1), Some((RuleKind::Standard, false)));
        assert_eq!(k(2), Some((RuleKind::Renju, false)));
        assert_eq!(k(3), Some((RuleKind::Standard, true)));
        assert_eq!(k(4), Some((RuleKind::Renju, false)));
        assert_eq!(k(5), Some((RuleKind::Renju, false)));
        assert_eq!(k(6), Some((RuleKind::Renju, true)));
        assert_eq!(k(8), Some((RuleKind::Caro8, false)));
        assert_eq!(k(9), Some((RuleKind::Caro9, false)));
        assert_eq!(k(10), Some((RuleKind::Caro8, true)));
        assert_eq!(k(11), Some((RuleKind::Caro9, true)));
        assert_eq!(k(12), None);
        assert_eq!(k(16), None);
        assert_eq!(k(-1), None);
        for kind in [
            RuleKind::Freestyle,
            RuleKind::Standard,
            RuleKind::Renju,
            RuleKind::Caro8,
            RuleKind::Caro9,
        ] {
            assert_eq!(k(kind.gomocup_code()), Some((kind, false)));
        }
    }

    #[test]
    fn rule_info_keeps_current_on_unknown_code() {
        let mut s = Settings::new();
        assert_eq!(s.rule_kind(), RuleKind::Freestyle);
        s.apply("rule", "4");
        assert_eq!(s.rule_kind(), RuleKind::Renju);
        assert_eq!(s.apply("rule", "13"), InfoOutcome::Invalid(InfoKey::Rule));
        assert_eq!(
            s.apply("rule", "renju"),
            InfoOutcome::Invalid(InfoKey::Rule)
        );
        assert_eq!(s.rule_kind(), RuleKind::Renju);
        s.apply("Rule", "1");
        assert_eq!(s.rule_kind(), RuleKind::Standard);
    }

    #[test]
    fn folder_evaluate_and_misc() {
        let mut s = Settings::new();
        s.apply("folder", "C:\\My Documents\\ai data");
        assert_eq!(s.folder.as_deref(), Some("C:\\My Documents\\ai data"));
        s.apply("evaluate", "3 , 4");
        assert_eq!(s.evaluate, Some(Coord::new(3, 4)));
        s.apply("game_type", "3");
        assert_eq!(s.game_type, Some(3));
        s.apply("max_node", "-1");
        assert_eq!(s.max_node, None);
        s.apply("max_node", "100000");
        assert_eq!(s.max_node, Some(100000));
        s.apply("max_depth", "12");
        assert_eq!(s.max_depth, Some(12));
        s.apply("hash_size", "1048576");
        assert_eq!(s.hash_size_kib, Some(1 << 20));
        s.apply("time_increment", "2000");
        assert_eq!(s.time_increment, 2000);
        s.apply("caution_factor", "2");
        s.apply("show_detail", "3");
        assert_eq!(s.yixin.caution_factor, Some(2));
        assert_eq!(s.yixin.show_detail, Some(3));
    }

    #[test]
    fn unknown_keys_are_ignored_but_bounded() {
        let mut s = Settings::new();
        let before = s.clone();
        assert_eq!(s.apply("some_option", "x y"), InfoOutcome::Unknown);
        assert_eq!(s.extra.get("some_option").map(String::as_str), Some("x y"));
        let mut t = s.clone();
        t.extra.clear();
        assert_eq!(t, before, "unknown key must not touch known settings");
        for i in 0..(MAX_EXTRA_KEYS * 2) {
            s.apply(&format!("k{i}"), "1");
        }
        assert_eq!(s.extra.len(), MAX_EXTRA_KEYS);
        assert_eq!(s.apply("", ""), InfoOutcome::Unknown);
    }
}
