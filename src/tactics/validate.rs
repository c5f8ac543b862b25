//! Independent replay of a claimed winning line against the rules: every attacker move legal
//! and a threat of the required kind, every defender move legal (and the forced block where
//! there is only one), ending in a five or in a position with no defence.

use super::limits::Limits;
use super::moves::legal_stops;
use super::vcf::VcfSolver;
use crate::core::{Board, Color, MoveVerdict, Pos, ThreatClass};

/// What the attacker's moves must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreatKind {
    /// Fours only.
    Vcf,
    /// Fours, or moves after which (if the defender passed) the attacker would have a VCF of
    /// at most `threat_limit` fours (1 = open threes and other open-four points).
    Vct {
        /// The deepest VCF that makes a move a threat.
        threat_limit: u32,
    },
}

/// Replays `line` from `board` (attacker = side to move) and checks it. The board is returned
/// unchanged. `Err` says what is wrong at which ply.
pub fn validate_line(board: &mut Board, line: &[Pos], kind: ThreatKind) -> Result<(), String> {
    replay(board, line, kind).map_err(|(ply, fault)| {
        let m = line.get(ply).copied();
        match fault {
            Fault::Occupied => format!("ply {ply}: {m:?} is not an empty cell"),
            Fault::Foul => format!("ply {ply}: {m:?} is a foul"),
            Fault::EarlyFive => format!("ply {ply}: five before the end"),
            Fault::IgnoresFive(threat) => {
                format!("ply {ply}: {m:?} ignores the defender's five point {threat:?}")
            }
            Fault::NoThreat(class) => {
                format!("ply {ply}: {m:?} is not a {kind:?} threat ({class:?})")
            }
            Fault::Defended(why) => format!("ply {ply}: line ends but {why}"),
            Fault::DefenderFoul => format!("ply {ply}: defender's {m:?} is a foul"),
            Fault::DefenderFive => format!("ply {ply}: defender had a five point and did not win"),
            Fault::TwoFives => format!("ply {ply}: two five points were already on the board"),
            Fault::NotTheBlock(five) => {
                format!("ply {ply}: defender's {m:?} is not the forced block {five:?}")
            }
            Fault::NotAFour => format!("ply {ply}: the attacker's last move was not a four"),
            Fault::Unfinished => "the line is empty or ends with a defender move".into(),
        }
    })
}

/// Whether `line` still wins from `board`: [`validate_line`] without the explanation, cheap
/// enough to test many defender moves against one threat line.
pub fn line_holds(board: &mut Board, line: &[Pos], kind: ThreatKind) -> bool {
    replay(board, line, kind).is_ok()
}

/// What is wrong with a line.
enum Fault {
    Occupied,
    Foul,
    EarlyFive,
    IgnoresFive(Pos),
    NoThreat(ThreatClass),
    Defended(&'static str),
    DefenderFoul,
    DefenderFive,
    TwoFives,
    NotTheBlock(Pos),
    NotAFour,
    Unfinished,
}

/// The replay behind [`validate_line`] and [`line_holds`]: the first fault and its ply.
fn replay(board: &mut Board, line: &[Pos], kind: ThreatKind) -> Result<(), (usize, Fault)> {
    let attacker = board.side_to_move();
    let defender = attacker.opponent();
    let mut played = 0;
    let result = (|| {
        for (ply, &m) in line.iter().enumerate() {
            if !board.is_empty(m) {
                return Err((ply, Fault::Occupied));
            }
            if ply % 2 == 0 {
                // The attacker's move.
                match board.verdict(m) {
                    MoveVerdict::Foul => return Err((ply, Fault::Foul)),
                    MoveVerdict::Wins => {
                        return if ply + 1 == line.len() {
                            Ok(())
                        } else {
                            Err((ply, Fault::EarlyFive))
                        };
                    }
                    MoveVerdict::Continues => {}
                }
                if let Some(threat) = first_cell(board, defender, ThreatClass::Five) {
                    if !board.five_stoppers(defender).contains(&m) {
                        return Err((ply, Fault::IgnoresFive(threat)));
                    }
                }
                let class = board.threat(m, attacker);
                let four = (0..4).any(|d| board.line_pattern(m, attacker, d).is_four());
                board.make_move(m);
                played += 1;
                let ok = four
                    || match kind {
                        ThreatKind::Vcf => false,
                        ThreatKind::Vct { threat_limit } => {
                            // With the defender passing, the attacker must have a VCF.
                            board.pass();
                            let threat = VcfSolver::new(12).solve(
                                board,
                                threat_limit,
                                Limits::nodes(1_000_000),
                            );
                            board.pass();
                            threat.is_win()
                        }
                    };
                if !ok {
                    return Err((ply, Fault::NoThreat(class)));
                }
                if ply + 1 == line.len() {
                    return no_defence(board, attacker).map_err(|e| (ply, Fault::Defended(e)));
                }
            } else {
                // The defender's move: legal, and the forced block if the attacker has a four.
                if board.verdict(m) == MoveVerdict::Foul {
                    return Err((ply, Fault::DefenderFoul));
                }
                if board.has_five_point(defender) {
                    return Err((ply, Fault::DefenderFive));
                }
                if let Some(five) = first_cell(board, attacker, ThreatClass::Five) {
                    // The defender's stone must stop every five point. A VCF needs the stop to
                    // be forced (caro can leave a choice between a five point and an end).
                    let stoppers = board.five_stoppers(attacker);
                    if stoppers.is_empty() {
                        return Err((ply, Fault::TwoFives));
                    }
                    if !stoppers.contains(&m) || (kind == ThreatKind::Vcf && stoppers.len() > 1) {
                        return Err((ply, Fault::NotTheBlock(five)));
                    }
                } else if kind == ThreatKind::Vcf {
                    return Err((ply, Fault::NotAFour));
                }
                board.make_move(m);
                played += 1;
            }
        }
        Err((line.len(), Fault::Unfinished))
    })();
    for _ in 0..played {
        board.undo();
    }
    result
}

/// After the attacker's last move: the defender cannot stop a five.
fn no_defence(board: &mut Board, attacker: Color) -> Result<(), &'static str> {
    let defender = attacker.opponent();
    if board.has_five_point(defender) {
        return Err("the defender can make five");
    }
    if !board.has_five_point(attacker) {
        return Err("the attacker threatens no five");
    }
    // Every stone that would stop the fives must be a renju foul for the defender.
    if legal_stops(board, attacker, defender).is_empty() {
        Ok(())
    } else {
        Err("the defender can stop the five points")
    }
}

fn first_cell(board: &Board, color: Color, class: ThreatClass) -> Option<Pos> {
    board.threat_cells(color, class).first()
}
