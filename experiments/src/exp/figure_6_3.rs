//! Figure 6.3: solve times over 10,000 10x10 patterns in Gray-code order (each
//! differs from the previous by one cell; patterns under 40% or over 80% alive
//! skipped), the same patterns scrambled, and random patterns. The thesis' data
//! is not public, so ours is regenerated from a seed, as its text describes.
//! Incremental CaDiCaL (our stand-in for the thesis' incremental MiniSat) on
//! the three orders, GRIDWALKER (track) on Gray-coded and random patterns.

use super::gw::{decide, median};
use crate::harness::{Col, Ctx, Experiment, Fmt, Mode, Report, col};
use crate::inputs::{SIDE, gray_patterns};
use crate::plot::{Violin, group, render};
use anyhow::{Result, bail};
use lifesearch::cnf::SolverKind;
use lifesearch::gridwalker::Variant;
use lifesearch::life::SpecGrid;
use lifesearch::life::{Grid, Rule};
use lifesearch::search::incremental::PredecessorStream;
use lifesearch::search::verify::is_predecessor;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use serde_json::json;

pub struct Figure63;
const SEED: u64 = 63;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub series: String,
    pub index: usize,
    pub micros: f64,
    pub orphan: bool,
    pub population: usize,
}

/// The thesis' per-pattern averages with incremental MiniSat 2.2 (section
/// 6.3's text: 100,000 Gray-coded patterns in about 8 s, 100,000 random ones
/// in about 100 s), in microseconds; its per-pattern data is not public.
const THESIS_MEANS: [(&str, f64); 2] =
    [("thesis: MiniSat, Gray-coded, mean 80 µs", 80.0), ("thesis: MiniSat, random, mean 1,000 µs", 1_000.0)];

impl Experiment for Figure63 {
    type Row = Row;
    const ID: &'static str = "figure-6-3";
    const TITLE: &'static str = "Figure 6.3: Gray-coded, scrambled and random patterns";
    const FIGURE: bool = true;

    fn rows(&self, m: Mode) -> Option<usize> {
        Some(5 * m.pick(20, 10_000, 10_000))
    }

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row>, Report)> {
        let count = ctx.mode.pick(20, 10_000, 10_000);
        let mut rng = rand_pcg::Pcg64::seed_from_u64(SEED);
        let gray = gray_patterns(count, &mut rng);
        let random: Vec<Grid> = (0..count).map(|_| Grid::random(SIDE, SIDE, 0.6, &mut rng)).collect();
        let mut scrambled = gray.clone();
        scrambled.shuffle(&mut rng);
        let bar = ctx.bar(5 * count as u64, Self::ID);
        let mut rows = Vec::new();
        let mut push = |series: &str, i: usize, g: &Grid, micros: f64, orphan: bool| {
            let population = g.population();
            rows.push(Row { series: series.into(), index: i + 1, micros, orphan, population });
            bar.inc(1);
        };
        // Incremental CaDiCaL: one formula per series, each pattern only changes the assumptions.
        for (series, set) in
            [("cadical-gray", &gray), ("cadical-scrambled", &scrambled), ("cadical-random", &random)]
        {
            let mut stream = PredecessorStream::new(SIDE, SIDE, SolverKind::Cadical)?;
            for (i, g) in set.iter().enumerate() {
                let spec = SpecGrid::from(g);
                let a = stream.solve(&spec)?;
                if let Some(p) = &a.predecessor
                    && !is_predecessor(p, &spec, 1, Rule::CONWAY)
                {
                    bail!("{series}: the solver's parent does not evolve into pattern {}", i + 1);
                }
                push(series, i, g, a.micros, a.orphan);
            }
        }
        for (series, set) in [("gridwalker-track-gray", &gray), ("gridwalker-track-random", &random)] {
            for (i, g) in set.iter().enumerate() {
                let t = decide(&SpecGrid::from(g), Variant::Track, 1)?;
                push(series, i, g, t.micros, t.orphan());
            }
        }
        bar.finish_and_clear();
        let report = Report {
            seeds: vec![SEED],
            solvers: vec![
                "gridwalker track".into(),
                super::sat::version(SolverKind::Cadical) + ", incremental",
            ],
            notes: vec!["Gray-coded as the thesis describes; its own data is not public".into()],
            ..Default::default()
        };
        Ok((rows, report))
    }

    fn draw(&self, ctx: &Ctx, rows: &[Row]) -> Result<()> {
        let groups = series(rows)
            .into_iter()
            .map(|(n, rs)| (n.replace("gridwalker-", "gw-"), rs.iter().map(|r| r.micros / 1e3).collect()))
            .collect();
        render(
            &ctx.figure(Self::ID),
            &Violin {
                title: "Figure 6.3: solve time per pattern (bar: median)".into(),
                y_label: "solve time (log scale)".into(),
                groups,
                refs: THESIS_MEANS.iter().map(|(l, us)| (l.to_string(), us / 1e3)).collect(),
            },
        )
    }

    /// Per series: patterns, orphans and the median time (the book compares them with the thesis' text).
    fn markdown(&self, rows: &[Row]) -> Result<String> {
        let summary: Vec<_> = series(rows)
            .into_iter()
            .map(|(series, rs)| {
                json!({
                    "series": series,
                    "patterns": rs.len(),
                    "orphans": rs.iter().filter(|r| r.orphan).count(),
                    "median_micros": median(rs.iter().map(|r| r.micros).collect()),
                })
            })
            .collect();
        crate::table::markdown(SUMMARY, &summary)
    }
}

/// The rows of each series, the series in the order they were run.
fn series(rows: &[Row]) -> Vec<(String, Vec<&Row>)> {
    group(&[], rows.iter().map(|r| (r.series.as_str(), r)))
}

const SUMMARY: &[Col<'static>] = &[
    col("Series", "series", Fmt::Text),
    col("Patterns", "patterns", Fmt::Int),
    col("Orphans", "orphans", Fmt::Int),
    col("Median us", "median_micros", Fmt::Fixed(1)),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gray_neighbours_differ_in_few_cells_and_respect_density() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
        let p = gray_patterns(200, &mut rng);
        assert_eq!(p.len(), 200);
        for g in &p {
            assert!((40..=80).contains(&g.population()));
        }
        let diffs = p
            .windows(2)
            .filter(|w| w[0].cells().iter().zip(w[1].cells()).filter(|(a, b)| a != b).count() == 1)
            .count();
        assert!(diffs > 150, "most consecutive patterns differ in exactly one cell ({diffs})");
    }
}
