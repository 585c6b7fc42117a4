//! Smoke test: every experiment in tiny mode (seconds) into a temporary root;
//! each either writes a CSV with its declared columns, valid SVG/PNG figures and
//! its generated Markdown, or stops with a clear BLOCKED message and writes nothing.

use std::path::Path;
use std::process::{Command, Output};

fn exe(root: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_experiments"))
        .arg("--root")
        .arg(root)
        .arg("--tiny")
        .arg("--quiet")
        .args(args)
        .output()
        .expect("the experiments binary runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[test]
fn every_experiment_runs_in_tiny_mode() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let all = exe(root, &["all"]);
    let log = text(&all);
    assert!(all.status.success(), "all failed:\n{log}");
    let list = text(&exe(root, &["list"]));
    let ids: Vec<&str> = list.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert!(ids.len() >= 14, "{list}");
    for id in &ids {
        let line =
            log.lines().find(|l| l.starts_with(id)).unwrap_or_else(|| panic!("{id} not reported:\n{log}"));
        let csv = root.join("data").join(format!("{id}.csv"));
        if line.contains("BLOCKED") {
            assert!(line.contains("needs "), "{line}");
            assert!(!csv.exists(), "{id} is blocked but wrote {}", csv.display());
        } else {
            assert!(line.contains("done"), "{line}");
            assert!(csv.exists(), "{id} reported done without a CSV");
        }
    }
    // These do not depend on anyone else's code: they must have run.
    for id in ["table-3-1", "section-6-4", "section-6-4-ancestors", "candidates-6-1"] {
        assert!(log.lines().any(|l| l.starts_with(id) && l.contains("done")), "{id}:\n{log}");
    }
    // Columns, SVG, PNG and Markdown of everything written.
    let check = exe(root, &["check"]);
    assert!(check.status.success(), "{}", text(&check));
    assert!(!text(&check).contains("BAD"), "{}", text(&check));
    let manifest = std::fs::read_to_string(root.join("data/manifest.json")).unwrap();
    assert!(
        manifest.contains("\"cpu\"") && manifest.contains("\"table-3-1\"") && manifest.contains("\"tiny\"")
    );
    // Outputs are up to date now: a second run skips, --force reruns.
    let again = text(&exe(root, &["run", "table-3-1"]));
    assert!(again.contains("up to date"), "{again}");
    let forced = text(&exe(root, &["run", "table-3-1", "--force"]));
    assert!(forced.contains("done"), "{forced}");
    // plot redraws from the CSVs alone.
    std::fs::remove_file(root.join("book/src/figures/table-3-1.svg")).unwrap();
    let plot = exe(root, &["plot"]);
    assert!(plot.status.success(), "{}", text(&plot));
    assert!(root.join("book/src/figures/table-3-1.svg").exists());
    // No temporary files anywhere.
    for sub in ["data", "book/src/figures", "book/src/generated"] {
        for e in std::fs::read_dir(root.join(sub)).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            assert!(!name.contains("tmp") && !name.starts_with('.'), "leftover {sub}/{name}");
        }
    }
}

#[test]
fn bad_use_is_a_one_line_error_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let o = exe(dir.path(), &["run", "no-such-table"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("error: unknown experiment 'no-such-table'"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1);
    // A corrupt CSV makes plot fail with the file named, not panic.
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/table-3-1.csv"), "pattern,algorithm\nx,y\n").unwrap();
    let o = exe(dir.path(), &["plot"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).contains("table-3-1.csv"), "{}", text(&o));
}
