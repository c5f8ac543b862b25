//! `pbrain-tianyuan demo`, README's first command: two brains play through the protocol and
//! the board is shown as players read it (columns a–o, rows 1–15 from the bottom).

use std::process::Command;

#[test]
fn demo_plays_and_names_points_as_players_do() {
    let out = Command::new(env!("CARGO_BIN_EXE_pbrain-tianyuan"))
        .args(["demo", "--turn-ms", "80", "--max-moves", "4", "--rule", "4"])
        .output()
        .expect("run demo");
    assert!(out.status.success(), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.starts_with("Tianyuan demo: 15x15 renju"), "{text}");
    // Black opens on the centre, h8, which the wire calls 7,7.
    assert!(
        text.contains("Move 1: Black h8 (7,7 on the wire)"),
        "{text}"
    );
    assert!(
        text.contains("    a b c d e f g h i j k l m n o\n 15 . . ."),
        "{text}"
    );
    assert!(text.contains("Move 4: White"), "{text}");
    assert!(
        text.contains("Result: move limit reached after 4 moves."),
        "{text}"
    );
}
