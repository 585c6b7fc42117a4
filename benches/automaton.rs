//! The column automaton on long narrow patterns (issue 18's targets: 5x45 in
//! at most 10 ms, 6x45 in at most 100 ms), and a small census.

use criterion::{Criterion, criterion_group, criterion_main};
use lifesearch::automaton::{CensusOptions, census, decide};
use lifesearch::life::{Grid, Rule, SpecGrid, Topology, naive};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::hint::black_box;

/// A `w` x `h` target with a parent: the middle of one step of a random
/// (w+2) x (h+2) soup, so the automaton reads every column, walks back and checks.
fn with_parent(w: usize, h: usize, seed: u64) -> SpecGrid {
    let mut rng = Pcg64::seed_from_u64(seed);
    let parent = Grid::random(w + 2, h + 2, 0.4, &mut rng);
    SpecGrid::from(&naive::step(&parent, Rule::CONWAY, Topology::Bounded).crop(1, 1, w, h))
}

fn bench(c: &mut Criterion) {
    for h in [5, 6] {
        let t = with_parent(45, h, 18);
        assert!(decide(&t, Rule::CONWAY).unwrap().predecessor.is_some());
        c.bench_function(&format!("automaton 45 columns x {h} rows, with a parent"), |b| {
            b.iter(|| decide(black_box(&t), Rule::CONWAY).unwrap())
        });
        // The same pattern standing up: read along its rows.
        let mut tall = SpecGrid::new(h, 45, t.get(0, 0));
        for y in 0..h {
            for x in 0..45 {
                tall.set(y, x, t.get(x, y));
            }
        }
        c.bench_function(&format!("automaton {h} columns x 45 rows (transposed)"), |b| {
            b.iter(|| decide(black_box(&tall), Rule::CONWAY).unwrap())
        });
    }
    c.bench_function("census 4x4 Life", |b| {
        b.iter(|| census(&CensusOptions { checks: 0, ..CensusOptions::new(4, 4, Rule::CONWAY) }).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().without_plots().sample_size(20).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);
