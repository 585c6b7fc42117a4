//! No measured number is typed by hand in the book: a number next to a unit
//! of time, a speed-up or a rate must come from `{{#value}}` (data/*.csv at
//! build time) or `{{#took}}` (data/manifest.json), or be marked as the thesis' (`{{#thesis …}}`) or as a given
//! (`{{#given …}}`: a target, a parameter, a definition), never measured.

mod common;

use regex::Regex;
use std::path::Path;

/// The prose of a page, line by line, without code, directives, comments or math.
fn prose(text: &str) -> Vec<(usize, String)> {
    let strip = Regex::new(r"(?s)`[^`]*`|\{\{#.*?\}\}|<!--.*?-->|\\\\\(.*?\\\\\)|\\\\\[.*?\\\\\]").unwrap();
    let mut out = Vec::new();
    let mut fence = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if !fence {
            out.push((i + 1, strip.replace_all(line, " ").into_owned()));
        }
    }
    out
}

fn offenders(text: &str) -> Vec<(usize, String)> {
    let number = Regex::new(
        r"(?:^|[^\w.#/-])(\d[\d,.]*(?:\s|&nbsp;)?(?:ms|µs|us|s|×|x|cell-gen/s|GB|MB|KiB|MiB|GiB))(?:$|[^\w])",
    )
    .unwrap();
    let mut out = Vec::new();
    for (n, line) in prose(text) {
        for c in number.captures_iter(&line) {
            out.push((n, c[1].to_string()));
        }
    }
    out
}

#[test]
fn the_detector_sees_typed_numbers_and_lets_marked_ones_pass() {
    assert_eq!(offenders("took 0.40 s and 3.2× more").len(), 2);
    assert_eq!(offenders("took 5.7 × 10 cell-gen/s").len(), 1);
    assert!(offenders("a 10×10 pattern, 2x2 tiles, Table 6.1, section 5").is_empty());
    assert!(offenders("took {{#value t col=ms}} ms, the thesis {{#thesis 8.09 ms}}").is_empty());
    assert!(offenders("`sleep 5s`\n```\nlet t = 3 ms;\n```").is_empty());
}

#[test]
fn no_measured_number_is_typed_by_hand() {
    let root = bookgen::find_root(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    let bad = common::findings(&root, false, offenders);
    assert!(
        bad.is_empty(),
        "{} hand-typed numbers (use {{{{#value}}}}, {{{{#thesis}}}} or {{{{#given}}}}):\n{}",
        bad.len(),
        bad.join("\n")
    );
}
