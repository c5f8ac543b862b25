//! Reader for the test-position corpora line format (`../shared/corpora/README.md`):
//! `ID key=value key=value …`, `#` comments, renju-notation coordinates.

use crate::core::notation::{parse_renju, parse_renju_list};
use crate::core::{Board, Color, Pos, Rule};
use anyhow::{anyhow, bail, Context, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One corpus line.
#[derive(Clone, Debug)]
pub struct Record {
    /// The line's unique id (first token).
    pub id: String,
    /// Every `key=value` field.
    pub fields: HashMap<String, String>,
    /// File and line number, for messages.
    pub origin: String,
}

impl Record {
    /// Parses one non-comment line.
    pub fn parse(line: &str, origin: String) -> Result<Record> {
        let mut tokens = line.split_whitespace();
        let id = tokens
            .next()
            .ok_or_else(|| anyhow!("{origin}: empty line"))?
            .to_string();
        let mut fields = HashMap::new();
        for t in tokens {
            let (k, v) = t
                .split_once('=')
                .ok_or_else(|| anyhow!("{origin}: token without '=': {t}"))?;
            fields.insert(k.to_string(), v.to_string());
        }
        Ok(Record { id, fields, origin })
    }

    /// A field's value.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields.get(key).map(String::as_str)
    }

    /// A field that must be present.
    pub fn require(&self, key: &str) -> Result<&str> {
        self.get(key)
            .ok_or_else(|| anyhow!("{} ({}): missing `{key}=`", self.id, self.origin))
    }

    /// The rule named by `rule=`.
    pub fn rule(&self) -> Result<Rule> {
        let name = self.require("rule")?;
        Rule::parse(name).ok_or_else(|| anyhow!("{}: unknown rule {name}", self.id))
    }

    /// The board size from `size=` (15 when absent).
    pub fn size(&self) -> Result<usize> {
        self.get("size").map_or(Ok(15), |s| {
            s.parse().with_context(|| format!("{}: bad size", self.id))
        })
    }

    /// A list of points in renju notation, as Gomocup `(x, y)`.
    pub fn points(&self, key: &str) -> Result<Vec<(usize, usize)>> {
        let size = self.size()?;
        let text = self.get(key).unwrap_or("-");
        parse_renju_list(text, size, size)
            .ok_or_else(|| anyhow!("{}: bad point list in {key}=", self.id))
    }

    /// One point in renju notation.
    pub fn point(&self, text: &str) -> Result<Pos> {
        let size = self.size()?;
        let (x, y) = parse_renju(text, size, size)
            .ok_or_else(|| anyhow!("{}: bad point {text}", self.id))?;
        Ok(Pos::new(x, y))
    }

    /// The side named by `key` (`black` / `white`).
    pub fn color(&self, key: &str) -> Result<Option<Color>> {
        match self.get(key) {
            None => Ok(None),
            Some("black") => Ok(Some(Color::Black)),
            Some("white") => Ok(Some(Color::White)),
            Some(other) => bail!("{}: bad colour {other} in {key}=", self.id),
        }
    }

    /// The position: `moves=` played in order when present, otherwise `black=` and `white=`
    /// placed; the side to move is `tomove=` when given, else follows from the stone counts.
    pub fn board(&self) -> Result<Board> {
        let size = self.size()?;
        let mut board =
            Board::new(size, size, self.rule()?).map_err(|e| anyhow!("{}: {e}", self.id))?;
        if self.get("moves").is_some_and(|m| m != "-") && self.get("black").is_none() {
            for (x, y) in self.points("moves")? {
                board
                    .try_play(x, y)
                    .map_err(|e| anyhow!("{}: move {x},{y}: {e}", self.id))?;
            }
        } else {
            let black = self.points("black")?;
            let white = self.points("white")?;
            for (list, color) in [(&black, Color::Black), (&white, Color::White)] {
                for &(x, y) in list.iter() {
                    let p = Pos::new(x, y);
                    if !board.is_empty(p) {
                        bail!("{}: stone {x},{y} listed twice", self.id);
                    }
                    board.place(p, color);
                }
            }
            let to_move = match self.color("tomove")? {
                Some(c) => c,
                None if black.len() > white.len() => Color::White,
                None => Color::Black,
            };
            if board.side_to_move() != to_move {
                board.pass();
            }
        }
        Ok(board)
    }
}

/// The corpora folder beside the project root (`../shared/corpora`).
pub fn corpora_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
        .join("corpora")
}

/// Reads every record of one corpus file.
pub fn read_file(path: &Path) -> Result<Vec<Record>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read corpus file {}", path.display()))?;
    parse_text(&text, &path.display().to_string())
}

/// Reads `../shared/corpora/<sub>/<name>`. Fails loudly if the file is missing or holds no
/// records.
pub fn read_corpus(sub: &str, name: &str) -> Result<Vec<Record>> {
    let path = corpora_dir().join(sub).join(name);
    let records = read_file(&path).context("is ../shared/corpora beside the project?")?;
    if records.is_empty() {
        bail!("corpus file {} holds no records", path.display());
    }
    Ok(records)
}

/// Parses corpus text (`name` labels messages).
pub fn parse_text(text: &str, name: &str) -> Result<Vec<Record>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| Record::parse(l, format!("{name}:{}", i + 1)))
        .collect()
}

/// Reads every `.txt` file of a corpus sub-folder (sorted by name). Fails loudly if the
/// folder is missing or holds no records.
pub fn read_dir(sub: &str) -> Result<Vec<Record>> {
    let dir = corpora_dir().join(sub);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| {
            format!(
                "corpus folder {} is missing (expected ../shared/corpora beside the project)",
                dir.display()
            )
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        out.extend(read_file(&f)?);
    }
    if out.is_empty() {
        bail!("corpus folder {} holds no records", dir.display());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_fields_and_positions() {
        let text =
            "# comment\nx1 rule=renju size=15 black=h8,i9 white=h9 tomove=white query=j10:33\n";
        let recs = parse_text(text, "t").unwrap();
        assert_eq!(recs.len(), 1);
        let r = &recs[0];
        assert_eq!(r.id, "x1");
        assert_eq!(r.get("query"), Some("j10:33"));
        let b = r.board().unwrap();
        assert_eq!(b.stone_count(), 3);
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(b.stone(Pos::new(7, 7)), Some(Color::Black));
        assert_eq!(b.stone(Pos::new(7, 6)), Some(Color::White));
        assert!(parse_text("bad rule=renju junk", "t").is_err());
    }
}
