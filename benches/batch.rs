//! Benchmarks of the tiny-universe batch evolver (thesis section 6.4): one
//! generation of every pattern in a block of the k x k numbering.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use lifesearch::life::Rule;
use lifesearch::life::batch::{census_range, census_range_naive};
use std::hint::black_box;

fn batch(c: &mut Criterion) {
    let mut g = c.benchmark_group("batch");
    for k in [4usize, 5, 6, 7] {
        let n = 1u64 << 16;
        g.throughput(Throughput::Elements(n));
        g.bench_function(format!("bit-sliced {k}x{k}, 65536 patterns"), |b| {
            b.iter(|| census_range(black_box(k), Rule::CONWAY, 0, n))
        });
    }
    g.throughput(Throughput::Elements(4096));
    g.bench_function("naive 5x5, 4096 patterns", |b| {
        b.iter(|| census_range_naive(black_box(5), Rule::CONWAY, 0, 4096))
    });
    g.finish();
}

criterion_group!(benches, batch);
criterion_main!(benches);
