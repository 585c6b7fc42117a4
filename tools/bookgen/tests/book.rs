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
    // Every figure an experiment draws has a caption line naming the commands that regenerate it.
    let manifest = bookgen::manifest::Manifest::load(&root()).unwrap();
    let experiments: Vec<String> = manifest.experiments.keys().cloned().collect();
    let mut missing = Vec::new();
    for page in html_pages(&out) {
        let html = std::fs::read_to_string(&page).unwrap();
        for fig in figures_without_command(&html, &experiments) {
            missing.push(format!("{}: {fig}", page.display()));
        }
    }
    assert!(missing.is_empty(), "figures whose caption does not name its command:\n{}", missing.join("\n"));
    // The check itself must catch a raw include.
    std::fs::write(out.join("knuth/bad.html"), "<p>{{#include x.rs:y}}</p>").unwrap();
    assert_eq!(bookgen::unresolved_includes(&out).unwrap().len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn html_pages(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(html_pages(&p));
        } else if p.extension().is_some_and(|x| x == "html") {
            out.push(p);
        }
    }
    out
}

/// The figures (`figures/ID.svg`) drawn by one of `experiments` on a built page
/// whose caption line, the next paragraph after the image, does not name
/// `experiments plot` and `experiments run` for the experiment that draws it.
fn figures_without_command(html: &str, experiments: &[String]) -> Vec<String> {
    let img = regex::Regex::new(r#"<img[^>]*src="[^"]*figures/([\w-]+)\.svg""#).unwrap();
    let mut out = Vec::new();
    for c in img.captures_iter(html) {
        let id = &c[1];
        // Illustrations drawn once (Part II's `figures/fig-*`) are no experiment's.
        if !experiments.iter().any(|e| id == e || id.starts_with(&format!("{e}-"))) {
            continue;
        }
        let rest = &html[c.get(0).unwrap().end()..];
        // Past the end of the image's own paragraph, up to the end of the next one.
        let after = &rest[rest.find("</p>").map_or(rest.len(), |e| e + 4)..];
        let caption = &after[..after.find("</p>").unwrap_or(after.len())];
        // A second figure of an experiment is named after it (`orphan-zoo-patterns`).
        let named = |cmd: &str| {
            caption.match_indices(cmd).any(|(i, _)| {
                let exp = caption[i + cmd.len()..].split('<').next().unwrap_or("");
                !exp.is_empty() && (id == exp || id.starts_with(&format!("{exp}-")))
            })
        };
        if !named("experiments plot ") || !named("experiments run ") {
            out.push(id.to_string());
        }
    }
    out
}

#[test]
fn the_caption_check_sees_a_figure_without_its_command() {
    let good = r#"<p><img src="../figures/fig-a.svg" alt="x"></p>
<p class="provenance">From data/fig-a.csv: <code>experiments run fig-a</code>; <code>experiments plot fig-a</code>.</p>"#;
    let exps = ["fig-a".to_string(), "fig-b".to_string()];
    assert!(figures_without_command(good, &exps).is_empty());
    assert!(figures_without_command(&good.replace("fig-a.svg", "fig-a-second.svg"), &exps).is_empty());
    // Planted errors: no command, another figure's command.
    assert_eq!(figures_without_command(&good.replace("experiments plot fig-a", ""), &exps), ["fig-a"]);
    assert_eq!(figures_without_command(&good.replace("fig-a.svg", "fig-b.svg"), &exps), ["fig-b"]);
    // An illustration no experiment draws needs no command.
    assert!(figures_without_command(&good.replace("fig-a.svg", "drawn.svg"), &exps).is_empty());
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
