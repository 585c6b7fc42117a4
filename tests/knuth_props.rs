//! What Knuth's clauses mean, checked with a SAT solver against the slow,
//! obvious Life step `life::naive::step`.

use std::collections::HashMap;

use lifesearch::knuth::{self, Clause, Var, VarKind};
use lifesearch::life::{Grid, Rule, Topology, naive};
use proptest::prelude::*;

/// CaDiCaL loaded with the clauses; Knuth's variables numbered on the way.
struct Sat {
    solver: cadical::Solver,
    number: HashMap<Var, i32>,
}

impl Sat {
    fn new(clauses: &[Clause]) -> Sat {
        let mut sat = Sat { solver: cadical::Solver::new(), number: HashMap::new() };
        for c in clauses {
            let lits: Vec<i32> =
                c.iter().map(|l| if l.neg { -sat.var(l.var) } else { sat.var(l.var) }).collect();
            sat.solver.add_clause(lits);
        }
        sat
    }
    fn var(&mut self, v: Var) -> i32 {
        let next = self.number.len() as i32 + 1;
        *self.number.entry(v).or_insert(next)
    }
    /// The literal "v has value `alive`", or None for a variable the clauses never mention.
    fn lit(&self, v: Var, alive: bool) -> Option<i32> {
        self.number.get(&v).map(|&n| if alive { n } else { -n })
    }
    fn value(&self, v: Var) -> Option<bool> {
        self.number.get(&v).map(|&n| self.solver.value(n) == Some(true))
    }
}

fn grid_strategy(max: usize) -> impl Strategy<Value = Grid> {
    (1..=max, 1..=max, any::<u64>()).prop_map(|(w, h, seed)| {
        let mut g = Grid::new(w, h);
        let mut s = seed;
        for y in 0..h {
            for x in 0..w {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                g.set(x, y, (s >> 33) % 2 == 0);
            }
        }
        g
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// For a random "may be alive" pattern P and a random state S inside P at
    /// time t, the clauses with S assumed force every time-t+1 cell to be
    /// Life's successor of S: the successor is a model, and flipping any one
    /// cell of it is unsatisfiable. Cells without a t+1 variable must be dead.
    #[test]
    fn sat_life_forces_the_successor(p in grid_strategy(6), t in 0usize..=82, keep in any::<u64>()) {
        let clauses = knuth::sat_life(&p, t).unwrap();
        let mut sat = Sat::new(&clauses);
        // S: the cells of P whose bit in `keep` is set.
        let mut s = Grid::new(p.width(), p.height());
        for (i, (gx, gy)) in p.live_cells().enumerate() {
            s.set(gx, gy, keep >> (i % 64) & 1 == 1);
        }
        let mut assume = Vec::new();
        for (gx, gy) in p.live_cells() {
            let v = Var::cell(gy as u32 + 1, t, gx as u32 + 1);
            if let Some(l) = sat.lit(v, s.get(gx, gy)) {
                assume.push(l);
            }
        }
        // Knuth's (x, y) = (gy + 1, gx + 1), which is (gy', gx') in a grid padded by one.
        let next = naive::step(&s.padded(1), Rule::CONWAY, Topology::Bounded);
        prop_assert_eq!(sat.solver.solve_with(assume.iter().copied()), Some(true));
        let mut flips = Vec::new();
        for gy in 0..next.height() {
            for gx in 0..next.width() {
                let v = Var::cell(gy as u32, t + 1, gx as u32);
                let want = next.get(gx, gy);
                match sat.lit(v, !want) {
                    None => prop_assert!(!want, "cell {v} is born but has no variable"),
                    Some(wrong) => {
                        prop_assert_eq!(sat.value(v), Some(want), "model disagrees at {}", v);
                        flips.push((v, wrong));
                    }
                }
            }
        }
        for (v, wrong) in flips {
            let mut a = assume.clone();
            a.push(wrong);
            prop_assert_eq!(sat.solver.solve_with(a), Some(false), "{} is not forced", v);
        }
    }
}

/// Generation t of a model as an n-wide, m-high grid (Knuth's x is the row).
fn generation(sat: &Sat, m: usize, n: usize, t: usize, quad: bool) -> Grid {
    let mut g = Grid::new(n, m);
    for x in 1..=m {
        for y in 1..=n {
            let (qx, qy) = if quad { (x.min(m + 1 - x), y.min(n + 1 - y)) } else { (x, y) };
            let alive = sat.value(Var::cell(qx as u32, t, qy as u32)).unwrap_or(false);
            g.set(y - 1, x - 1, alive);
        }
    }
    g
}

/// One caged step: Life on the plane, and None if a cell is born outside.
fn caged_step(g: &Grid) -> Option<Grid> {
    let next = naive::step(&g.padded(1), Rule::CONWAY, Topology::Bounded);
    let inner = next.crop(1, 1, g.width(), g.height());
    (inner.population() == next.population()).then_some(inner)
}

/// The smallest p >= 1 with g = caged_step^p(g), if that is at most `limit`.
fn caged_period(g: &Grid, limit: usize) -> Option<usize> {
    let mut h = g.clone();
    for p in 1..=limit {
        h = caged_step(&h)?;
        if &h == g {
            return Some(p);
        }
    }
    None
}

fn mirror_symmetric(g: &Grid) -> bool {
    let (w, h) = (g.width(), g.height());
    (0..h).all(|y| (0..w).all(|x| g.get(x, y) == g.get(w - 1 - x, y) && g.get(x, y) == g.get(x, h - 1 - y)))
}

/// Does a grid of this size hold a caged oscillator of exact period r (not
/// empty; mirror-symmetric when `quad`)? By trying every pattern.
fn brute_force_exists(m: usize, n: usize, r: usize, quad: bool) -> bool {
    (1u32..1 << (m * n)).any(|bits| {
        let mut g = Grid::new(n, m);
        for i in 0..m * n {
            g.set(i % n, i / n, bits >> i & 1 == 1);
        }
        (!quad || mirror_symmetric(&g)) && caged_period(&g, r) == Some(r)
    })
}

/// Check a model of grid-cycle (or gridquad-cycle) and report whether one exists.
fn check_cycle(m: usize, n: usize, r: usize, quad: bool) -> bool {
    let clauses = if quad { knuth::gridquad_cycle(m, n, r) } else { knuth::grid_cycle(m, n, r) }.unwrap();
    let mut sat = Sat::new(&clauses);
    if sat.solver.solve() != Some(true) {
        return false;
    }
    let g0 = generation(&sat, m, n, 0, quad);
    let mut g = g0.clone();
    for t in 1..=r {
        g = caged_step(&g).unwrap_or_else(|| panic!("{m}x{n} r={r}: a cell escapes the cage at {t}"));
        assert_eq!(g, generation(&sat, m, n, t % r, quad), "{m}x{n} r={r}: generation {t} differs");
    }
    assert_eq!(caged_period(&g0, r), Some(r), "{m}x{n} r={r}: not of exact period r");
    if !(quad && r == 1) {
        assert!(g0.population() > 0, "{m}x{n} r={r}: empty");
    }
    true
}

#[test]
fn grid_cycle_models_are_caged_oscillators_and_exist_exactly_when_brute_force_finds_one() {
    for m in 2..=4 {
        for n in 2..=4 {
            for r in 1..=3 {
                let found = check_cycle(m, n, r, false);
                assert_eq!(found, brute_force_exists(m, n, r, false), "grid-cycle {m} {n} {r}");
            }
        }
    }
}

#[test]
fn gridquad_cycle_models_are_symmetric_caged_oscillators() {
    for m in 2..=5 {
        for n in 2..=4 {
            for r in 2..=3 {
                let found = check_cycle(m, n, r, true);
                assert_eq!(found, brute_force_exists(m, n, r, true), "gridquad-cycle {m} {n} {r}");
            }
        }
    }
    // Period 1 and more room: a still life (the empty grid is allowed, ERRATA 5).
    assert!(check_cycle(6, 6, 1, true));
    assert!(check_cycle(5, 5, 2, true));
}

/// ERRATA item 9: on one-cell-wide grids the end cells get no constraint, so
/// grid-cycle 1 3 1 has a model with one live cell, which is no still life.
#[test]
fn one_wide_grids_keep_knuths_quirk() {
    let clauses = knuth::grid_cycle(1, 3, 1).unwrap();
    let mut sat = Sat::new(&clauses);
    let lone = [sat.lit(Var::cell(1, 0, 1), true).unwrap(), sat.lit(Var::cell(1, 0, 2), false).unwrap()];
    let mut a = lone.to_vec();
    a.push(sat.lit(Var::cell(1, 0, 3), false).unwrap());
    assert_eq!(sat.solver.solve_with(a), Some(true));
    let g = generation(&sat, 1, 3, 0, false);
    assert_eq!(g.population(), 1);
    assert_ne!(caged_step(&g), Some(g));
}

/// Count the clauses and auxiliary variables of SAT-LIFE on an all-live
/// m x n pattern.
fn aux_and_clauses(m: usize, n: usize) -> (i64, i64) {
    let mut g = Grid::new(n, m);
    for y in 0..m {
        for x in 0..n {
            g.set(x, y, true);
        }
    }
    let clauses = knuth::sat_life(&g, 0).unwrap();
    let aux: std::collections::HashSet<Var> =
        clauses.iter().flatten().map(|l| l.var).filter(|v| v.kind != VarKind::Cell).collect();
    (aux.len() as i64, clauses.len() as i64)
}

/// Knuth's sharing repeats every 2 rows and 4 columns, so the second
/// difference over a 2 x 4 block of interior cells is 8 cells' worth:
/// 14 auxiliary variables (13 + the extra x) and 63 clauses (57 + 6) each.
#[test]
fn fourteen_auxiliaries_and_63_clauses_per_interior_cell() {
    for (m, n) in [(10, 12), (12, 16), (11, 13)] {
        let f = |dm: usize, dn: usize| aux_and_clauses(m + dm, n + dn);
        let (a, b, c, d) = (f(2, 4), f(2, 0), f(0, 4), f(0, 0));
        assert_eq!(a.0 - b.0 - c.0 + d.0, 14 * 8, "aux variables near {m}x{n}");
        assert_eq!(a.1 - b.1 - c.1 + d.1, 63 * 8, "clauses near {m}x{n}");
    }
}
