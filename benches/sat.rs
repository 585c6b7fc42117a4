//! SAT-side timings for the thesis' comparisons: the 10x10 Garden of Eden
//! with every compiled-in solver, a 5x5 still-life count, and an incremental
//! stream of Gray-coded 8x8 patterns against one-shot solving.

use criterion::{Criterion, criterion_group, criterion_main};
use lifesearch::cnf::{SolverKind, new_solver};
use lifesearch::life::{Grid, Rule, SpecGrid};
use lifesearch::search::incremental::{PredecessorStream, gray_sequence};
use lifesearch::search::{Boundary, Encoding, Problem, count, encode, solve};
use rand::SeedableRng;
use std::hint::black_box;
use std::time::Duration;

use lifesearch::search::known::GARDEN_OF_EDEN_10X10 as GOE;

fn orphan(c: &mut Criterion) {
    let target = SpecGrid::from(&Grid::from_rows(&GOE).unwrap());
    let enc = encode(&Problem::orphan(target, Boundary::Free), Encoding::Window, Rule::CONWAY).unwrap();
    let mut g = c.benchmark_group("goe10x10");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for kind in SolverKind::available_kinds() {
        g.bench_function(kind.name(), |b| {
            b.iter(|| {
                let mut s = new_solver(kind).unwrap();
                black_box(solve(&enc, s.as_mut()).unwrap().outcome)
            })
        });
    }
    g.finish();
}

fn still_lifes(c: &mut Criterion) {
    let enc = encode(&Problem::still_life(5, 5), Encoding::Window, Rule::CONWAY).unwrap();
    let mut g = c.benchmark_group("count");
    g.sample_size(10);
    g.bench_function("still-life-5x5-cadical", |b| {
        b.iter(|| count(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut(), None).unwrap().count)
    });
    g.finish();
}

fn stream(c: &mut Criterion) {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
    let seq: Vec<SpecGrid> =
        gray_sequence(&Grid::random(8, 8, 0.5, &mut rng), 32).iter().map(SpecGrid::from).collect();
    let mut g = c.benchmark_group("stream-8x8-x32");
    g.sample_size(10);
    g.bench_function("incremental-cadical", |b| {
        b.iter(|| {
            let mut s = PredecessorStream::new(8, 8, SolverKind::Cadical).unwrap();
            seq.iter().filter(|t| s.solve(t).unwrap().orphan).count()
        })
    });
    g.bench_function("one-shot-cadical", |b| {
        b.iter(|| {
            seq.iter()
                .filter(|t| {
                    let enc = encode(
                        &Problem::orphan((*t).clone(), Boundary::Free),
                        Encoding::Window,
                        Rule::CONWAY,
                    )
                    .unwrap();
                    solve(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut()).unwrap().outcome
                        == lifesearch::cnf::Outcome::Unsat
                })
                .count()
        })
    });
    g.finish();
}

criterion_group!(benches, orphan, still_lifes, stream);
criterion_main!(benches);
