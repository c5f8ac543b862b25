//! Move notations: Gomocup `x,y` (0-based, origin top-left) and renju notation `h8`
//! (column letter from `a`, row number counted from the bottom), as used by the corpora.

/// Parses renju notation (`h8`, `a15`) on a board `height` rows tall into Gomocup `(x, y)`.
pub fn parse_renju(text: &str, width: usize, height: usize) -> Option<(usize, usize)> {
    let text = text.trim();
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let x = (letter as u8 - b'a') as usize;
    let row: usize = chars.as_str().parse().ok()?;
    if x >= width || row == 0 || row > height {
        return None;
    }
    Some((x, height - row))
}

/// Formats Gomocup `(x, y)` in renju notation on a board `height` rows tall.
pub fn format_renju(x: usize, y: usize, height: usize) -> String {
    format!("{}{}", (b'a' + x as u8) as char, height - y)
}

/// Parses a comma-separated renju-notation list (`-` or empty = no moves).
pub fn parse_renju_list(text: &str, width: usize, height: usize) -> Option<Vec<(usize, usize)>> {
    if text.is_empty() || text == "-" {
        return Some(Vec::new());
    }
    text.split(',')
        .map(|m| parse_renju(m, width, height))
        .collect()
}

/// Parses a c-gomoku-cli / Rapfi `pos` string (`h8i9j10`: letter = x, number = y + 1 counted
/// from the top).
pub fn parse_pos_string(text: &str, width: usize, height: usize) -> Option<Vec<(usize, usize)>> {
    let bytes = text.trim().as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let letter = bytes[i].to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let number: usize = std::str::from_utf8(&bytes[start..i]).ok()?.parse().ok()?;
        let x = (letter - b'a') as usize;
        if number == 0 || x >= width || number > height {
            return None;
        }
        out.push((x, number - 1));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renju_notation_matches_the_corpora_table() {
        assert_eq!(parse_renju("h8", 15, 15), Some((7, 7)));
        assert_eq!(parse_renju("a15", 15, 15), Some((0, 0)));
        assert_eq!(parse_renju("a1", 15, 15), Some((0, 14)));
        assert_eq!(parse_renju("o1", 15, 15), Some((14, 14)));
        assert_eq!(parse_renju("k10", 20, 20), Some((10, 10)));
        assert_eq!(parse_renju("t1", 20, 20), Some((19, 19)));
        assert_eq!(parse_renju("p1", 15, 15), None);
        assert_eq!(parse_renju("a16", 15, 15), None);
        assert_eq!(format_renju(7, 7, 15), "h8");
        assert_eq!(
            parse_renju_list("h8,i9", 15, 15),
            Some(vec![(7, 7), (8, 6)])
        );
        assert_eq!(parse_renju_list("-", 15, 15), Some(vec![]));
    }

    #[test]
    fn pos_strings_count_rows_from_the_top() {
        assert_eq!(parse_pos_string("h8b3", 15, 15), Some(vec![(7, 7), (1, 2)]));
        assert_eq!(parse_pos_string("a10", 15, 15), Some(vec![(0, 9)]));
        assert_eq!(parse_pos_string("z1", 15, 15), None);
    }
}
