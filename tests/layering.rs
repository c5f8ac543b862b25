//! The crate's dependencies point one way: core, then tactics, evaluation, search, player, then
//! the protocol and the tools; and no two modules under one parent import each other, directly
//! or round a circle. Read from the sources (`use` lines and paths in code, not comments, and
//! not the unit tests at the end of a file). `cargo test --test layering -- --nocapture`
//! prints the graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first; a module may use its own layer and those before it. `corpus`
/// reads test positions into core boards and sits with the core.
const LAYERS: [&[&str]; 7] = [
    &["core", "corpus"],
    &["tactics"],
    &["eval"],
    &["search"],
    &["player"],
    &["protocol"],
    &["tools"],
];

fn layer_of(module: &str) -> usize {
    let top = module.split("::").next().unwrap_or("");
    LAYERS
        .iter()
        .position(|l| l.contains(&top))
        .unwrap_or_else(|| panic!("module {module} is in no layer: add it to LAYERS"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/a/b.rs` and `src/a/b/mod.rs` → `a::b`; `None` for the crate roots.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts.is_empty() || parts == ["lib"] || parts == ["main"] {
        return None;
    }
    Some(parts.join("::"))
}

/// The code of a file without comments and without its unit tests (from the first
/// `#[cfg(test)]` on).
fn code_of(text: &str) -> String {
    let end = text.find("#[cfg(test)]").unwrap_or(text.len());
    text[..end]
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules a piece of code names through `crate::`, `super::` and `self::` paths, each
/// resolved to the longest known module.
fn references(module: &str, code: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let here: Vec<&str> = module.split("::").collect();
    let mut out = BTreeSet::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let starts = ["crate::", "super::", "self::"]
            .iter()
            .find(|s| bytes[i..].starts_with(s.as_bytes()));
        let boundary = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        let (Some(start), true) = (starts, boundary) else {
            i += 1;
            continue;
        };
        // Take the whole path: identifiers joined by `::`.
        let mut j = i;
        while j < code.len()
            && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_' || bytes[j] == b':')
        {
            j += 1;
        }
        let words: Vec<&str> = code[i..j].split("::").filter(|w| !w.is_empty()).collect();
        let mut path: Vec<&str> = match *start {
            "crate::" => Vec::new(),
            "self::" => here.clone(),
            _ => here[..here.len() - 1].to_vec(),
        };
        let mut rest = &words[1..];
        while let Some(&"super") = rest.first() {
            path.pop();
            rest = &rest[1..];
        }
        // The longest prefix that is a module.
        let mut best = path.join("::");
        for w in rest {
            path.push(w);
            let name = path.join("::");
            if known.contains(&name) {
                best = name;
            } else {
                break;
            }
        }
        if !best.is_empty() {
            out.insert(best);
        }
        i = j;
    }
    out
}

fn is_ancestor(a: &str, b: &str) -> bool {
    b.starts_with(a) && b[a.len()..].starts_with("::")
}

/// The children of the deepest common parent of `a` and `b` on their paths, `None` when one
/// contains the other.
fn sibling_pair(a: &str, b: &str) -> Option<(String, String, String)> {
    if a == b || is_ancestor(a, b) || is_ancestor(b, a) {
        return None;
    }
    let (pa, pb): (Vec<&str>, Vec<&str>) = (a.split("::").collect(), b.split("::").collect());
    let common = pa.iter().zip(&pb).take_while(|(x, y)| x == y).count();
    Some((
        pa[..common].join("::"),
        pa[..=common].join("::"),
        pb[..=common].join("::"),
    ))
}

#[test]
fn dependencies_point_down_and_siblings_form_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeMap<String, PathBuf> = files
        .iter()
        .filter_map(|f| module_of(&src, f).map(|m| (m, f.clone())))
        .collect();
    let known: BTreeSet<String> = modules.keys().cloned().collect();
    let mut upward = Vec::new();
    // Per parent: edges between its children.
    let mut siblings: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
    for (module, file) in &modules {
        if file.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(file).expect("read"));
        for target in references(module, &code, &known) {
            if layer_of(&target) > layer_of(module) {
                upward.push(format!("{module} -> {target}"));
            }
            if let Some((parent, from, to)) = sibling_pair(module, &target) {
                siblings.entry(parent).or_default().insert((from, to));
            }
        }
    }
    for (parent, edges) in &siblings {
        let name = if parent.is_empty() { "crate" } else { parent };
        let list: Vec<String> = edges.iter().map(|(a, b)| format!("{a} -> {b}")).collect();
        println!("{name}: {}", list.join(", "));
    }
    assert!(
        upward.is_empty(),
        "imports from a higher layer: {upward:#?}"
    );
    for (parent, edges) in &siblings {
        // Kahn's algorithm: a graph whose nodes cannot all be removed has a cycle.
        let nodes: BTreeSet<&String> = edges.iter().flat_map(|(a, b)| [a, b]).collect();
        let mut left: BTreeSet<(String, String)> = edges.clone();
        let mut removed = BTreeSet::new();
        loop {
            let free: Vec<&String> = nodes
                .iter()
                .copied()
                .filter(|n| !removed.contains(*n) && !left.iter().any(|(a, _)| a == *n))
                .collect();
            if free.is_empty() {
                break;
            }
            for n in free {
                removed.insert(n.clone());
                left.retain(|(_, b)| b != n);
            }
        }
        assert!(
            left.is_empty(),
            "modules under `{parent}` import each other in a circle: {left:?}"
        );
    }
}

#[test]
fn the_reader_resolves_paths() {
    let known: BTreeSet<String> = [
        "core",
        "core::board",
        "tactics",
        "tactics::vct",
        "tactics::vct::expand",
        "tactics::dfpn",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let code = "use super::VctSolver;\nuse crate::tactics::dfpn::{Expansion, INF};\nuse crate::core::Board;\nlet x = super::super::dfpn::mid(p);";
    let refs = references("tactics::vct::expand", code, &known);
    let want: BTreeSet<String> = ["tactics::vct", "tactics::dfpn", "core"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(refs, want);
    assert_eq!(
        sibling_pair("tactics::vct::expand", "tactics::dfpn"),
        Some((
            "tactics".into(),
            "tactics::vct".into(),
            "tactics::dfpn".into()
        ))
    );
    assert_eq!(sibling_pair("tactics::vct::expand", "tactics::vct"), None);
    // An upward import and a circle are seen.
    assert!(layer_of("core::board") < layer_of("protocol::session"));
    assert!(code_of("use crate::x; // crate::y\n#[cfg(test)]\nuse crate::z;").contains("crate::x"));
    assert!(
        !code_of("use crate::x; // crate::y\n#[cfg(test)]\nuse crate::z;").contains("crate::z")
    );
}
