//! The relay (tiles, then HashLife) against its slow twin: the hand-over
//! from the tiles to a quadtree must keep every cell where it was, and the
//! relay must end where the naive engine ends whenever it hands over (small
//! windows force it to, early and often); HashLife alone must agree with the
//! naive engine on soups larger and longer than its own tests use.

mod common;

use common::{naive_plane, rules};
use lifesearch::life::hashlife::HashLife;
use lifesearch::life::relay::{self, Options, Relayed};
use lifesearch::life::tiles::Tiles;
use lifesearch::life::{Grid, Rule};
use proptest::prelude::*;
use rand::SeedableRng;
use std::collections::BTreeSet;

fn tree_cells(h: &HashLife) -> BTreeSet<(i64, i64)> {
    let mut s = BTreeSet::new();
    h.for_each_cell(|x, y| {
        s.insert((x as i64, y as i64));
    });
    s
}

fn grid_cells(g: &Grid, (ox, oy): (i64, i64)) -> BTreeSet<(i64, i64)> {
    g.live_cells().map(|(x, y)| (x as i64 + ox, y as i64 + oy)).collect()
}

fn relayed_cells(r: &Relayed) -> BTreeSet<(i64, i64)> {
    match r {
        Relayed::Tiles(g, at) => grid_cells(g, *at),
        Relayed::Tree { tree, .. } => tree_cells(tree),
    }
}

/// Hand-overs as early and as often as the relay allows.
fn eager() -> Options {
    Options { window: 2, min_left: 1, ..Options::default() }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// The tree built from the tiles holds the tiles' cells, for soups that
    /// straddle tile edges at negative and positive coordinates (the
    /// quadtree's squares start one row below the tiles').
    #[test]
    fn hand_over_keeps_every_cell(
        w in 1usize..140, h in 1usize..140, density in 0.05f64..0.7, seed: u64,
        gens in 0u64..30, ox in -200i64..200, oy in -200i64..200,
    ) {
        let g = Grid::random(w, h, density, &mut rand_pcg::Pcg64::seed_from_u64(seed));
        let mut t = Tiles::plane(&g, (ox, oy), Rule::CONWAY);
        t.advance(gens);
        let (grid, at) = t.to_grid();
        let tree = HashLife::from_tiles(t.tile_rows(), Rule::CONWAY, 1 << 26).unwrap();
        prop_assert_eq!(tree_cells(&tree), grid_cells(&grid, at));
        prop_assert_eq!(tree.population(), t.population());
    }

    /// With a two-generation window the relay hands over at the first lull
    /// (a still life, a blinker, or a soup that died): the cells it ends on
    /// are the naive engine's, whichever engine finished.
    #[test]
    fn relay_agrees_with_naive(
        w in 1usize..24, h in 1usize..24, density in 0.05f64..0.7, seed: u64,
        rule in rules(), gens in 0u64..90, ox in -70i64..70, oy in -70i64..70,
    ) {
        let g = Grid::random(w, h, density, &mut rand_pcg::Pcg64::seed_from_u64(seed));
        let r = relay::evolve_plane(&g, (ox, oy), rule, gens, eager()).unwrap();
        let want: BTreeSet<_> = naive_plane::<i64>(&g, rule, gens).into_iter().map(|(x, y)| (x + ox, y + oy)).collect();
        prop_assert_eq!(relayed_cells(&r), want);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    /// HashLife alone on soups wider than the ones of `tests/hashlife.rs`
    /// and run longer, so that their squares reach level 7 and more while
    /// the soup is still busy (the part the relay leaves to the tiles).
    #[test]
    fn busy_soups_agree_with_naive(
        side in 40usize..90, density in 0.25f64..0.6, seed: u64, hilife: bool, gens in 60u64..260,
    ) {
        let rule = if hilife { Rule::HILIFE } else { Rule::CONWAY };
        let g = Grid::random(side, side, density, &mut rand_pcg::Pcg64::seed_from_u64(seed));
        let mut t = HashLife::from_grid(&g, (0, 0), rule, 1 << 28).unwrap();
        t.advance(gens);
        prop_assert_eq!(tree_cells(&t), naive_plane::<i64>(&g, rule, gens));
    }
}

/// A 64x64 soup run far enough that the relay hands over with its real
/// window: the same cells as the tiles alone.
#[test]
fn a_settling_soup_is_handed_over() {
    let g = Grid::random(64, 64, 0.5, &mut rand_pcg::Pcg64::seed_from_u64(7));
    let gens = 6000;
    let r = relay::evolve_plane(&g, (5, -9), Rule::CONWAY, gens, Options::default()).unwrap();
    let Relayed::Tree { handed_over, ref tree } = r else {
        panic!("a 64x64 soup settles well before 6000 generations")
    };
    assert!(handed_over < gens - relay::MIN_LEFT);
    assert_eq!(tree.generation(), gens as u128);
    let mut t = Tiles::plane(&g, (5, -9), Rule::CONWAY);
    t.advance(gens);
    let (grid, at) = t.to_grid();
    assert_eq!(relayed_cells(&r), grid_cells(&grid, at));
}

/// A pattern that grows without end never settles; its windows cost more
/// each time, and after [`relay::RISING`] of them the relay hands over all
/// the same (before, it ran a Gosper gun on the tiles for 33,000
/// generations). The cells are HashLife's alone.
#[test]
fn a_growing_pattern_is_handed_over_once_its_windows_keep_rising() {
    let gun_file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/formats/gun.rle");
    let gun = lifesearch::formats::read_pattern(&gun_file).unwrap().grid;
    let gens = 1 << 14;
    let r = relay::evolve_plane(&gun, (0, 0), Rule::CONWAY, gens, Options::default()).unwrap();
    let Relayed::Tree { handed_over, .. } = r else { panic!("a gun's stream keeps the tiles busy") };
    assert!(handed_over <= (relay::RISING as u64 + 1) * relay::WINDOW, "handed over at {handed_over}");
    let mut h = HashLife::from_grid(&gun, (0, 0), Rule::CONWAY, 1 << 30).unwrap();
    h.advance(gens);
    assert_eq!(relayed_cells(&r), tree_cells(&h));
}

/// Too few generations left for HashLife to pay: the tiles finish alone.
#[test]
fn a_short_run_stays_with_the_tiles() {
    let g = Grid::random(64, 64, 0.5, &mut rand_pcg::Pcg64::seed_from_u64(7));
    let r = relay::evolve_plane(&g, (0, 0), Rule::CONWAY, relay::MIN_LEFT, Options::default()).unwrap();
    assert!(matches!(r, Relayed::Tiles(..)));
}

#[test]
fn b0_is_refused() {
    let g = Grid::random(8, 8, 0.5, &mut rand_pcg::Pcg64::seed_from_u64(1));
    let e = relay::evolve_plane(&g, (0, 0), "B0/S8".parse().unwrap(), 10, Options::default()).unwrap_err();
    assert!(e.to_string().contains("B0"), "{e}");
}
