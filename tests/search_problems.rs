//! Search problems: every SAT answer is evolved with the reference engine,
//! every UNSAT answer is confirmed by a second solver, and counts match
//! Knuth's OEIS entries and brute force.

use lifesearch::cnf::{Outcome, SolverKind, new_solver};
use lifesearch::life::naive::step;
use lifesearch::life::{Cell, Grid, Rule, SpecGrid, Topology};
use lifesearch::search::verify::{check_cycle, is_predecessor};
use lifesearch::search::{Boundary, Cycle, Encoding, Problem, Symmetry, count, encode, solve};

fn cycle(w: usize, h: usize, p: usize, dx: i64, dy: i64) -> Problem {
    Problem::Cycle(Cycle { width: w, height: h, period: p, dx, dy, symmetry: Symmetry::None })
}

/// Solve with CaDiCaL; on SAT check by evolution, on UNSAT confirm with BatSat.
fn decide_cycle(problem: &Problem) -> bool {
    let Cycle { period, dx, dy, .. } = problem.cycle().unwrap();
    let enc = encode(problem, Encoding::Window, Rule::CONWAY).unwrap();
    let a = solve(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut()).unwrap();
    match a.outcome {
        Outcome::Sat => {
            check_cycle(&a.generations[0], period, dx, dy, Rule::CONWAY).unwrap();
            true
        }
        Outcome::Unsat => {
            let b = solve(&enc, new_solver(SolverKind::Batsat).unwrap().as_mut()).unwrap();
            assert_eq!(b.outcome, Outcome::Unsat, "second solver disagrees");
            false
        }
        Outcome::Unknown => panic!("no time limit was set"),
    }
}

/// Count with the SAT layer and check every solution by evolution.
fn count_cycles(w: usize, p: usize) -> u64 {
    let enc = encode(&cycle(w, w, p, 0, 0), Encoding::Window, Rule::CONWAY).unwrap();
    let r = count(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut(), None).unwrap();
    assert!(r.complete);
    for g in &r.solutions {
        check_cycle(g, p, 0, 0, Rule::CONWAY).unwrap();
    }
    let distinct: std::collections::HashSet<_> = r.solutions.iter().collect();
    assert_eq!(distinct.len() as u64, r.count);
    r.count
}

/// The slow twin: every pattern of a w x h box, evolved.
fn brute_count(w: usize, h: usize, p: usize) -> u64 {
    (0u64..1 << (w * h))
        .filter(|m| {
            let mut g = Grid::new(w, h);
            for i in 0..w * h {
                g.set(i % w, i / w, m >> i & 1 == 1);
            }
            check_cycle(&g, p, 0, 0, Rule::CONWAY).is_ok()
        })
        .count() as u64
}

#[test]
fn still_life_counts_match_a136278_minus_one() {
    // A136278(n), n = 1..6: 1, 2, 12, 83, 417, 3928 (includes the empty board).
    for (n, a) in [(2, 2), (3, 12), (4, 83), (5, 417), (6, 3928)] {
        assert_eq!(count_cycles(n, 1), a - 1, "n = {n}");
    }
}

#[test]
fn period_two_counts_match_twice_a136279() {
    // A136279(n), n = 3..6: 1, 12, 43, 163 flip-flops; each has two phases.
    for (n, a) in [(3, 1), (4, 12), (5, 43), (6, 163)] {
        assert_eq!(count_cycles(n, 2), 2 * a, "n = {n}");
    }
}

#[test]
fn counts_match_brute_force_on_small_boxes() {
    for (w, h, p) in [(3, 3, 1), (4, 3, 1), (3, 3, 2), (4, 3, 2), (4, 4, 1), (4, 4, 2)] {
        let enc = encode(&cycle(w, h, p, 0, 0), Encoding::Window, Rule::CONWAY).unwrap();
        let r = count(&enc, new_solver(SolverKind::Batsat).unwrap().as_mut(), None).unwrap();
        assert_eq!(r.count, brute_count(w, h, p), "{w}x{h} p{p}");
    }
}

#[test]
fn limit_stops_the_count() {
    let enc = encode(&cycle(5, 5, 1, 0, 0), Encoding::Window, Rule::CONWAY).unwrap();
    let r = count(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut(), Some(7)).unwrap();
    assert_eq!((r.count, r.complete), (7, false));
}

#[test]
fn no_period_three_in_five_by_five() {
    assert!(!decide_cycle(&cycle(5, 5, 3, 0, 0)));
}

/// Slow with the window encoding (about 30 s + 80 s for the second solver on a quiet core).
#[test]
#[ignore]
fn no_period_three_in_six_by_six() {
    assert!(!decide_cycle(&cycle(6, 6, 3, 0, 0)));
}

/// Slow: about 10 s.
#[test]
#[ignore]
fn period_three_fits_seven_by_seven() {
    assert!(decide_cycle(&cycle(7, 7, 3, 0, 0)));
}

/// Slow: about 12 s.
#[test]
#[ignore]
fn mold_fits_six_by_six() {
    assert!(decide_cycle(&cycle(6, 6, 4, 0, 0)));
}

#[test]
fn glider_fits_five_by_five() {
    assert!(decide_cycle(&cycle(5, 5, 4, 1, 1)));
    // No period-4 (1,1) ship fits in 3x3 (the glider needs room to move).
    assert!(!decide_cycle(&cycle(3, 3, 4, 1, 1)));
}

#[test]
fn symmetric_searches_give_symmetric_answers() {
    // The symmetric solutions are exactly the symmetric ones among all solutions.
    let n = 5;
    let all = count(
        &encode(&cycle(n, n, 2, 0, 0), Encoding::Window, Rule::CONWAY).unwrap(),
        new_solver(SolverKind::Cadical).unwrap().as_mut(),
        None,
    )
    .unwrap();
    let mut total = 0;
    for sym in [
        Symmetry::MirrorLr,
        Symmetry::MirrorUd,
        Symmetry::Quad,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Diagonal,
    ] {
        let is_sym = |g: &Grid| {
            (0..n).all(|y| {
                (0..n).all(|x| sym.images(n, n, x, y).iter().all(|&(u, v)| g.get(x, y) == g.get(u, v)))
            })
        };
        let p = Problem::Cycle(Cycle { width: n, height: n, period: 2, dx: 0, dy: 0, symmetry: sym });
        let enc = encode(&p, Encoding::Window, Rule::CONWAY).unwrap();
        let r = count(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut(), None).unwrap();
        for g in &r.solutions {
            check_cycle(g, 2, 0, 0, Rule::CONWAY).unwrap();
            assert!(is_sym(g), "{sym:?}");
        }
        assert_eq!(r.count, all.solutions.iter().filter(|g| is_sym(g)).count() as u64, "{sym:?}");
        total += r.count;
    }
    assert!(total > 0);
}

fn random_spec(w: usize, h: usize, density: f64, unknown: f64, seed: u64) -> SpecGrid {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut s = SpecGrid::new(w, h, Cell::Dead);
    for c in s.cells_mut().iter_mut() {
        *c = if rng.random_bool(unknown) {
            Cell::Unknown
        } else if rng.random_bool(density) {
            Cell::Alive
        } else {
            Cell::Dead
        };
    }
    s
}

#[test]
fn predecessors_are_verified_and_orphans_confirmed() {
    let (mut orphans, mut parents) = (0, 0);
    for seed in 0..30 {
        let size = 3 + (seed as usize % 5);
        let target = random_spec(size, size, 0.5, 0.1, seed);
        for boundary in [Boundary::Free, Boundary::Dead] {
            let problem = Problem::orphan(target.clone(), boundary);
            let enc = encode(&problem, Encoding::Window, Rule::CONWAY).unwrap();
            let a = solve(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut()).unwrap();
            let eff = lifesearch::search::encode::effective_target(&target, boundary);
            if a.outcome == Outcome::Sat {
                parents += 1;
                assert!(is_predecessor(&a.generations[0], &eff, 1, Rule::CONWAY));
            } else {
                orphans += 1;
                let b = solve(&enc, new_solver(SolverKind::Varisat).unwrap().as_mut()).unwrap();
                assert_eq!(b.outcome, Outcome::Unsat);
            }
        }
    }
    assert!(parents > 0, "{orphans} orphans, {parents} with parents");
}

use lifesearch::search::known::GARDEN_OF_EDEN_10X10 as GOE_10X10;

#[test]
fn the_thesis_garden_of_eden_is_an_orphan_and_one_cell_less_is_not_always() {
    let g = Grid::from_rows(&GOE_10X10).unwrap();
    let target = SpecGrid::from(&g);
    let enc =
        encode(&Problem::orphan(target.clone(), Boundary::Free), Encoding::Window, Rule::CONWAY).unwrap();
    let a = solve(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut()).unwrap();
    assert_eq!(a.outcome, Outcome::Unsat);
    let b = solve(&enc, new_solver(SolverKind::Batsat).unwrap().as_mut()).unwrap();
    assert_eq!(b.outcome, Outcome::Unsat);
    // Forgetting a whole row of the orphan leaves a pattern with a parent.
    let mut partial = target.clone();
    for x in 0..10 {
        for y in 0..3 {
            partial.set(x, y, Cell::Unknown);
        }
    }
    let enc =
        encode(&Problem::orphan(partial.clone(), Boundary::Free), Encoding::Window, Rule::CONWAY).unwrap();
    let a = solve(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut()).unwrap();
    if a.outcome == Outcome::Sat {
        assert!(is_predecessor(&a.generations[0], &partial, 1, Rule::CONWAY));
    } else {
        let b = solve(&enc, new_solver(SolverKind::Batsat).unwrap().as_mut()).unwrap();
        assert_eq!(b.outcome, Outcome::Unsat);
    }
}

#[test]
fn every_evolved_pattern_has_a_parent_two_steps_back() {
    use rand::SeedableRng;
    let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
    for _ in 0..10 {
        // The centre of a random soup's grandchild certainly has a grandparent.
        let soup = Grid::random(9, 9, 0.4, &mut rng);
        let g2 = step(&step(&soup, Rule::CONWAY, Topology::Bounded), Rule::CONWAY, Topology::Bounded);
        let target = SpecGrid::from(&g2.crop(2, 2, 5, 5));
        let problem =
            Problem::Predecessor { target: target.clone(), generations: 2, boundary: Boundary::Free };
        let enc = encode(&problem, Encoding::Window, Rule::CONWAY).unwrap();
        let a = solve(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut()).unwrap();
        assert_eq!(a.outcome, Outcome::Sat);
        assert!(is_predecessor(&a.generations[0], &target, 2, Rule::CONWAY));
    }
}

#[test]
fn bad_descriptions_are_refused() {
    let bad = [
        cycle(0, 5, 1, 0, 0),
        cycle(5, 5, 0, 0, 0),
        cycle(5, 5, 4, 5, 0),
        cycle(5, 5, 2, 2, 0), // faster than c/2
        Problem::Cycle(Cycle { width: 5, height: 4, period: 1, dx: 0, dy: 0, symmetry: Symmetry::Rot90 }),
    ];
    for p in bad {
        assert!(encode(&p, Encoding::Window, Rule::CONWAY).is_err(), "{p:?}");
    }
    let e = encode(&cycle(5, 5, 84, 0, 0), Encoding::Knuth, Rule::CONWAY).unwrap_err().to_string();
    assert!(e.contains("at most 83"), "{e}");
    assert!(encode(&cycle(3, 3, 84, 0, 0), Encoding::Window, Rule::CONWAY).is_ok());
}

/// The slow twin of a predecessor search: try every parent window.
fn brute_has_parent(target: &SpecGrid, rule: Rule) -> bool {
    let (w, h) = (target.width() + 2, target.height() + 2);
    (0u64..1 << (w * h)).any(|m| {
        let mut g = Grid::new(w, h);
        for i in 0..w * h {
            g.set(i % w, i / w, m >> i & 1 == 1);
        }
        is_predecessor(&g, target, 1, rule)
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    #[test]
    fn small_predecessor_verdicts_match_brute_force(
        w in 1usize..=2,
        h in 1usize..=2,
        cells in proptest::collection::vec(0u8..3, 4),
        encoding in proptest::prop_oneof![proptest::strategy::Just(Encoding::Window), proptest::strategy::Just(Encoding::Knuth)],
        rule in proptest::sample::select(vec!["B3/S23", "B/S0", "B2/S", "B36/S23", "B1/S1"]),
    ) {
        // Tiny orphans are rare in Life but common under sparse rules; Knuth's network is Conway-only.
        let rule: Rule = rule.parse().unwrap();
        let encoding = if rule == Rule::CONWAY { encoding } else { Encoding::Window };
        let mut t = SpecGrid::new(w, h, Cell::Dead);
        for (i, c) in t.cells_mut().iter_mut().enumerate() {
            *c = [Cell::Dead, Cell::Alive, Cell::Unknown][cells[i] as usize];
        }
        let enc = encode(&Problem::orphan(t.clone(), Boundary::Free), encoding, rule).unwrap();
        let a = solve(&enc, new_solver(SolverKind::Batsat).unwrap().as_mut()).unwrap();
        proptest::prop_assert_eq!(a.outcome == Outcome::Sat, brute_has_parent(&t, rule));
        if a.outcome == Outcome::Sat {
            proptest::prop_assert!(is_predecessor(&a.generations[0], &t, 1, rule));
        }
    }
}

#[test]
fn every_two_by_two_target_under_sparse_rules_matches_brute_force() {
    // Under B/S0 a live cell must have been a lonely live cell, so two
    // neighbouring live cells are an orphan.
    for (name, must_have_orphans) in [("B/S0", true), ("B2/S", false), ("B3/S", false)] {
        let rule: Rule = name.parse().unwrap();
        let mut orphans = 0;
        for code in 0..81u32 {
            let mut t = SpecGrid::new(2, 2, Cell::Dead);
            for i in 0..4 {
                t.cells_mut()[i] =
                    [Cell::Dead, Cell::Alive, Cell::Unknown][(code / 3u32.pow(i as u32) % 3) as usize];
            }
            let enc = encode(&Problem::orphan(t.clone(), Boundary::Free), Encoding::Window, rule).unwrap();
            let a = solve(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut()).unwrap();
            assert_eq!(a.outcome == Outcome::Sat, brute_has_parent(&t, rule), "{rule} {:?}", t.to_rows());
            orphans += (a.outcome == Outcome::Unsat) as usize;
        }
        assert!(orphans > 0 || !must_have_orphans, "{name}: no orphans");
    }
}

/// A caller's flag outlives the solves that borrow it: `solve_until` removes
/// the hook it added and leaves the caller's own hooks in place, and a flag
/// already raised stops it before any work.
#[test]
fn solve_until_leaves_the_callers_hooks_on_its_flag() {
    use lifesearch::Stop;
    use lifesearch::search::solve_until;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let stop = Stop::default();
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let _own = stop.add_hook(Box::new(move || _ = c.fetch_add(1, Ordering::Relaxed)));
    let enc = encode(&Problem::still_life(4, 4), Encoding::default(), Rule::CONWAY).unwrap();
    for _ in 0..3 {
        let a = solve_until(&enc, SolverKind::Cadical, &stop).unwrap();
        assert_eq!(a.outcome, Outcome::Sat);
    }
    stop.interrupt();
    assert_eq!(calls.load(Ordering::Relaxed), 1, "the caller's hook must survive the solves");
    let err = solve_until(&enc, SolverKind::Cadical, &stop).unwrap_err();
    assert!(matches!(err, lifesearch::Error::Interrupted), "{err}");
}

/// The caller's flag, raised while `auto` races (CaDiCaL has joined after
/// its head start), stops the race at once, and the caller's own hook on
/// the flag is still there afterwards: the race linked its members to the
/// flag and unlinked them, in one place.
#[test]
fn raising_the_callers_flag_stops_a_cycle_race() {
    use lifesearch::search::portfolio::{CYCLE_HEAD_START, caged_cycle_race_stoppable};
    use lifesearch::search::spacetime::Options;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    // Neither engine settles this within seconds (search-vs-peers: p15-9x9-d8).
    let p = Problem::Cycle(Cycle { width: 9, height: 9, period: 15, dx: 0, dy: 0, symmetry: Symmetry::D8 });
    let stop = lifesearch::Stop::default();
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let _mine = stop.add_hook(Box::new(move || _ = c.fetch_add(1, Ordering::Relaxed)));
    let raiser = stop.clone();
    let wait = CYCLE_HEAD_START * 20;
    let t = std::thread::spawn(move || {
        std::thread::sleep(wait);
        raiser.interrupt();
    });
    let start = std::time::Instant::now();
    let r = caged_cycle_race_stoppable(&p, Rule::CONWAY, &Options::default(), Some(&stop));
    t.join().unwrap();
    assert!(matches!(r, Err(lifesearch::Error::Interrupted)), "{r:?}");
    assert!(start.elapsed() < wait + std::time::Duration::from_secs(2), "{:?}", start.elapsed());
    assert_eq!(calls.load(Ordering::Relaxed), 1);
    stop.interrupt();
    assert_eq!(calls.load(Ordering::Relaxed), 2, "the caller's hook is gone");
}
