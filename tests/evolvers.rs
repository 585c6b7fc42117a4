//! One interface for every evolution engine: each engine in the registry ends
//! where the naive engine ends, on the plane and on a torus, under many rules;
//! the engines that cannot run a job refuse it instead of answering; and a toy
//! engine (a set of live cells, stepped by counting) joins the registry with
//! one line and is checked like the others.

mod common;

use common::{naive_plane, rules};
use lifesearch::life::evolver::{self, Evolved, Evolver, Job, Run, Start};
use lifesearch::life::lifecube::Simd;
use lifesearch::life::{Grid, Rule, Topology, lifecube, naive};
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};

/// A new engine, as a contributor would add one: live cells in a set.
struct SetTwin;

impl Evolver for SetTwin {
    fn evolve(&self, job: Job) -> lifesearch::Result<Run> {
        let Start::Cells { grid, origin } = job.start else { panic!("cells only") };
        let (w, h) = (grid.width() as i64, grid.height() as i64);
        let wrap = |x: i64, y: i64| if job.torus { (x.rem_euclid(w), y.rem_euclid(h)) } else { (x, y) };
        let mut live: BTreeSet<(i64, i64)> = grid.live_cells().map(|(x, y)| (x as i64, y as i64)).collect();
        for _ in 0..job.generations {
            let mut counts: HashMap<(i64, i64), u32> = HashMap::new();
            if job.torus {
                // Every cell of the board may be born (a rule with B0).
                counts.extend((0..w).flat_map(|x| (0..h).map(move |y| ((x, y), 0))));
            }
            for &(x, y) in &live {
                counts.entry((x, y)).or_insert(0);
                for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
                    *counts.entry(wrap(x + dx, y + dy)).or_insert(0) += 1;
                }
            }
            live = counts
                .into_iter()
                .filter(|&(c, n)| job.rule.next(live.contains(&c), n))
                .map(|(c, _)| c)
                .collect();
        }
        let (grid, at) = if job.torus {
            let mut g = Grid::new(w as usize, h as usize);
            for &(x, y) in &live {
                g.set(x as usize, y as usize, true);
            }
            (g, origin)
        } else if live.is_empty() {
            (Grid::new(0, 0), origin)
        } else {
            let (x0, y0) = (live.iter().map(|c| c.0).min().unwrap(), live.iter().map(|c| c.1).min().unwrap());
            let (x1, y1) = (live.iter().map(|c| c.0).max().unwrap(), live.iter().map(|c| c.1).max().unwrap());
            let mut g = Grid::new((x1 - x0 + 1) as usize, (y1 - y0 + 1) as usize);
            for &(x, y) in &live {
                g.set((x - x0) as usize, (y - y0) as usize, true);
            }
            (g, (origin.0 + x0, origin.1 + y0))
        };
        Ok(Run { evolved: Evolved::Cells { grid, origin: at }, engine: "set-twin", notes: Vec::new() })
    }
}

/// The registry with the toy engine added: one line.
fn engines() -> Vec<evolver::Entry> {
    let mut r = evolver::registry();
    r.push(("set-twin", "live cells in a set", &SetTwin));
    r
}

fn cells(run: &Run) -> BTreeSet<(i64, i64)> {
    match &run.evolved {
        Evolved::Cells { grid, origin } => {
            grid.live_cells().map(|(x, y)| (x as i64 + origin.0, y as i64 + origin.1)).collect()
        }
        Evolved::Tree(t) => {
            let mut s = BTreeSet::new();
            t.for_each_cell(|x, y| {
                s.insert((x as i64, y as i64));
            });
            s
        }
    }
}

fn job(grid: &Grid, origin: (i64, i64), rule: Rule, torus: bool, generations: u64) -> Job {
    Job { start: Start::Cells { grid: grid.clone(), origin }, rule, torus, generations, memory_cap: 64 << 20 }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_engine_ends_where_naive_ends_on_the_plane(
        seed in any::<u64>(), w in 1usize..28, h in 1usize..28, gens in 0u64..90, rule in rules(),
        ox in -70i64..70, oy in -70i64..70,
    ) {
        let g = Grid::random(w, h, 0.4, &mut <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(seed));
        let truth: BTreeSet<(i64, i64)> =
            naive_plane::<i64>(&g, rule, gens).into_iter().map(|(x, y)| (x + ox, y + oy)).collect();
        for (name, _, e) in engines() {
            let run = e.evolve(job(&g, (ox, oy), rule, false, gens)).unwrap_or_else(|err| panic!("{name}: {err}"));
            prop_assert_eq!(&cells(&run), &truth, "{} under {} after {}", name, rule, gens);
            if name != "auto" {
                prop_assert_eq!(run.engine, name);
            }
        }
    }

    #[test]
    fn every_engine_ends_where_naive_ends_on_a_torus(
        seed in any::<u64>(), w in 1usize..40, h in 1usize..40, gens in 0u64..90, b0 in any::<bool>(),
        rule in rules(),
    ) {
        let rule = if b0 { Rule { birth: rule.birth | 1, ..rule } } else { rule };
        let g = Grid::random(w, h, 0.4, &mut <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(seed));
        let mut t = g.clone();
        for _ in 0..gens {
            t = naive::step(&t, rule, Topology::Torus);
        }
        let truth: BTreeSet<(i64, i64)> = t.live_cells().map(|(x, y)| (x as i64, y as i64)).collect();
        let mut refused = Vec::new();
        for (name, _, e) in engines() {
            match e.evolve(job(&g, (0, 0), rule, true, gens)) {
                Ok(run) => prop_assert_eq!(&cells(&run), &truth, "{} under {} after {}", name, rule, gens),
                Err(err) => {
                    prop_assert!(err.to_string().contains("plane only"), "{}: {}", name, err);
                    refused.push(name);
                }
            }
        }
        prop_assert_eq!(refused, vec!["hashlife", "relay"]);
    }
}

#[test]
fn the_quadtree_engines_and_the_plane_tiles_refuse_b0_on_the_plane() {
    let g = Grid::from_cells(3, 1, vec![true; 3]);
    let rule: Rule = "B0/S23".parse().unwrap();
    for name in ["hashlife", "relay", "tiles"] {
        let err = evolver::by_name(name).unwrap().evolve(job(&g, (0, 0), rule, false, 4)).unwrap_err();
        assert!(err.to_string().contains("B0"), "{name}: {err}");
    }
}

#[test]
fn auto_says_what_it_picked_and_a_long_gun_run_goes_to_hashlife() {
    let gun_file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/formats/gun.rle");
    let gun = lifesearch::formats::read_pattern(&gun_file).unwrap().grid;
    let gens = 1 << 16;
    let run = evolver::by_name("auto").unwrap().evolve(job(&gun, (0, 0), Rule::CONWAY, false, gens)).unwrap();
    assert_eq!(run.engine, "hashlife");
    assert!(run.notes[0].starts_with("auto picked hashlife"), "{:?}", run.notes);
    // The tiles, a different engine, end on the same cells: a glider every
    // 30 generations, none lost.
    let tiles =
        evolver::by_name("tiles").unwrap().evolve(job(&gun, (0, 0), Rule::CONWAY, false, gens)).unwrap();
    let got = cells(&run);
    assert_eq!(got, cells(&tiles));
    assert!(got.len() as u64 > 5 * (gens / 30), "{} cells", got.len());
}

#[test]
fn an_unknown_name_lists_the_known_ones() {
    let err = evolver::by_name("quicklife").err().unwrap().to_string();
    for name in evolver::names() {
        assert!(err.contains(name), "{err}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// LIFECUBE's team of threads (each with its own bands, meeting at a
    /// spinning barrier) ends where one thread and the naive engine end, on
    /// boards of several bands, with teams larger than the cores too (and
    /// often Conway's rule on a torus of whole words, the one case that reads
    /// the halo rows the team copies).
    #[test]
    fn lifecube_team_ends_where_one_thread_ends(
        seed in any::<u64>(), w in prop_oneof![1usize..200, (1usize..4).prop_map(|k| 64 * k)],
        h in 17usize..90, gens in 0u64..12, rule in prop_oneof![Just(Rule::CONWAY), rules()],
        b0 in any::<bool>(), torus in any::<bool>(), threads in 2usize..5,
    ) {
        let topology = if torus { Topology::Torus } else { Topology::Bounded };
        let rule = if b0 && torus { Rule { birth: rule.birth | 1, ..rule } } else { rule };
        let g = Grid::random(w, h, 0.4, &mut <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(seed));
        let mut truth = g.clone();
        for _ in 0..gens {
            truth = naive::step(&truth, rule, topology);
        }
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let team = pool.install(|| lifecube::evolve(&g, rule, topology, gens, true));
        let one = lifecube::evolve(&g, rule, topology, gens, false);
        prop_assert_eq!(&one, &truth, "one thread, {} after {}", rule, gens);
        prop_assert_eq!(&team, &truth, "{} threads, {} after {}", threads, rule, gens);
    }

    /// Every vector kernel LIFECUBE has (the hand-written AVX-512 and AVX2
    /// strips, the compiler's own words) ends where the naive engine ends,
    /// on boards wide enough for several eight-word strips plus a ragged
    /// remainder; on a CPU without a kernel the next narrower one runs, so
    /// the test still holds there.
    #[test]
    fn every_lifecube_kernel_ends_where_naive_ends(
        seed in any::<u64>(), w in prop_oneof![(1usize..20).prop_map(|k| 64 * k), 1usize..1300],
        h in 1usize..40, gens in 1u64..6, torus in any::<bool>(), density in 0.1f64..0.7,
    ) {
        let topology = if torus { Topology::Torus } else { Topology::Bounded };
        let g = Grid::random(w, h, density, &mut <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(seed));
        let mut truth = g.clone();
        for _ in 0..gens {
            truth = naive::step(&truth, Rule::CONWAY, topology);
        }
        for simd in [Simd::Avx512, Simd::Avx2, Simd::Portable] {
            let got = lifecube::evolve_with(&g, Rule::CONWAY, topology, gens, simd);
            prop_assert_eq!(&got, &truth, "{:?}, {}x{}, {} generations", simd, w, h, gens);
        }
    }
}

/// LIFECUBE's kernels on a glider crossing each edge between tiles (256
/// cells wide, so an eight-word strip holds two) of an empty board a few
/// tiles wide, in each of its four directions: a change flag put on the
/// wrong tile leaves a tile unwoken as the glider enters it and the board
/// goes wrong (the AVX-512 strip once flagged its second tile's changes on
/// its first; a glider heading east across cell 512 found it).
#[test]
fn every_lifecube_kernel_wakes_the_right_tiles() {
    for (w, east, south, torus) in crossings() {
        let topology = if torus { Topology::Torus } else { Topology::Bounded };
        let h = 32;
        for edge in (1..).map(|e| 256 * e).take_while(|&e| e + 12 < w) {
            // 12 cells before the edge, heading for it.
            let (x0, y0) = (if east { edge - 12 } else { edge + 9 }, if south { 4 } else { h - 7 });
            let mut g = Grid::new(w, h);
            for (x, y) in [(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)] {
                let (x, y) = (if east { x } else { 2 - x }, if south { y } else { 2 - y });
                g.set(x0 + x, y0 + y, true);
            }
            let mut truth = g.clone();
            for n in 1..=64u64 {
                truth = naive::step(&truth, Rule::CONWAY, topology);
                if n % 4 != 0 {
                    continue;
                }
                for simd in [Simd::Avx512, Simd::Avx2, Simd::Portable] {
                    let got = lifecube::evolve_with(&g, Rule::CONWAY, topology, n, simd);
                    assert_eq!(
                        got, truth,
                        "{simd:?}: {w} wide, glider from x = {x0} (east {east}, south {south}), {n} generations"
                    );
                }
            }
        }
    }
}

/// Boards two to four tiles wide (the last one ragged or whole), gliders
/// heading either way across and down, on the plane and on a torus.
fn crossings() -> impl Iterator<Item = (usize, bool, bool, bool)> {
    [576, 768, 1024].into_iter().flat_map(|w| {
        [false, true].into_iter().flat_map(move |a| {
            [false, true].into_iter().flat_map(move |b| [false, true].into_iter().map(move |c| (w, a, b, c)))
        })
    })
}
