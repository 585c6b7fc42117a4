//! Grid stacks (thesis Table 5.3): predecessors t generations back, oscillators, spaceships.

use lifesearch::gridwalker::stack::{caged_cycle, cycle, cycle_where, is_cycle, predecessor};
use lifesearch::life::{Cell, Grid, Rule, SpecGrid, Topology, naive};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

fn evolve_window(g: &Grid, t: usize, rule: Rule) -> Grid {
    let mut g = g.clone();
    for _ in 0..t {
        g = naive::step(&g, rule, Topology::Bounded);
    }
    g
}

/// Brute force: does some (W+2t)x(H+2t) window evolve into the target in t steps?
fn brute_predecessor(t: &SpecGrid, gens: usize, rule: Rule) -> bool {
    let (w, h) = (t.width() + 2 * gens, t.height() + 2 * gens);
    (0..1u64 << (w * h)).any(|bits| {
        let mut g = Grid::new(w, h);
        for i in 0..w * h {
            g.set(i % w, i / w, (bits >> i) & 1 == 1);
        }
        t.matches(&evolve_window(&g, gens, rule).crop(gens, gens, t.width(), t.height()))
    })
}

fn random_target(rng: &mut Pcg64, w: usize, h: usize) -> SpecGrid {
    let mut t = SpecGrid::new(w, h, Cell::Dead);
    for c in t.cells_mut().iter_mut() {
        *c = match rng.random_range(0..10) {
            0 => Cell::Unknown,
            1..5 => Cell::Alive,
            _ => Cell::Dead,
        };
    }
    t
}

#[test]
fn one_generation_back_matches_brute_force() {
    let mut rng = Pcg64::seed_from_u64(3);
    for rule in ["B3/S23", "B8/S"] {
        let rule: Rule = rule.parse().unwrap();
        for _ in 0..25 {
            let (w, h) = (rng.random_range(1..=2), rng.random_range(1..=2));
            let t = random_target(&mut rng, w, h);
            let got = predecessor(&t, 1, rule).unwrap().start;
            assert_eq!(got.is_some(), brute_predecessor(&t, 1, rule), "{rule} {:?}", t.to_rows());
            if let Some(a) = got {
                assert!(t.matches(&evolve_window(&a, 1, rule).crop(1, 1, w, h)));
            }
        }
    }
}

#[test]
fn two_generations_back() {
    let mut rng = Pcg64::seed_from_u64(4);
    // Images of random patterns have grandparents by construction.
    for _ in 0..5 {
        let g = Grid::random(7, 7, 0.5, &mut rng);
        let t = SpecGrid::from(&evolve_window(&g, 2, Rule::CONWAY).crop(2, 2, 3, 3));
        let a = predecessor(&t, 2, Rule::CONWAY).unwrap().start.expect("has a grandparent");
        assert!(t.matches(&evolve_window(&a, 2, Rule::CONWAY).crop(2, 2, 3, 3)));
    }
    // Under B8/S a 1x2 pair of live cells has no parent, so no grandparent either.
    let rule: Rule = "B8/S".parse().unwrap();
    let pair = SpecGrid::from_cells(2, 1, vec![Cell::Alive, Cell::Alive]).unwrap();
    assert!(predecessor(&pair, 1, rule).unwrap().start.is_none() && !brute_predecessor(&pair, 1, rule));
    assert!(predecessor(&pair, 2, rule).unwrap().start.is_none());
}

fn population(g: &Grid) -> usize {
    g.population()
}

#[test]
fn finds_blinker_and_toad() {
    let blinker = cycle(3, 3, 2, (0, 0), Rule::CONWAY).unwrap().start.expect("blinker");
    assert_eq!(population(&blinker), 3);
    assert!(is_cycle(&blinker, 2, (0, 0), Rule::CONWAY));
    // Nothing of period 2 fits in 2x2; still lifes are not period 2.
    assert!(cycle(2, 2, 2, (0, 0), Rule::CONWAY).unwrap().start.is_none());
    let toad =
        cycle_where(4, 4, 2, (0, 0), Rule::CONWAY, |g| g.population() == 6).unwrap().start.expect("toad");
    assert!(is_cycle(&toad, 2, (0, 0), Rule::CONWAY));
}

#[test]
fn finds_glider() {
    let g = cycle(3, 3, 4, (1, 1), Rule::CONWAY).unwrap().start.expect("glider");
    assert_eq!(population(&g), 5);
    assert!(is_cycle(&g, 4, (1, 1), Rule::CONWAY));
}

#[test]
fn finds_lwss() {
    // Its phases are 5x4 but move down a row on the way: give the box five rows.
    let g = cycle(5, 5, 4, (-2, 0), Rule::CONWAY).unwrap().start.expect("lwss");
    assert!(is_cycle(&g, 4, (-2, 0), Rule::CONWAY));
    assert_eq!(population(&g), 9);
}

/// The caged questions `lifesearch search --solver gridwalker` asks (every
/// generation inside the box) get the SAT layer's verdict, and each answer
/// passes the same check the CLI makes.
#[test]
fn caged_cycles_agree_with_sat() {
    use lifesearch::cnf::{Outcome, SolverKind, new_solver};
    use lifesearch::search::verify::check_cycle;
    use lifesearch::search::{Cycle, Encoding, Problem, Symmetry, encode, solve};
    let cases = [
        (3, 3, 2, 0, 0),
        (4, 4, 2, 0, 0),
        (3, 3, 4, 1, 1),
        (4, 4, 4, 1, 1),
        (5, 4, 4, 1, 0),
        (7, 5, 4, -2, 0),
        (4, 4, 3, 0, 0),
        (5, 3, 1, 0, 0),
        (2, 2, 1, 0, 0),
    ];
    for (w, h, p, dx, dy) in cases {
        let problem =
            Problem::Cycle(Cycle { width: w, height: h, period: p, dx, dy, symmetry: Symmetry::None });
        let enc = encode(&problem, Encoding::Window, Rule::CONWAY).expect("encodes");
        let mut solver = new_solver(SolverKind::Cadical).expect("cadical");
        let sat = solve(&enc, solver.as_mut()).expect("solves").outcome == Outcome::Sat;
        let gw = caged_cycle(w, h, p, (dx, dy), Rule::CONWAY).unwrap();
        assert_eq!(gw.start.is_some(), sat, "{w}x{h} period {p} move ({dx}, {dy})");
        if let Some(g) = gw.start {
            check_cycle(&g, p, dx, dy, Rule::CONWAY).expect("the answer is a caged cycle");
        }
        assert!(gw.stats.nodes.is_some_and(|n| n > 0), "statistics either way");
    }
}

/// Two and three generations back, where Listing 5.3's future cores can cut
/// (pairs of generation-1 slices constrain generation-2 slices): the stack's
/// verdict is the SAT layer's on random small targets, with and without
/// ancestors.
#[test]
fn generations_back_agree_with_sat() {
    use lifesearch::cnf::{Outcome, SolverKind, new_solver};
    use lifesearch::search::{Boundary, Encoding, Problem, encode, solve};
    let mut rng = Pcg64::seed_from_u64(11);
    let mut seen = [0usize; 2];
    // Conway's rule has no grandfatherless patterns this small; under B8/S no
    // parent has two neighbouring live cells, so nothing live has a grandparent.
    let rules: [Rule; 3] = [Rule::CONWAY, "B8/S".parse().unwrap(), "B45/S3".parse().unwrap()];
    for case in 0..24 {
        let gens = 2 + case % 2;
        let rule = rules[case % 3];
        let target = random_target(&mut rng, 3 + case % 2, 3);
        let problem =
            Problem::Predecessor { target: target.clone(), generations: gens, boundary: Boundary::Free };
        let enc = encode(&problem, Encoding::Window, rule).expect("encodes");
        let mut solver = new_solver(SolverKind::Cadical).expect("cadical");
        let sat = solve(&enc, solver.as_mut()).expect("solves").outcome == Outcome::Sat;
        let gw = predecessor(&target, gens, rule).unwrap().start;
        assert_eq!(gw.is_some(), sat, "case {case}: {gens} generations back, {rule:?}");
        if let Some(a) = gw {
            let (w, h) = (target.width(), target.height());
            assert!(target.matches(&evolve_window(&a, gens, rule).crop(gens, gens, w, h)));
        }
        seen[sat as usize] += 1;
    }
    // Both verdicts occur, so the comparison says something.
    assert!(seen[0] > 0 && seen[1] > 0, "verdicts {seen:?}");
}
