//! Figures 5.9 and 5.10: slice sizes of the 10x10 orphan before (A) and after
//! (B) GridSolve, and the minimal slice's split by centre pixel.
//!
//! Both need the slice sizes after GridSolve, which the `decide_orphan`
//! contract does not expose; until GRIDWALKER offers them these experiments
//! stop with a clear message. The drawing code is ready and tested.

use super::Experiment;
use crate::harness::{Ctx, Report, missing, read_csv, write_text};
use crate::plot::{Heatmap, render};
use anyhow::anyhow;
use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

/// Figure 5.9 B as printed in the thesis (slice sizes after GridSolve).
pub const THESIS_5_9_B: [[u32; 10]; 10] = [
    [268, 132, 161, 115, 119, 121, 163, 130, 242, 268],
    [242, 186, 112, 159, 112, 164, 119, 175, 186, 132],
    [130, 175, 117, 108, 111, 176, 171, 117, 112, 161],
    [163, 119, 171, 118, 117, 121, 118, 108, 159, 115],
    [121, 164, 176, 121, 200, 200, 117, 111, 112, 119],
    [119, 112, 111, 117, 200, 200, 121, 176, 164, 121],
    [115, 159, 108, 118, 121, 117, 118, 171, 119, 163],
    [161, 112, 117, 171, 176, 111, 108, 117, 175, 130],
    [132, 186, 175, 119, 164, 112, 159, 112, 186, 242],
    [268, 242, 130, 163, 121, 119, 115, 161, 132, 268],
];

const BLOCKER: &str = "GRIDWALKER's slice sizes after GridSolve (not part of the decide_orphan contract yet)";

pub const FIGURE_5_9: Experiment = Experiment {
    id: "figure-5-9",
    title: "Figure 5.9: slice sizes of the 10x10 orphan before/after GridSolve",
    columns: &["panel", "x", "y", "ours", "thesis"],
    figure: true,
    run: run_5_9,
    render: draw_5_9,
};

pub const FIGURE_5_10: Experiment = Experiment {
    id: "figure-5-10",
    title: "Figure 5.10: the minimal slice's constellations by centre pixel",
    columns: &["constellation", "centre_alive"],
    figure: true,
    run: |_| Err(missing(BLOCKER)),
    render: draw_5_10,
};

/// Blocked until GRIDWALKER exposes slice sizes; the thesis' panel B is ready to compare.
fn run_5_9(_: &Ctx) -> Result<Report> {
    let cells = THESIS_5_9_B.iter().flatten().count();
    Err(missing(BLOCKER)).map_err(|e| e.context(anyhow!("figure-5-9 would compare {cells} slice sizes")))
}

/// One cell of Figure 5.9: panel `A` (before) or `B` (after GridSolve).
#[derive(Debug, Serialize, Deserialize)]
pub struct Row59 {
    pub panel: String,
    pub x: usize,
    pub y: usize,
    pub ours: u32,
    pub thesis: u32,
}

/// One constellation (3x3 parent, bit p = pixel p in the thesis-code numbering) of the minimal slice.
#[derive(Debug, Serialize, Deserialize)]
pub struct Row510 {
    pub constellation: u16,
    pub centre_alive: bool,
}

fn draw_5_9(ctx: &Ctx) -> Result<()> {
    let rows: Vec<Row59> = read_csv(&ctx.csv("figure-5-9"))?;
    let panel = |p: &str| {
        let mut cells = vec![vec![None; 10]; 10];
        for r in rows.iter().filter(|r| r.panel == p && r.x < 10 && r.y < 10) {
            cells[r.y][r.x] = Some(r.ours as f64);
        }
        cells
    };
    let (a, b) = (panel("A"), panel("B"));
    // Side by side, with an empty column between.
    let cells: Vec<Vec<Option<f64>>> =
        (0..10).map(|y| a[y].iter().chain([&None]).chain(b[y].iter()).cloned().collect()).collect();
    render(
        &ctx.figure("figure-5-9"),
        &Heatmap {
            title: "Figure 5.9: slice sizes, A before and B after GridSolve".into(),
            cells,
            labels: true,
        },
    )?;
    let differ = rows.iter().filter(|r| r.ours != r.thesis).count();
    let min = rows.iter().filter(|r| r.panel == "B").min_by_key(|r| (r.ours, r.y, r.x));
    let mut md = format!(
        "{} of {} slice sizes differ from the thesis' Figure 5.9.{}\n\n| Panel | x | y | Ours | Thesis |\n|---|---:|---:|---:|---:|\n",
        differ,
        rows.len(),
        min.map(|m| format!(
            " Minimal slice after GridSolve: {} constellations at (x={}, y={}).",
            m.ours, m.x, m.y
        ))
        .unwrap_or_default()
    );
    for r in rows.iter().filter(|r| r.ours != r.thesis) {
        md += &format!("| {} | {} | {} | {} | {} |\n", r.panel, r.x, r.y, r.ours, r.thesis);
    }
    write_text(&ctx.generated("figure-5-9"), &md)
}

fn draw_5_10(ctx: &Ctx) -> Result<()> {
    let rows: Vec<Row510> = read_csv(&ctx.csv("figure-5-10"))?;
    if rows.is_empty() {
        bail!("no constellations");
    }
    // Per group, how often each of the 9 pixels is alive: two 3x3 heat maps.
    let freq = |alive: bool| {
        let g: Vec<&Row510> = rows.iter().filter(|r| r.centre_alive == alive).collect();
        let mut f = [[0.0f64; 3]; 3];
        for r in &g {
            for p in 0..9 {
                if (r.constellation >> p) & 1 == 1 {
                    // Thesis-code numbering: row p / 3, column p % 3 counted from the east.
                    f[p / 3][2 - p % 3] += 1.0;
                }
            }
        }
        (g.len(), f)
    };
    let ((na, fa), (nd, fd)) = (freq(true), freq(false));
    let cells: Vec<Vec<Option<f64>>> = (0..3)
        .map(|y| {
            let mut row: Vec<Option<f64>> = fa[y].iter().map(|&v| Some(v)).collect();
            row.push(None);
            row.extend(fd[y].iter().map(|&v| Some(v)));
            row
        })
        .collect();
    render(
        &ctx.figure("figure-5-10"),
        &Heatmap {
            title: format!("Figure 5.10: {na} centre-alive (left), {nd} centre-dead (right)"),
            cells,
            labels: true,
        },
    )?;
    let md = format!(
        "| | Centre alive | Centre dead | Total |\n|---|---:|---:|---:|\n\
         | Ours | {na} | {nd} | {} |\n| Thesis caption | 53 | 55 | 108 |\n| Thesis' code (REPRODUCTION-NOTES) | 55 | 53 | 108 |\n\n\
         The caption of Figure 5.10 has the two numbers swapped. The heat maps count how often each \
         pixel of the 3x3 parent is alive within each group.\n",
        na + nd
    );
    write_text(&ctx.generated("figure-5-10"), &md)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{Mode, write_csv};

    fn ctx(dir: &std::path::Path) -> Ctx {
        Ctx { root: dir.to_path_buf(), mode: Mode::Tiny, cache: dir.join("cache"), progress: false }
    }

    #[test]
    fn figure_5_9_draws_from_a_small_csv() {
        let dir = tempfile::tempdir().unwrap();
        let c = ctx(dir.path());
        let rows: Vec<Row59> = (0..100)
            .flat_map(|i| {
                let (x, y) = (i % 10, i / 10);
                let b = THESIS_5_9_B[y][x];
                [
                    Row59 { panel: "A".into(), x, y, ours: 140, thesis: 140 },
                    Row59 { panel: "B".into(), x, y, ours: if i == 5 { b + 1 } else { b }, thesis: b },
                ]
            })
            .collect();
        write_csv(&c.csv("figure-5-9"), &rows).unwrap();
        draw_5_9(&c).unwrap();
        assert!(crate::plot::is_svg(&c.figure("figure-5-9").with_extension("svg")));
        assert!(crate::plot::is_png(&c.figure("figure-5-9").with_extension("png")));
        let md = std::fs::read_to_string(c.generated("figure-5-9")).unwrap();
        assert!(md.starts_with("1 of 200"), "{md}");
        assert!(md.contains("108 constellations at (x=3, y=2)"), "{md}");
    }

    #[test]
    fn figure_5_10_counts_the_split() {
        let dir = tempfile::tempdir().unwrap();
        let c = ctx(dir.path());
        let rows: Vec<Row510> =
            (0..108u16).map(|i| Row510 { constellation: i * 4, centre_alive: i < 55 }).collect();
        write_csv(&c.csv("figure-5-10"), &rows).unwrap();
        draw_5_10(&c).unwrap();
        let md = std::fs::read_to_string(c.generated("figure-5-10")).unwrap();
        assert!(md.contains("| Ours | 55 | 53 | 108 |"), "{md}");
    }
}
