//! What the book's prose tests share: the pages they read and one report
//! line per finding, so each test states only what it looks for.

use std::path::{Path, PathBuf};

/// The Markdown pages under `book/src`, sorted. Regenerated tables are written
/// from the CSVs by the harness, so some checks leave `generated/` out.
pub fn pages(root: &Path, with_generated: bool) -> Vec<PathBuf> {
    fn walk(dir: &Path, with_generated: bool, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if with_generated || !p.ends_with("generated") {
                    walk(&p, with_generated, out);
                }
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(&root.join("book/src"), with_generated, &mut out);
    out.sort();
    out
}

/// `page:line` (and `: what`, where there is a what) for every finding of
/// `check` on every page.
pub fn findings(
    root: &Path,
    with_generated: bool,
    check: impl Fn(&str) -> Vec<(usize, String)>,
) -> Vec<String> {
    let mut bad = Vec::new();
    for f in pages(root, with_generated) {
        let text = std::fs::read_to_string(&f).unwrap();
        let page = f.strip_prefix(root).unwrap().display().to_string();
        for (line, what) in check(&text) {
            bad.push(if what.is_empty() {
                format!("{page}:{line}")
            } else {
                format!("{page}:{line}: {what}")
            });
        }
    }
    bad
}
