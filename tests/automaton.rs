//! The column automaton against independent deciders: CaDiCaL on the window
//! encoding, GRIDWALKER (`decide_orphan_rule`) and, for patterns whose parents
//! have at most 20 cells, brute force over every parent. Patterns are random,
//! with `?` cells, under Life and rules where small orphans abound. Every
//! predecessor is evolved by the naive engine; an orphan's emptied column must
//! be where its prefix first becomes an orphan.

use lifesearch::automaton::decide;
use lifesearch::cnf::{Outcome, SolverKind, new_solver};
use lifesearch::gridwalker::{Options, decide_orphan_rule};
use lifesearch::life::{Cell, Grid, Rule, SpecGrid, Topology, naive};
use lifesearch::search::verify::is_predecessor;
use lifesearch::search::{Boundary, Encoding, Problem, encode, solve};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use std::process::Command;

fn rule(s: &str) -> Rule {
    s.parse().unwrap()
}

fn sat_orphan(t: &SpecGrid, r: Rule) -> bool {
    let enc = encode(&Problem::orphan(t.clone(), Boundary::Free), Encoding::Window, r).unwrap();
    let a = solve(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut()).unwrap();
    assert_ne!(a.outcome, Outcome::Unknown);
    a.outcome == Outcome::Unsat
}

/// Brute force: does any parent of the (W+2) x (H+2) window give the known cells?
fn brute_orphan(t: &SpecGrid, r: Rule) -> bool {
    let (w, h) = (t.width() + 2, t.height() + 2);
    assert!(w * h <= 20);
    !(0..1u32 << (w * h)).any(|bits| {
        let p = Grid::from_cells(w, h, (0..w * h).map(|i| bits >> i & 1 == 1).collect());
        let next = naive::step(&p, r, Topology::Bounded);
        t.matches(&next.crop(1, 1, t.width(), t.height()))
    })
}

fn spec(w: usize, h: usize, cells: &[u8]) -> SpecGrid {
    let mut t = SpecGrid::new(w, h, Cell::Dead);
    for (c, &v) in t.cells_mut().iter_mut().zip(cells) {
        *c = match v % 7 {
            0..=2 => Cell::Dead,
            3..=5 => Cell::Alive,
            _ => Cell::Unknown,
        };
    }
    t
}

fn transposed(t: &SpecGrid) -> SpecGrid {
    let mut u = SpecGrid::new(t.height(), t.width(), Cell::Dead);
    for y in 0..t.height() {
        for x in 0..t.width() {
            u.set(y, x, t.get(x, y));
        }
    }
    u
}

/// The first `n` columns of a target.
fn prefix(t: &SpecGrid, n: usize) -> SpecGrid {
    let mut u = SpecGrid::new(n, t.height(), Cell::Dead);
    for y in 0..t.height() {
        for x in 0..n {
            u.set(x, y, t.get(x, y));
        }
    }
    u
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]
    #[test]
    fn agrees_with_sat_gridwalker_and_brute_force(
        w in 1usize..=7, h in 1usize..=4, cells in proptest::collection::vec(0u8..7, 28),
        r in prop::sample::select(vec!["B3/S23", "B36/S23", "B2/S", "B1/S1", "B/S"]),
    ) {
        let (r, t) = (rule(r), spec(w, h, &cells));
        let a = decide(&t, r).unwrap();
        let orphan = a.predecessor.is_none();
        prop_assert_eq!(orphan, sat_orphan(&t, r), "SAT on {:?} {}", t.to_rows(), r);
        let gw = decide_orphan_rule(&t, &Options::default(), r).unwrap();
        prop_assert_eq!(orphan, gw.predecessor.is_none(), "GRIDWALKER on {:?} {}", t.to_rows(), r);
        if (w + 2) * (h + 2) <= 20 {
            prop_assert_eq!(orphan, brute_orphan(&t, r), "brute force on {:?} {}", t.to_rows(), r);
        }
        prop_assert_eq!(a.emptied_at.is_some(), orphan);
        if let Some(p) = &a.predecessor {
            prop_assert!(is_predecessor(p, &t, 1, r));
        }
        // The same pattern on its side: the same verdict, read the other way.
        let b = decide(&transposed(&t), r).unwrap();
        prop_assert_eq!(b.predecessor.is_none(), orphan);
        prop_assert_eq!(b.transposed, w != h && !a.transposed);
    }
}

#[test]
fn long_narrow_patterns_agree_with_sat() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(18);
    let (mut orphans, mut parents) = (0, 0);
    for i in 0..24 {
        let (h, w) = (5 + i % 2, 20 + i % 7);
        // Life's and HighLife's orphans this narrow are too rare to hit at random; Gnarl's are not.
        let r = rule(["B3/S23", "B36/S23", "B1/S1", "B3/S012345678"][i % 4]);
        // The child of a random parent, with a few cells flipped (near the edge
        // of having a parent), or under Gnarl and Life without death a random target.
        let p = Grid::random(w + 2, h + 2, 0.4, &mut rng);
        let mut t = SpecGrid::from(&naive::step(&p, r, Topology::Bounded).crop(1, 1, w, h));
        if i % 4 >= 2 {
            t = SpecGrid::random(w, h, 0.4, 0.0, &mut rng);
        }
        for _ in 0..i % 4 {
            let (x, y) = (rng.random_range(0..w), rng.random_range(0..h));
            t.set(x, y, if t.get(x, y) == Cell::Alive { Cell::Dead } else { Cell::Alive });
        }
        let a = decide(&t, r).unwrap();
        assert_eq!(a.predecessor.is_none(), sat_orphan(&t, r), "{:?}", t.to_rows());
        match a.emptied_at {
            Some(e) => {
                orphans += 1;
                // The state set empties exactly where the prefix stops having a parent.
                assert!(sat_orphan(&prefix(&t, e + 1), r), "prefix of {} columns", e + 1);
                if e > 0 {
                    assert!(!sat_orphan(&prefix(&t, e), r), "prefix of {e} columns");
                }
            }
            None => parents += 1,
        }
    }
    assert!(orphans > 0 && parents > 0, "{orphans} orphans, {parents} with parents");
}

#[test]
fn too_wide_and_empty_patterns_are_refused() {
    let e = decide(&SpecGrid::new(7, 9, Cell::Dead), Rule::CONWAY).unwrap_err().to_string();
    assert!(e.contains("7x9") && e.contains("at most 6"), "{e}");
    assert!(decide(&SpecGrid::new(0, 3, Cell::Dead), Rule::CONWAY).is_err());
    // Long and thin is fine either way round.
    assert!(decide(&SpecGrid::new(3, 60, Cell::Dead), Rule::CONWAY).unwrap().transposed);
}

#[test]
fn orphan_command_with_the_automaton() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t.txt");
    std::fs::write(&f, "....\n..*.\n....\n").unwrap();
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_lifesearch")).args(args).output().unwrap();
    let path = f.to_str().unwrap();
    // Under B/S nothing survives, so the live cell in column 2 is where the states run out.
    let o = run(&["orphan", path, "--solver", "automaton", "--rule", "B/S", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((v["orphan"].as_bool(), v["emptied_at"].as_u64()), (Some(true), Some(2)));
    assert_eq!(v["solver"], "automaton");
    let o = run(&["orphan", path, "--solver", "automaton", "--rule", "B/S"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("emptied at column 2"));
    // Under Life it has a parent, printed as a 6x5 window.
    let o = run(&["orphan", path, "--solver", "automaton", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["orphan"], false);
    assert_eq!(v["predecessor"].as_array().map(|r| r.len()), Some(5));
    assert!(v.get("emptied_at").is_none());
    // Knuth's encoding knows Conway's rule only; too wide a pattern is a one-line error.
    let o = run(&["orphan", path, "--rule", "B36/S23", "--encoding", "knuth"]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::write(&f, "*******\n".repeat(7)).unwrap();
    let o = run(&["orphan", path, "--solver", "automaton"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("7x7"));
}
