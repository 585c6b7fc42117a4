//! The tile engine against its slow twin, the naive engine: random soups on
//! the plane (naive on a grid padded wider than anything can travel) and on
//! tori of every shape (widths and heights that are not whole tiles
//! included), several rules, random generation counts. Long runs check that
//! sleeping period-2 tiles wake when a glider arrives.

mod common;

use common::{naive_plane, rules};
use lifesearch::life::tiles::{self, ROWS, Tiles};
use lifesearch::life::{Grid, Rule, Topology, naive};
use proptest::prelude::*;
use rand::SeedableRng;
use std::collections::BTreeSet;

fn naive_torus(g: &Grid, rule: Rule, gens: u64) -> Grid {
    let mut b = g.clone();
    for _ in 0..gens {
        b = naive::step(&b, rule, Topology::Torus);
    }
    b
}

fn cells_of(g: &Grid, (ox, oy): (i64, i64)) -> BTreeSet<(i64, i64)> {
    g.live_cells().map(|(x, y)| (x as i64 + ox, y as i64 + oy)).collect()
}

/// Torus rules may have B0: every tile exists, so the flashing vacuum is fine.
fn torus_rules() -> impl Strategy<Value = Rule> {
    prop_oneof![rules(), (0u16..512, 0u16..512).prop_map(|(b, s)| Rule { birth: b, survival: s })]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn plane_agrees_with_naive(
        w in 1usize..90, h in 1usize..80, density in 0.05f64..0.7, seed: u64,
        rule in rules(), gens in 0u64..40,
    ) {
        let g = Grid::random(w, h, density, &mut rand_pcg::Pcg64::seed_from_u64(seed));
        let (out, origin) = tiles::evolve_plane(&g, rule, gens).expect("no B0");
        prop_assert_eq!(cells_of(&out, origin), naive_plane(&g, rule, gens));
    }

    #[test]
    fn torus_agrees_with_naive(
        w in 1usize..150, h in 1usize..(3 * ROWS + 5), density in 0.05f64..0.7, seed: u64,
        rule in torus_rules(), gens in 0u64..30,
    ) {
        let g = Grid::random(w, h, density, &mut rand_pcg::Pcg64::seed_from_u64(seed));
        prop_assert_eq!(tiles::evolve_torus_tiles_only(&g, rule, gens), naive_torus(&g, rule, gens));
    }

    /// Long enough for soups to settle into sleeping debris and for gliders
    /// to cross tiles and wake it: Conway and HighLife.
    /// Small soups straddling a tile corner, where a change in one corner
    /// cell must wake the diagonal neighbour tile.
    #[test]
    fn soups_at_a_tile_corner_agree(
        w in 2usize..12, h in 2usize..12, density in 0.2f64..0.6, seed: u64,
        rule in rules(), gens in 1u64..60, ox in -12i64..0, oy in -12i64..0,
    ) {
        let g = Grid::random(w, h, density, &mut rand_pcg::Pcg64::seed_from_u64(seed));
        let mut t = Tiles::plane(&g, (ox, oy), rule);
        t.advance(gens);
        let (out, origin) = t.to_grid();
        let want: BTreeSet<_> = naive_plane::<i64>(&g, rule, gens).into_iter().map(|(x, y)| (x + ox, y + oy)).collect();
        prop_assert_eq!(cells_of(&out, origin), want);
    }

    /// Through the driver too, which hands dense stretches to LIFECUBE.
    #[test]
    fn settled_soups_agree(
        w in 60usize..130, h in 60usize..130, seed: u64, hilife: bool, gens in 100u64..300,
    ) {
        let rule = if hilife { Rule::HILIFE } else { Rule::CONWAY };
        let g = Grid::random(w, h, 0.4, &mut rand_pcg::Pcg64::seed_from_u64(seed));
        let want = naive_torus(&g, rule, gens);
        prop_assert_eq!(tiles::evolve_torus_tiles_only(&g, rule, gens), want.clone());
        prop_assert_eq!(tiles::evolve_torus(&g, rule, gens), want);
    }
}

/// A glider crossing blinkers and a block at rest in other tiles: the
/// sleeping tiles wake and the collision matches the naive engine.
#[test]
fn glider_wakes_sleeping_debris() {
    let mut g = Grid::new(256, 256);
    for (x, y) in [(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)] {
        g.set(x + 3, y + 3, true);
    }
    // A blinker and a block on the glider's diagonal path, tiles away.
    for (x, y) in [(100, 101), (101, 101), (102, 101), (150, 150), (151, 150), (150, 151), (151, 151)] {
        g.set(x, y, true);
    }
    let mut t = Tiles::torus(&g, Rule::CONWAY);
    let mut want = g.clone();
    for g_ in 1..=700u64 {
        t.step();
        want = naive::step(&want, Rule::CONWAY, Topology::Torus);
        if g_ % 50 == 0 || g_ > 380 && g_ < 420 {
            assert_eq!(t.to_grid().0, want, "generation {g_}");
        }
    }
    // Mostly asleep: far fewer tile steps than tiles times generations.
    let tiles_on_board = (256 / 64) * 256usize.div_ceil(ROWS);
    assert!(t.tile_steps < (tiles_on_board as u64 * 700) / 4, "{} tile steps", t.tile_steps);
}

/// Blinkers alone: after the first two generations nothing is computed.
#[test]
fn period_two_costs_nothing() {
    let mut g = Grid::new(300, 300);
    for k in 0..20 {
        let (x, y) = (10 + 13 * k, 7 + 11 * k);
        g.set(x, y, true);
        g.set(x + 1, y, true);
        g.set(x + 2, y, true);
    }
    let mut t = Tiles::plane(&g, (-1000, 5), Rule::CONWAY);
    t.advance(4);
    let before = t.tile_steps;
    t.advance(1000);
    assert_eq!(t.tile_steps, before);
    assert_eq!(t.population(), 60);
    let (out, origin) = t.to_grid();
    assert_eq!(cells_of(&out, origin), cells_of(&g, (-1000, 5)).into_iter().collect());
}

#[test]
fn plane_refuses_b0() {
    let g = Grid::new(3, 3);
    assert!(tiles::evolve_plane(&g, "B0/S".parse().unwrap(), 1).is_none());
}

/// Patterns that die in one generation: the first step has no generation
/// two back to compare with, and must not let the tile sleep on its old
/// cells (which would bring them back at generation 2).
#[test]
fn patterns_that_die_at_once_stay_dead() {
    for rows in [vec!["*"], vec!["**"], vec!["*..*", "....", ".*.."]] {
        let g = Grid::from_rows(&rows).unwrap();
        for gens in 1..5 {
            let (out, origin) = tiles::evolve_plane(&g, Rule::CONWAY, gens).unwrap();
            assert_eq!(cells_of(&out, origin), naive_plane(&g, Rule::CONWAY, gens), "{rows:?} {gens}");
            let board = g.padded(3);
            let want = naive_torus(&board, Rule::CONWAY, gens);
            assert_eq!(tiles::evolve_torus_tiles_only(&board, Rule::CONWAY, gens), want, "{rows:?} {gens}");
        }
    }
}

/// A Conway soup at a tile corner whose only change next to the diagonal
/// tile is the corner cell (found by the proptest above when the corner
/// flags were switched off).
#[test]
fn corner_cell_wakes_the_diagonal_tile() {
    let g = Grid::random(5, 4, 0.2502233838335956, &mut rand_pcg::Pcg64::seed_from_u64(15694293975003523037));
    let mut t = Tiles::plane(&g, (-1, -1), Rule::CONWAY);
    t.advance(10);
    let (out, origin) = t.to_grid();
    let want: BTreeSet<_> =
        naive_plane::<i64>(&g, Rule::CONWAY, 10).into_iter().map(|(x, y)| (x - 1, y - 1)).collect();
    assert_eq!(cells_of(&out, origin), want);
}
