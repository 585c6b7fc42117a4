//! Smoke test: every experiment in tiny mode (seconds) into a temporary root;
//! each writes a CSV with its declared columns, valid SVG/PNG figures and its
//! generated Markdown. Failures are loud: a missing or corrupt input, or an
//! experiment that cannot run, is a non-zero exit with one line naming it, and
//! leaves the outputs already there untouched.

use std::path::Path;
use std::process::{Command, Output};

fn exe(root: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_experiments"));
    cmd.arg("--root").arg(root).args(["--tiny", "--quiet"]).args(args);
    cmd.output().expect("the experiments binary runs")
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
        assert!(line.contains("done"), "{line}");
        assert!(csv.exists(), "{id} reported done without a CSV");
    }
    for word in ["BLOCKED", "FAILED", "skipped"] {
        assert!(!log.contains(word), "{word} in a successful run:\n{log}");
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

/// Every file under `root/data` and the book's generated folders, with its bytes.
fn snapshot(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for sub in ["data", "book/src/figures", "book/src/generated"] {
        let Ok(dir) = std::fs::read_dir(root.join(sub)) else { continue };
        for e in dir {
            let p = e.unwrap().path();
            if p.is_file() {
                out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// A corrupt or missing input stops the run before anything is measured, in
/// one line naming the file, and the outputs stay byte for byte as they were;
/// an experiment that fails mid-way leaves its old outputs in place too.
#[test]
fn failures_are_loud_and_leave_the_outputs_alone() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let ok = exe(&root, &["run", "section-6-4-ancestors", "candidates-6-1", "figure-6-1", "figure-6-2"]);
    assert!(ok.status.success(), "{}", text(&ok));
    let before = snapshot(&root);
    assert!(before.len() >= 8, "{before:?}");
    // A copy of the thesis' data with one byte of the raw statistics changed.
    let data = dir.path().join("thesis");
    std::fs::create_dir_all(&data).unwrap();
    let vendored = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/thesis");
    for e in std::fs::read_dir(&vendored).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, data.join(p.file_name().unwrap())).unwrap();
    }
    let gz = data.join("life64-stats-125000.txt.gz");
    let mut bytes = std::fs::read(&gz).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&gz, &bytes).unwrap();
    let args = ["--thesis-data", data.to_str().unwrap(), "all", "--force"];
    let o = exe(&root, &args);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].contains("life64-stats-125000.txt.gz"), "{err}");
    assert_eq!(snapshot(&root), before, "outputs changed after a failed run");
    // Gone altogether: the same.
    std::fs::remove_file(&gz).unwrap();
    let o = exe(&root, &args);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("life64-stats-125000.txt.gz"), "{}", text(&o));
    assert_eq!(snapshot(&root), before);
    // An experiment whose input is gone fails by name; its old outputs stay.
    std::fs::remove_file(root.join("data/figure-6-1.csv")).unwrap();
    let before = snapshot(&root);
    let o = exe(&root, &["run", "figure-6-2", "--force"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.lines().any(|l| l.starts_with("figure-6-2") && l.contains("FAILED")), "{err}");
    assert_eq!(snapshot(&root), before);
}
