//! The built book in a real browser (headless Chromium; skipped, saying so,
//! where there is none: `.ci/run` installs it). Every page is opened and must
//! log nothing to the console; every image, script, stylesheet and link it
//! names must exist (inside the book, or for a listing's caption the source
//! file in the repository); no raw TeX is left; search finds "GRIDWALKER" and
//! "slice". Three screenshots go to `target/book-screenshots/` to be looked at.

use regex::Regex;
use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()))
}

fn run(browser: &str, args: &[&str], url: &str) -> (String, String) {
    let o = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0"])
        .args(["--virtual-time-budget=4000", "--allow-file-access-from-files"])
        .args(args)
        .arg(url)
        .output()
        .expect("the browser runs");
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn html_pages(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            html_pages(&p, out);
        } else if p.extension().is_some_and(|x| x == "html") {
            out.push(p);
        }
    }
}

fn url(p: &Path) -> String {
    format!("file://{}", p.display())
}

#[test]
fn the_book_works_in_a_browser() {
    let Some(browser) = chromium() else {
        eprintln!(
            "SKIPPED: no Chromium on this machine (apt-get install chromium); the browser test did not run"
        );
        return;
    };
    let root = bookgen::find_root(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    let dir = tempfile::Builder::new().prefix("book-").tempdir_in(root.join("target")).unwrap();
    let out = bookgen::build_book_to(&root, Some(dir.path())).unwrap();
    let mut pages = Vec::new();
    html_pages(&out, &mut pages);
    pages.sort();
    assert!(pages.len() > 20, "{} pages", pages.len());
    let refs = Regex::new(r##"(?:src|href)="([^"#?]*)[^"]*""##).unwrap();
    let code = Regex::new(r"(?s)<pre.*?</pre>|<code.*?</code>|<script.*?</script>").unwrap();
    let mut problems = Vec::new();
    // 404.html is for a web server (its links start at the site's root).
    pages.retain(|p| !p.ends_with("404.html"));
    for page in &pages {
        let name = page.strip_prefix(&out).unwrap().display().to_string();
        let html = std::fs::read_to_string(page).unwrap();
        // What the page names must exist; nothing may come from the network.
        for c in refs.captures_iter(&html) {
            let target = &c[1];
            if target.is_empty() || target.starts_with("mailto:") {
                continue;
            }
            if target.starts_with("http://") || target.starts_with("https://") || target.starts_with("//") {
                if c[0].starts_with("src")
                    || html.contains(&format!("<link rel=\"stylesheet\" href=\"{target}"))
                {
                    problems.push(format!("{name}: loads {target} from the network"));
                }
                continue;
            }
            let file = page.parent().unwrap().join(target);
            let inside_repo = file.canonicalize().is_ok_and(|f| f.starts_with(&root));
            if !file.exists() || !inside_repo {
                problems.push(format!("{name}: {target} does not resolve"));
            }
        }
        let prose = code.replace_all(&html, "");
        if prose.contains("\\(") || prose.contains("\\[") || prose.contains("{{#") {
            problems.push(format!("{name}: raw TeX or an unexpanded directive"));
        }
        let (_, log) = run(browser, &["--dump-dom"], &url(page));
        for line in log.lines().filter(|l| l.contains(":CONSOLE")) {
            problems.push(format!("{name}: console: {line}"));
        }
    }
    let hits = Regex::new(r"(\d+) search results? for").unwrap();
    for word in ["GRIDWALKER", "slice"] {
        let (dom, _) =
            run(browser, &["--dump-dom"], &format!("{}?search={word}", url(&out.join("index.html"))));
        match hits.captures(&dom).map(|c| c[1].parse::<usize>().unwrap()) {
            Some(n) if n > 0 => {}
            other => problems.push(format!("search for {word}: {other:?} results")),
        }
    }
    let shots = root.join("target/book-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    for page in ["knuth/sat-life.html", "thesis/causes.html", "beyond/census.html"] {
        let png = shots.join(page.replace('/', "-").replace(".html", ".png"));
        let arg = format!("--screenshot={}", png.display());
        run(browser, &[&arg, "--window-size=1280,2000"], &url(&out.join(page)));
        assert!(png.is_file(), "no screenshot of {page}");
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}
