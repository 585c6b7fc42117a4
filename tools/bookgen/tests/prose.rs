//! A sentence that ends in a colon announces something: the next thing on
//! the page after it is a listing, a list, a table, an included file, a
//! figure, displayed math or a run of labelled paragraphs (`**Label.**`),
//! not more prose.

mod common;

use regex::Regex;
use std::path::Path;

/// Lines (1-based) whose paragraph ends in a colon with nothing announced after it.
fn dangling_colons(text: &str) -> Vec<usize> {
    let announced =
        Regex::new(r"^\s*(?:```|~~~|[-*+] |\d+\. |\||\{\{#(?:include|table)|!\[|<|>|\\\\\[|\*\*[^*]+\.\*\*)")
            .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut fence = false;
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence || !line.trim_end().ends_with(':') || t.starts_with('|') || t.starts_with('#') {
            continue;
        }
        // The paragraph must end here: the next line is blank.
        if lines.get(i + 1).is_some_and(|l| !l.trim().is_empty()) {
            continue;
        }
        match lines[i + 1..].iter().find(|l| !l.trim().is_empty()) {
            Some(next) if announced.is_match(next) => {}
            _ => out.push(i + 1),
        }
    }
    out
}

#[test]
fn the_detector_sees_a_colon_with_nothing_after_it() {
    // Planted errors: prose after the colon, or the end of the page.
    assert_eq!(dangling_colons("It works like this:\n\nMore prose.\n"), vec![1]);
    assert_eq!(dangling_colons("At the end:\n"), vec![1]);
    // What a colon may announce.
    for next in
        ["```rust\nx\n```", "- one", "1. one", "| a |", "{{#include ../x.md}}", "![f](x.svg)", "{{#table t}}"]
    {
        assert!(dangling_colons(&format!("Here:\n\n{next}\n")).is_empty(), "{next}");
    }
    // A colon inside a paragraph, or inside code, is fine.
    assert!(dangling_colons("One: two\nthree.\n\n```\nx:\n\ny\n```\n").is_empty());
}

#[test]
fn no_sentence_ends_in_a_colon_with_nothing_after_it() {
    let root = bookgen::find_root(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    let bad = common::findings(&root, false, |text| {
        dangling_colons(text).into_iter().map(|l| (l, String::new())).collect()
    });
    assert!(
        bad.is_empty(),
        "paragraphs ending in ':' with nothing announced after them:\n{}",
        bad.join("\n")
    );
}
