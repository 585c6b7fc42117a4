//! `--solver auto`: the portfolio's verdicts agree with CaDiCaL's on random
//! patterns (narrow ones go to the automaton, others to the race), and every
//! answer names the engine that gave it.

use lifesearch::cnf::{Outcome, SolverKind, new_solver};
use lifesearch::formats::target::read_target;
use lifesearch::life::{Rule, SpecGrid};
use lifesearch::search::portfolio::{caged_cycle_auto, decide_orphan_auto};
use lifesearch::search::{Boundary, Cycle, Encoding, Problem, Symmetry, encode, solve};
use rand::SeedableRng;
use std::path::Path;

fn cadical_orphan(t: &SpecGrid, boundary: Boundary) -> bool {
    let enc = encode(&Problem::orphan(t.clone(), boundary), Encoding::default(), Rule::CONWAY).unwrap();
    let mut s = new_solver(SolverKind::Cadical).unwrap();
    let a = solve(&enc, s.as_mut()).unwrap();
    assert_ne!(a.outcome, Outcome::Unknown);
    a.outcome == Outcome::Unsat
}

#[test]
fn auto_agrees_with_cadical_on_random_patterns() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(41);
    let mut engines = Vec::new();
    for i in 0..40 {
        let (w, h) = (3 + i % 7, 3 + (i * 5) % 9);
        let t = SpecGrid::random(w, h, 0.45, if i % 4 == 0 { 0.2 } else { 0.0 }, &mut rng);
        let boundary = if i % 5 == 0 { Boundary::Dead } else { Boundary::Free };
        let a = decide_orphan_auto(&t, boundary).unwrap();
        assert_eq!(a.parent.is_none(), cadical_orphan(&t, boundary), "pattern {i} ({w}x{h})");
        engines.push(a.engine);
    }
    assert!(engines.contains(&"gridwalker"));
}

#[test]
fn a_long_thin_orphan_goes_to_the_automaton() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let t = read_target(&root.join("data/zoo/literature/goe-eker-2016-5x45.rle")).unwrap();
    let a = decide_orphan_auto(&t, Boundary::Free).unwrap();
    assert!(a.parent.is_none());
    assert_eq!(a.engine, "automaton");
}

#[test]
fn auto_finds_caged_cycles() {
    // A blinker fits a 3x3 box; nothing of period 2 fits 2x2.
    let a = caged_cycle_auto(cycle(3, 3, 2), Rule::CONWAY).unwrap();
    let g = a.solutions.first().expect("a blinker");
    assert!(lifesearch::gridwalker::stack::is_cycle(g, 2, (0, 0), Rule::CONWAY));
    assert!(caged_cycle_auto(cycle(2, 2, 2), Rule::CONWAY).unwrap().solutions.is_empty());
    // The grid stacks impose no symmetry, so a symmetric cycle is refused, not searched without it.
    let mirrored = Cycle { symmetry: Symmetry::MirrorLr, ..cycle(3, 3, 2) };
    assert!(caged_cycle_auto(mirrored, Rule::CONWAY).is_err());
}

/// The rule reaches both members of the caged-cycle race: the block is the
/// still life of a 2x2 box under Conway's rule, and under B3/S2 (its cells
/// have three neighbours, so they die) that box holds none.
#[test]
fn auto_searches_caged_cycles_under_the_rule_it_is_given() {
    let conway = caged_cycle_auto(cycle(2, 2, 1), Rule::CONWAY).unwrap();
    assert_eq!(conway.solutions.first().map(|g| g.population()), Some(4));
    let b3s2: Rule = "B3/S2".parse().unwrap();
    let none = caged_cycle_auto(cycle(2, 2, 1), b3s2).unwrap();
    assert!(none.solutions.is_empty() && none.complete, "{none:?}");
}

/// An oscillator (or still life) of `period` in a `w` x `h` box, no symmetry.
fn cycle(width: usize, height: usize, period: usize) -> Cycle {
    Cycle { width, height, period, dx: 0, dy: 0, symmetry: Symmetry::None }
}
