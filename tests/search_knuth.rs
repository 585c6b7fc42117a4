//! The knuth encoding (Knuth's SAT-LIFE counting network from `crate::knuth`)
//! against the window encoding, OEIS counts and evolution.

use lifesearch::cnf::{Outcome, SolverKind, new_solver};
use lifesearch::life::{Cell, Grid, Rule, SpecGrid};
use lifesearch::search::verify::{check_cycle, is_predecessor};
use lifesearch::search::{Boundary, Cycle, Encoding, Problem, Symmetry, count, encode, solve};
use rand::{Rng, SeedableRng};

fn cycle(w: usize, h: usize, p: usize, dx: i64, dy: i64, symmetry: Symmetry) -> Problem {
    Problem::Cycle(Cycle { width: w, height: h, period: p, dx, dy, symmetry })
}

fn count_with(p: &Problem, e: Encoding) -> Vec<Grid> {
    let enc = encode(p, e, Rule::CONWAY).unwrap();
    let r = count(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut(), None).unwrap();
    assert!(r.complete);
    let mut v = r.solutions;
    v.sort_by_key(|g| g.cells().to_vec());
    v
}

#[test]
fn knuth_counts_match_oeis_and_the_window_encoding() {
    // A136278(n) - 1 non-empty still lifes, 2 x A136279(n) period-2 phases.
    for (n, p, expect) in
        [(3, 1, 11), (4, 1, 82), (5, 1, 416), (6, 1, 3927), (3, 2, 2), (4, 2, 24), (5, 2, 86), (6, 2, 326)]
    {
        let pr = cycle(n, n, p, 0, 0, Symmetry::None);
        let k = count_with(&pr, Encoding::Knuth);
        assert_eq!(k.len(), expect, "{n}x{n} p{p}");
        for g in &k {
            check_cycle(g, p, 0, 0, Rule::CONWAY).unwrap();
        }
        if n <= 5 {
            assert_eq!(k, count_with(&pr, Encoding::Window), "{n}x{n} p{p}");
        }
    }
}

#[test]
fn knuth_spaceships_symmetry_and_rectangles_agree_with_window() {
    for pr in [
        cycle(5, 5, 4, 1, 1, Symmetry::None),
        cycle(5, 4, 4, -1, 1, Symmetry::None),
        cycle(6, 4, 2, 0, 0, Symmetry::MirrorLr),
        cycle(5, 5, 2, 0, 0, Symmetry::Rot90),
        cycle(5, 5, 1, 0, 0, Symmetry::Quad),
        cycle(4, 6, 1, 0, 0, Symmetry::Rot180),
    ] {
        let Cycle { period, dx, dy, .. } = pr.cycle().unwrap();
        let k = count_with(&pr, Encoding::Knuth);
        for g in &k {
            check_cycle(g, period, dx, dy, Rule::CONWAY).unwrap();
        }
        assert_eq!(k, count_with(&pr, Encoding::Window), "{pr:?}");
    }
}

#[test]
fn knuth_predecessors_agree_with_window() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(21);
    for i in 0..30 {
        let n = 3 + i % 5;
        let mut t = SpecGrid::new(n, n, Cell::Dead);
        for c in t.cells_mut().iter_mut() {
            *c = if rng.random_bool(0.1) {
                Cell::Unknown
            } else if rng.random_bool(0.5) {
                Cell::Alive
            } else {
                Cell::Dead
            };
        }
        let gens = 1 + i % 2;
        for boundary in [Boundary::Free, Boundary::Dead] {
            let pr = Problem::Predecessor { target: t.clone(), generations: gens, boundary };
            let eff = lifesearch::search::encode::effective_target(&t, boundary);
            let k = solve(
                &encode(&pr, Encoding::Knuth, Rule::CONWAY).unwrap(),
                new_solver(SolverKind::Cadical).unwrap().as_mut(),
            )
            .unwrap();
            let w = solve(
                &encode(&pr, Encoding::Window, Rule::CONWAY).unwrap(),
                new_solver(SolverKind::Batsat).unwrap().as_mut(),
            )
            .unwrap();
            assert_eq!(k.outcome, w.outcome);
            if k.outcome == Outcome::Sat {
                assert!(is_predecessor(&k.generations[0], &eff, gens, Rule::CONWAY));
            }
        }
    }
    // The thesis' Garden of Eden is an orphan in Knuth's encoding too.
    let goe = lifesearch::search::known::GARDEN_OF_EDEN_10X10;
    let t = SpecGrid::from(&Grid::from_rows(&goe).unwrap());
    let enc = encode(&Problem::orphan(t, Boundary::Free), Encoding::Knuth, Rule::CONWAY).unwrap();
    for kind in [SolverKind::Cadical, SolverKind::Batsat] {
        assert_eq!(solve(&enc, new_solver(kind).unwrap().as_mut()).unwrap().outcome, Outcome::Unsat);
    }
}

fn decide(pr: &Problem, e: Encoding, kind: SolverKind) -> (Outcome, f64) {
    let enc = encode(pr, e, Rule::CONWAY).unwrap();
    let a = solve(&enc, new_solver(kind).unwrap().as_mut()).unwrap();
    if a.outcome == Outcome::Sat {
        let Cycle { period, dx, dy, .. } = pr.cycle().unwrap();
        check_cycle(&a.generations[0], period, dx, dy, Rule::CONWAY).unwrap();
    }
    (a.outcome, a.millis)
}

#[test]
fn period_three_fits_seven_by_seven_and_the_mold_six_by_six() {
    assert_eq!(
        decide(&cycle(7, 7, 3, 0, 0, Symmetry::None), Encoding::Knuth, SolverKind::Cadical).0,
        Outcome::Sat
    );
    assert_eq!(
        decide(&cycle(6, 6, 4, 0, 0, Symmetry::None), Encoding::Knuth, SolverKind::Batsat).0,
        Outcome::Sat
    );
}

#[test]
fn no_period_three_in_five_by_five_knuth() {
    let pr = cycle(5, 5, 3, 0, 0, Symmetry::None);
    assert_eq!(decide(&pr, Encoding::Knuth, SolverKind::Cadical).0, Outcome::Unsat);
    assert_eq!(decide(&pr, Encoding::Knuth, SolverKind::Batsat).0, Outcome::Unsat);
}

/// Slow: about 15 s (CaDiCaL) + 35 s (BatSat) on a quiet core.
#[test]
#[ignore]
fn no_period_three_in_six_by_six_knuth() {
    let pr = cycle(6, 6, 3, 0, 0, Symmetry::None);
    assert_eq!(decide(&pr, Encoding::Knuth, SolverKind::Cadical).0, Outcome::Unsat);
    assert_eq!(decide(&pr, Encoding::Knuth, SolverKind::Batsat).0, Outcome::Unsat);
}
