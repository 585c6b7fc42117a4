use lifesearch::life::tiles::Tiles;
use lifesearch::life::{Grid, Rule};
use rand::SeedableRng;
#[test]
#[ignore]
fn timing() {
    let g = Grid::random(1024, 1024, 0.5, &mut rand_pcg::Pcg64::seed_from_u64(25 ^ 1024));
    let s = Grid::random(64, 64, 0.5, &mut rand_pcg::Pcg64::seed_from_u64(25 ^ 64));
    for (name, torus, gens, gr) in [("t2k", true, 2000, &g), ("t20k", true, 20000, &g), ("p1k", false, 1000, &g), ("p5k", false, 5000, &g), ("s10k", false, 10000, &s)] {
        let mut best = f64::MAX;
        let mut steps = 0;
        for _ in 0..3 {
            let mut t = if torus { Tiles::torus(gr, Rule::CONWAY) } else { Tiles::plane(gr, (0, 0), Rule::CONWAY) };
            let st = std::time::Instant::now();
            t.advance(gens);
            best = best.min(st.elapsed().as_secs_f64());
            steps = t.tile_steps;
        }
        println!("{name}: {best:.4} s, {steps} tile steps");
    }
}
