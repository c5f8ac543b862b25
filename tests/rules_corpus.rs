//! The rules core against the externally authored renju forbidden-point corpus and the
//! freestyle / standard outcome corpus (`../shared/corpora/forbidden/`).

use tianyuan::core::renju::Foul;
use tianyuan::core::{Color, ThreatClass};
use tianyuan::corpus::read_dir;

#[test]
fn forbidden_corpus_every_verdict_and_complete_map() {
    let records = read_dir("forbidden").expect("corpus");
    let mut verdicts = 0;
    let mut complete_maps = 0;
    let mut failures = Vec::new();
    for rec in &records {
        let mut board = rec.board().expect("position");
        let check = rec.color("check").unwrap().unwrap_or(Color::Black);
        let queries = rec.get("query").unwrap_or("-");
        let mut listed_forbidden = Vec::new();
        for q in queries.split(',').filter(|q| !q.is_empty() && *q != "-") {
            let (point, verdict) = q.split_once(':').expect("point:verdict");
            let p = rec.point(point).unwrap();
            verdicts += 1;
            let forbidden = check == Color::Black && board.is_forbidden(p);
            let foul = if check == Color::Black {
                board.foul_kind(p)
            } else {
                None
            };
            let five = board.threat(p, check) == ThreatClass::Five;
            let ok = match verdict {
                "forbidden" => forbidden,
                "33" => foul == Some(Foul::DoubleThree),
                "44" => foul == Some(Foul::DoubleFour),
                "overline" => foul == Some(Foul::Overline),
                "legal" => !forbidden && board.is_empty(p),
                "five" => five && !forbidden,
                "nowin" => !five,
                other => panic!("{}: unknown verdict {other}", rec.id),
            };
            if !ok {
                failures.push(format!(
                    "{} {point}: expected {verdict}, got foul={foul:?} five={five}",
                    rec.id
                ));
            }
            if matches!(verdict, "forbidden" | "33" | "44" | "overline") {
                listed_forbidden.push(p);
            }
        }
        if rec.get("complete") == Some("yes") {
            complete_maps += 1;
            let mut want = listed_forbidden.clone();
            want.sort();
            let got = board.forbidden_points();
            if got != want {
                failures.push(format!(
                    "{}: forbidden map {got:?} != listed {want:?}",
                    rec.id
                ));
            }
        }
        board.check_consistency().unwrap();
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The corpus README lists 70 positions with 147 point verdicts and 13 complete maps.
    assert_eq!(records.len(), 70, "positions read");
    assert_eq!(verdicts, 147, "verdicts read");
    assert_eq!(complete_maps, 13);
}
