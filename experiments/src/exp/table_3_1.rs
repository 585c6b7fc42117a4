//! Table 3.1: cell-generations per second of the Life engines, on a dense
//! random torus and on a sparse one (a small soup in a large empty torus).

use crate::harness::{Col, Ctx, Experiment, Fmt, Report, best_of, col};
use crate::plot::{Bars, Ticks, group, render};
use anyhow::Result;
use lifesearch::life::{Algorithm, Grid, Rule, Topology, evolve};
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use std::time::Duration;

pub struct Table31;
const SEED: u64 = 31;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub pattern: String,
    pub algorithm: String,
    pub width: usize,
    pub height: usize,
    pub generations: u64,
    pub runs: usize,
    pub best_seconds: f64,
    pub cell_generations_per_second: f64,
    pub speedup_vs_naive: f64,
    pub threads: usize,
    /// The fastest engine of this kind in the thesis' Table 3.1 (`data/thesis/table-3-1.csv`).
    pub thesis_engine: String,
    pub thesis_cell_generations_per_second: f64,
}

/// One row of the thesis' Table 3.1, the columns used here; `ours` names
/// the engine of ours it is set beside.
#[derive(Debug, Deserialize)]
struct Thesis {
    thesis_engine: String,
    cell_generations_per_second: f64,
    ours: String,
}

const ALGORITHMS: [(Algorithm, &str); 4] = [
    (Algorithm::Naive, "naive"),
    (Algorithm::Table, "table"),
    (Algorithm::Lifecube, "lifecube"),
    (Algorithm::LifecubeParallel, "lifecube-parallel"),
];

/// The test universes: a dense random torus, a 64x64 soup in the middle of
/// an otherwise empty torus of the same size, and a dense torus of side
/// `large` (4096 but in the smoke test), too large for one core's cache,
/// where the second core is meant to pay (issue 25: 1.8x one core).
fn patterns(side: usize, large: usize) -> Vec<(&'static str, Grid)> {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(SEED);
    let dense = Grid::random(side, side, 0.5, &mut rng);
    let soup_side = (side / 16).max(4);
    let soup = Grid::random(soup_side, soup_side, 0.5, &mut rng);
    // Exactly side x side: the sides here are multiples of 32.
    let sparse = soup.padded((side - soup_side) / 2);
    let large = Grid::random(large, large, 0.5, &mut rng);
    vec![("random-0.5", dense), ("sparse-soup", sparse), ("random-0.5-large", large)]
}

impl Experiment for Table31 {
    type Row = Row;
    const ID: &'static str = "table-3-1";
    const TITLE: &'static str = "Table 3.1: cell-generations per second per engine";
    const FIGURE: bool = true;
    const TABLE: &'static [Col<'static>] = &[
        col("Pattern", "pattern", Fmt::Text),
        col("Torus", "width", Fmt::Int),
        col("Engine", "algorithm", Fmt::Text),
        col("Generations", "generations", Fmt::Int),
        col("Best of", "runs", Fmt::Int),
        col("Cell-gen/s (ours)", "cell_generations_per_second", Fmt::Sci),
        col("Speed-up vs naive", "speedup_vs_naive", Fmt::Times(1)),
        col("Thesis: fastest of its kind", "thesis_engine", Fmt::Text),
        col("Thesis cell-gen/s", "thesis_cell_generations_per_second", Fmt::Sci),
    ];

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row>, Report)> {
        let thesis: Vec<Thesis> = crate::thesis::table(&ctx.thesis, "table-3-1.csv")?;
        let side = ctx.mode.pick(64, 1024, 1024);
        let runs = ctx.mode.pick(1, 3, 10);
        let threads = rayon::current_num_threads();
        let mut rows = Vec::new();
        let cases = patterns(side, ctx.mode.pick(128, 4096, 4096));
        let bar = ctx.bar((cases.len() * ALGORITHMS.len()) as u64, Self::ID);
        for (name, grid) in &cases {
            let side = grid.width();
            let big = side > 1024;
            // The naive engine gets fewer generations: it is orders of
            // magnitude slower (on the large board, so is the table).
            let gens = |alg| match alg {
                Algorithm::Naive if big => 1,
                Algorithm::Naive => ctx.mode.pick(1, 4, 10),
                Algorithm::Table if big => 4,
                _ => ctx.mode.pick(2, 40, 200),
            };
            // The runs of the engines take turns, round by round, so that one
            // core and the team see the same phases of a shared machine (their
            // ratio is a target). The grid is built before the clock starts;
            // only evolution is timed.
            let mut best = [Duration::MAX; ALGORITHMS.len()];
            for _ in 0..runs {
                for (i, (alg, _)) in ALGORITHMS.iter().enumerate() {
                    let (t, _) = best_of(1, || evolve(grid, Rule::CONWAY, Topology::Torus, gens(*alg), *alg));
                    best[i] = best[i].min(t);
                }
            }
            let mut naive_rate = None;
            for ((alg, alg_name), t) in ALGORITHMS.into_iter().zip(best) {
                let gens = gens(alg);
                let secs = t.as_secs_f64().max(1e-9);
                let rate = (side * side) as f64 * gens as f64 / secs;
                let base = *naive_rate.get_or_insert(rate);
                let best = thesis
                    .iter()
                    .filter(|t| t.ours == alg_name)
                    .max_by(|a, b| a.cell_generations_per_second.total_cmp(&b.cell_generations_per_second))
                    .ok_or_else(|| anyhow::anyhow!("data/thesis/table-3-1.csv: no row for {alg_name}"))?;
                rows.push(Row {
                    pattern: name.to_string(),
                    algorithm: alg_name.to_string(),
                    width: side,
                    height: side,
                    generations: gens,
                    runs,
                    best_seconds: secs,
                    cell_generations_per_second: rate,
                    speedup_vs_naive: rate / base,
                    threads: if alg == Algorithm::LifecubeParallel { threads } else { 1 },
                    thesis_engine: best.thesis_engine.clone(),
                    thesis_cell_generations_per_second: best.cell_generations_per_second,
                });
            }
            bar.inc(ALGORITHMS.len() as u64);
        }
        bar.finish_and_clear();
        let report = Report {
            seeds: vec![SEED],
            solvers: ALGORITHMS.iter().map(|a| format!("lifesearch::life::{}", a.1)).collect(),
            notes: vec![format!(
                "lowest of {runs} runs, the engines taking turns run by run; grid construction excluded; {side}x{side} torus (and a large one, 4096x4096 but in the smoke test)"
            )],
            ..Default::default()
        };
        Ok((rows, report))
    }

    fn draw(&self, ctx: &Ctx, rows: &[Row]) -> Result<()> {
        // One group per engine: our dense and sparse soups, then the thesis'
        // fastest engine of that kind. Every pattern ran the engines in one order.
        let by_pattern = group(&[], rows.iter().map(|r| (r.pattern.as_str(), r)));
        let algorithms: &[&Row] = by_pattern.first().map_or(&[], |p| &p.1);
        let mut series: Vec<(String, Vec<Option<f64>>)> = by_pattern
            .iter()
            .map(|(pattern, rs)| {
                let name = match pattern.as_str() {
                    "random-0.5" => "ours: dense soup".to_string(),
                    "sparse-soup" => "ours: sparse soup".to_string(),
                    _ => format!("ours: dense {0}x{0}", rs[0].width),
                };
                (name, rs.iter().map(|r| Some(r.cell_generations_per_second)).collect())
            })
            .collect();
        series.push((
            "thesis: fastest of its kind (GPU: claimed)".into(),
            algorithms.iter().map(|a| Some(a.thesis_cell_generations_per_second)).collect(),
        ));
        render(
            &ctx.figure(Self::ID),
            &Bars {
                title: "Table 3.1: simulation speed per engine".into(),
                x_label: "engine".into(),
                y_label: "cell-generations per second (log scale)".into(),
                categories: algorithms.iter().map(|a| a.algorithm.clone()).collect(),
                series,
                log_y: true,
                ticks: Ticks::Number,
                legend: true,
            },
        )
    }
}
