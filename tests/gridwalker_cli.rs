//! `lifesearch slices` end to end.

use std::process::Command;

const ORPHAN: &str = ".*.***.*..\n..*.*.*..*\n*.***..**.\n.*.*****.*\n*..*..****\n\
                      ****..*..*\n*.*****.*.\n.**..***.*\n*..*.*.*..\n..*.***.*.\n";

fn slices(text: &str, extra: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.txt");
    std::fs::write(&path, text).unwrap();
    let out =
        Command::new(env!("CARGO_BIN_EXE_lifesearch")).arg("slices").arg(&path).args(extra).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn prints_figure_5_9_b_and_the_minimal_slice() {
    let (code, out, _) = slices(ORPHAN, &["--min"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 11);
    assert_eq!(lines[0], "268 132 161 115 119 121 163 130 242 268");
    assert_eq!(lines[9], "268 242 130 163 121 119 115 161 132 268");
    assert_eq!(lines[10], "min 108 at x=3 y=2: centre alive 55, centre dead 53");
    let (_, fig, _) = slices(ORPHAN, &["--convention", "figure-5-2"]);
    assert_eq!(fig.lines().collect::<Vec<_>>(), lines[..10]);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let (code, out, err) = slices(".*\n*x\n", &[]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1);
    assert!(err.contains("t.txt:2"), "{err}");
}
