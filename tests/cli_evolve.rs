//! `lifesearch evolve` end to end, including the bad inputs that must give a
//! one-line error and exit status 2.

use std::process::Command;

fn lifesearch(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lifesearch")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn file(name: &str, content: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lifesearch-cli-evolve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p
}

#[test]
fn glider_on_a_torus_with_every_algorithm() {
    let p = file("glider.txt", b".*.\n..*\n***\n");
    for alg in ["naive", "table", "lifecube", "lifecube-parallel"] {
        let (code, out, err) = lifesearch(&[
            "evolve",
            p.to_str().unwrap(),
            "--generations",
            "8",
            "--torus",
            "5x5",
            "--algorithm",
            alg,
            "--to",
            "txt",
        ]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, ".....\n.....\n...*.\n....*\n..***\n", "{alg}");
    }
}

#[test]
fn hilife_rule_in_winlife_notation() {
    let p = file("rep.txt", b"..***\n.*..*\n*...*\n*..*.\n***..\n");
    let (_, conway, _) = lifesearch(&["evolve", p.to_str().unwrap(), "-g", "12"]);
    let (code, hilife, err) = lifesearch(&["evolve", p.to_str().unwrap(), "-g", "12", "--rule", "23/36"]);
    assert_eq!(code, 0, "{err}");
    assert_ne!(conway, hilife);
    assert_eq!(hilife.matches('*').count(), 24);
}

#[test]
fn bad_inputs_exit_two_with_one_line() {
    let empty = file("empty.txt", b"");
    let ragged = file("ragged.txt", b"..*\n*\n");
    let unknown = file("unknown.txt", b"..*\n.x*\n");
    let ok = file("ok.txt", b"*\n");
    let nonutf8 = file("bin.txt", b"..*\n\xff\xfe\n");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["evolve", empty.to_str().unwrap(), "-g", "1"], "empty"),
        (vec!["evolve", ragged.to_str().unwrap(), "-g", "1"], ":2:"),
        (vec!["evolve", unknown.to_str().unwrap(), "-g", "1"], "'x'"),
        (vec!["evolve", nonutf8.to_str().unwrap(), "-g", "1"], "UTF-8"),
        (vec!["evolve", ok.to_str().unwrap(), "-g", "1", "--torus", "0x0"], "at least 1"),
        (vec!["evolve", ok.to_str().unwrap(), "-g", "99999999999999999999999"], "generations"),
        (vec!["evolve", ok.to_str().unwrap(), "-g", "1", "--rule", "B9/S23"], "9"),
        (vec!["evolve", "/nonexistent/file.txt", "-g", "1"], "file.txt"),
    ];
    for (args, needle) in cases {
        let (code, out, err) = lifesearch(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} printed {out}");
        assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
        assert!(!err.contains("panicked"), "{err}");
    }
}
