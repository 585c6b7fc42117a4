//! The built book in a real browser (headless Chromium; skipped, saying so,
//! where there is none: `.ci/run` installs it). Every page is opened and must
//! log nothing to the console; every image, script, stylesheet and link it
//! names must exist (inside the book, or for a listing's caption the source
//! file in the repository); no raw TeX is left; search finds "GRIDWALKER" and
//! "slice". At 1280 px no page scrolls sideways and no table is wider than
//! the text column; every data figure's caption names the commands that
//! measure and redraw it. Screenshots go to `target/book-screenshots/` to be
//! looked at.

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

/// Appended to a copy of each page: once laid out, it writes what is too wide
/// into the DOM, where `--dump-dom` shows it.
const MEASURE: &str = r#"<script>
window.addEventListener('load', () => {
  const bad = [];
  const de = document.documentElement;
  if (de.scrollWidth > de.clientWidth + 1) bad.push('page ' + de.scrollWidth + 'px > ' + de.clientWidth + 'px');
  const main = document.querySelector('main');
  const room = main ? main.clientWidth : de.clientWidth;
  document.querySelectorAll('main table').forEach((t, i) => {
    if (t.scrollWidth > room + 1) bad.push('table ' + (i + 1) + ' ' + t.scrollWidth + 'px > ' + room + 'px');
  });
  const d = document.createElement('pre');
  d.id = 'width-report';
  // Split so that the script's own text never reads as a report.
  d.textContent = 'WID' + 'TH[' + bad.join('; ') + ']WID' + 'TH';
  document.body.appendChild(d);
});
</script>"#;

/// The data figures (`figures/ID.svg`) not followed by a caption that names
/// the commands measuring it and redrawing exactly it (`experiments plot ID`).
fn uncaptioned_figures(html: &str) -> Vec<String> {
    let img = Regex::new(r#"<img src="\.\./figures/([A-Za-z0-9_.-]+)\.svg""#).unwrap();
    img.captures_iter(html)
        .filter(|c| {
            let after = &html[c.get(0).unwrap().end()..];
            let caption = after
                .find("class=\"provenance")
                .filter(|&i| i < 2000)
                .and_then(|i| after[i..].split("</p>").next());
            !caption.is_some_and(|p| {
                p.contains("<code>experiments run ")
                    && p.contains(&format!("<code>experiments plot {}</code>", &c[1]))
            })
        })
        .map(|c| c[1].to_string())
        .collect()
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
        for id in uncaptioned_figures(&html) {
            problems.push(format!("{name}: figure {id} has no caption naming `experiments run`/`plot`"));
        }
        // The page is opened as a copy with the width probe appended, at 1280 px.
        let probe = page.with_extension("width.html");
        std::fs::write(&probe, html.replace("</body>", &format!("{MEASURE}</body>"))).unwrap();
        let (dom, log) = run(browser, &["--dump-dom", "--window-size=1280,2000"], &url(&probe));
        std::fs::remove_file(&probe).unwrap();
        for line in log.lines().filter(|l| l.contains(":CONSOLE")) {
            problems.push(format!("{name}: console: {line}"));
        }
        match dom.split("WIDTH[").nth(1).and_then(|r| r.split("]WIDTH").next()) {
            Some("") => {}
            Some(wide) => problems.push(format!("{name}: too wide at 1280 px: {wide}")),
            None => problems.push(format!("{name}: the width probe did not run")),
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
    for page in [
        "knuth/sat-life.html",
        "thesis/ch6.html",
        "thesis/causes.html",
        "beyond/census.html",
        "beyond/width.html",
    ] {
        let png = shots.join(page.replace('/', "-").replace(".html", ".png"));
        let arg = format!("--screenshot={}", png.display());
        run(browser, &[&arg, "--window-size=1280,2000"], &url(&out.join(page)));
        assert!(png.is_file(), "no screenshot of {page}");
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}
