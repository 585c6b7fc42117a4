//! A sentence of the book that has the thesis speak ("the thesis says",
//! "the thesis' caption states", "Bontes writes") cites what it says: it
//! carries `{{#quote ID}}` or `{{#cite ID}}`, an entry of
//! `data/thesis/quotes.csv`, whose words the build shows (and an unknown id
//! fails it). The quotes file itself is well formed and every entry is used.

mod common;

use regex::Regex;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The prose of a page as paragraphs (first line number, text), without code
/// fences or comments; inline code is blanked, directives are kept.
fn paragraphs(text: &str) -> Vec<(usize, String)> {
    let strip = Regex::new(r"(?s)`[^`]*`|<!--.*?-->").unwrap();
    let text = strip.replace_all(text, |c: &regex::Captures| c[0].replace(|ch: char| ch != '\n', " "));
    let (mut out, mut cur, mut start, mut fence) = (Vec::new(), String::new(), 0, false);
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence || t.is_empty() {
            if !cur.is_empty() {
                out.push((start, std::mem::take(&mut cur)));
            }
            continue;
        }
        if cur.is_empty() {
            start = i + 1;
        }
        cur.push_str(line);
        cur.push(' ');
    }
    if !cur.is_empty() {
        out.push((start, cur));
    }
    out
}

/// The sentences that have the thesis speak without citing it.
fn uncited(text: &str) -> Vec<(usize, String)> {
    let speaks = Regex::new(
        r"(?i)\b(?:the thesis(?:'(?:\s+(?:own\s+)?[\w-]+)?)?|bontes(?:'\s+[\w-]+)?)\s+(?:itself\s+|also\s+|only\s+|then\s+)?(?:says|said|reports|reported|states|stated|gives|gave|writes|wrote|finds|found|claims|claimed|shows|showed|explains|explained|notes|noted|argues|suggests|suggested|estimates|estimated|names|blames|describes|concludes|mentions|attributes|calls|speculates|sums)\b",
    )
    .unwrap();
    let boundary = Regex::new(r"[.!?]\s+(?:[A-Z*_(\[]|\{\{)").unwrap();
    let mut out = Vec::new();
    for (line, p) in paragraphs(text) {
        // Sentence boundaries, ignoring those inside directives.
        let mut cuts = vec![0];
        for m in boundary.find_iter(&p) {
            let before = &p[..m.start()];
            if before.matches("{{").count() == before.matches("}}").count() {
                cuts.push(m.start() + 1);
            }
        }
        cuts.push(p.len());
        for w in cuts.windows(2) {
            let s = &p[w[0]..w[1]];
            if speaks.is_match(s) && !s.contains("{{#quote ") && !s.contains("{{#cite ") {
                out.push((line, s.trim().chars().take(100).collect()));
            }
        }
    }
    out
}

fn root() -> PathBuf {
    bookgen::find_root(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn the_detector_finds_an_uncited_thesis_sentence() {
    // Planted errors: the thesis speaks, nothing cites it.
    assert_eq!(uncited("As the thesis says, tracking was fastest.").len(), 1);
    assert_eq!(uncited("Fine. The thesis' caption states a cut at 2 ms. Fine.").len(), 1);
    assert_eq!(uncited("Bontes writes\nthat the database loses.").len(), 1);
    assert_eq!(uncited("The thesis itself names the weak spot.").len(), 1);
    // Cited, or not the thesis speaking, or in code: nothing to report.
    assert!(uncited("The thesis says {{#quote t2-6x6}}. And more.").is_empty());
    assert!(uncited("The thesis says so ({{#cite t2-6x6}}).").is_empty());
    assert!(uncited("The thesis' GRIDWALKER took {{#thesis 52.3 s}}.").is_empty());
    assert!(uncited("`the thesis says` in code\n```\nthe thesis says\n```\n").is_empty());
    // The marker must be in the same sentence.
    assert_eq!(uncited("The thesis states it. Here: {{#cite t2-6x6}}.").len(), 1);
}

#[test]
fn every_sentence_that_has_the_thesis_speak_cites_it() {
    let root = root();
    let bad = common::findings(&root, true, uncited);
    assert!(
        bad.is_empty(),
        "{} sentences have the thesis speak without {{{{#quote ID}}}} or {{{{#cite ID}}}}:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_quotes_file_is_well_formed_and_every_entry_is_used() {
    let root = root();
    let quotes = bookgen::live::load_quotes(&root.join(bookgen::live::QUOTES)).unwrap();
    let marker = Regex::new(r"\{\{#(?:quote|cite)\s+([\w-]+)\s*\}\}").unwrap();
    let mut used = BTreeSet::new();
    for f in common::pages(&root, true) {
        let text = std::fs::read_to_string(&f).unwrap();
        for c in marker.captures_iter(&text) {
            assert!(quotes.contains_key(&c[1]), "{}: no quote '{}'", f.display(), &c[1]);
            used.insert(c[1].to_string());
        }
    }
    let unused: Vec<&String> = quotes.keys().filter(|k| !used.contains(*k)).collect();
    assert!(unused.is_empty(), "quotes no page uses: {unused:?}");
    for q in quotes.values() {
        assert!(q.words.chars().count() <= 300, "{}: keep quotes short", q.id);
        assert!(
            q.section.starts_with("Section ")
                || q.section.starts_with("Table ")
                || q.section.starts_with("Figure ")
                || q.section.starts_with("Listing ")
                || q.section.starts_with("Appendix "),
            "{}: section '{}'",
            q.id,
            q.section
        );
    }
}

#[test]
fn a_bad_quotes_file_is_refused_naming_the_line() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("q.csv");
    for (text, why) in [
        ("id,section,page,words\na,Section 1,3,x\na,Section 2,4,y\n", ":3: the id 'a' is used twice"),
        ("id,section,page,words\na b,Section 1,3,x\n", ":2: 'a b' is not an id"),
        ("id,section,page,words\na,Section 1,p3,x\n", ":2: page 'p3'"),
        ("id,section,page,words\na,Section 1,3,\n", ":2: 'a' needs a section and the thesis' words"),
        ("id,page,words\n", "the header must be"),
    ] {
        std::fs::write(&p, text).unwrap();
        let e = format!("{:#}", bookgen::live::load_quotes(&p).unwrap_err());
        assert!(e.contains(why), "{text}: {e}");
    }
}
