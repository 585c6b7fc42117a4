//! The house's imports point one way. Every module of `src/` sits in a layer
//! (declared below, bottom first); a file may import from its own layer and
//! those beneath, never from one above, and no files import each other in a
//! circle. Imports are read from the source text (`crate::...` and
//! `super::...` paths outside comments and `#[cfg(test)]` modules, whose tests
//! may use anything).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Bottom first. A module path takes the layer of its longest listed prefix.
const LAYERS: &[&[&str]] = &[
    &["error", "stop", "fsutil", "alloc", "simd"],
    &["life"],
    &["formats", "knuth"],
    // Answer checks, symmetry, known patterns, the orphan question and answer.
    &["base"],
    &["cnf"],
    // The engines.
    &["gridwalker", "automaton"],
    &["search"],
    &["search::portfolio"],
    // The registry of every orphan engine.
    &["engine"],
    // The binary.
    &["cli", "main"],
];

fn layer_of(module: &str) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (i, names) in LAYERS.iter().enumerate() {
        for n in names.iter() {
            let hit = module == *n || module.starts_with(&format!("{n}::"));
            if hit && best.is_none_or(|(len, _)| n.len() > len) {
                best = Some((n.len(), i));
            }
        }
    }
    best.map(|(_, i)| i)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `src/a/b.rs` and `src/a/b/mod.rs` -> `a::b`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|l| l == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// The module paths a file imports: `crate::a::b::C` -> `a::b::C`, and
/// `super::x` resolved against the file's own module.
fn imports(src: &Path, file: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(file).unwrap();
    let module = module_of(src, file);
    // `super` in a/b.rs or a/b/mod.rs (module a::b) is module a.
    let mut parent: Vec<&str> = module.split("::").collect();
    parent.pop();
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        for (prefix, base) in [("crate::", Vec::new()), ("super::", parent.clone())] {
            let mut rest = code;
            while let Some(i) = rest.find(prefix) {
                let before = rest[..i].chars().next_back();
                let tail = &rest[i + prefix.len()..];
                rest = tail;
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let path: Vec<&str> = tail
                    .split("::")
                    .map_while(|seg| {
                        let id: String =
                            seg.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        (!id.is_empty() && id.len() == seg.len()).then_some(seg)
                    })
                    .collect();
                // The last segment that is a whole identifier followed by `::`, plus the item.
                let first = tail.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
                let mut full: Vec<String> = base.iter().map(|s| s.to_string()).collect();
                if path.is_empty() {
                    full.push(first);
                } else {
                    full.extend(path.iter().map(|s| s.to_string()));
                    let next: String = tail[path.join("::").len()..]
                        .trim_start_matches("::")
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !next.is_empty() {
                        full.push(next);
                    }
                }
                out.push((n + 1, full.join("::")));
            }
        }
    }
    out
}

/// The file that defines the longest prefix of `path`.
fn file_of(src: &Path, path: &str) -> Option<PathBuf> {
    let segs: Vec<&str> = path.split("::").collect();
    for k in (1..=segs.len()).rev() {
        let stem = segs[..k].join("/");
        for cand in [src.join(format!("{stem}.rs")), src.join(&stem).join("mod.rs")] {
            if cand.is_file() {
                return Some(cand);
            }
        }
    }
    None
}

#[test]
fn no_module_imports_one_above_it_and_no_files_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut upward = Vec::new();
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    let mut unplaced = BTreeSet::new();
    for f in &files {
        let module = module_of(&src, f);
        if module == "lib" {
            continue; // the crate root re-exports from every layer
        }
        let Some(own) = layer_of(&module) else {
            unplaced.insert(module);
            continue;
        };
        for (line, path) in imports(&src, f) {
            let Some(target) = file_of(&src, &path) else { continue };
            let target_module = module_of(&src, &target);
            if target_module == "lib" {
                continue;
            }
            match layer_of(&target_module) {
                Some(l) if l > own => upward.push(format!(
                    "{}:{line}: {module} (layer {own}) imports {path} (layer {l})",
                    f.strip_prefix(&src).unwrap().display()
                )),
                Some(_) => {}
                None => {
                    unplaced.insert(target_module);
                }
            }
            // Importing a folder's module from outside it stands for importing
            // its files: `cnf/solver.rs` naming `crate::cnf::backends` and a
            // backend naming the solver trait form a circle.
            let dir = target.parent().unwrap();
            let whole_folder = target.ends_with("mod.rs") && !f.starts_with(dir);
            let targets: Vec<PathBuf> = if whole_folder {
                files.iter().filter(|g| g.starts_with(dir)).cloned().collect()
            } else {
                vec![target]
            };
            for t in targets {
                if &t != f {
                    edges.entry(f.clone()).or_default().insert(t);
                }
            }
        }
    }
    assert!(unplaced.is_empty(), "modules in no declared layer: {unplaced:?}");
    assert!(upward.is_empty(), "imports that run back up:\n{}", upward.join("\n"));
    let mut circles = Vec::new();
    for (a, targets) in &edges {
        for b in targets {
            if a < b && edges.get(b).is_some_and(|t| t.contains(a)) {
                circles.push(format!("{} <-> {}", a.display(), b.display()));
            }
        }
    }
    assert!(circles.is_empty(), "files that import each other:\n{}", circles.join("\n"));
}

#[test]
fn the_checker_sees_an_upward_import() {
    // The layer table itself: the portfolio sits above search, search above the engines.
    assert!(layer_of("search::portfolio") > layer_of("search::encode"));
    assert!(layer_of("search::encode") > layer_of("gridwalker::stack"));
    assert!(layer_of("gridwalker") > layer_of("base::verify"));
    assert!(layer_of("cnf::solver") > layer_of("stop"));
    // And the parser: a file that imports the portfolio from GRIDWALKER's layer is caught.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("gridwalker").join("x.rs");
    std::fs::create_dir_all(f.parent().unwrap()).unwrap();
    std::fs::write(
        &f,
        "// use crate::engine;\nuse crate::search::portfolio::Auto;\nuse super::grid::Solver;\n",
    )
    .unwrap();
    let got = imports(dir.path(), &f);
    assert_eq!(
        got,
        vec![(2, "search::portfolio::Auto".to_string()), (3, "gridwalker::grid::Solver".to_string())]
    );
}
