//! The width search's successor step (issue 26): one member of Life's
//! height-3 and height-4 families expanded under every letter, word-parallel
//! against state by state, and the vertical flip by index-bit swaps against
//! state by state.

use criterion::{Criterion, criterion_group, criterion_main};
use lifesearch::automaton::width::{WidthOptions, search};
use lifesearch::life::Rule;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    for (h, w) in [(3, 8), (4, 3)] {
        let o = WidthOptions {
            rule: Rule::CONWAY,
            height: h,
            max_width: Some(w),
            memory_cap_bytes: 4 << 30,
            time_limit_s: None,
            checkpoint: None,
            progress: false,
            budget: 0,
        };
        let (_, a, f) = search(&o).unwrap();
        // A member of the last layer: a typical set of the search's middle.
        let set = f.set(f.len() - 1).to_vec();
        let mut out = vec![0u64; a.letters() * a.words];
        let mut scratch = a.scratch();
        c.bench_function(&format!("width H={h}: successors under all {} letters", a.letters()), |b| {
            b.iter(|| a.successors(black_box(&set), &mut out, &mut scratch))
        });
        c.bench_function(&format!("width H={h}: successors state by state (twin)"), |b| {
            b.iter(|| a.successors_slow(black_box(&set)))
        });
        let mut m = set.clone();
        c.bench_function(&format!("width H={h}: flip by index-bit swaps"), |b| {
            b.iter(|| a.flip_in_place(black_box(&mut m)))
        });
        c.bench_function(&format!("width H={h}: flip state by state (twin)"), |b| {
            b.iter(|| a.flipped_slow(black_box(&set)))
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().without_plots().sample_size(20).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench
}
criterion_main!(benches);
