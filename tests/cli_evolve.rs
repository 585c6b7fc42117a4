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
        (
            vec!["evolve", ok.to_str().unwrap(), "-g", "1", "--algorithm", "relay", "--torus", "8x8"],
            "plane only",
        ),
        (vec!["evolve", ok.to_str().unwrap(), "-g", "1", "--algorithm", "relay", "--rule", "B0/S8"], "B0"),
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

#[test]
fn json_stats_without_the_pattern() {
    let p = file("glider-json.txt", b".*.\n..*\n***\n");
    for alg in ["lifecube", "hashlife", "naive", "tiles", "relay", "auto"] {
        let (code, out, err) = lifesearch(&[
            "evolve",
            p.to_str().unwrap(),
            "-g",
            "8",
            "--algorithm",
            alg,
            "--json",
            "--to",
            "none",
        ]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
        assert_eq!(v["generations"], 8);
        assert_eq!(v["population"], 5);
        assert_eq!(v["topology"], "plane");
        // A glider moves one cell down and right every 4 generations.
        assert_eq!(v["bounding_box"]["x"], 2, "{alg}: {out}");
        assert_eq!(v["bounding_box"]["y"], 2, "{alg}: {out}");
        assert_eq!(v["bounding_box"]["width"], 3);
        assert!(v["wall_seconds"].as_f64().unwrap() >= 0.0);
        assert!(v["cell_generations_per_second"].is_number());
        if alg == "auto" {
            assert_eq!(v["engine"], "relay", "{out}");
            assert!(err.contains("auto picked relay"), "{err}");
        } else {
            assert_eq!(v["engine"], alg);
        }
    }
}

#[test]
fn stats_on_stderr_and_no_pattern_with_to_none() {
    let p = file("blinker.txt", b"***\n");
    let (code, out, err) =
        lifesearch(&["evolve", p.to_str().unwrap(), "-g", "3", "--torus", "5x5", "--stats", "--to", "none"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("population 3") && err.contains("cell-generations/s") && err.contains("lifecube"),
        "{err}"
    );
}

#[test]
fn hashlife_long_run_writes_a_macrocell_that_reads_back() {
    let gun = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/formats/gun.rle");
    let dir = std::env::temp_dir().join(format!("lifesearch-cli-evolve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mc = dir.join("gun.mc");
    // Auto picks HashLife for a long run; 2^40 generations as a macrocell.
    let (code, out, err) = lifesearch(&[
        "evolve",
        gun,
        "-g",
        "1099511627776",
        "--to",
        "mc",
        "-o",
        mc.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("auto picked hashlife"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["engine"], "hashlife");
    let pop = v["population"].as_u64().unwrap();
    assert!(pop > 5 * ((1u64 << 40) / 30 - 2), "{pop}");
    // Reading the macrocell back and running 0 generations keeps the population.
    let (code, out, err) = lifesearch(&["evolve", mc.to_str().unwrap(), "-g", "0", "--json"]);
    assert_eq!(code, 0, "{err}");
    let w: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(w["population"].as_u64().unwrap(), pop);
    assert_eq!(w["bounding_box"], v["bounding_box"]);
    // Too large for a dense format: a clear error, exit 2.
    let (code, _, err) = lifesearch(&["evolve", mc.to_str().unwrap(), "-g", "0", "--to", "rle"]);
    assert_eq!(code, 2);
    assert!(err.contains("too large") && err.contains("--to mc"), "{err}");
}

#[test]
fn hashlife_refuses_b0_and_the_torus() {
    let p = file("dot.txt", b"*\n");
    let (code, _, err) =
        lifesearch(&["evolve", p.to_str().unwrap(), "-g", "4", "--algorithm", "hashlife", "--rule", "B0/S8"]);
    assert_eq!(code, 2);
    assert!(err.contains("B0"), "{err}");
    let (code, _, err) =
        lifesearch(&["evolve", p.to_str().unwrap(), "-g", "4", "--algorithm", "hashlife", "--torus", "8x8"]);
    assert_eq!(code, 2);
    assert!(err.contains("plane"), "{err}");
}

#[test]
fn hashlife_and_lifecube_print_the_same_pattern() {
    let p = file("rpent.txt", b".**\n**.\n.*.\n");
    let (_, a, _) =
        lifesearch(&["evolve", p.to_str().unwrap(), "-g", "300", "--algorithm", "lifecube", "--to", "rle"]);
    let (code, b, err) =
        lifesearch(&["evolve", p.to_str().unwrap(), "-g", "300", "--algorithm", "hashlife", "--to", "rle"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(a, b);
}

/// Two gliders 300,000 cells apart: a box far too large for a grid, read
/// straight into HashLife's tree. Each glider moves (256, 256) in 1,024
/// generations, so the box keeps its size; the dense engines refuse with a
/// pointer to HashLife, and a file with too many live cells names its line.
#[test]
fn an_rle_too_wide_for_a_grid_goes_to_hashlife() {
    let p = file("wide.rle", b"x = 300003, y = 3, rule = B3/S23\nbo299999bo$2bo299999bo$3o299997b3o!\n");
    for alg in ["hashlife", "auto"] {
        let (code, out, err) = lifesearch(&[
            "evolve",
            p.to_str().unwrap(),
            "-g",
            "1024",
            "--algorithm",
            alg,
            "--to",
            "none",
            "--json",
        ]);
        assert_eq!(code, 0, "{alg}: {err}");
        let j: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(j["engine"], "hashlife");
        assert_eq!(j["population"], 10);
        assert_eq!(j["bounding_box"]["x"], 256);
        assert_eq!(j["bounding_box"]["y"], 256);
        assert_eq!(j["bounding_box"]["width"], 300003);
        assert_eq!(j["bounding_box"]["height"], 3);
    }
    let (code, _, err) = lifesearch(&["evolve", p.to_str().unwrap(), "-g", "4", "--algorithm", "tiles"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("wide.rle") && err.contains("--algorithm hashlife"), "{err}");
    let huge = file("huge.rle", b"x = 1099511627776, y = 1\n#C a run of 2^40 live cells\n1099511627776o!\n");
    let (code, _, err) =
        lifesearch(&["evolve", huge.to_str().unwrap(), "-g", "4", "--algorithm", "hashlife"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("huge.rle:3") && err.contains("live cells"), "{err}");
}
