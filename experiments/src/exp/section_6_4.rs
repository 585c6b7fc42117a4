//! Section 6.4: every k x k pattern evolved one generation in a bounded
//! universe, many at a time (the thesis did all 2^49 7x7 patterns on a GPU in
//! 22 hours, about 7e9 patterns per second). Ours: the bit-sliced batch
//! evolver of `lifesearch::life::batch` on the CPU's cores.

use crate::harness::{Col, Ctx, Experiment, Fmt, Report, best_of, col};
use crate::plot::{Bars, Ticks, render};
use anyhow::Result;
use lifesearch::life::Rule;
use lifesearch::life::batch::census_range_parallel;
use serde::{Deserialize, Serialize};

pub struct Section64;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub k: usize,
    pub patterns_total: u64,
    pub patterns_run: u64,
    pub exhaustive: bool,
    pub runs: usize,
    pub best_seconds: f64,
    pub patterns_per_second: f64,
    /// Patterns whose successor is empty.
    pub dies: u64,
    /// Patterns that are their own successor.
    pub still: u64,
    /// Live cells summed over all successors.
    pub population: u64,
    pub threads: usize,
    /// The thesis' rate for this box (7x7 only, on a GPU).
    pub thesis_patterns_per_second: Option<f64>,
}

/// The thesis' rate: 2^49 patterns in 22 hours on a GTX 1080.
pub const THESIS_RATE: f64 = 562_949_953_421_312.0 / (22.0 * 3600.0);

impl Experiment for Section64 {
    type Row = Row;
    const ID: &'static str = "section-6-4";
    const TITLE: &'static str = "Section 6.4: every k x k pattern, one generation, patterns/s";
    const FIGURE: bool = true;
    const TABLE: &'static [Col<'static>] = &[
        col("k", "k", Fmt::Int),
        col("Patterns run", "patterns_run", Fmt::Int),
        col("Of", "patterns_total", Fmt::Int),
        col("Seconds", "best_seconds", Fmt::Fixed(3)),
        col("Patterns/s (ours)", "patterns_per_second", Fmt::Sci),
        col("Successor empty", "dies", Fmt::Int),
        col("Still", "still", Fmt::Int),
        col("Thesis patterns/s", "thesis_patterns_per_second", Fmt::Sci),
    ];

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row>, Report)> {
        // (k, patterns to run): all of them where that takes seconds, else a prefix of the numbering.
        let plan: Vec<(usize, u64)> = ctx.mode.pick(
            vec![(3, 1 << 9), (4, 1 << 16), (5, 1 << 20)],
            vec![(4, 1 << 16), (5, 1 << 25), (6, 1 << 32)],
            vec![(4, 1 << 16), (5, 1 << 25), (6, 1 << 36), (7, 1 << 36)],
        );
        let threads = rayon::current_num_threads();
        let mut rows = Vec::new();
        for (k, n) in plan {
            let total = 1u64 << (k * k);
            // Small cases are repeated and the best run kept; big ones run once.
            let runs = if n <= 1 << 25 { ctx.mode.pick(1, 5, 10) } else { 1 };
            let bar = ctx.bar(n * runs as u64, &format!("{} k={k}", Self::ID));
            let (t, census) = best_of(runs, || census_range_parallel(k, Rule::CONWAY, 0, n, &|d| bar.inc(d)));
            bar.finish_and_clear();
            let secs = t.as_secs_f64().max(1e-9);
            rows.push(Row {
                k,
                patterns_total: total,
                patterns_run: n,
                exhaustive: n == total,
                runs,
                best_seconds: secs,
                patterns_per_second: n as f64 / secs,
                dies: census.dies,
                still: census.still,
                population: census.population,
                threads,
                thesis_patterns_per_second: (k == 7).then_some(THESIS_RATE),
            });
        }
        Ok((
            rows,
            Report {
                solvers: vec!["lifesearch::life::batch (bit-sliced, 64 patterns per word)".into()],
                notes: vec!["patterns in numbering order from 0; lowest of the runs shown".into()],
                ..Default::default()
            },
        ))
    }

    fn draw(&self, ctx: &Ctx, rows: &[Row]) -> Result<()> {
        // Ours per box size; the thesis measured 7x7 only (on a GPU).
        let categories: Vec<String> = rows.iter().map(|r| format!("{0}x{0}", r.k)).collect();
        let threads = rows.first().map_or(1, |r| r.threads);
        render(
            &ctx.figure(Self::ID),
            &Bars {
                title: "Section 6.4: patterns evolved one generation per second".into(),
                x_label: "box size k x k".into(),
                y_label: "patterns per second (log scale)".into(),
                categories,
                series: vec![
                    (
                        format!("ours: CPU, {threads} thread(s)"),
                        rows.iter().map(|r| Some(r.patterns_per_second)).collect(),
                    ),
                    (
                        "thesis: GTX 1080 GPU (all 7x7 patterns in 22 h)".into(),
                        rows.iter().map(|r| r.thesis_patterns_per_second).collect(),
                    ),
                ],
                log_y: true,
                ticks: Ticks::Number,
                legend: true,
            },
        )
    }
}
