//! Every engine against the naive twin, and the classic objects that any Life
//! program must get right.

use lifesearch::life::{self, Algorithm, Grid, Rule, Topology, naive, unbounded::Universe};
use proptest::prelude::*;
use rand::SeedableRng;

const FAST: [Algorithm; 3] = [Algorithm::Table, Algorithm::Lifecube, Algorithm::LifecubeParallel];

fn naive_evolve(g: &Grid, rule: Rule, t: Topology, n: u64) -> Grid {
    let mut g = g.clone();
    for _ in 0..n {
        g = naive::step(&g, rule, t);
    }
    g
}

fn soup(w: usize, h: usize, density: f64, seed: u64) -> Grid {
    Grid::random(w, h, density, &mut rand_pcg::Pcg64::seed_from_u64(seed))
}

fn rule_strategy() -> impl Strategy<Value = Rule> {
    prop_oneof![
        Just(Rule::CONWAY),
        Just(Rule::HILIFE),
        (0u16..512, 0u16..512).prop_map(|(b, s)| Rule { birth: b & !1, survival: s })
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The one-word-per-row step GRIDWALKER confirms candidates with, against
    /// naive counting, any rule (B0 included: the window's edge stays dead).
    #[test]
    fn narrow_step_agrees_with_naive(
        w in 1usize..=64, h in 1usize..40, density in 0.05f64..0.95, seed in any::<u64>(),
        birth in 0u16..512, survival in 0u16..512, conway in any::<bool>(),
    ) {
        let rule = if conway { Rule::CONWAY } else { Rule { birth, survival } };
        let g = soup(w, h, density, seed);
        let rows: Vec<u64> =
            (0..h).map(|y| (0..w).fold(0, |r, x| r | (g.get(x, y) as u64) << x)).collect();
        let next = life::lifecube::step_narrow(&rows, w, rule);
        let want = naive::step(&g, rule, Topology::Bounded);
        for (y, row) in next.iter().enumerate() {
            for x in 0..w {
                prop_assert_eq!(row >> x & 1 == 1, want.get(x, y), "cell ({}, {})", x, y);
            }
            if w < 64 {
                prop_assert_eq!(row >> w, 0, "bits beyond the width");
            }
        }
        prop_assert_eq!(next.len(), h);
    }

    #[test]
    fn engines_agree_with_naive(
        w in 1usize..300, h in 1usize..300, density in 0.05f64..0.9, seed in any::<u64>(),
        gens in 1u64..12, torus in any::<bool>(), rule in rule_strategy(),
    ) {
        // Keep each case small enough for the naive twin.
        prop_assume!(w * h * gens as usize <= 400_000);
        let g = soup(w, h, density, seed);
        let topo = if torus { Topology::Torus } else { Topology::Bounded };
        let want = naive_evolve(&g, rule, topo, gens);
        for alg in FAST {
            prop_assert_eq!(&life::evolve(&g, rule, topo, gens, alg), &want, "{:?} {}x{} {:?}", alg, w, h, topo);
        }
    }

    /// Conway's rule on boards whose width is whole words takes the stagger
    /// step, on a torus through the halo words: whole strips of four and eight
    /// words, a ragged strip after them, bands cut short at the bottom.
    #[test]
    fn stagger_step_agrees_with_naive(
        words in 1usize..12, h in 1usize..70, density in 0.05f64..0.9, seed in any::<u64>(),
        gens in 1u64..6, torus in any::<bool>(), simd in 0u8..3,
    ) {
        use lifesearch::life::lifecube::Simd;
        let g = soup(64 * words, h, density, seed);
        let topo = if torus { Topology::Torus } else { Topology::Bounded };
        let want = naive_evolve(&g, Rule::CONWAY, topo, gens);
        let simd = [Simd::Portable, Simd::Avx2, Simd::Avx512][simd as usize];
        let got = life::lifecube::evolve_with(&g, Rule::CONWAY, topo, gens, simd);
        prop_assert_eq!(&got, &want, "{:?} {} words x {} {:?}", simd, words, h, topo);
    }

    #[test]
    fn unbounded_agrees_with_a_large_dead_bordered_grid(
        w in 1usize..40, h in 1usize..40, seed in any::<u64>(), gens in 1u64..30, hilife in any::<bool>(),
    ) {
        let rule = if hilife { Rule::HILIFE } else { Rule::CONWAY };
        let g = soup(w, h, 0.4, seed);
        let border = gens as usize + 2;
        let big = naive_evolve(&g.padded(border), rule, Topology::Bounded, gens);
        // Nothing can travel faster than light, so the border is never reached.
        let mut u = Universe::new(&g, (border as i64, border as i64), rule);
        for _ in 0..gens {
            u.step();
        }
        let (got, (x0, y0)) = u.to_grid();
        let want_box = big.bounding_box();
        match want_box {
            None => prop_assert_eq!(got.population(), 0),
            Some((x, y, bw, bh)) => {
                prop_assert_eq!((x0, y0), (x as i64, y as i64));
                prop_assert_eq!(got, big.crop(x, y, bw, bh));
            }
        }
        for alg in [Algorithm::Naive, Algorithm::Table] {
            let (g2, _) = life::evolve_unbounded(&g, rule, gens, alg);
            prop_assert_eq!(g2.population(), big.population());
        }
    }
}

#[test]
fn wide_torus_with_ragged_last_word() {
    // Widths around word boundaries, where the wrap-around bits are patched.
    for w in [63, 64, 65, 127, 128, 129, 200] {
        let g = soup(w, 37, 0.45, w as u64);
        let want = naive_evolve(&g, Rule::CONWAY, Topology::Torus, 20);
        for alg in FAST {
            assert_eq!(life::evolve(&g, Rule::CONWAY, Topology::Torus, 20, alg), want, "{alg:?} width {w}");
        }
    }
}

#[test]
fn sparse_board_skips_still_tiles_but_stays_exact() {
    // A glider crossing a large mostly-empty torus with a block far away.
    let mut g = Grid::new(512, 512);
    for (x, y) in [(1, 0), (2, 1), (0, 2), (1, 2), (2, 2), (400, 400), (401, 400), (400, 401), (401, 401)] {
        g.set(x, y, true);
    }
    let want = naive_evolve(&g, Rule::CONWAY, Topology::Torus, 300);
    assert_eq!(life::evolve(&g, Rule::CONWAY, Topology::Torus, 300, Algorithm::Lifecube), want);
}

fn rows(r: &[&str]) -> Grid {
    Grid::from_rows(r).unwrap()
}

#[test]
fn blinker_has_period_two() {
    let b = rows(&["...", "***", "..."]);
    for alg in [Algorithm::Naive, Algorithm::Table, Algorithm::Lifecube, Algorithm::LifecubeParallel] {
        let one = life::evolve(&b, Rule::CONWAY, Topology::Bounded, 1, alg);
        assert_ne!(one, b);
        assert_eq!(one.to_rows(), [".*.", ".*.", ".*."]);
        assert_eq!(life::evolve(&b, Rule::CONWAY, Topology::Bounded, 2, alg), b);
    }
}

#[test]
fn glider_moves_one_one_in_four_generations() {
    let g = rows(&[".*.", "..*", "***"]);
    for alg in [Algorithm::Naive, Algorithm::Table, Algorithm::Lifecube] {
        let (after, (dx, dy)) = life::evolve_unbounded(&g, Rule::CONWAY, 4, alg);
        assert_eq!(after, g, "{alg:?}");
        assert_eq!((dx, dy), (1, 1), "{alg:?}");
    }
}

#[test]
fn r_pentomino_has_116_cells_at_1103_and_stays_so() {
    let r = rows(&[".**", "**.", ".*."]);
    let mut u = Universe::new(&r, (0, 0), Rule::CONWAY);
    let mut pops = Vec::new();
    for t in 1..=1200 {
        u.step();
        if t >= 1100 {
            pops.push(u.population());
        }
    }
    // Still changing at 1102, settled (oscillators and escaping gliders) from 1103.
    assert_ne!(pops[2], 116);
    assert_eq!(pops[3], 116);
    assert!(pops[3..].iter().all(|&p| p == 116), "population moved after 1103");
}

#[test]
fn hilife_replicator_replicates() {
    let rep = rows(&["..***", ".*..*", "*...*", "*..*.", "***.."]);
    let (after, _) = life::evolve_unbounded(&rep, Rule::HILIFE, 12, Algorithm::Lifecube);
    let cells: Vec<(usize, usize)> = after.live_cells().collect();
    let orig: Vec<(usize, usize)> = rep.live_cells().collect();
    // Find every placement of the replicator inside the result.
    let mut copies = Vec::new();
    for dy in 0..after.height() {
        for dx in 0..after.width() {
            if orig
                .iter()
                .all(|&(x, y)| x + dx < after.width() && y + dy < after.height() && after.get(x + dx, y + dy))
            {
                copies.push((dx, dy));
            }
        }
    }
    assert_eq!(copies.len(), 2, "expected two copies, found {copies:?}");
    assert_eq!(cells.len(), 2 * orig.len(), "the two copies are all there is");
    // Under Conway's rule the same seed does not replicate.
    let (c, _) = life::evolve_unbounded(&rep, Rule::CONWAY, 12, Algorithm::Lifecube);
    assert_ne!(c.population(), 2 * orig.len());
}

#[test]
fn every_simd_kernel_gives_the_same_bits() {
    use lifesearch::life::lifecube::{Simd, evolve_with};
    // Ragged torus and HiLife take the general adder; the rest the stagger step.
    let cases = [
        (300, 130, Rule::CONWAY, Topology::Torus),
        (300, 130, Rule::HILIFE, Topology::Bounded),
        (320, 70, Rule::CONWAY, Topology::Torus),
        (320, 70, Rule::CONWAY, Topology::Bounded),
        (1024, 40, Rule::CONWAY, Topology::Torus),
        (700, 33, Rule::CONWAY, Topology::Bounded),
    ];
    for (w, h, rule, topo) in cases {
        let g = soup(w, h, 0.4, 7);
        let want = naive_evolve(&g, rule, topo, 15);
        for simd in [Simd::Portable, Simd::Avx2, Simd::Avx512] {
            assert_eq!(evolve_with(&g, rule, topo, 15, simd), want, "{simd:?} {w}x{h} {rule:?} {topo:?}");
        }
    }
}
