//! The book and the code must not drift apart. Std only, so it runs with the
//! crate's own tests: every `{{#include}}` in `book/src` must name an existing
//! file and a non-empty anchor; the anchors in the sources must be balanced,
//! unique per file, and each shown somewhere in the book; Part I must number
//! its sections 1..N without gaps (N as in Knuth's programs); and every link
//! between pages must land on a page and an anchor that exist.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if !p.ends_with("target") && !p.ends_with("build") {
                files(&p, ext, out);
            }
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

fn book_pages() -> Vec<PathBuf> {
    let mut v = Vec::new();
    files(&root().join("book/src"), "md", &mut v);
    v
}

/// Every Rust source whose anchors the book may include.
fn rust_sources() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for dir in ["src", "experiments/src", "tools/bookgen/src"] {
        files(&root().join(dir), "rs", &mut v);
    }
    v
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The one anchor and include parser, shared with bookgen (std only).
#[path = "../tools/bookgen/src/anchors.rs"]
#[allow(dead_code)]
mod shared;
use shared::{includes, split_include};

/// The anchors of one file: name -> (non-blank lines inside, first line). Errors for
/// unbalanced or duplicate anchors.
fn anchors(path: &Path) -> Result<BTreeMap<String, (usize, usize)>, Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    shared::parse(&text).map_err(|e| e.into_iter().map(|(n, m)| format!("{}:{n}: {m}", rel(path))).collect())
}

#[test]
fn includes_name_existing_files_and_nonempty_anchors() {
    let mut errors = Vec::new();
    for page in book_pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (line, arg) in includes(&text) {
            let (file, anchor) = split_include(&arg);
            let path = page.parent().unwrap().join(file);
            if !path.is_file() {
                errors.push(format!("{}:{line}: included file '{file}' does not exist", rel(&page)));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            match anchors(&path) {
                Err(_) => errors.push(format!("{}:{line}: '{file}' has broken anchors", rel(&page))),
                Ok(a) => match a.get(anchor) {
                    None => errors.push(format!("{}:{line}: no anchor '{anchor}' in '{file}'", rel(&page))),
                    Some((0, _)) => {
                        errors.push(format!("{}:{line}: anchor '{anchor}' in '{file}' is empty", rel(&page)))
                    }
                    Some(_) => {}
                },
            }
        }
    }
    assert!(errors.is_empty(), "broken includes:\n{}", errors.join("\n"));
}

#[test]
fn anchors_in_the_sources_are_balanced_and_unique() {
    let mut errors = Vec::new();
    for src in rust_sources() {
        if let Err(e) = anchors(&src) {
            errors.extend(e);
        }
    }
    assert!(errors.is_empty(), "bad anchors:\n{}", errors.join("\n"));
}

#[test]
fn every_anchor_is_shown_in_the_book() {
    let mut shown: BTreeSet<(PathBuf, String)> = BTreeSet::new();
    for page in book_pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (_, arg) in includes(&text) {
            if let (file, Some(anchor)) = split_include(&arg) {
                shown.insert((canonical(&page.parent().unwrap().join(file)), anchor.to_string()));
            }
        }
    }
    let mut missing = Vec::new();
    for src in rust_sources() {
        let Ok(a) = anchors(&src) else { continue };
        for (name, (_, line)) in a {
            if !shown.contains(&(canonical(&src), name.clone())) {
                missing.push(format!("{}:{line}: anchor '{name}'", rel(&src)));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "anchors that no page of book/src includes (add an {{{{#include FILE:ANCHOR}}}} or drop the anchor):\n{}",
        missing.join("\n")
    );
}

/// Knuth's section counts: SAT-LIFE 16, SAT-LIFE-GRID-CYCLE 18, SAT-LIFE-GRIDQUAD-CYCLE 17.
const PART_ONE: [(&str, usize); 3] =
    [("sat-life.md", 16), ("sat-life-grid-cycle.md", 18), ("sat-life-gridquad-cycle.md", 17)];

#[test]
fn part_one_numbers_its_sections_without_gaps() {
    for (file, count) in PART_ONE {
        let path = root().join("book/src/knuth").join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", rel(&path)));
        let numbers: Vec<usize> = text
            .lines()
            .filter_map(|l| l.strip_prefix("## "))
            .map(|h| {
                let n: String = h.chars().take_while(|c| c.is_ascii_digit()).collect();
                n.parse().unwrap_or_else(|_| panic!("{file}: section heading without a number: {h}"))
            })
            .collect();
        let want: Vec<usize> = (1..=count).collect();
        assert_eq!(numbers, want, "{file}: section numbers");
        for n in 1..=count {
            assert!(text.contains(&format!("{{#s{n}}}")), "{file}: section {n} has no anchor #s{n}");
        }
    }
}

/// mdBook's id for a heading without an explicit one.
fn heading_id(text: &str) -> String {
    let mut id = String::new();
    for c in text.trim().chars() {
        if c.is_alphanumeric() || c == '_' || c == '-' {
            id.extend(c.to_lowercase());
        } else if c.is_whitespace() {
            id.push('-');
        }
    }
    id
}

/// The ids a page defines: `{#id}` heading attributes, `id="..."`, and headings.
fn page_ids(text: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for line in text.lines() {
        let mut rest = line;
        while let Some(i) = rest.find("{#") {
            let after = &rest[i + 2..];
            let Some(end) = after.find('}') else { break };
            ids.insert(after[..end].to_string());
            rest = &after[end..];
        }
        let mut rest = line;
        while let Some(i) = rest.find("id=\"") {
            let after = &rest[i + 4..];
            let Some(end) = after.find('"') else { break };
            ids.insert(after[..end].to_string());
            rest = &after[end..];
        }
        if line.starts_with('#') {
            let h = line.trim_start_matches('#');
            let h = h.split("{#").next().unwrap();
            ids.insert(heading_id(h));
        }
    }
    ids
}

/// Markdown link targets `](target)` of a page, outside code blocks.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut v = Vec::new();
    let mut in_code = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            v.push((i + 1, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    v
}

#[test]
fn cross_references_land_on_existing_pages_and_anchors() {
    let mut errors = Vec::new();
    for page in book_pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (line, target) in links(&text) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, id) = match target.split_once('#') {
                Some((f, id)) => (f, Some(id)),
                None => (target.as_str(), None),
            };
            let target_page = if file.is_empty() { page.clone() } else { page.parent().unwrap().join(file) };
            if !target_page.is_file() {
                errors.push(format!("{}:{line}: link to missing page '{file}'", rel(&page)));
                continue;
            }
            if let Some(id) = id
                && target_page.extension().is_some_and(|x| x == "md")
            {
                let ids = page_ids(&std::fs::read_to_string(&target_page).unwrap());
                if !ids.contains(id) {
                    errors.push(format!("{}:{line}: '{target}': no anchor '#{id}' there", rel(&page)));
                }
            }
        }
    }
    assert!(errors.is_empty(), "stale cross-references:\n{}", errors.join("\n"));
}

/// A built book (from `cargo run -p bookgen -- build`, which CI runs before
/// the tests) must not show a raw include: mdBook leaves one it cannot
/// resolve as text. The build itself is tested in `tools/bookgen/tests`.
#[test]
fn built_pages_have_no_raw_includes() {
    let build = root().join("book/build");
    let mut pages = Vec::new();
    files(&build, "html", &mut pages);
    let bad: Vec<String> = pages
        .iter()
        .filter(|p| std::fs::read_to_string(p).unwrap_or_default().contains("{{#include"))
        .map(|p| rel(p))
        .collect();
    assert!(
        bad.is_empty(),
        "pages with a raw {{{{#include (rebuild the book and fix the include):\n{}",
        bad.join("\n")
    );
}

/// Includes of source code that sit outside a code fence: mdBook pastes the
/// code in as a paragraph of prose, which reads as one long garbled line.
fn unfenced_code_includes(text: &str) -> Vec<usize> {
    unfenced_lines(text)
        .filter(|(_, line)| includes(line).iter().any(|(_, arg)| split_include(arg).0.ends_with(".rs")))
        .map(|(n, _)| n)
        .collect()
}

/// The lines outside ``` code blocks, numbered from 1.
fn unfenced_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fenced = false;
    text.lines().enumerate().filter_map(move |(i, line)| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return None;
        }
        (!fenced).then_some((i + 1, line))
    })
}

/// Every line of every page that `find` flags, as `page:line: what`.
fn flagged_lines(find: fn(&str) -> Vec<usize>, what: &str) -> Vec<String> {
    let mut errors = Vec::new();
    for page in book_pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        errors.extend(find(&text).into_iter().map(|line| format!("{}:{line}: {what}", rel(&page))));
    }
    errors
}

#[test]
fn code_includes_sit_in_code_blocks() {
    let errors = flagged_lines(unfenced_code_includes, "a source include outside a ```rust block");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// Lines with a `{{#cite ID}}` written inside parentheses: the marker
/// renders its own, so the reader sees two pairs.
fn doubled_citations(text: &str) -> Vec<usize> {
    text.lines().enumerate().filter(|(_, l)| l.contains("({{#cite")).map(|(i, _)| i + 1).collect()
}

#[test]
fn citations_are_not_parenthesised_twice() {
    let errors = flagged_lines(doubled_citations, "drop the parentheses around {{#cite}}");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// Lines outside code blocks with inline math opened or closed by a single
/// backslash: Markdown eats the backslash, so `\(k\)` must be written
/// `\\(k\\)` for the math to render instead of showing raw TeX.
fn single_backslash_math(text: &str) -> Vec<usize> {
    let single = |b: &[u8]| {
        (0..b.len().saturating_sub(1))
            .any(|k| b[k] == b'\\' && matches!(b[k + 1], b'(' | b')') && (k == 0 || b[k - 1] != b'\\'))
    };
    unfenced_lines(text).filter(|(_, line)| single(line.as_bytes())).map(|(n, _)| n).collect()
}

#[test]
fn inline_math_has_two_backslashes() {
    let errors = flagged_lines(single_backslash_math, "write inline math as \\\\( ... \\\\)");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// The checks above must be able to fail: run them on a small made-up case.
#[test]
fn the_checks_catch_what_they_should() {
    let dir = std::env::temp_dir().join(format!("book-sync-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("x.rs");
    std::fs::write(
        &f,
        "// ANCHOR: a\nfn a() {}\n// ANCHOR_END: a\n// ANCHOR: b\n// ANCHOR_END: b\n// ANCHOR: c\n",
    )
    .unwrap();
    let err = anchors(&f).unwrap_err();
    assert_eq!(err.len(), 1, "{err:?}");
    assert!(err[0].contains("'c' is never closed"));
    std::fs::write(&f, "// ANCHOR: a\nx\n// ANCHOR_END: a\n// ANCHOR: b\n// ANCHOR_END: b\n").unwrap();
    let ok = anchors(&f).unwrap();
    assert_eq!(ok["a"].0, 1);
    assert_eq!(ok["b"].0, 0, "an empty anchor has no lines");
    std::fs::write(&f, "// ANCHOR: a\n// ANCHOR: a\n// ANCHOR_END: a\n").unwrap();
    assert!(anchors(&f).unwrap_err()[0].contains("duplicate"));
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(split_include("../a.rs:name"), ("../a.rs", Some("name")));
    assert_eq!(split_include("../a.rs:3:9"), ("../a.rs", None));
    assert_eq!(includes("x {{#include ../a.rs:b}} y"), vec![(1, "../a.rs:b".to_string())]);
    assert!(includes("mdBook leaves \\{{#include a.rs:b}} alone").is_empty());
    assert_eq!(unfenced_code_includes("x\n{{#include ../a.rs:b}}\n"), vec![2]);
    assert!(unfenced_code_includes("```rust\n{{#include ../a.rs:b}}\n```\n{{#include t.md}}\n").is_empty());
    assert_eq!(doubled_citations("a\nsays so ({{#cite t1}}).\n"), vec![2]);
    assert!(doubled_citations("says so {{#cite t1}}.").is_empty());
    assert_eq!(single_backslash_math("a\nlevel \\(k\\) here\n"), vec![2]);
    assert!(single_backslash_math("level \\\\(k\\\\)\n```rust\nlet r = \"\\(\";\n```\n").is_empty());
    assert!(page_ids("## 3. Title {#s3}\n").contains("s3"));
    assert!(page_ids("## Two things everything else uses\n").contains("two-things-everything-else-uses"));
    assert_eq!(links("see [7](#s7) and [x](a.md#s2)"), vec![(1, "#s7".into()), (1, "a.md#s2".into())]);
}
