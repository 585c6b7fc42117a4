//! GRIDWALKER and the SAT layer must agree on every orphan question; each
//! predecessor is evolved, each orphan verdict is held by both sides.

use lifesearch::cnf::{Outcome, SolverKind, new_solver};
use lifesearch::gridwalker::{Options, Variant, decide_orphan};
use lifesearch::life::{Cell, Rule, SpecGrid};
use lifesearch::search::verify::is_predecessor;
use lifesearch::search::{Boundary, Encoding, Problem, encode, solve};
use rand::{Rng, SeedableRng};

#[test]
fn gridwalker_and_sat_agree_on_random_patterns() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
    let mut orphans = 0;
    for i in 0..40 {
        let n = 3 + i % 6;
        let density = rng.random_range(0.3..0.8);
        let t = SpecGrid::random(n, n, density, 0.05, &mut rng);
        let enc =
            encode(&Problem::orphan(t.clone(), Boundary::Free), Encoding::Window, Rule::CONWAY).unwrap();
        let sat = solve(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut()).unwrap();
        for variant in [Variant::Basic, Variant::Track] {
            let gw = decide_orphan(&t, &Options { variant, ..Options::default() }).unwrap();
            assert_eq!(
                gw.predecessor.is_none(),
                sat.outcome == Outcome::Unsat,
                "{variant:?} on {:?}",
                t.to_rows()
            );
            if let Some(p) = &gw.predecessor {
                assert!(is_predecessor(p, &t, 1, Rule::CONWAY));
            }
        }
        orphans += (sat.outcome == Outcome::Unsat) as usize;
    }
    eprintln!("{orphans} orphans among 40");
}

#[test]
fn gridwalker_and_sat_agree_near_the_garden_of_eden() {
    let goe = lifesearch::search::known::GARDEN_OF_EDEN_10X10;
    let base = SpecGrid::from(&lifesearch::life::Grid::from_rows(&goe).unwrap());
    let mut rng = rand_pcg::Pcg64::seed_from_u64(9);
    let (mut orphans, mut parents) = (0, 0);
    for _ in 0..12 {
        // Flip one cell (the thesis' patterns #3 and #4 are such edits), or
        // blank three cells, which often frees the pattern.
        let mut t = base.clone();
        let (x, y) = (rng.random_range(0..10), rng.random_range(0..10));
        if rng.random_bool(0.5) {
            let c = if t.get(x, y) == Cell::Alive { Cell::Dead } else { Cell::Alive };
            t.set(x, y, c);
        } else {
            for (u, v) in [(x, y), ((x + 1) % 10, y), (x, (y + 1) % 10)] {
                t.set(u, v, Cell::Unknown);
            }
        }
        let enc =
            encode(&Problem::orphan(t.clone(), Boundary::Free), Encoding::Window, Rule::CONWAY).unwrap();
        let sat = solve(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut()).unwrap();
        let gw = decide_orphan(&t, &Options::default()).unwrap();
        assert_eq!(gw.predecessor.is_none(), sat.outcome == Outcome::Unsat);
        match &gw.predecessor {
            Some(p) => {
                parents += 1;
                assert!(is_predecessor(p, &t, 1, Rule::CONWAY));
            }
            None => orphans += 1,
        }
    }
    assert!(orphans > 0 && parents > 0, "{orphans} orphans, {parents} with parents");
}
