//! The space-time engine (issue 24) on rows of the table and of the
//! search-vs-peers problem set: ships found from the leading edge, a proof of
//! "none", an oscillator found dead first, one found by the alive-first probe;
//! beside it `auto` (what choosing costs) and, on the small boxes, CaDiCaL with
//! Knuth's encoding (the SAT route the engine joined). Run with
//! `cargo bench --bench spacetime`; compare within one run.

use criterion::{Criterion, criterion_group, criterion_main};
use lifesearch::life::Rule;
use lifesearch::search::portfolio::caged_cycle_race;
use lifesearch::search::{Cycle, Encoding, Problem, Symmetry, spacetime};
use std::hint::black_box;

fn problem(width: usize, height: usize, period: usize, (dx, dy): (i64, i64), symmetry: Symmetry) -> Problem {
    Problem::Cycle(Cycle { width, height, period, dx, dy, symmetry })
}

fn bench(c: &mut Criterion) {
    let opts = spacetime::Options::default();
    let rule = Rule::CONWAY;
    // (name, problem, found?, CaDiCaL too?)
    let rows = [
        ("glider-5x5", problem(5, 5, 4, (1, 1), Symmetry::None), true, true),
        ("lwss-7x5", problem(7, 5, 4, (2, 0), Symmetry::None), true, true),
        ("c3-16x5", problem(16, 5, 3, (0, 1), Symmetry::None), true, false),
        ("still-6x6", problem(6, 6, 1, (0, 0), Symmetry::None), true, true),
        ("p3-5x5-none", problem(5, 5, 3, (0, 0), Symmetry::None), false, false),
        ("p3-7x7", problem(7, 7, 3, (0, 0), Symmetry::None), true, false),
        ("p3-9x9-rot90-probe", problem(9, 9, 3, (0, 0), Symmetry::Rot90), true, false),
        ("p4-8x8-d8-none", problem(8, 8, 4, (0, 0), Symmetry::D8), false, false),
    ];
    for (name, p, found, sat) in rows {
        // The verdict is part of the benchmark: a regression that changes it is not a speed-up.
        let a = spacetime::search(&p, rule, &opts, None).unwrap();
        assert_eq!(!a.solutions.is_empty(), found, "{name}");
        let mut g = c.benchmark_group(format!("spacetime/{name}"));
        g.bench_function("spacetime", |b| {
            b.iter(|| spacetime::search(black_box(&p), rule, &opts, None).unwrap())
        });
        g.bench_function("auto", |b| b.iter(|| caged_cycle_race(black_box(&p), rule, &opts).unwrap()));
        if sat {
            // Knuth's encoding: every row is Conway's rule.
            g.bench_function("cadical-knuth", |b| {
                let cadical = lifesearch::engine::cycle_engine("cadical").unwrap();
                let q = lifesearch::CycleQuery::new(p.cycle().unwrap(), rule).encoding(Some(Encoding::Knuth));
                b.iter(|| cadical.search(black_box(&q)).unwrap())
            });
        }
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().without_plots().sample_size(20).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);
