//! HashLife against its slow twin (the naive engine on a grid padded wide
//! enough that nothing reaches the edge), and Golly's macrocell files: read
//! Golly's, write ours, and evolve Golly's Gosper gun to the generations
//! Golly wrote it at (files under `tests/data/mc/`, made by `bgolly` 3.3).

mod common;

use common::{naive_plane, rules};
use lifesearch::error::Location;
use lifesearch::formats::{self, Format, Warnings, macrocell};
use lifesearch::life::hashlife::{self, HashLife};
use lifesearch::life::{Grid, Rule};
use proptest::prelude::*;
use rand::SeedableRng;
use std::collections::BTreeSet;

fn cells(h: &HashLife) -> BTreeSet<(i128, i128)> {
    let mut s = BTreeSet::new();
    h.for_each_cell(|x, y| {
        s.insert((x, y));
    });
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Random soups, rules and generation counts (so every jump size up to
    /// 2^6 and their sums), at random places in the plane.
    #[test]
    fn agrees_with_naive(
        w in 1usize..20, h in 1usize..20, density in 0.1f64..0.7, seed: u64,
        rule in rules(), gens in 0u64..70, ox in -40i64..40, oy in -40i64..40,
    ) {
        let g = Grid::random(w, h, density, &mut rand_pcg::Pcg64::seed_from_u64(seed));
        let mut t = HashLife::from_grid(&g, (ox, oy), rule, 1 << 26).unwrap();
        t.advance(gens);
        let want: BTreeSet<_> = naive_plane::<i128>(&g, rule, gens).into_iter().map(|(x, y)| (x + ox as i128, y + oy as i128)).collect();
        prop_assert_eq!(cells(&t), want);
        prop_assert_eq!(t.population() as usize, t.to_grid().unwrap().0.population());
    }

    /// Several advances in a row, with collections forced between them,
    /// end where one advance of the sum ends.
    #[test]
    fn advances_compose_across_collections(
        seed: u64, rule in rules(), steps in proptest::collection::vec(0u64..40, 1..5),
    ) {
        let g = Grid::random(12, 12, 0.4, &mut rand_pcg::Pcg64::seed_from_u64(seed));
        let mut a = HashLife::from_grid(&g, (0, 0), rule, 0).unwrap();
        for &s in &steps {
            a.advance(s);
            a.collect();
        }
        let total: u64 = steps.iter().sum();
        prop_assert_eq!(cells(&a), naive_plane(&g, rule, total));
    }

    /// Writing a tree as a macrocell and reading it back gives the same cells.
    #[test]
    fn macrocell_round_trip(w in 1usize..40, h in 1usize..40, seed: u64, ox in -100i64..100, oy in -100i64..100) {
        let g = Grid::random(w, h, 0.3, &mut rand_pcg::Pcg64::seed_from_u64(seed));
        let t = HashLife::from_grid(&g, (ox, oy), Rule::CONWAY, 1 << 26).unwrap();
        let text = macrocell::write_tree(&t, Some(Rule::HILIFE), None, &[]);
        let back = macrocell::read_tree(&Location::new("t", None), &text, 1 << 26, &mut Warnings::default()).unwrap();
        prop_assert_eq!(back.rule, Some(Rule::HILIFE));
        prop_assert_eq!(cells(&back.tree), cells(&t));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// A pattern given as live runs (as the wide RLE reader hands it over)
    /// builds the tree of exactly those cells, wherever the runs lie and
    /// however they cross 64-cell tile edges, and evolves as the naive engine does.
    #[test]
    fn runs_build_their_cells(
        w in 1usize..150, h in 1usize..40, density in 0.1f64..0.9, seed: u64,
        ox in -200i64..200, oy in -200i64..200, gens in 0u64..40,
    ) {
        let g = Grid::random(w, h, density, &mut rand_pcg::Pcg64::seed_from_u64(seed));
        let mut runs = Vec::new();
        for y in 0..h {
            let mut x = 0;
            while x < w {
                let len = (x..w).take_while(|&i| g.get(i, y)).count();
                if len > 0 {
                    runs.push((ox + x as i64, oy + y as i64, len as u64));
                }
                x += len.max(1);
            }
        }
        let at = |(x, y): (i128, i128)| (x + ox as i128, y + oy as i128);
        let mut t = HashLife::from_runs(&runs, Rule::CONWAY, 1 << 26).unwrap();
        let start: BTreeSet<_> = g.live_cells().map(|(x, y)| at((x as i128, y as i128))).collect();
        prop_assert_eq!(cells(&t), start);
        t.advance(gens);
        let want: BTreeSet<_> = naive_plane::<i128>(&g, Rule::CONWAY, gens).into_iter().map(at).collect();
        prop_assert_eq!(cells(&t), want);
    }
}

fn golly(name: &str) -> macrocell::Macrocell {
    let path = format!("{}/tests/data/mc/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    macrocell::read_tree(&Location::new(&path, None), &text, 1 << 28, &mut Warnings::default()).unwrap()
}

#[test]
fn golly_glider_reads_at_golly_coordinates_and_writes_back_byte_for_byte() {
    let m = golly("glider.mc");
    let want: BTreeSet<(i128, i128)> = [(6, -3), (7, -2), (5, -1), (6, -1), (7, -1)].into_iter().collect();
    assert_eq!(cells(&m.tree), want);
    // The same glider from Golly's RLE (with its #CXRLE position), written by us.
    let rle = formats::load(std::path::Path::new(&format!(
        "{}/tests/data/mc/glider.rle",
        env!("CARGO_MANIFEST_DIR")
    )))
    .unwrap()
    .pattern;
    let ours = formats::write_pattern(&rle, Format::Mc).unwrap();
    let theirs =
        std::fs::read_to_string(format!("{}/tests/data/mc/glider.mc", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let body = |s: &str| s.lines().skip(1).map(String::from).collect::<Vec<_>>();
    assert_eq!(body(&ours), body(&theirs));
}

#[test]
fn gosper_gun_matches_golly_at_1024_and_2_to_the_20() {
    let start = golly("gun.mc");
    assert_eq!(start.tree.population(), 36);
    for (name, gens) in [("gun_1024.mc", 1024u64), ("gun_2e20.mc", 1 << 20)] {
        let want = golly(name);
        assert_eq!(want.generation, Some(gens as u128));
        let mut t = start.tree.clone();
        t.advance(gens);
        assert_eq!(t.population(), want.tree.population(), "{name}");
        assert_eq!(cells(&t), cells(&want.tree), "{name}");
    }
}

#[test]
fn hilife_gun_matches_golly() {
    let mut t = golly("gun.mc").tree;
    let want = golly("gun_hilife_100.mc");
    assert_eq!(want.rule, Some(Rule::HILIFE));
    t.set_rule(Rule::HILIFE).unwrap();
    t.advance(100);
    assert_eq!(cells(&t), cells(&want.tree));
}

#[test]
fn gun_to_2_to_the_40_and_63() {
    let mut t = golly("gun.mc").tree;
    t.advance(1 << 40);
    // One glider every 30 generations, 5 cells each, plus the gun (36 cells
    // at generations that are multiples of 30; 2^40 is 16 mod 30).
    let gliders = (1u64 << 40) / 30;
    assert!(
        t.population() > 5 * (gliders - 2) && t.population() < 5 * (gliders + 2) + 60,
        "{}",
        t.population()
    );
    let mut big = golly("gun.mc").tree;
    big.advance(1 << 63);
    assert!(big.population() > 5 * ((1u64 << 63) / 30 - 2));
}

#[test]
fn bad_macrocell_files_name_the_line() {
    for (text, needle) in [
        ("hello\n", ":1:"),
        ("[M2]\n$$*$\n4 1 2 0 0\n", ":3:"),
        ("[M2]\n$$*$\n5 1 0 0 0\n", ":3:"),
        ("[M2]\n$$**********$\n", ":2:"),
        ("[M2]\n1 0 0 0 1\n", "two-state"),
        ("[M2]\n#R B9\n", ":2:"),
        ("[M2]\n4 x 0 0 0\n", ":2:"),
    ] {
        let e = macrocell::read_tree(&Location::new("f.mc", None), text, 1 << 20, &mut Warnings::default())
            .err()
            .unwrap_or_else(|| panic!("accepted {text:?}"));
        assert!(e.to_string().contains(needle), "{text:?}: {e}");
    }
}

#[test]
fn b0_rules_are_refused() {
    let e = HashLife::new("B0/S8".parse().unwrap(), 1 << 20).unwrap_err();
    assert!(e.to_string().contains("B0"), "{e}");
    assert!(hashlife::check_rule(Rule::HILIFE).is_ok());
}

/// Light speed, where a jump has no margin to spare: under B2/S a vertical
/// domino grows one column left and right every generation. Placed anywhere
/// in and around the smallest root (16x16, whose quadrants are leaves) and
/// run for every count up to 40, it must end where the naive engine ends.
/// (A root of that level once counted as centred whatever its leaves held,
/// so the jump that followed lost the edge columns.)
#[test]
fn light_speed_growth_keeps_its_edges() {
    let rule: Rule = "B2/S".parse().unwrap();
    let domino = Grid::from_cells(1, 2, vec![true, true]);
    for ox in -10i64..10 {
        for oy in [-8i64, -1, 0, 7] {
            for gens in 0..40 {
                let mut t = HashLife::from_grid(&domino, (ox, oy), rule, 1 << 26).unwrap();
                t.advance(gens);
                let want: BTreeSet<_> = naive_plane::<i128>(&domino, rule, gens)
                    .into_iter()
                    .map(|(x, y)| (x + ox as i128, y + oy as i128))
                    .collect();
                assert_eq!(cells(&t), want, "domino at ({ox}, {oy}), {gens} generations");
            }
        }
    }
}
