//! Generic charts drawn only from CSV data: heat map, density, scatter, violin
//! and bar. Each chart is drawn twice, as SVG and as PNG, each file written
//! whole or not at all. PNG text is rasterised with the DejaVu Sans font we ship
//! in `experiments/assets/` (Bitstream Vera licence, see LICENSE-DejaVu.txt).

use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

const FONT: &str = "sans-serif";
pub const SIZE: (u32, u32) = (900, 560);

fn init_fonts() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let bytes: &'static [u8] = include_bytes!("../assets/DejaVuSans.ttf");
        plotters::style::register_font(FONT, FontStyle::Normal, bytes)
            .unwrap_or_else(|_| panic!("the bundled DejaVuSans.ttf is not a valid font"));
    });
}

fn pe<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("plot: {e:?}")
}

/// A chart that can draw itself on any plotters backend.
pub trait Chart {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>;
}

// ANCHOR: render
/// Draw `chart` into `<base>.svg` and `<base>.png`.
pub fn render(base: &Path, chart: &impl Chart) -> Result<()> {
    init_fonts();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(pe)?;
        chart.draw(&root)?;
        root.present().map_err(pe)?;
    }
    lifesearch::fsutil::atomic_write(&base.with_extension("svg"), svg.as_bytes())?;
    // The bitmap backend writes a file itself: draw into a temporary name, then rename.
    let dir = base.parent().unwrap_or(Path::new("."));
    let name = base.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp.png", std::process::id()));
    {
        let root = BitMapBackend::new(&tmp, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(pe)?;
        chart.draw(&root)?;
        root.present().map_err(pe)?;
    }
    std::fs::rename(&tmp, base.with_extension("png")).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        anyhow!("{}: {e}", base.with_extension("png").display())
    })?;
    Ok(())
}
// ANCHOR_END: render

fn color(i: usize) -> RGBColor {
    const C: [RGBColor; 6] = [
        RGBColor(214, 39, 40),
        RGBColor(44, 160, 44),
        RGBColor(31, 119, 180),
        RGBColor(148, 103, 189),
        RGBColor(127, 127, 127),
        RGBColor(255, 127, 14),
    ];
    C[i % C.len()]
}

fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) =
        values.filter(|v| v.is_finite()).fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    if lo > hi {
        (0.0, 1.0)
    } else if lo == hi {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    }
}

/// Gaussian kernel density estimate at `points` (Silverman's bandwidth).
pub fn kde(values: &[f64], points: &[f64]) -> Vec<f64> {
    let n = values.len() as f64;
    if values.is_empty() {
        return vec![0.0; points.len()];
    }
    let mean = values.iter().sum::<f64>() / n;
    let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
    let h = (1.06 * sd * n.powf(-0.2)).max(1e-9 + (range(values.iter().copied()).1.abs()) * 1e-3);
    points
        .iter()
        .map(|&x| {
            values.iter().map(|&v| (-0.5 * ((x - v) / h).powi(2)).exp()).sum::<f64>()
                / (n * h * (2.0 * std::f64::consts::PI).sqrt())
        })
        .collect()
}

// ANCHOR: heatmap
/// A grid of numbers (row 0 at the top), shaded by value and labelled.
pub struct Heatmap {
    pub title: String,
    /// `cells[y][x]`; `None` cells are left blank.
    pub cells: Vec<Vec<Option<f64>>>,
    pub labels: bool,
}

impl Chart for Heatmap {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let h = self.cells.len();
        let w = self.cells.iter().map(|r| r.len()).max().unwrap_or(0);
        let (lo, hi) = range(self.cells.iter().flatten().flatten().map(|v| (v + 1.0).ln()));
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, 22))
            .margin(12)
            .build_cartesian_2d(0f64..w.max(1) as f64, 0f64..h.max(1) as f64)
            .map_err(pe)?;
        for (y, row) in self.cells.iter().enumerate() {
            for (x, v) in row.iter().enumerate() {
                let Some(v) = v else { continue };
                let t = (((v + 1.0).ln() - lo) / (hi - lo)).clamp(0.0, 1.0);
                let fill = RGBColor(255 - (t * 200.0) as u8, 255 - (t * 150.0) as u8, 255);
                let top = (h - y) as f64;
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x as f64, top - 1.0), (x as f64 + 1.0, top)],
                        fill.filled(),
                    )))
                    .map_err(pe)?;
                if self.labels {
                    let style =
                        TextStyle::from((FONT, 13).into_font()).pos(plotters::style::text_anchor::Pos::new(
                            plotters::style::text_anchor::HPos::Center,
                            plotters::style::text_anchor::VPos::Center,
                        ));
                    chart
                        .draw_series(std::iter::once(Text::new(
                            format!("{v}"),
                            (x as f64 + 0.5, top - 0.5),
                            style,
                        )))
                        .map_err(pe)?;
                }
            }
        }
        Ok(())
    }
}
// ANCHOR_END: heatmap

/// Smoothed distributions of several series on one axis, cut at `x_max`.
pub struct Density {
    pub title: String,
    pub x_label: String,
    pub series: Vec<(String, Vec<f64>)>,
    pub x_max: f64,
}

impl Chart for Density {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let xs: Vec<f64> = (0..=200).map(|i| self.x_max * i as f64 / 200.0).collect();
        let curves: Vec<Vec<f64>> = self
            .series
            .iter()
            .map(|(_, v)| {
                let kept: Vec<f64> = v.iter().copied().filter(|&x| x <= self.x_max).collect();
                kde(&kept, &xs)
            })
            .collect();
        let y_max = curves.iter().flatten().fold(0.0f64, |a, &b| a.max(b)).max(1e-12) * 1.05;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, 22))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0f64..self.x_max, 0f64..y_max)
            .map_err(pe)?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc("density")
            .label_style((FONT, 13))
            .draw()
            .map_err(pe)?;
        for (i, ((name, _), ys)) in self.series.iter().zip(&curves).enumerate() {
            let c = color(i);
            chart
                .draw_series(LineSeries::new(xs.iter().copied().zip(ys.iter().copied()), c.stroke_width(2)))
                .map_err(pe)?
                .label(name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .label_font((FONT, 13))
            .draw()
            .map_err(pe)?;
        Ok(())
    }
}

/// Points of several series, optionally on a logarithmic y axis.
pub struct Scatter {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<(String, Vec<(f64, f64)>)>,
    pub log_y: bool,
}

impl Chart for Scatter {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let pts = || self.series.iter().flat_map(|(_, p)| p.iter());
        let (x0, x1) = range(pts().map(|p| p.0));
        let (mut y0, y1) = range(pts().map(|p| p.1));
        let builder = |b: &mut ChartBuilder<DB>| {
            b.caption(&self.title, (FONT, 22)).margin(12).x_label_area_size(40).y_label_area_size(70);
        };
        let mut cb = ChartBuilder::on(root);
        builder(&mut cb);
        if self.log_y {
            y0 = pts().map(|p| p.1).filter(|&v| v > 0.0).fold(f64::MAX, f64::min).min(y1).max(1e-9);
            let mut chart = cb.build_cartesian_2d(x0..x1, (y0..y1 * 1.1).log_scale()).map_err(pe)?;
            chart
                .configure_mesh()
                .x_desc(&self.x_label)
                .y_desc(&self.y_label)
                .label_style((FONT, 13))
                .draw()
                .map_err(pe)?;
            for (i, (name, p)) in self.series.iter().enumerate() {
                let c = color(i);
                chart
                    .draw_series(p.iter().filter(|q| q.1 > 0.0).map(|&q| Circle::new(q, 1, c.filled())))
                    .map_err(pe)?
                    .label(name.clone())
                    .legend(move |(x, y)| Circle::new((x + 10, y), 4, c.filled()));
            }
            chart.configure_series_labels().border_style(BLACK).label_font((FONT, 13)).draw().map_err(pe)?;
        } else {
            let mut chart = cb.build_cartesian_2d(x0..x1, y0..y1).map_err(pe)?;
            chart
                .configure_mesh()
                .x_desc(&self.x_label)
                .y_desc(&self.y_label)
                .label_style((FONT, 13))
                .draw()
                .map_err(pe)?;
            for (i, (name, p)) in self.series.iter().enumerate() {
                let c = color(i);
                chart
                    .draw_series(p.iter().map(|&q| Circle::new(q, 1, c.filled())))
                    .map_err(pe)?
                    .label(name.clone())
                    .legend(move |(x, y)| Circle::new((x + 10, y), 4, c.filled()));
            }
            chart.configure_series_labels().border_style(BLACK).label_font((FONT, 13)).draw().map_err(pe)?;
        }
        Ok(())
    }
}

/// Constant-width violins (as the thesis' Figure 6.3), one per group, on a
/// log10 axis when `log_y`.
pub struct Violin {
    pub title: String,
    pub y_label: String,
    pub groups: Vec<(String, Vec<f64>)>,
    pub log_y: bool,
}

impl Chart for Violin {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let tf = |v: f64| if self.log_y { v.max(1e-12).log10() } else { v };
        let groups: Vec<(String, Vec<f64>)> =
            self.groups.iter().map(|(n, v)| (n.clone(), v.iter().map(|&x| tf(x)).collect())).collect();
        let (y0, y1) = range(groups.iter().flat_map(|g| g.1.iter().copied()));
        let pad = (y1 - y0) * 0.05;
        let (y0, y1) = (y0 - pad, y1 + pad);
        let n = groups.len().max(1);
        let names: Vec<String> = groups.iter().map(|g| g.0.clone()).collect();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, 22))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.5f64..n as f64 - 0.5, y0..y1)
            .map_err(pe)?;
        let y_desc = if self.log_y { format!("log10 {}", self.y_label) } else { self.y_label.clone() };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n)
            .x_label_formatter(&|x| {
                let i = x.round();
                if (x - i).abs() < 1e-6 && i >= 0.0 {
                    names.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_desc(y_desc)
            .label_style((FONT, 13))
            .draw()
            .map_err(pe)?;
        let ys: Vec<f64> = (0..=120).map(|i| y0 + (y1 - y0) * i as f64 / 120.0).collect();
        for (i, (_, v)) in groups.iter().enumerate() {
            let d = kde(v, &ys);
            let max = d.iter().fold(0.0f64, |a, &b| a.max(b)).max(1e-300);
            let cx = i as f64;
            let mut outline: Vec<(f64, f64)> =
                ys.iter().zip(&d).map(|(&y, &w)| (cx + 0.4 * w / max, y)).collect();
            outline.extend(ys.iter().zip(&d).rev().map(|(&y, &w)| (cx - 0.4 * w / max, y)));
            chart
                .draw_series(std::iter::once(Polygon::new(outline, color(i).mix(0.6).filled())))
                .map_err(pe)?;
        }
        Ok(())
    }
}

/// One bar per labelled value, optionally on a logarithmic axis.
pub struct Bar {
    pub title: String,
    pub y_label: String,
    pub bars: Vec<(String, f64)>,
    pub log_y: bool,
}

impl Chart for Bar {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let n = self.bars.len().max(1);
        let names: Vec<String> = self.bars.iter().map(|b| b.0.clone()).collect();
        let (lo, hi) = range(self.bars.iter().map(|b| b.1));
        let mut cb = ChartBuilder::on(root);
        cb.caption(&self.title, (FONT, 22)).margin(12).x_label_area_size(60).y_label_area_size(80);
        let fmt = |x: &f64| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        if self.log_y {
            let lo = self
                .bars
                .iter()
                .map(|b| b.1)
                .filter(|&v| v > 0.0)
                .fold(f64::MAX, f64::min)
                .min(hi)
                .max(1e-12);
            // Whole decades at both ends, so the log axis always has labelled ticks.
            let base = 10f64.powf(lo.log10().floor() - 1.0);
            let top = 10f64.powf(hi.log10().ceil() + 0.5);
            let mut chart =
                cb.build_cartesian_2d(-0.5f64..n as f64 - 0.5, (base..top).log_scale()).map_err(pe)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(n)
                .x_label_formatter(&fmt)
                .y_label_formatter(&|v: &f64| crate::harness::sci(*v))
                .y_desc(&self.y_label)
                .label_style((FONT, 12))
                .x_label_style((FONT, 10))
                .draw()
                .map_err(pe)?;
            chart
                .draw_series(self.bars.iter().enumerate().filter(|(_, b)| b.1 > 0.0).map(|(i, b)| {
                    Rectangle::new([(i as f64 - 0.35, base), (i as f64 + 0.35, b.1)], color(i).filled())
                }))
                .map_err(pe)?;
        } else {
            let mut chart =
                cb.build_cartesian_2d(-0.5f64..n as f64 - 0.5, lo.min(0.0)..hi * 1.1).map_err(pe)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(n)
                .x_label_formatter(&fmt)
                .y_desc(&self.y_label)
                .label_style((FONT, 12))
                .draw()
                .map_err(pe)?;
            chart
                .draw_series(self.bars.iter().enumerate().map(|(i, b)| {
                    Rectangle::new([(i as f64 - 0.35, 0.0), (i as f64 + 0.35, b.1)], color(i).filled())
                }))
                .map_err(pe)?;
        }
        Ok(())
    }
}

/// Is this file a plausible SVG (an `<svg` element, closed)?
pub fn is_svg(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .map(|s| s.contains("<svg") && s.trim_end().ends_with("</svg>"))
        .unwrap_or(false)
}

/// Is this file a PNG (signature and an IHDR chunk of the expected size)?
pub fn is_png(path: &Path) -> bool {
    std::fs::read(path)
        .map(|b| b.len() > 24 && b.starts_with(b"\x89PNG\r\n\x1a\n") && &b[12..16] == b"IHDR")
        .unwrap_or(false)
}

// ANCHOR: cactus
/// A cactus plot: for each solver, how many patterns it settled within a
/// given time (a step line; time on a log axis). A line further left and
/// higher is better; where a line stops, the rest timed out.
pub struct Cactus {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Each solver's times in ms (settled patterns only) and its total count.
    pub series: Vec<(String, Vec<f64>)>,
    pub total: usize,
}

impl Chart for Cactus {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let all = || self.series.iter().flat_map(|(_, t)| t.iter().copied()).filter(|&t| t > 0.0);
        let x0 = all().fold(f64::MAX, f64::min).min(1.0) / 1.5;
        let x1 = all().fold(f64::MIN, f64::max).max(10.0) * 1.5;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, 22))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((x0..x1).log_scale(), 0.0..self.total as f64 * 1.05)
            .map_err(pe)?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .y_label_formatter(&|v| format!("{v:.0}"))
            .label_style((FONT, 13))
            .draw()
            .map_err(pe)?;
        for (i, (name, times)) in self.series.iter().enumerate() {
            let c = color(i);
            let mut t: Vec<f64> = times.iter().map(|&v| v.max(x0)).collect();
            t.sort_by(f64::total_cmp);
            let mut pts = vec![(x0, 0.0)];
            for (k, &v) in t.iter().enumerate() {
                pts.push((v, k as f64));
                pts.push((v, (k + 1) as f64));
            }
            chart
                .draw_series(LineSeries::new(pts, c.stroke_width(2)))
                .map_err(pe)?
                .label(format!("{name} ({} of {})", t.len(), self.total))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .border_style(BLACK)
            .background_style(WHITE)
            .label_font((FONT, 13))
            .draw()
            .map_err(pe)?;
        Ok(())
    }
}
// ANCHOR_END: cactus

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{read_csv, write_csv};

    #[derive(serde::Serialize, serde::Deserialize)]
    struct Row {
        group: String,
        x: f64,
        y: f64,
    }

    fn small_csv(dir: &Path) -> Vec<Row> {
        let p = dir.join("small.csv");
        let rows: Vec<Row> = (0..40)
            .map(|i| Row {
                group: if i % 2 == 0 { "a" } else { "b" }.into(),
                x: i as f64,
                y: 1.0 + (i * i % 17) as f64,
            })
            .collect();
        write_csv(&p, &rows).unwrap();
        read_csv(&p).unwrap()
    }

    fn groups(rows: &[Row]) -> Vec<(String, Vec<f64>)> {
        ["a", "b"]
            .iter()
            .map(|g| (g.to_string(), rows.iter().filter(|r| r.group == *g).map(|r| r.y).collect()))
            .collect()
    }

    fn check(base: &Path) {
        assert!(is_svg(&base.with_extension("svg")), "{}", base.display());
        assert!(is_png(&base.with_extension("png")), "{}", base.display());
        let leftovers: Vec<_> = std::fs::read_dir(base.parent().unwrap())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "temporary files left behind");
    }

    #[test]
    fn every_chart_draws_from_a_small_csv() {
        let dir = tempfile::tempdir().unwrap();
        let rows = small_csv(dir.path());
        let cells: Vec<Vec<Option<f64>>> = (0..4)
            .map(|y| (0..5).map(|x| if x == y { None } else { Some(rows[y * 5 + x].y) }).collect())
            .collect();
        let base = dir.path().join("heat");
        render(&base, &Heatmap { title: "heat".into(), cells, labels: true }).unwrap();
        check(&base);
        let svg = std::fs::read_to_string(base.with_extension("svg")).unwrap();
        assert!(svg.contains("\n17\n") || svg.contains("\n2\n"), "labels are drawn");
        let base = dir.path().join("density");
        render(
            &base,
            &Density { title: "d".into(), x_label: "t".into(), series: groups(&rows), x_max: 20.0 },
        )
        .unwrap();
        check(&base);
        for log_y in [false, true] {
            let base = dir.path().join(format!("scatter{log_y}"));
            let series = vec![("a".to_string(), rows.iter().map(|r| (r.x, r.y)).collect())];
            render(
                &base,
                &Scatter { title: "s".into(), x_label: "n".into(), y_label: "t".into(), series, log_y },
            )
            .unwrap();
            check(&base);
            let base = dir.path().join(format!("violin{log_y}"));
            render(&base, &Violin { title: "v".into(), y_label: "t".into(), groups: groups(&rows), log_y })
                .unwrap();
            check(&base);
            let base = dir.path().join(format!("bar{log_y}"));
            let bars = rows.iter().take(5).map(|r| (format!("x{}", r.x), r.y)).collect();
            render(&base, &Bar { title: "b".into(), y_label: "v".into(), bars, log_y }).unwrap();
            check(&base);
        }
    }

    #[test]
    fn kde_integrates_to_about_one() {
        let v: Vec<f64> = (0..100).map(|i| (i % 10) as f64).collect();
        let xs: Vec<f64> = (0..=400).map(|i| -10.0 + i as f64 * 0.075).collect();
        let area: f64 = kde(&v, &xs).iter().sum::<f64>() * 0.075;
        assert!((area - 1.0).abs() < 0.02, "area {area}");
    }

    #[test]
    fn validators_reject_garbage() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.png");
        std::fs::write(&p, b"not a png at all, not at all").unwrap();
        assert!(!is_png(&p));
        assert!(!is_svg(&p));
    }
}
