//! `bookgen build` fails, naming the page and line, on an unknown anchor, an
//! unknown CSV key and a missing include; a good page builds offline.

use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    bookgen::find_root(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// A one-page book beside a data set and a source file, with the real book's
/// configuration; returns the build's error, if any.
fn build(page: &str) -> (tempfile::TempDir, Result<PathBuf, String>) {
    let d = tempfile::tempdir().unwrap();
    let r = d.path();
    for sub in ["book/src", "book/theme", "data", "src"] {
        std::fs::create_dir_all(r.join(sub)).unwrap();
    }
    let real = repo_root();
    std::fs::copy(real.join("book/book.toml"), r.join("book/book.toml")).unwrap();
    std::fs::copy(real.join("book/theme/lifesearch.css"), r.join("book/theme/lifesearch.css")).unwrap();
    std::fs::write(r.join("book/src/SUMMARY.md"), "# Summary\n\n- [Page](page.md)\n").unwrap();
    std::fs::write(r.join("book/src/page.md"), page).unwrap();
    std::fs::write(r.join("data/t.csv"), "name,ms\na,1.25\nb,2.5\n").unwrap();
    std::fs::create_dir_all(r.join("data/thesis")).unwrap();
    std::fs::write(
        r.join("data/thesis/quotes.csv"),
        "id,section,page,words\nq1,Section 6.1,59,Fast & small.\n",
    )
    .unwrap();
    let (a, e) = ("ANCHOR", "ANCHOR_END");
    std::fs::write(r.join("src/x.rs"), format!("// {a}: f\nfn f() {{}}\n// {e}: f\n")).unwrap();
    let out = bookgen::build_book(r).map_err(|e| format!("{e:#}"));
    (d, out)
}

const GOOD: &str = "# Page\n\nIt took {{#value t name=b col=ms fmt=.1}} ms, \\\\(x^2\\\\).\n\n\
                    ```rust\n{{#include ../../src/x.rs:f}}\n```\n\n\
                    The thesis says {{#quote q1}}; {{#claim \"b is slower than a\" (t name=b col=ms) > 1.5 * (t name=a col=ms)}}.\n";

#[test]
fn a_good_page_builds_with_values_math_and_captions() {
    let (_d, out) = build(GOOD);
    let out = out.unwrap();
    let html = std::fs::read_to_string(out.join("page.html")).unwrap();
    assert!(html.contains("It took 2.5 ms"), "value");
    assert!(html.contains("<math") && !html.contains("\\("), "math");
    assert!(html.contains("listing-caption") && html.contains("src/x.rs"), "caption");
    assert!(html.contains("fn f()"), "listing");
    assert!(html.contains("<q class=\"thesis-quote\">Fast &amp; small.</q>"), "quote");
    assert!(html.contains("(thesis, Section 6.1, p. 59)"), "citation");
    assert!(
        html.contains("checked against the data: 2.5000 &gt; 1.8750\">b is slower than a</span>"),
        "claim"
    );
}

#[test]
fn an_unknown_quote_fails_the_build() {
    let (_d, out) = build(&GOOD.replace("#quote q1", "#quote q2"));
    let e = out.unwrap_err();
    assert!(e.contains("page.md:9:") && e.contains("no quote 'q2'"), "{e}");
    let (_d, out) = build(&GOOD.replace("#quote q1", "#cite nosuch"));
    assert!(out.unwrap_err().contains("no quote 'nosuch'"));
}

#[test]
fn a_false_claim_fails_the_build() {
    // Planted error: the data say 2.5 > 1.25 * 2.5 is false.
    let (_d, out) = build(&GOOD.replace("1.5 * (t", "2.5 * (t"));
    let e = out.unwrap_err();
    assert!(
        e.contains("page.md:9:") && e.contains("the claim \"b is slower than a\" is false: 2.5000 > 3.1250"),
        "{e}"
    );
    // The other way round, and a side that selects nothing.
    let (_d, out) = build(&GOOD.replace("> 1.5 *", "< 1.5 *"));
    assert!(out.unwrap_err().contains("is false"));
    let (_d, out) = build(&GOOD.replace("(t name=b", "(t name=zz"));
    assert!(out.unwrap_err().contains("no row"));
    let (_d, out) = build(&GOOD.replace(") > 1.5", ") => 1.5"));
    assert!(out.unwrap_err().contains("is not one of"));
}

#[test]
fn an_unknown_anchor_fails_the_build() {
    let (_d, out) = build(&GOOD.replace("x.rs:f", "x.rs:nosuch"));
    let e = out.unwrap_err();
    assert!(e.contains("page.md:6:") && e.contains("no anchor 'nosuch'"), "{e}");
}

#[test]
fn an_unknown_csv_key_fails_the_build() {
    let (_d, out) = build(&GOOD.replace("col=ms", "col=seconds"));
    let e = out.unwrap_err();
    assert!(e.contains("page.md:3:") && e.contains("no column 'seconds'"), "{e}");
    let (_d, out) = build(&GOOD.replace("name=b", "name=zz"));
    assert!(out.unwrap_err().contains("no row"));
    let (_d, out) = build(&GOOD.replace("{{#value t ", "{{#value nosuch "));
    assert!(out.unwrap_err().contains("no data set 'nosuch'"));
}

#[test]
fn a_missing_include_fails_the_build() {
    let (_d, out) = build(&GOOD.replace("src/x.rs", "src/gone.rs"));
    let e = out.unwrap_err();
    assert!(e.contains("page.md:6:") && e.contains("no such file"), "{e}");
}
