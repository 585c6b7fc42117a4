//! Figures 5.9 and 5.10: slice sizes of the 10x10 orphan before (A) and after
//! (B) GridSolve, and the minimal slice's split by centre pixel.
//!
//! Panel A is the size of each cell's initial slice (140 constellations lead
//! to a live cell, 372 to a dead one); panel B and the minimal slice come from
//! GRIDWALKER's first GridSolve (`gridwalker::first_solve`, thesis-code convention).

use crate::harness::{Col, Ctx, Experiment, Fmt, Mode, Report, col};
use crate::plot::{Bars, Heatmap, Ticks, render};
use anyhow::{Result, bail};
use lifesearch::gridwalker::{Convention, first_solve, slice::Slice};
use lifesearch::life::{Cell, Rule};
use lifesearch::search::known::garden_of_eden;
use serde::{Deserialize, Serialize};

pub struct Figure59;
pub struct Figure510;

impl Experiment for Figure59 {
    type Row = Row59;
    const ID: &'static str = "figure-5-9";
    const TITLE: &'static str = "Figure 5.9: slice sizes of the 10x10 orphan before/after GridSolve";
    const FIGURE: bool = true;
    const TABLE: &'static [Col<'static>] = &[
        col("Panel", "panel", Fmt::Text),
        col("x", "x", Fmt::Int),
        col("y", "y", Fmt::Int),
        col("Ours", "ours", Fmt::Int),
        col("Thesis", "thesis", Fmt::Int),
    ];

    fn rows(&self, _: Mode) -> Option<usize> {
        Some(200)
    }

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row59>, Report)> {
        let spec = garden_of_eden();
        let after = first_solve(&spec, Rule::CONWAY, Convention::ThesisCode);
        if (after.width, after.height) != (10, 10) {
            bail!("GridSolve covered {}x{} cells, expected 10x10", after.width, after.height);
        }
        let printed_b = crate::thesis::figure_5_9_b(&ctx.thesis)?;
        let alive: Vec<bool> = (0..100).map(|i| spec.get(i % 10, i / 10) == Cell::Alive).collect();
        let before = alive.iter().map(|&a| Slice::for_future(Rule::CONWAY, a).count()).collect();
        let printed_a = alive.iter().map(|&a| if a { 140 } else { 372 }).collect();
        let mut rows = Vec::new();
        for (panel, ours, thesis) in [("A", &before, &printed_a), ("B", &after.sizes, &printed_b)] {
            for (i, (&ours, &thesis)) in ours.iter().zip(thesis).enumerate() {
                rows.push(Row59 { panel: panel.into(), x: i % 10, y: i / 10, ours, thesis });
            }
        }
        let solvers = vec!["gridwalker first_solve (thesis-code convention)".into()];
        Ok((rows, Report { solvers, ..Default::default() }))
    }

    fn draw(&self, ctx: &Ctx, rows: &[Row59]) -> Result<()> {
        // Side by side, with an empty column between.
        let mut cells = vec![vec![None; 21]; 10];
        for r in rows.iter().filter(|r| r.x < 10 && r.y < 10) {
            let left = match r.panel.as_str() {
                "A" => 0,
                "B" => 11,
                _ => continue,
            };
            cells[r.y][left + r.x] = Some(r.ours as f64);
        }
        render(
            &ctx.figure("figure-5-9"),
            &Heatmap {
                title: format!(
                    "Figure 5.9: slice sizes, before (left) and after GridSolve; {} of {} differ from the thesis",
                    rows.iter().filter(|r| r.ours != r.thesis).count(),
                    rows.len()
                ),
                cells,
            },
        )
    }

    /// The slice sizes that differ from the thesis' (the book says how many).
    fn markdown(&self, rows: &[Row59]) -> Result<String> {
        let differ: Vec<&Row59> = rows.iter().filter(|r| r.ours != r.thesis).collect();
        crate::table::markdown(Self::TABLE, &differ)
    }
}

impl Experiment for Figure510 {
    type Row = Row510;
    const ID: &'static str = "figure-5-10";
    const TITLE: &'static str = "Figure 5.10: the minimal slice's constellations by centre pixel";
    const FIGURE: bool = true;
    const TABLE: &'static [Col<'static>] = &[
        col("x", "x", Fmt::Int),
        col("y", "y", Fmt::Int),
        col("Constellations", "size", Fmt::Int),
        col("Centre alive", "centre_alive", Fmt::Int),
        col("Centre dead", "centre_dead", Fmt::Int),
        col("Thesis: constellations", "thesis_size", Fmt::Int),
        col("Caption: alive", "caption_alive", Fmt::Int),
        col("Caption: dead", "caption_dead", Fmt::Int),
    ];

    fn measure(&self, _: &Ctx) -> Result<(Vec<Row510>, Report)> {
        let after = first_solve(&garden_of_eden(), Rule::CONWAY, Convention::ThesisCode);
        let Some((x, y, size, on, off)) = after.min else { bail!("GridSolve found a contradiction at once") };
        let rows = vec![Row510 {
            x,
            y,
            size,
            centre_alive: on,
            centre_dead: off,
            thesis_size: 108,
            caption_alive: 53,
            caption_dead: 55,
        }];
        Ok((rows, Report { solvers: vec!["gridwalker first_solve".into()], ..Default::default() }))
    }

    fn draw(&self, ctx: &Ctx, rows: &[Row510]) -> Result<()> {
        let Some(r) = rows.first() else { bail!("no minimal slice") };
        // The two halves of the minimal slice, ours beside the thesis' caption.
        render(
            &ctx.figure("figure-5-10"),
            &Bars {
                title: format!(
                    "Figure 5.10: the minimal slice at ({}, {}), {} constellations, split by its centre cell",
                    r.x, r.y, r.size
                ),
                x_label: "centre cell of the constellation".into(),
                y_label: "constellations".into(),
                categories: vec!["alive".into(), "dead".into()],
                series: vec![
                    ("ours".into(), vec![Some(r.centre_alive as f64), Some(r.centre_dead as f64)]),
                    (
                        format!("thesis' caption ({} in all)", r.thesis_size),
                        vec![Some(r.caption_alive as f64), Some(r.caption_dead as f64)],
                    ),
                ],
                log_y: false,
                ticks: Ticks::Number,
                legend: true,
            },
        )
    }
}

/// One cell of Figure 5.9: panel `A` (before) or `B` (after GridSolve).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row59 {
    pub panel: String,
    pub x: usize,
    pub y: usize,
    pub ours: u32,
    pub thesis: u32,
}

/// The minimal slice after the first GridSolve and its split by centre pixel,
/// beside the thesis' caption (which has the two numbers swapped).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row510 {
    pub x: usize,
    pub y: usize,
    pub size: u32,
    pub centre_alive: u32,
    pub centre_dead: u32,
    pub thesis_size: u32,
    pub caption_alive: u32,
    pub caption_dead: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{Run, read_rows, write_csv};

    #[test]
    fn our_figure_5_9_matches_the_thesis_and_lists_what_differs() {
        let dir = tempfile::tempdir().unwrap();
        let c = Ctx::new(dir.path().into(), Mode::Tiny, dir.path().join("cache"), false);
        Run::run(&Figure59, &c).unwrap();
        let mut rows: Vec<Row59> = read_rows(&c.csv("figure-5-9")).unwrap();
        assert_eq!(rows.len(), 200);
        let differ: Vec<_> = rows.iter().filter(|r| r.ours != r.thesis).collect();
        assert!(differ.is_empty(), "{differ:?}");
        // Panel B, cell (5, 0), one too large: only that size is listed.
        rows[105].ours += 1;
        write_csv(&c.csv("figure-5-9"), &rows).unwrap();
        Run::render(&Figure59, &c).unwrap();
        assert!(crate::plot::is_svg(&c.figure("figure-5-9").with_extension("svg")));
        assert!(crate::plot::is_png(&c.figure("figure-5-9").with_extension("png")));
        let md = std::fs::read_to_string(c.generated("figure-5-9")).unwrap();
        assert!(md.contains("| B | 5 | 0 | 122 | 121 |"), "{md}");
        assert_eq!(md.lines().count(), 3, "{md}");
    }

    #[test]
    fn figure_5_10_reports_the_split() {
        let dir = tempfile::tempdir().unwrap();
        let c = Ctx::new(dir.path().into(), Mode::Tiny, dir.path().join("cache"), false);
        Run::run(&Figure510, &c).unwrap();
        Run::render(&Figure510, &c).unwrap();
        let md = std::fs::read_to_string(c.generated("figure-5-10")).unwrap();
        // The thesis' caption has the two halves swapped.
        assert!(md.contains("| 3 | 2 | 108 | 55 | 53 | 108 | 53 | 55 |"), "{md}");
        assert!(crate::plot::is_png(&c.figure("figure-5-10").with_extension("png")));
    }
}
