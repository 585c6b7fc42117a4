//! Table 3.1: cell-generations per second of the Life engines, on a dense
//! random torus and on a sparse one (a small soup in a large empty torus).

use super::Experiment;
use crate::harness::{Ctx, Report, best_of, read_csv, sci, write_csv, write_text};
use crate::plot::{Bars, Ticks, render};
use anyhow::Result;
use lifesearch::life::{Algorithm, Grid, Rule, Topology, evolve};
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

pub const ID: &str = "table-3-1";
const SEED: u64 = 31;

pub const EXPERIMENT: Experiment = Experiment {
    id: ID,
    title: "Table 3.1: cell-generations per second per engine",
    columns: &[
        "pattern",
        "algorithm",
        "width",
        "height",
        "generations",
        "runs",
        "best_seconds",
        "cell_generations_per_second",
        "speedup_vs_naive",
        "threads",
    ],
    figure: true,
    rows: super::any_rows,
    run,
    render: draw,
};

#[derive(Debug, Serialize, Deserialize)]
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
}

const ALGORITHMS: [(Algorithm, &str); 4] = [
    (Algorithm::Naive, "naive"),
    (Algorithm::Table, "table"),
    (Algorithm::Lifecube, "lifecube"),
    (Algorithm::LifecubeParallel, "lifecube-parallel"),
];

/// The two test universes: a dense random torus and a 64x64 soup in the middle
/// of an otherwise empty torus of the same size.
fn patterns(side: usize) -> Vec<(&'static str, Grid)> {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(SEED);
    let dense = Grid::random(side, side, 0.5, &mut rng);
    let soup_side = (side / 16).max(4);
    let soup = Grid::random(soup_side, soup_side, 0.5, &mut rng);
    let mut sparse = Grid::new(side, side);
    let off = (side - soup_side) / 2;
    for (x, y) in soup.live_cells() {
        sparse.set(off + x, off + y, true);
    }
    vec![("random-0.5", dense), ("sparse-soup", sparse)]
}

fn run(ctx: &Ctx) -> Result<Report> {
    let side = ctx.mode.pick(64, 1024, 1024);
    let runs = ctx.mode.pick(1, 3, 10);
    let threads = rayon::current_num_threads();
    let mut rows = Vec::new();
    let cases = patterns(side);
    let bar = ctx.bar((cases.len() * ALGORITHMS.len()) as u64, ID);
    for (name, grid) in &cases {
        let mut naive_rate = None;
        for (alg, alg_name) in ALGORITHMS {
            // The naive engine gets fewer generations: it is orders of magnitude slower.
            let gens = match alg {
                Algorithm::Naive => ctx.mode.pick(1, 4, 10),
                _ => ctx.mode.pick(2, 40, 200),
            };
            // The grid is built before the clock starts; only evolution is timed.
            let (t, _) = best_of(runs, || evolve(grid, Rule::CONWAY, Topology::Torus, gens, alg));
            let secs = t.as_secs_f64().max(1e-9);
            let rate = (side * side) as f64 * gens as f64 / secs;
            let base = *naive_rate.get_or_insert(rate);
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
            });
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    write_csv(&ctx.csv(ID), &rows)?;
    Ok(Report {
        rows: rows.len(),
        seeds: vec![SEED],
        solvers: ALGORITHMS.iter().map(|a| format!("lifesearch::life::{}", a.1)).collect(),
        notes: vec![format!("lowest of {runs} runs; grid construction excluded; {side}x{side} torus")],
    })
}

/// The thesis' row closest to each of our engines.
fn thesis(alg: &str) -> &'static str {
    match alg {
        "naive" => "Naive counting: 1e4",
        "table" => "JavaLife lookup table: 3e7; QLife: 1e8",
        "lifecube" => "LIFECUBE: 2e9; optimized LIFECUBE: 1e10",
        "lifecube-parallel" => "(not measured; GPU LIFECUBE: 1e13, claimed)",
        _ => "",
    }
}

fn draw(ctx: &Ctx) -> Result<()> {
    let rows: Vec<Row> = read_csv(&ctx.csv(ID))?;
    // One group per engine: our dense and sparse soups, then the thesis'
    // figure for that kind of engine (its Table 3.1, as quoted in the table).
    let mut algorithms: Vec<String> = Vec::new();
    for r in &rows {
        if !algorithms.contains(&r.algorithm) {
            algorithms.push(r.algorithm.clone());
        }
    }
    let ours = |sparse: bool| -> Vec<Option<f64>> {
        algorithms
            .iter()
            .map(|a| {
                rows.iter()
                    .find(|r| &r.algorithm == a && r.pattern.starts_with("sparse") == sparse)
                    .map(|r| r.cell_generations_per_second)
            })
            .collect()
    };
    let thesis_rate = |a: &str| match a {
        "naive" => Some(1e4),
        "table" => Some(1e8),
        "lifecube" => Some(1e10),
        "lifecube-parallel" => Some(1e13),
        _ => None,
    };
    render(
        &ctx.figure(ID),
        &Bars {
            title: "Table 3.1: simulation speed per engine".into(),
            x_label: "engine".into(),
            y_label: "cell-generations per second (log scale)".into(),
            categories: algorithms.clone(),
            series: vec![
                ("ours: dense soup".into(), ours(false)),
                ("ours: sparse soup".into(), ours(true)),
                (
                    "thesis: fastest of its kind (GPU: claimed)".into(),
                    algorithms.iter().map(|a| thesis_rate(a)).collect(),
                ),
            ],
            log_y: true,
            ticks: Ticks::Number,
            legend: true,
        },
    )?;
    let mut md = String::from(
        "| Pattern | Engine | Generations | Best of | Cell-gen/s (ours) | Speed-up vs naive | Thesis (cell-gen/s) |\n\
         |---|---|---:|---:|---:|---:|---|\n",
    );
    for r in &rows {
        md += &format!(
            "| {} ({}x{} torus) | {} | {} | {} | {} | {:.1}x | {} |\n",
            r.pattern,
            r.width,
            r.height,
            r.algorithm,
            r.generations,
            r.runs,
            sci(r.cell_generations_per_second),
            r.speedup_vs_naive,
            thesis(&r.algorithm)
        );
    }
    md += "\nTimings are the lowest of the runs shown; building the grid is excluded, \
           converting it to and from each engine's own layout is included. The thesis' numbers \
           are from its Table 3.1 (other machines, other implementations); its GPU row is a claim \
           that does not follow from its own Section 6.4.\n";
    write_text(&ctx.generated(ID), &md)
}
