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
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let d = std::env::temp_dir().join(format!("bookgen-test-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A made-up program of three sections, to see the apparatus computed: the
/// fragment ⟨Subs⟩ is named by the comments at anchors `one` and `two`, and
/// section 3 uses it because it calls `beta`.
fn synthetic(toml: &str) -> anyhow::Result<String> {
    let root = tempdir();
    std::fs::create_dir_all(root.join("book/src/knuth")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("book/book.toml"), "[book]\n").unwrap();
    std::fs::write(
        root.join("src/x.rs"),
        "// ANCHOR: one\n// ⟨Subs⟩\nfn alpha() {}\n// ANCHOR_END: one\n\
         // ANCHOR: two\n// ⟨Subs⟩\nfn beta() { alpha(); }\n// ANCHOR_END: two\n\
         // ANCHOR: three\nfn main() { beta(); }\n// ANCHOR_END: three\n",
    )
    .unwrap();
    std::fs::write(root.join("book/src/knuth/p.toml"), toml).unwrap();
    let out = bookgen::expected(&root).map(|v| v.into_iter().next().unwrap().1);
    std::fs::remove_dir_all(&root).unwrap();
    out
}

const PROGRAM: &str = r#"
program = "P"
slug = "p"
[[section]]
n = 1
title = "First"
defines = ["alpha"]
include = ["src/x.rs:one"]
[[section]]
n = 2
title = "Second"
defines = ["beta"]
include = ["src/x.rs:two"]
[[section]]
n = 3
title = "Main"
include = ["src/x.rs:three"]
[[section]]
n = 4
title = "Index"
index = true
"#;

#[test]
fn the_apparatus_is_computed_from_fragments_and_code() {
    let md = synthetic(PROGRAM).unwrap();
    assert!(md.contains("⟨*Subs* [1](#s1)⟩ ≡"), "{md}");
    assert!(md.contains("⟨*Subs* [1](#s1)⟩ +≡"), "{md}");
    assert!(md.contains("See also sections [2](#s2)."), "{md}");
    assert!(md.contains("This code is used in section [3](#s3)."), "{md}");
    assert!(md.contains("Uses ⟨*Subs* [1](#s1)⟩."), "{md}");
    // alpha is defined in 1 and called in 2; beta defined in 2 and called in 3.
    assert!(md.contains("- `alpha`: **[1](#s1)**, [2](#s2)."), "{md}");
    assert!(md.contains("- `beta`: **[2](#s2)**, [3](#s3)."), "{md}");
    assert!(md.contains("- ⟨*Subs* [1](#s1), [2](#s2)⟩ Used in section [3](#s3)."), "{md}");
}

#[test]
fn bad_descriptions_are_refused() {
    let gap = PROGRAM.replace("n = 3", "n = 5");
    assert!(format!("{:#}", synthetic(&gap).unwrap_err()).contains("gap"));
    // Fragments and uses come from the code; typing them is refused.
    for typed in [r#"fragment = "Subs""#, r#"uses = ["Subs"]"#] {
        let t = PROGRAM.replace(r#"title = "Main""#, &format!("title = \"Main\"\n{typed}"));
        assert!(format!("{:#}", synthetic(&t).unwrap_err()).contains("unknown field"), "{typed}");
    }
    let missing = PROGRAM.replace("src/x.rs:two", "src/x.rs:four");
    assert!(format!("{:#}", synthetic(&missing).unwrap_err()).contains("no such anchor"));
}
