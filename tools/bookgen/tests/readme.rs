//! The README's measured figures are the manifest's: `bookgen::readme::check`
//! passes on the repository and fails on a planted disagreement.

use std::path::Path;

fn repo(readme: &str, manifest: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("data")).unwrap();
    std::fs::write(d.path().join("README.md"), readme).unwrap();
    std::fs::write(d.path().join("data/manifest.json"), manifest).unwrap();
    d
}

const MANIFEST: &str = r#"{"machine": {"cpu": "c", "cores": 2, "os": "o"}, "experiments": {},
    "last_full_run": {"seconds": 1264.4, "peak_rss_bytes": 2270000000, "commit": "205154dc19", "date": "d"}}"#;

#[test]
fn the_readme_agrees_with_the_manifest() {
    let root = bookgen::find_root(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    bookgen::readme::check(&root).unwrap();
}

#[test]
fn figures_that_disagree_with_the_manifest_fail() {
    let good = "a run (<!-- manifest:last-full-run -->21 min 04 s of wall time and 2.27 GB of peak memory \
                in the last one, at commit 205154d<!-- /manifest -->).";
    let d = repo(good, MANIFEST);
    bookgen::readme::check(d.path()).unwrap();
    assert!(bookgen::readme::updated(d.path()).unwrap().is_none());
    // Planted errors: a hand-typed figure, a missing marker.
    let d = repo(&good.replace("21 min 04 s", "about 45 minutes"), MANIFEST);
    let e = format!("{:#}", bookgen::readme::check(d.path()).unwrap_err());
    assert!(e.contains("about 45 minutes") && e.contains("21 min 04 s"), "{e}");
    assert_eq!(bookgen::readme::updated(d.path()).unwrap().as_deref(), Some(good));
    let d = repo("no markers", MANIFEST);
    assert!(format!("{:#}", bookgen::readme::check(d.path()).unwrap_err()).contains("no <!-- manifest"));
    // A manifest without a full run's record says so, rather than a number.
    let d = repo(good, r#"{"machine": {"cpu": "c", "cores": 2, "os": "o"}, "experiments": {}}"#);
    let e = format!("{:#}", bookgen::readme::check(d.path()).unwrap_err());
    assert!(e.contains("not recorded yet"), "{e}");
    // A broken manifest is an error naming it, not an empty one.
    let d = repo(good, "{}");
    let e = format!("{:#}", bookgen::readme::check(d.path()).unwrap_err());
    assert!(e.contains("manifest.json: not a manifest"), "{e}");
}
