//! The committed book must be what the tools make of its sources.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    bookgen::find_root(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn part_one_apparatus_is_up_to_date() {
    let stale = bookgen::check(&root()).unwrap();
    assert!(stale.is_empty(), "stale, run `cargo run -p bookgen -- apparatus`: {stale:?}");
}

#[test]
fn part_one_has_knuths_section_counts() {
    let programs = bookgen::load_programs(&root()).unwrap();
    let count = |slug: &str| programs.iter().find(|p| p.slug == slug).map(|p| p.sections.len());
    assert_eq!(count("sat-life"), Some(16));
    assert_eq!(count("sat-life-grid-cycle"), Some(18));
    assert_eq!(count("sat-life-gridquad-cycle"), Some(17));
}

#[test]
fn the_book_builds_and_every_include_resolves() {
    let dir = tempdir();
    let out = bookgen::build_book_to(&root(), Some(&dir)).unwrap();
    assert!(out.join("index.html").is_file());
    assert!(out.join("knuth/sat-life.html").is_file());
    // The check itself must catch a raw include.
    std::fs::write(out.join("knuth/bad.html"), "<p>{{#include x.rs:y}}</p>").unwrap();
    assert_eq!(bookgen::unresolved_includes(&out).unwrap().len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn tempdir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("bookgen-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
