//! The `orphan`, `search` and `cnf` commands end to end, through the binary.

use lifesearch::cnf::child::{command, solve_in_child};
use lifesearch::cnf::{Outcome, SolverKind};
use lifesearch::life::{Grid, Rule, SpecGrid};
use lifesearch::search::verify::is_predecessor;
use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_lifesearch"))
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(bin()).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn orphan_json_has_exactly_the_promised_fields() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "b.txt", ".*.\n.*.\n.?.\n");
    let mut solvers: Vec<&str> = SolverKind::available_kinds().iter().map(|k| k.name()).collect();
    solvers.extend(["gridwalker", "automaton", "auto"]);
    for solver in solvers {
        let (code, out, err) = run(&["orphan", &f, "--json", "--solver", solver]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(keys, ["engine", "millis", "orphan", "predecessor", "solver", "stats"]);
        assert_eq!(v["orphan"], false);
        assert_eq!(v["solver"], solver);
        // Only the portfolio's engine differs from the solver asked for.
        let engine = v["engine"].as_str().unwrap();
        match solver {
            "auto" => assert!(["gridwalker", "cadical", "automaton"].contains(&engine), "{engine}"),
            _ => assert_eq!(engine, solver),
        }
        assert!(v["millis"].as_f64().unwrap() >= 0.0);
        let rows: Vec<String> =
            v["predecessor"].as_array().unwrap().iter().map(|r| r.as_str().unwrap().to_string()).collect();
        let parent = Grid::from_rows(&rows).unwrap();
        assert_eq!((parent.width(), parent.height()), (5, 5));
        let target = lifesearch::formats::knuth_rows::parse_spec(
            &lifesearch::error::Location::new("b", None),
            ".*.\n.*.\n.?.\n",
        )
        .unwrap();
        assert!(is_predecessor(&parent, &target, 1, Rule::CONWAY));
    }
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let ragged = write(dir.path(), "r.txt", "..*\n.*\n");
    let good = write(dir.path(), "g.txt", "..*\n.*.\n");
    let cases: Vec<Vec<&str>> = vec![
        vec!["orphan", &ragged],
        vec!["orphan", "/nonexistent/x.txt"],
        vec!["orphan", &good, "--solver", "picosat"],
        vec!["search", "oscillator", "--width", "0", "--height", "5", "--period", "2"],
        vec!["search", "oscillator", "--width", "5", "--height", "5"],
        vec![
            "search",
            "oscillator",
            "--width",
            "5",
            "--height",
            "5",
            "--period",
            "84",
            "--encoding",
            "knuth",
        ],
        vec!["search", "still-life", "--width", "5", "--height", "5", "--solver", "nosuch"],
        vec!["cnf", "still-life", "--width", "5", "--height", "0"],
    ];
    for args in cases {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert!(err.starts_with("error"), "{args:?}: {err}");
    }
    if !cfg!(feature = "extra-solvers") {
        let (code, _, err) = run(&["orphan", &good, "--solver", "kissat"]);
        assert_eq!(code, 2);
        assert!(err.contains("extra-solvers"), "{err}");
    }
    let (_, _, err) = run(&["orphan", &ragged]);
    assert!(err.contains("r.txt:2"), "{err}");
}

/// `--up-to-translation` counts the 82 placements of 4x4 still lifes as 39
/// patterns in every engine, and is refused without `--count`.
#[test]
fn search_counts_up_to_translation() {
    for solver in ["cadical", "spacetime", "auto"] {
        let args = ["search", "still-life", "--width", "4", "--height", "4", "--count", "--json"];
        let (code, out, err) = run(&[&args[..], &["--up-to-translation", "--solver", solver]].concat());
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["count"], 39, "{solver}");
    }
    let (code, _, err) =
        run(&["search", "still-life", "--width", "4", "--height", "4", "--up-to-translation"]);
    assert_eq!(code, 2);
    assert!(err.contains("--count"), "{err}");
}

#[test]
fn search_json_count_and_find() {
    let (code, out, err) =
        run(&["search", "still-life", "--width", "4", "--height", "4", "--count", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["count"], 82);
    let (code, out, err) = run(&[
        "search",
        "spaceship",
        "--width",
        "5",
        "--height",
        "5",
        "--period",
        "4",
        "--dx",
        "-1",
        "--dy",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let g = found_cycle(&out, 4, (-1, 1));
    assert_eq!(g.population(), 5, "the glider");
}

/// `search --rule R --to rle`: the answer is RLE with the rule in its
/// header, under every engine; a B0 rule is refused with exit status 2.
#[test]
fn search_other_rules_and_rle() {
    let p2 = ["search", "oscillator", "--width", "4", "--height", "4", "--period", "2", "--rule", "B36/S23"];
    for solver in ["auto", "spacetime", "cadical", "gridwalker"] {
        let (code, out, err) = run(&[&p2[..], &["--solver", solver, "--to", "rle"]].concat());
        assert_eq!(code, 0, "{solver}: {err}");
        assert!(out.contains("rule = B36/S23"), "{solver}: {out}");
    }
    let (code, _, err) = run(&[
        "search",
        "still-life",
        "--width",
        "3",
        "--height",
        "3",
        "--rule",
        "B0/S8",
        "--solver",
        "spacetime",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("B0"), "{err}");
    let (code, out, err) = run(&[
        "search",
        "still-life",
        "--width",
        "4",
        "--height",
        "4",
        "--count",
        "--json",
        "--solver",
        "spacetime",
        "--max-population",
        "4",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["engine"], "spacetime");
    assert!(v["count"].as_u64().unwrap() > 0 && v["count"].as_u64().unwrap() < 82, "{out}");
}

/// The pattern a `search --json` answer found, checked to be the cycle asked for.
fn found_cycle(out: &str, period: usize, (dx, dy): (i64, i64)) -> Grid {
    let v: serde_json::Value = serde_json::from_str(out).unwrap();
    assert_eq!(v["found"], true, "{out}");
    let rows: Vec<String> =
        v["pattern"].as_array().unwrap().iter().map(|r| r.as_str().unwrap().into()).collect();
    let g = Grid::from_rows(&rows).unwrap();
    lifesearch::search::verify::check_cycle(&g, period, dx, dy, Rule::CONWAY).unwrap();
    g
}

/// GRIDWALKER's circular stack answers the same caged question: the LWSS in
/// a 7x5 box (it used to return a ship leaving the box and then reject it),
/// and "none" with its node count when nothing fits.
#[test]
fn search_with_gridwalker_stays_in_the_box() {
    let lwss = ["search", "spaceship", "--width", "7", "--height", "5", "--period", "4", "--dx", "-2"];
    for solver in ["gridwalker", "auto", "spacetime"] {
        let (code, out, err) = run(&[&lwss[..], &["--solver", solver, "--json"]].concat());
        assert_eq!(code, 0, "{err}");
        let g = found_cycle(&out, 4, (-2, 0));
        // The LWSS shows 9 cells in two of its phases and 12 in the other two;
        // an engine may return any phase (the space-time engine, which starts
        // from a live leading line, returns a 12-cell one).
        assert!([9, 12].contains(&g.population()), "the LWSS, got {} cells:\n{out}", g.population());
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["solver"], solver);
        assert!(["gridwalker", "cadical", "spacetime"].contains(&v["engine"].as_str().unwrap()), "{out}");
    }
    let none =
        ["search", "spaceship", "--width", "3", "--height", "3", "--period", "4", "--dx", "1", "--dy", "1"];
    let (code, out, err) = run(&[&none[..], &["--solver", "gridwalker", "--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["found"], false);
    assert!(v["stats"]["nodes"].as_u64().unwrap() > 0, "{out}");
}

#[test]
fn cnf_files_solve_the_same_and_measure_memory() {
    let dir = tempfile::tempdir().unwrap();
    let goe = write(
        dir.path(),
        "goe.txt",
        ".*.***.*..\n..*.*.*..*\n*.***..**.\n.*.*****.*\n*..*..****\n****..*..*\n*.*****.*.\n.**..***.*\n*..*.*.*..\n..*.***.*.\n",
    );
    let out = dir.path().join("goe.cnf");
    let (code, _, err) = run(&["cnf", "orphan", &goe, "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let small = dir.path().join("s.cnf");
    let (code, _, err) =
        run(&["cnf", "still-life", "--width", "3", "--height", "3", "-o", small.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for kind in [SolverKind::Cadical, SolverKind::Batsat] {
        let r = solve_in_child(command(&bin(), &["cnf", "__solve"], &out, kind)).unwrap();
        assert_eq!(r.outcome, Outcome::Unsat, "{kind}");
        assert!(r.max_rss_bytes > 1 << 20, "{kind}: {} bytes", r.max_rss_bytes);
        let s = solve_in_child(command(&bin(), &["cnf", "__solve"], &small, kind)).unwrap();
        assert_eq!(s.outcome, Outcome::Sat);
    }
    // iCNF: two copies of a blinker and the orphan in one stream.
    let b = write(
        dir.path(),
        "b.txt",
        "..........\n....*.....\n....*.....\n....*.....\n..........\n..........\n..........\n..........\n..........\n..........\n",
    );
    let icnf = dir.path().join("s.icnf");
    let (code, _, err) = run(&["cnf", "orphan", &b, &goe, &b, "--icnf", "-o", icnf.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&icnf).unwrap();
    assert!(text.starts_with("p inccnf\n"));
    assert_eq!(text.lines().filter(|l| l.starts_with("a ")).count(), 3);
    let script =
        lifesearch::cnf::IcnfScript::read(&lifesearch::error::Location::new("s", None), &text).unwrap();
    let mut s = lifesearch::cnf::new_solver(SolverKind::Cadical).unwrap();
    assert_eq!(script.run(s.as_mut()).unwrap(), vec![Outcome::Sat, Outcome::Unsat, Outcome::Sat]);
    let _ = SpecGrid::new(1, 1, lifesearch::life::Cell::Dead);
}
