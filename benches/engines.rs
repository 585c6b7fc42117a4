//! Table 3.1's engines on a 1024x1024 random torus (density 0.5) and on a
//! sparse pattern (an R-pentomino's debris on the same board), the tile
//! engine and the relay on the plane, and HashLife on the Gosper gun; on a
//! 4096x4096 torus, one core against two and the packing of the board.
//! Throughput is reported in cell-generations per second.

use criterion::{BatchSize, Bencher, Criterion, Throughput, criterion_group, criterion_main};
use lifesearch::life::hashlife::HashLife;
use lifesearch::life::lifecube::{LifeCube, Simd};
use lifesearch::life::relay;
use lifesearch::life::tiles::{self, Tiles};
use lifesearch::life::{self, Algorithm, Grid, Rule, Topology};
use rand::SeedableRng;
use std::hint::black_box;

mod common;
use common::cpu_nanos;

const N: usize = 1024;

fn soup() -> Grid {
    Grid::random(N, N, 0.5, &mut rand_pcg::Pcg64::seed_from_u64(2019))
}

fn sparse() -> Grid {
    let mut g = Grid::new(N, N);
    for (x, y) in [(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)] {
        g.set(500 + x, 500 + y, true);
    }
    // Let the R-pentomino settle into debris and gliders first.
    life::evolve(&g, Rule::CONWAY, Topology::Torus, 1200, Algorithm::Lifecube)
}

fn engines(c: &mut Criterion) {
    for (name, board) in [("soup", soup()), ("sparse", sparse())] {
        let mut group = c.benchmark_group(format!("torus1024-{name}"));
        group.sample_size(10);
        for alg in [Algorithm::Naive, Algorithm::Table, Algorithm::Lifecube, Algorithm::LifecubeParallel] {
            let gens: u64 = match alg {
                Algorithm::Naive | Algorithm::Table => 2,
                _ => 200,
            };
            group.throughput(Throughput::Elements((N * N) as u64 * gens));
            group.bench_function(format!("{alg:?}"), |b| {
                b.iter(|| life::evolve(black_box(&board), Rule::CONWAY, Topology::Torus, gens, alg))
            });
        }
        // LIFECUBE's steps alone (the conversion from and to a `Grid` left out),
        // with each vector kernel, to show what SIMD buys.
        group.throughput(Throughput::Elements((N * N) as u64 * 200));
        for simd in [Simd::Avx512, Simd::Avx2, Simd::Portable] {
            let cube = LifeCube::new(&board, Rule::CONWAY, Topology::Torus).with_simd(simd);
            cpu_best(&format!("torus1024-{name}/steps-{simd:?}"), &cube, 200, 20);
            for parallel in [false, true] {
                let name = format!("steps-{simd:?}{}", if parallel { "-parallel" } else { "" });
                group.bench_function(name, |b| steps(b, &cube, 200, parallel));
            }
        }
        group.finish();
    }
}

/// Two cores on a board too large for one core's cache: 4096x4096 (2 MiB a
/// generation), where one core waits on memory and the second one pays.
fn large(c: &mut Criterion) {
    const BIG: usize = 4096;
    let board = Grid::random(BIG, BIG, 0.5, &mut rand_pcg::Pcg64::seed_from_u64(2019));
    let cube = LifeCube::new(&board, Rule::CONWAY, Topology::Torus);
    let mut group = c.benchmark_group("torus4096-soup");
    group.sample_size(10);
    group.throughput(Throughput::Elements((BIG * BIG) as u64 * 20));
    for parallel in [false, true] {
        let name = if parallel { "steps-parallel" } else { "steps" };
        group.bench_function(name, |b| steps(b, &cube, 20, parallel));
    }
    group.finish();
    // The board into words and back, which every `evolve` call (and so Table
    // 3.1) pays once: 16 Mi cells each way, AVX-512BW where the CPU has it.
    let mut group = c.benchmark_group("torus4096-convert");
    group.sample_size(20);
    group.throughput(Throughput::Elements((BIG * BIG) as u64));
    group.bench_function("pack", |b| {
        b.iter(|| LifeCube::new(black_box(&board), Rule::CONWAY, Topology::Torus))
    });
    group.bench_function("unpack", |b| b.iter(|| black_box(&cube).to_grid()));
    // Both ways, the rows shared by the team (no generation in between).
    group.bench_function("both-parallel", |b| {
        b.iter(|| {
            life::evolve(black_box(&board), Rule::CONWAY, Topology::Torus, 0, Algorithm::LifecubeParallel)
        })
    });
    group.finish();
}

/// The lowest thread CPU time of `runs` runs of `gens` steps on one core, as
/// cell-generations per second, printed beside criterion's numbers: other
/// tenants' work moves criterion's wall-clock mean by a third on this machine.
fn cpu_best(name: &str, cube: &LifeCube, gens: usize, runs: usize) {
    let best = (0..runs)
        .map(|_| {
            let mut c = cube.clone();
            let start = cpu_nanos();
            for _ in 0..gens {
                c.step();
            }
            black_box(&c);
            cpu_nanos() - start
        })
        .min()
        .expect("at least one run");
    let cells = (cube.width() * cube.height() * gens) as f64;
    println!(
        "cpu-time best {name}: {:.3e} cell-generations/s (lowest of {runs})",
        cells / (best as f64 * 1e-9)
    );
}

/// Time `gens` steps of a fresh copy of `cube` (the copy is not timed).
fn steps(b: &mut Bencher, cube: &LifeCube, gens: usize, parallel: bool) {
    b.iter_batched(
        || cube.clone(),
        |mut c| {
            c.steps(gens as u64, parallel);
            c
        },
        BatchSize::LargeInput,
    )
}

/// The tile engine on the workloads it is for: a 1024x1024 soup on the
/// plane (1,000 generations), a 64x64 soup on the plane (10,000) and the
/// 1024x1024 torus soup run until it settles (20,000); the relay on the 64x64
/// soup and on a 32x32 one (1,000).
fn tile_engine(c: &mut Criterion) {
    let mut group = c.benchmark_group("tiles");
    group.sample_size(10);
    let small = Grid::random(64, 64, 0.5, &mut rand_pcg::Pcg64::seed_from_u64(2019));
    group.bench_function("plane1024-1000", |b| {
        b.iter_batched(
            || Tiles::plane(&soup(), (0, 0), Rule::CONWAY),
            |mut t| {
                t.advance(1000);
                t
            },
            BatchSize::LargeInput,
        )
    });
    group.bench_function("plane64-10000", |b| {
        b.iter_batched(
            || Tiles::plane(&small, (0, 0), Rule::CONWAY),
            |mut t| {
                t.advance(10_000);
                t
            },
            BatchSize::LargeInput,
        )
    });
    // The relay on the same small soup: the tiles until it settles, then HashLife.
    group.bench_function("relay-plane64-10000", |b| {
        b.iter(|| relay::evolve_plane(black_box(&small), (0, 0), Rule::CONWAY, 10_000, Default::default()))
    });
    // A soup of a thousand cells for a thousand generations: the size where
    // lifelib still beats the relay (see the book, chapter 3), as the fixed
    // cost of each awake tile outweighs its few rows of work.
    let tiny = Grid::random(32, 32, 0.3, &mut rand_pcg::Pcg64::seed_from_u64(32));
    group.bench_function("relay-plane32-1000", |b| {
        b.iter(|| relay::evolve_plane(black_box(&tiny), (0, 0), Rule::CONWAY, 1000, Default::default()))
    });
    let board = soup();
    group.bench_function("torus1024-20000", |b| {
        b.iter(|| tiles::evolve_torus(black_box(&board), Rule::CONWAY, 20_000))
    });
    group.finish();
}

/// HashLife on the Gosper gun, to 2^16, 2^20 and 2^40 generations (issue 25's
/// targets: 2^20 under 10 ms, 2^40 under a second; Golly and lifelib take a
/// millisecond or two): the tree is built inside the timed loop, since a
/// user's run starts from the cells too.
fn hashlife(c: &mut Criterion) {
    let gun_file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/formats/gun.rle");
    let gun = lifesearch::formats::read_pattern(&gun_file).expect("the gun's RLE").grid;
    let mut group = c.benchmark_group("hashlife-gun");
    for j in [16u32, 20, 40] {
        group.bench_function(format!("2^{j}"), |b| {
            b.iter(|| {
                let mut h =
                    HashLife::from_grid(black_box(&gun), (0, 0), Rule::CONWAY, 1 << 30).expect("Conway");
                h.advance(1 << j);
                h.population()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, engines, large, tile_engine, hashlife);
criterion_main!(benches);
