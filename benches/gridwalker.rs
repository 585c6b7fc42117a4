//! GRIDWALKER benchmarks: the thesis' 10x10 orphan (Table 6.1's 8.09 ms), a
//! random 10x10 candidate, a long soup's step, and single confrontations.

use criterion::{Criterion, criterion_group, criterion_main};
use lifesearch::gridwalker::convention::ThesisCode;
use lifesearch::gridwalker::slice::Slice;
use lifesearch::gridwalker::sliver::{confront_ew, confront_ns};
use lifesearch::gridwalker::{Convention, Options, Variant, decide_orphan};
use lifesearch::life::{Cell, Grid, Rule, SpecGrid, Topology, naive};
use rand::SeedableRng;
use rand_pcg::Pcg64;
use std::hint::black_box;

mod common;
use common::cpu_nanos;

use lifesearch::search::known::GARDEN_OF_EDEN_10X10 as ORPHAN;

fn orphan() -> SpecGrid {
    let g = Grid::from_rows(&ORPHAN).unwrap();
    SpecGrid::from(&g)
}

/// A 10x10 target with a parent: the centre of one step of a random 12x12.
fn random_candidate(seed: u64) -> SpecGrid {
    let mut rng = Pcg64::seed_from_u64(seed);
    let parent = Grid::random(12, 12, 0.5, &mut rng);
    let next = naive::step(&parent, Rule::CONWAY, Topology::Bounded);
    SpecGrid::from(&next.crop(1, 1, 10, 10))
}

/// A long target with a parent, like the orphan zoo's soups: the centre of
/// one step of a random 44x16 soup. GRIDWALKER's nodes there change a few
/// rows each, so it measures what the sweeps' passing of consistent rows and
/// the pivot scan cost (`grid.rs`, `Rows` and `dom_wdeg`).
fn long_candidate(seed: u64) -> SpecGrid {
    let mut rng = Pcg64::seed_from_u64(seed);
    let parent = Grid::random(44, 16, 0.4, &mut rng);
    let next = naive::step(&parent, Rule::CONWAY, Topology::Bounded);
    SpecGrid::from(&next.crop(1, 1, 42, 14))
}

/// A uniformly random 10x10 target (most are orphans or quickly refuted).
fn random_target(seed: u64) -> SpecGrid {
    let mut rng = Pcg64::seed_from_u64(seed);
    SpecGrid::from(&Grid::random(10, 10, 0.5, &mut rng))
}

/// The first 1,000 candidates of the thesis' Figure 6.1 study, as written by
/// `experiments patterns DIR --candidates 1000` (issue 6's 50 us target is
/// about these).
fn figure_6_1_candidates() -> Vec<SpecGrid> {
    include_str!("data/figure-6-1-candidates.txt")
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .map(|b| SpecGrid::from(&Grid::from_rows(&b.lines().collect::<Vec<_>>()).unwrap()))
        .collect()
}

/// Median thread CPU time of `runs` calls, printed beside criterion's numbers.
fn cpu_median(name: &str, runs: usize, mut f: impl FnMut()) {
    let mut t: Vec<u64> = (0..runs)
        .map(|_| {
            let start = cpu_nanos();
            f();
            cpu_nanos() - start
        })
        .collect();
    t.sort_unstable();
    println!(
        "cpu-time median {name}: {:.1} us (min {:.1} us, {runs} runs)",
        t[runs / 2] as f64 / 1e3,
        t[0] as f64 / 1e3
    );
}

/// Per candidate the lowest thread CPU time of `rounds` calls (the thesis'
/// method), then the median and mean over the stream.
fn cpu_stream(name: &str, specs: &[SpecGrid], rounds: usize, o: &Options) {
    let mut best = vec![u64::MAX; specs.len()];
    for _ in 0..rounds {
        for (b, s) in best.iter_mut().zip(specs) {
            let start = cpu_nanos();
            black_box(decide_orphan(black_box(s), o).unwrap());
            *b = (*b).min(cpu_nanos() - start);
        }
    }
    let mean = best.iter().sum::<u64>() as f64 / best.len() as f64;
    best.sort_unstable();
    println!(
        "cpu-time median {name}: {:.1} us (mean {:.1} us, {} candidates, lowest of {rounds} each)",
        best[best.len() / 2] as f64 / 1e3,
        mean / 1e3,
        best.len()
    );
}

fn bench(c: &mut Criterion) {
    let stream = figure_6_1_candidates();
    for variant in [Variant::Basic, Variant::Track] {
        let o = Options { variant, convention: Convention::ThesisCode };
        cpu_stream(&format!("figure_6_1_candidates/{variant:?}"), &stream, 5, &o);
    }
    let goe = orphan();
    for variant in [Variant::Robust, Variant::Basic, Variant::Track, Variant::Db] {
        let o = Options { variant, convention: Convention::ThesisCode };
        cpu_median(&format!("orphan_10x10/{variant:?}"), 41, || {
            black_box(decide_orphan(black_box(&goe), &o).unwrap());
        });
    }
    let long = long_candidate(3);
    let robust = Options { variant: Variant::Robust, convention: Convention::ThesisCode };
    cpu_median("long_candidate_42x14/Robust", 41, || {
        black_box(decide_orphan(black_box(&long), &robust).unwrap());
    });
    for (name, t) in [("non_orphan_10x10", random_candidate(1)), ("random_10x10", random_target(2))] {
        for variant in [Variant::Basic, Variant::Track] {
            let o = Options { variant, convention: Convention::ThesisCode };
            cpu_median(&format!("{name}/{variant:?}"), 201, || {
                black_box(decide_orphan(black_box(&t), &o).unwrap());
            });
        }
    }
    for variant in [Variant::Basic, Variant::Track, Variant::NoRepeat, Variant::Single, Variant::Db] {
        let o = Options { variant, convention: Convention::ThesisCode };
        c.bench_function(&format!("orphan_10x10/{variant:?}"), |b| {
            b.iter(|| decide_orphan(black_box(&goe), &o).unwrap())
        });
    }
    let cand = random_candidate(1);
    let rand_t = random_target(2);
    for variant in [Variant::Basic, Variant::Track] {
        let o = Options { variant, convention: Convention::ThesisCode };
        c.bench_function(&format!("non_orphan_10x10/{variant:?}"), |b| {
            b.iter(|| decide_orphan(black_box(&cand), &o).unwrap())
        });
        c.bench_function(&format!("random_10x10/{variant:?}"), |b| {
            b.iter(|| decide_orphan(black_box(&rand_t), &o).unwrap())
        });
    }
    let live = Slice::for_future(Rule::CONWAY, true);
    let dead = Slice::for_future(Rule::CONWAY, false);
    c.bench_function("confront_ew", |b| {
        b.iter(|| {
            let (mut w, mut e) = (black_box(live), black_box(dead));
            let r = confront_ew::<ThesisCode>(&mut w, &mut e);
            (w, e, r)
        })
    });
    c.bench_function("confront_ns", |b| {
        b.iter(|| {
            let (mut n, mut s) = (black_box(live), black_box(dead));
            let r = confront_ns(&mut n, &mut s);
            (n, s, r)
        })
    });
    let _ = Cell::Dead;
}

criterion_group! {
    name = benches;
    config = Criterion::default().without_plots().sample_size(30).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);
