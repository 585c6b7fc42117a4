//! `lifesearch convert` on good and bad input: bad input gives exit status 2,
//! one line `error: FILE:LINE: ...` on stderr, no panic, and no output file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_lifesearch");

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/formats").join(name)
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run lifesearch")
}

/// Write `bytes` to `dir/name`, convert it with `-o`, and check the failure.
fn assert_rejected(dir: &Path, name: &str, bytes: &[u8], line: usize, needle: &str) {
    let input = dir.join(name);
    std::fs::write(&input, bytes).unwrap();
    let out = dir.join(format!("{name}.out"));
    let o = run(&["convert", input.to_str().unwrap(), "--to", "rle", "-o", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{name}: {stderr}");
    assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{name}: one line expected: {stderr}");
    let prefix = format!("error: {}:{line}: ", input.display());
    assert!(stderr.starts_with(&prefix), "{name}: expected '{prefix}...', got {stderr}");
    assert!(stderr.contains(needle), "{name}: expected '{needle}' in {stderr}");
    assert!(o.stdout.is_empty(), "{name}: wrote to stdout");
    assert!(!out.exists(), "{name}: an output file was created");
    // Nothing else was left behind in the folder either (no temporary files).
    let left: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.iter().all(|n| !n.to_string_lossy().ends_with(".out")), "{left:?}");
}

#[test]
fn bad_inputs_are_one_line_errors_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_rejected(d, "wrong_header.lif", b"#Lief 1.05\n#P 0 0\n*\n", 1, "#Life 1.05");
    assert_rejected(d, "bad_version.lif", b"#Life one\n#P 0 0\n*\n", 1, "version");
    assert_rejected(d, "nine.lif", b"#Life 1.05\r\n#D nine\r\n#R 239/3\r\n#P 0 0\r\n*\r\n", 3, "9");
    let row81 = format!("#Life 1.05\n#P 0 0\n{}\n", "*".repeat(81));
    assert_rejected(d, "row81.lif", row81.as_bytes(), 3, "81");
    assert_rejected(d, "p_one_coordinate.lif", b"#Life 1.05\n#P 3\n*\n", 2, "#P");
    assert_rejected(d, "garbage.lif", b"#Life 1.05\n#P 0 0\n*.*\n\x01\x02zz!\n", 4, "unexpected character");
    assert_rejected(d, "garbage.rle", b"x = 3, y = 3\n3o$%%%!\n", 2, "unexpected character");
    assert_rejected(d, "latin1.lif", b"#Life 1.05\n#D caf\xe9\n#P 0 0\n*\n", 2, "UTF-8");
    assert_rejected(
        d,
        "huge_run.rle",
        b"#C ten billion cells\nx = 3, y = 1\n10000000000o!\n",
        3,
        "run count",
    );
    assert_rejected(d, "huge_size.rle", b"x = 10000000000, y = 10000000000\no!\n", 1, "at most");
    assert_rejected(d, "huge_rows.rle", b"x = 1, y = 1\n20000o20000$o!\n", 2, "too large");
    assert_rejected(d, "far_apart.lif106", b"#Life 1.06\n0 0\n1 1\n9000000000 0\n", 4, "too large");
    assert_rejected(d, "huge_p.lif", b"#Life 1.05\n#P 9223372036854775807 0\n**\n", 3, "too large");
    assert_rejected(d, "ragged.txt", b"..*\n.*\n", 2, "ragged");
    assert_rejected(d, "cells_bad.cells", b"!c\n.O.\n.X.\n", 3, "unexpected character");
    assert_rejected(d, "no_header.rle", b"#C only comments\nbo$2bo$3o!\n", 2, "header");
}

#[test]
fn missing_file_is_an_error_too() {
    let o = run(&["convert", "/nonexistent/pattern.rle"]);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.starts_with("error: /nonexistent/pattern.rle: "), "{stderr}");
}

#[test]
fn convert_writes_every_format_and_reads_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let input = data("winlife.lif");
    for to in ["lif", "lif106", "cells", "rle", "txt"] {
        let out = dir.path().join(format!("w.{to}"));
        let o = run(&["convert", input.to_str().unwrap(), "--to", to, "-o", out.to_str().unwrap()]);
        assert!(o.status.success(), "{to}: {}", String::from_utf8_lossy(&o.stderr));
        // And to stdout, the same text.
        let o2 = run(&["convert", input.to_str().unwrap(), "--to", to]);
        assert_eq!(o2.stdout, std::fs::read(&out).unwrap(), "{to}");
        // Converting back to Knuth's rows gives the same cells whatever the route.
        let o3 = run(&["convert", out.to_str().unwrap(), "--to", "txt"]);
        assert!(o3.status.success(), "{to}: {}", String::from_utf8_lossy(&o3.stderr));
        let direct = run(&["convert", input.to_str().unwrap(), "--to", "txt"]);
        assert_eq!(o3.stdout, direct.stdout, "{to}");
    }
}

/// Write `text` to `dir/name`, convert it to `to` on stdout, and check that
/// it succeeds with `want` and a warning naming line `line` that starts with `needle`.
fn assert_converted_with_warning(
    dir: &Path,
    name: &str,
    text: &str,
    to: &str,
    want: &str,
    line: usize,
    needle: &str,
) {
    let input = dir.join(name);
    std::fs::write(&input, text).unwrap();
    let o = run(&["convert", input.to_str().unwrap(), "--to", to]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{name}: {stderr}");
    assert_eq!(String::from_utf8_lossy(&o.stdout), want, "{name}");
    let prefix = format!("{}:{line}: warning: {needle}", input.display());
    assert!(stderr.starts_with(&prefix), "{name}: expected '{prefix}...', got {stderr}");
}

#[test]
fn warnings_go_to_stderr_and_the_conversion_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    assert_converted_with_warning(dir.path(), "new.lif", "#Life 1.09\n#P 0 0\n**\n", "txt", "**\n", 1, "");
}

#[test]
fn a_bare_p_line_places_its_block_at_the_origin_with_a_warning() {
    // As in Golly's sample Methuselahs/acorn.lif, which Golly reads.
    let dir = tempfile::tempdir().unwrap();
    assert_converted_with_warning(
        dir.path(),
        "acorn.lif",
        "#Life 1.05\n#D Acorn\n#N\n#P\n.*\n...*\n**..***\n",
        "lif106",
        "#Life 1.06\n1 0\n3 1\n0 2\n1 2\n4 2\n5 2\n6 2\n",
        4,
        "'#P' without coordinates",
    );
}

#[test]
fn evolve_writes_every_format() {
    let input = data("glider.rle");
    let mut outputs = Vec::new();
    for to in ["lif", "lif106", "cells", "rle", "txt"] {
        let o = run(&["evolve", input.to_str().unwrap(), "-g", "4", "--to", to]);
        assert!(o.status.success(), "{to}: {}", String::from_utf8_lossy(&o.stderr));
        outputs.push(String::from_utf8(o.stdout).unwrap());
    }
    // After 4 generations the glider has moved one cell down and right.
    assert!(!outputs[3].contains("Pos="), "{}", outputs[3]);
    assert_eq!(outputs[1], "#Life 1.06\n1 0\n2 1\n0 2\n1 2\n2 2\n");
    assert_eq!(outputs[4], ".*.\n..*\n***\n");
}

#[test]
fn output_extension_chooses_the_format_when_to_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let input = data("glider.rle");
    for (ext, start) in
        [("lif", "#Life 1.05"), ("cells", "!Name: Glider"), ("txt", ".*."), ("rle", "#N Glider")]
    {
        let out = dir.path().join(format!("g.{ext}"));
        let o = run(&["convert", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert!(o.status.success(), "{ext}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(std::fs::read_to_string(&out).unwrap().starts_with(start), "{ext}");
    }
}
