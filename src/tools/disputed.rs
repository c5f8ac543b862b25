//! Source items in question: corpus lines whose stated answer the project disputes, so that
//! `solve` can report them apart from wrong answers. The list (`disputed.txt`, compiled in)
//! names each item with its reason; positions that no alternating game reaches are recognised
//! from their stone counts.

use crate::core::Color;
use crate::corpus::Record;

const LIST: &str = include_str!("disputed.txt");

/// Why `rec`'s stated answer is in question, if it is.
pub fn dispute(rec: &Record) -> Option<String> {
    let listed = LIST
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(' '))
        .find(|(id, _)| *id == rec.id)
        .map(|(_, reason)| reason.to_owned());
    listed.or_else(|| unreachable_counts(rec))
}

/// A position given by its stones whose counts no game with black first reaches: black to
/// move needs as many black stones as white, white to move one more black.
fn unreachable_counts(rec: &Record) -> Option<String> {
    let count = |key: &str| {
        rec.get(key)
            .map_or(0, |v| if v == "-" { 0 } else { v.split(',').count() })
    };
    // Only positions given by their stones (a move list alternates by construction).
    rec.get("black")?;
    let (black, white) = (count("black"), count("white"));
    let to_move = rec.color("tomove").ok().flatten()?;
    let reachable = match to_move {
        Color::Black => black == white,
        Color::White => black == white + 1,
    };
    (!reachable).then(|| {
        format!(
            "no game reaches it: {black} black and {white} white stones with {to_move:?} to move"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::parse_text;

    fn record(line: &str) -> Record {
        parse_text(line, "test").unwrap().remove(0)
    }

    #[test]
    fn listed_items_and_unreachable_counts_are_disputed() {
        let listed = record("lfz-tengu-124 rule=renju size=15 black=h8 white=- tomove=white");
        assert!(dispute(&listed).unwrap().contains("exhaustive"));
        let odd = record("x rule=renju size=15 black=h8,h9 white=i8,i9,i10 tomove=black");
        assert!(dispute(&odd).unwrap().contains("2 black and 3 white"));
        let fine = record("y rule=renju size=15 black=h8,h9 white=i8 tomove=white");
        assert_eq!(dispute(&fine), None);
        let fine = record("z rule=renju size=15 black=h8 white=i8 tomove=black");
        assert_eq!(dispute(&fine), None);
    }

    #[test]
    fn the_list_names_each_item_once_with_a_reason() {
        let mut ids = Vec::new();
        for line in LIST
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (id, reason) = line.split_once(' ').expect("id and reason");
            assert!(reason.len() > 20, "{id}: a reason, not a word");
            assert!(!ids.contains(&id), "{id} twice");
            ids.push(id);
        }
        assert!(!ids.is_empty());
    }
}
