//! Generic charts drawn only from CSV data: heat map, density, scatter, violin
//! and bar. Each chart is drawn twice, as SVG and as PNG, each file written
//! whole or not at all. PNG text is rasterised with the DejaVu Sans font we ship
//! in `experiments/assets/` (Bitstream Vera licence, see LICENSE-DejaVu.txt).

use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
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
    lifesearch::atomic_write(&base.with_extension("svg"), svg.as_bytes())?;
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

/// Font sizes (px) for the title, axis descriptions and tick labels / legends:
/// readable when the 900 px figure is shown ~800 px wide.
const TITLE: u32 = 24;
const DESC: u32 = 18;
const TICK: u32 = 16;

/// The palette (colour-blind safe, Okabe & Ito), one colour per series.
fn color(i: usize) -> RGBColor {
    const C: [RGBColor; 7] = [
        RGBColor(0, 114, 178),
        RGBColor(230, 159, 0),
        RGBColor(0, 158, 115),
        RGBColor(204, 121, 167),
        RGBColor(213, 94, 0),
        RGBColor(86, 180, 233),
        RGBColor(120, 120, 120),
    ];
    C[i % C.len()]
}

/// The colour of the thesis' values, the same in every figure.
pub const THESIS: RGBColor = RGBColor(40, 40, 40);

/// Series `i`: the thesis' values (name starting "thesis") in [`THESIS`]
/// and greys, the others from the palette in order.
fn series_color(series: &[(String, Vec<Option<f64>>)], i: usize) -> RGBColor {
    if series[i].0.starts_with("thesis") {
        const GREYS: [RGBColor; 3] = [THESIS, RGBColor(150, 150, 150), RGBColor(95, 95, 95)];
        return GREYS[series[..i].iter().filter(|s| s.0.starts_with("thesis")).count() % GREYS.len()];
    }
    color(series[..i].iter().filter(|s| !s.0.starts_with("thesis")).count())
}

/// How tick labels on a value axis are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ticks {
    /// 1, 10, 100, 1k, 10k, 1M, 1G
    Number,
    /// Milliseconds: 1 µs, 10 ms, 1 s, 10 s
    Millis,
}

fn trim(x: f64) -> String {
    let s = if x >= 100.0 || x.fract().abs() < 1e-9 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    };
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
}

/// A human tick label: 5, 20, 1k, 2.5M, 10G, 0.01.
pub fn human(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        return "0".into();
    }
    for (f, s) in [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")] {
        if a >= f {
            return format!("{}{s}", trim(v / f));
        }
    }
    if a >= 0.01 {
        trim(v)
    } else {
        let e = a.log10().floor();
        format!("{}e{e}", trim(v / 10f64.powf(e)))
    }
}

impl Ticks {
    /// The label of a tick at `v`, where an axis drawn in log10 units
    /// (`log`) labels whole decades only.
    pub fn axis_label(self, v: f64, log: bool) -> String {
        if !log {
            self.label(v)
        } else if (v - v.round()).abs() < 1e-6 {
            self.label(10f64.powf(v.round()))
        } else {
            String::new()
        }
    }

    pub fn label(self, v: f64) -> String {
        match self {
            Ticks::Number => human(v),
            Ticks::Millis => {
                let a = v.abs();
                if a == 0.0 {
                    "0".into()
                } else if a < 1e-3 {
                    format!("{} ns", trim(v * 1e6))
                } else if a < 1.0 {
                    format!("{} µs", trim(v * 1e3))
                } else if a < 1e3 {
                    format!("{} ms", trim(v))
                } else {
                    format!("{} s", trim(v / 1e3))
                }
            }
        }
    }
}

/// Whole decades from below `lo` to above `hi` (both > 0).
fn decades(lo: f64, hi: f64) -> (f64, f64) {
    let lo = lo.max(1e-12);
    let hi = hi.max(lo);
    // A hair beyond each decade, so that both ends get their tick and label.
    // The lower end at least a third of a decade below the smallest value, so
    // that its bar shows.
    (10f64.powf((lo.log10() - 0.3).floor()) * 0.999, 10f64.powf((hi.log10() + 0.02).ceil()) * 1.001)
}

/// A one-line legend across the top of `area`: a swatch and a name per series.
/// Title a chart of several series and put their legend under the title
/// (one series needs none); returns the area left for the chart.
fn titled_with_legend<'a, DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    names: impl Iterator<Item = &'a str>,
) -> Result<DrawingArea<DB, Shift>> {
    let (top, rest) = root.split_vertically(34 + TITLE);
    top.titled(title, (FONT, TITLE)).map_err(pe)?;
    let items: Vec<(String, RGBColor)> = names.enumerate().map(|(i, n)| (n.to_string(), color(i))).collect();
    if items.len() > 1 {
        legend_strip(&top.split_vertically(TITLE + 4).1, &items)?;
    }
    Ok(rest)
}

fn legend_strip<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[(String, RGBColor)],
) -> Result<()> {
    let style = TextStyle::from((FONT, TICK).into_font()).pos(plotters::style::text_anchor::Pos::new(
        plotters::style::text_anchor::HPos::Left,
        plotters::style::text_anchor::VPos::Center,
    ));
    // Text widths from the font itself, so the entries never overlap.
    let widths: Vec<i32> = items
        .iter()
        .map(|(name, _)| {
            area.estimate_text_size(name, &style).map(|s| s.0 as i32).unwrap_or(9 * name.len() as i32)
        })
        .collect();
    let total: i32 = widths.iter().map(|w| w + 22 + 24).sum::<i32>() - 24;
    let (w, h) = area.dim_in_pixel();
    let mut x = ((w as i32 - total) / 2).max(4);
    let y = h as i32 / 2;
    for ((name, c), tw) in items.iter().zip(widths) {
        area.draw(&Rectangle::new([(x, y - 7), (x + 16, y + 7)], c.filled())).map_err(pe)?;
        area.draw(&Text::new(name.clone(), (x + 22, y), style.clone())).map_err(pe)?;
        x += 22 + tw + 24;
    }
    Ok(())
}

/// Grid lines: light at every tick, a little darker at the labelled ones.
const LIGHT: RGBColor = RGBColor(238, 238, 238);
const BOLD: RGBColor = RGBColor(205, 205, 205);

/// Is `v` (on a log axis) a power of ten? Only those get labels there.
fn is_decade(v: f64) -> bool {
    v > 0.0 && (v.log10() - v.log10().round()).abs() < 1e-6
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
            .caption(&self.title, (FONT, TITLE))
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
                    let style = TextStyle::from((FONT, TICK).into_font()).pos(
                        plotters::style::text_anchor::Pos::new(
                            plotters::style::text_anchor::HPos::Center,
                            plotters::style::text_anchor::VPos::Center,
                        ),
                    );
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

/// Smoothed distributions of several series on one axis, cut at `x_max`;
/// with `log_x` the densities are of log10 of the values (per decade), on a
/// logarithmic axis from the smallest value to `x_max`.
pub struct Density {
    pub title: String,
    pub x_label: String,
    pub series: Vec<(String, Vec<f64>)>,
    pub x_max: f64,
    pub log_x: bool,
    pub ticks: Ticks,
    /// Reference values (label, value) drawn as dashed vertical lines, e.g.
    /// a value the thesis states; one beyond the axis is left out.
    pub refs: Vec<(String, f64)>,
}

impl Chart for Density {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let tf = |v: f64| if self.log_x { v.max(1e-12).log10() } else { v };
        let (x0, x1) = if self.log_x {
            let lo = self
                .series
                .iter()
                .flat_map(|s| s.1.iter().copied())
                .filter(|&v| v > 0.0)
                .fold(f64::MAX, f64::min);
            let (a, b) = decades(lo.min(self.x_max), self.x_max);
            (a.log10(), b.log10())
        } else {
            (0.0, self.x_max)
        };
        let xs: Vec<f64> = (0..=300).map(|i| x0 + (x1 - x0) * i as f64 / 300.0).collect();
        let curves: Vec<Vec<f64>> = self
            .series
            .iter()
            .map(|(_, v)| {
                let kept: Vec<f64> = v.iter().copied().filter(|&x| x <= self.x_max).map(tf).collect();
                kde(&kept, &xs)
            })
            .collect();
        let y_max = curves.iter().flatten().fold(0.0f64, |a, &b| a.max(b)).max(1e-12) * 1.05;
        let root = titled_with_legend(root, &self.title, self.series.iter().map(|s| s.0.as_str()))?;
        let mut chart = ChartBuilder::on(&root)
            .margin(12)
            .margin_right(28)
            .x_label_area_size(58)
            .y_label_area_size(80)
            .build_cartesian_2d(x0..x1, 0f64..y_max)
            .map_err(pe)?;
        let ticks = self.ticks;
        let log_x = self.log_x;
        chart
            .configure_mesh()
            .light_line_style(LIGHT)
            .bold_line_style(BOLD)
            .x_labels(if log_x { ((x1 - x0) as usize + 1) * 2 } else { 10 })
            .x_label_formatter(&|v: &f64| ticks.axis_label(*v, log_x))
            .y_label_formatter(&|v: &f64| trim_tick(*v))
            .x_desc(&self.x_label)
            .y_desc(if log_x { "density (per decade)" } else { "density" })
            .axis_desc_style((FONT, DESC))
            .label_style((FONT, TICK))
            .draw()
            .map_err(pe)?;
        for (i, ys) in curves.iter().enumerate() {
            let c = color(i);
            chart
                .draw_series(
                    AreaSeries::new(xs.iter().copied().zip(ys.iter().copied()), 0.0, c.mix(0.15))
                        .border_style(c.stroke_width(3)),
                )
                .map_err(pe)?;
        }
        for (label, v) in &self.refs {
            let x = tf(*v);
            if !(x0..=x1).contains(&x) {
                continue;
            }
            chart.draw_series(dashed(vec![(x, 0.0), (x, y_max)])).map_err(pe)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    label.clone(),
                    (x, y_max * 0.97),
                    TextStyle::from((FONT, TICK).into_font()).pos(anchor(HPos::Right, VPos::Top)),
                )))
                .map_err(pe)?;
        }
        Ok(())
    }
}

fn anchor(h: HPos, v: VPos) -> Pos {
    Pos::new(h, v)
}

/// A dashed dark line through `points` (a reference value, not data).
fn dashed(points: Vec<(f64, f64)>) -> Vec<PathElement<(f64, f64)>> {
    let mut out = Vec::new();
    for w in points.windows(2) {
        let ((ax, ay), (bx, by)) = (w[0], w[1]);
        for i in (0..40).step_by(2) {
            let (t0, t1) = (i as f64 / 40.0, (i + 1) as f64 / 40.0);
            out.push(PathElement::new(
                vec![(ax + (bx - ax) * t0, ay + (by - ay) * t0), (ax + (bx - ax) * t1, ay + (by - ay) * t1)],
                RGBColor(60, 60, 60).stroke_width(2),
            ));
        }
    }
    out
}

/// A short label for a linear tick (0.005, 0.25, 12).
fn trim_tick(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// Points of several series, optionally on a logarithmic y axis.
pub struct Scatter {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<(String, Vec<(f64, f64)>)>,
    pub log_y: bool,
    pub ticks: Ticks,
}

impl Chart for Scatter {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let pts = || self.series.iter().flat_map(|(_, p)| p.iter());
        let (x0, x1) = range(pts().map(|p| p.0));
        let (y0, y1) = range(pts().map(|p| p.1));
        let root = titled_with_legend(root, &self.title, self.series.iter().map(|s| s.0.as_str()))?;
        let mut cb = ChartBuilder::on(&root);
        cb.margin(12).x_label_area_size(58).y_label_area_size(96);
        let ticks = self.ticks;
        macro_rules! body {
            ($chart:ident, $yfmt:expr) => {
                $chart
                    .configure_mesh()
                    .light_line_style(LIGHT)
                    .bold_line_style(BOLD)
                    .x_label_formatter(&|v: &f64| human(*v))
                    .y_label_formatter($yfmt)
                    .x_desc(&self.x_label)
                    .y_desc(&self.y_label)
                    .axis_desc_style((FONT, DESC))
                    .label_style((FONT, TICK))
                    .draw()
                    .map_err(pe)?;
                for (i, (_, p)) in self.series.iter().enumerate() {
                    let c = color(i);
                    $chart
                        .draw_series(
                            p.iter()
                                .filter(|q| !self.log_y || q.1 > 0.0)
                                .map(|&q| Circle::new(q, 1, c.mix(0.7).filled())),
                        )
                        .map_err(pe)?;
                }
            };
        }
        if self.log_y {
            let lo = pts().map(|p| p.1).filter(|&v| v > 0.0).fold(f64::MAX, f64::min).min(y1).max(1e-12);
            let (b, t) = decades(lo, y1);
            let mut chart = cb.build_cartesian_2d(x0..x1, (b..t).log_scale()).map_err(pe)?;
            body!(chart, &|v: &f64| if is_decade(*v) { ticks.label(*v) } else { String::new() });
        } else {
            let mut chart = cb.build_cartesian_2d(x0..x1, y0..y1).map_err(pe)?;
            body!(chart, &|v: &f64| ticks.label(*v));
        }
        Ok(())
    }
}

/// Constant-width violins (as the thesis' Figure 6.3), one per group, on a
/// log10 axis when `log_y`; a white bar marks each group's median.
pub struct Violin {
    pub title: String,
    pub y_label: String,
    pub groups: Vec<(String, Vec<f64>)>,
    pub log_y: bool,
    pub ticks: Ticks,
    /// Reference values (label, value) drawn as dashed horizontal lines
    /// across the chart, e.g. values the thesis states.
    pub refs: Vec<(String, f64)>,
}

impl Chart for Violin {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let tf = |v: f64| if self.log_y { v.max(1e-12).log10() } else { v };
        let groups: Vec<(String, Vec<f64>)> =
            self.groups.iter().map(|(n, v)| (n.clone(), v.iter().map(|&x| tf(x)).collect())).collect();
        let refs: Vec<(&String, f64)> = self.refs.iter().map(|(l, v)| (l, tf(*v))).collect();
        let (y0, y1) = range(groups.iter().flat_map(|g| g.1.iter().copied()).chain(refs.iter().map(|r| r.1)));
        let pad = (y1 - y0) * 0.05;
        let (y0, y1) = (y0 - pad, y1 + pad);
        let n = groups.len().max(1);
        let names: Vec<String> = groups.iter().map(|g| g.0.clone()).collect();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, TITLE))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(96)
            .build_cartesian_2d(-0.5f64..n as f64 - 0.5, y0..y1)
            .map_err(pe)?;
        let log_y = self.log_y;
        let ticks = self.ticks;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(LIGHT)
            .bold_line_style(BOLD)
            .x_labels(n)
            .y_labels(if log_y { (((y1 - y0) * 2.0) as usize).max(2) } else { 10 })
            .x_label_formatter(&|x| {
                let i = x.round();
                if (x - i).abs() < 1e-6 && i >= 0.0 {
                    names.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v: &f64| ticks.axis_label(*v, log_y))
            .y_desc(&self.y_label)
            .axis_desc_style((FONT, DESC))
            .label_style((FONT, TICK))
            .draw()
            .map_err(pe)?;
        let ys: Vec<f64> = (0..=160).map(|i| y0 + (y1 - y0) * i as f64 / 160.0).collect();
        for (i, (_, v)) in groups.iter().enumerate() {
            let d = kde(v, &ys);
            let max = d.iter().fold(0.0f64, |a, &b| a.max(b)).max(1e-300);
            let cx = i as f64;
            let mut outline: Vec<(f64, f64)> =
                ys.iter().zip(&d).map(|(&y, &w)| (cx + 0.4 * w / max, y)).collect();
            outline.extend(ys.iter().zip(&d).rev().map(|(&y, &w)| (cx - 0.4 * w / max, y)));
            chart
                .draw_series(std::iter::once(Polygon::new(outline, color(i).mix(0.75).filled())))
                .map_err(pe)?;
            let mut sorted = v.clone();
            sorted.sort_by(f64::total_cmp);
            if let Some(&m) = sorted.get(sorted.len() / 2) {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(cx - 0.12, m), (cx + 0.12, m)],
                        BLACK.stroke_width(3),
                    )))
                    .map_err(pe)?;
            }
        }
        for (label, y) in refs {
            chart.draw_series(dashed(vec![(-0.5, y), (n as f64 - 0.5, y)])).map_err(pe)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    label.clone(),
                    (n as f64 - 0.52, y),
                    TextStyle::from((FONT, TICK).into_font()).pos(anchor(HPos::Right, VPos::Bottom)),
                )))
                .map_err(pe)?;
        }
        Ok(())
    }
}

/// One bar per labelled value, optionally on a logarithmic axis (a
/// [`Bars`] chart with one series and no legend).
#[allow(dead_code)]
pub struct Bar {
    pub title: String,
    pub y_label: String,
    pub bars: Vec<(String, f64)>,
    pub log_y: bool,
}

impl Chart for Bar {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        Bars {
            title: self.title.clone(),
            x_label: String::new(),
            y_label: self.y_label.clone(),
            categories: self.bars.iter().map(|b| b.0.clone()).collect(),
            series: vec![(String::new(), self.bars.iter().map(|b| Some(b.1)).collect())],
            log_y: self.log_y,
            ticks: Ticks::Number,
            legend: false,
        }
        .draw(root)
    }
}

// ANCHOR: bars
/// Grouped bars: for each category one bar per series, side by side, with a
/// legend when there is more than one series. A series named "thesis..." is
/// drawn in the thesis' colour, so ours and the thesis' read side by side.
pub struct Bars {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub categories: Vec<String>,
    /// (series name, one value per category; `None` draws no bar).
    pub series: Vec<(String, Vec<Option<f64>>)>,
    pub log_y: bool,
    pub ticks: Ticks,
    /// Draw the legend (a strip above the bars) when there are several series.
    pub legend: bool,
}

/// What a bar slot without a bar means, when that must be told apart: a
/// measured zero (a "0" at the base) or a box that was not run (a grey
/// hatched cell, with a legend entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Empty {
    Zero,
    NotRun,
}

/// [`Bars`] with some empty slots marked: (category, series, what).
pub struct MarkedBars {
    pub bars: Bars,
    pub marks: Vec<(usize, usize, Empty)>,
}

impl Chart for MarkedBars {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        self.bars.draw_marked(root, &self.marks)
    }
}

const NOT_RUN: RGBColor = RGBColor(170, 170, 170);

impl Chart for Bars {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        self.draw_marked(root, &[])
    }
}

impl Bars {
    fn draw_marked<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        marks: &[(usize, usize, Empty)],
    ) -> Result<()> {
        let not_run = marks.iter().any(|m| m.2 == Empty::NotRun);
        let legend = self.legend && (self.series.len() > 1 || not_run);
        let root = if self.title.is_empty() {
            root.clone()
        } else {
            root.titled(&self.title, (FONT, TITLE)).map_err(pe)?
        };
        let root = if legend {
            let (top, rest) = root.split_vertically(30);
            let mut items: Vec<(String, RGBColor)> = (0..self.series.len())
                .map(|j| (self.series[j].0.clone(), series_color(&self.series, j)))
                .collect();
            if not_run {
                items.push(("hatched grey: not run".into(), NOT_RUN));
            }
            legend_strip(&top, &items)?;
            rest
        } else {
            root.clone()
        };
        let root = &root;
        let n = self.categories.len().max(1);
        let k = self.series.len().max(1);
        let names = &self.categories;
        let vals = || self.series.iter().flat_map(|s| s.1.iter().flatten().copied());
        let (lo, hi) = range(vals());
        let longest = names.iter().map(|c| c.chars().count()).max().unwrap_or(1).max(1);
        // Shrink the category labels (never below 14 px) until they fit side by side.
        let fit = (820.0 / (n as f64 * longest as f64 * 0.62)).floor() as u32;
        let x_font = fit.clamp(14, TICK);
        let mut cb = ChartBuilder::on(root);
        cb.margin(12).x_label_area_size(if self.x_label.is_empty() { 36 } else { 58 }).y_label_area_size(96);
        let fmt = |x: &f64| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        let width = 0.8 / k as f64;
        let bar_x = |i: usize, j: usize| i as f64 - 0.4 + width * j as f64;
        let x_range = -0.5f64..n as f64 - 0.5;
        let ticks = self.ticks;
        macro_rules! finish {
            ($chart:ident, $base:expr, $cell:expr) => {
                for (j, (_, v)) in self.series.iter().enumerate() {
                    let c = series_color(&self.series, j);
                    $chart
                        .draw_series(v.iter().enumerate().filter_map(|(i, y)| {
                            y.filter(|&y| !self.log_y || y > 0.0).map(|y| {
                                Rectangle::new(
                                    [(bar_x(i, j) + width * 0.06, $base), (bar_x(i, j) + width * 0.94, y)],
                                    c.filled(),
                                )
                            })
                        }))
                        .map_err(pe)?;
                }
                let small = TextStyle::from((FONT, TICK).into_font());
                for &(i, j, what) in marks {
                    let (l, r) = (bar_x(i, j) + width * 0.06, bar_x(i, j) + width * 0.94);
                    let mid = (l + r) / 2.0;
                    match what {
                        Empty::Zero => {
                            $chart
                                .draw_series(std::iter::once(Text::new(
                                    "0".to_string(),
                                    (mid, $base),
                                    small.pos(Pos::new(HPos::Center, VPos::Bottom)),
                                )))
                                .map_err(pe)?;
                        }
                        Empty::NotRun => {
                            $chart
                                .draw_series(std::iter::once(Rectangle::new(
                                    [(l, $base), (r, $cell)],
                                    NOT_RUN.mix(0.35).filled(),
                                )))
                                .map_err(pe)?;
                            let d = (r - l) / 4.0;
                            $chart
                                .draw_series((0..4).map(|t| {
                                    PathElement::new(
                                        vec![(l + d * t as f64, $base), (l + d * (t + 1) as f64, $cell)],
                                        NOT_RUN.stroke_width(2),
                                    )
                                }))
                                .map_err(pe)?;
                            $chart
                                .draw_series(std::iter::once(Text::new(
                                    "not run".to_string(),
                                    (mid, $cell),
                                    small
                                        .clone()
                                        .transform(FontTransform::Rotate270)
                                        .pos(Pos::new(HPos::Left, VPos::Center)),
                                )))
                                .map_err(pe)?;
                        }
                    }
                }
            };
        }
        if self.log_y {
            let lo = vals().filter(|&v| v > 0.0).fold(f64::MAX, f64::min).min(hi).max(1e-12);
            // Whole decades at both ends, so the log axis always has labelled
            // ticks.
            let (base, top) = decades(lo, hi);
            let mut chart = cb.build_cartesian_2d(x_range, (base..top).log_scale()).map_err(pe)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .light_line_style(LIGHT)
                .bold_line_style(BOLD)
                .x_labels(n)
                .x_label_formatter(&fmt)
                .y_label_formatter(&|v: &f64| if is_decade(*v) { ticks.label(*v) } else { String::new() })
                .x_desc(&self.x_label)
                .y_desc(&self.y_label)
                .axis_desc_style((FONT, DESC))
                .label_style((FONT, TICK))
                .x_label_style((FONT, x_font))
                .draw()
                .map_err(pe)?;
            finish!(chart, base, base * (top / base).powf(0.12));
        } else {
            let top = hi * 1.1;
            let mut chart = cb.build_cartesian_2d(x_range, lo.min(0.0)..top).map_err(pe)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .light_line_style(LIGHT)
                .bold_line_style(BOLD)
                .x_labels(n)
                .x_label_formatter(&fmt)
                .y_label_formatter(&|v: &f64| ticks.label(*v))
                .x_desc(&self.x_label)
                .y_desc(&self.y_label)
                .axis_desc_style((FONT, DESC))
                .label_style((FONT, TICK))
                .x_label_style((FONT, x_font))
                .draw()
                .map_err(pe)?;
            finish!(chart, 0.0, top * 0.12);
        }
        Ok(())
    }
}
// ANCHOR_END: bars

/// Several charts stacked top to bottom under one title.
pub struct Stack<C> {
    pub title: String,
    pub panels: Vec<C>,
}

impl<C: Chart> Chart for Stack<C> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let area = root.titled(&self.title, (FONT, TITLE)).map_err(pe)?;
        for (panel, a) in self.panels.iter().zip(area.split_evenly((self.panels.len().max(1), 1))) {
            panel.draw(&a)?;
        }
        Ok(())
    }
}

// ANCHOR: cells
/// Patterns as cell diagrams: each panel a grid of squares, black for a live
/// cell, white for a dead one, grey for one left open (`None`), with its
/// name above; panels fill `columns` columns, row by row.
pub struct Cells {
    pub title: String,
    /// (caption, `rows[y][x]`).
    pub panels: Vec<(String, Vec<Vec<Option<bool>>>)>,
    pub columns: usize,
}

impl Chart for Cells {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let area = root.titled(&self.title, (FONT, TITLE)).map_err(pe)?;
        let cols = self.columns.max(1);
        let rows = self.panels.len().div_ceil(cols).max(1);
        let style = TextStyle::from((FONT, TICK).into_font()).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Center,
            plotters::style::text_anchor::VPos::Top,
        ));
        let grid = RGBColor(170, 170, 170);
        for ((name, cells), a) in self.panels.iter().zip(area.split_evenly((rows, cols))) {
            let (w, h) = a.dim_in_pixel();
            let (w, h) = (w as i32, h as i32);
            a.draw(&Text::new(name.clone(), (w / 2, 4), style.clone())).map_err(pe)?;
            let gh = cells.len().max(1) as i32;
            let gw = cells.iter().map(|r| r.len()).max().unwrap_or(1).max(1) as i32;
            let top = 4 + TICK as i32 + 8;
            let size = ((w - 16) / gw).min((h - top - 8) / gh).max(1);
            let x0 = (w - size * gw) / 2;
            let y0 = top + (h - top - 8 - size * gh) / 2;
            for (y, row) in cells.iter().enumerate() {
                for (x, c) in row.iter().enumerate() {
                    let fill = match c {
                        Some(true) => BLACK,
                        Some(false) => WHITE,
                        None => RGBColor(190, 190, 190),
                    };
                    let p = (x0 + x as i32 * size, y0 + y as i32 * size);
                    let q = (p.0 + size, p.1 + size);
                    a.draw(&Rectangle::new([p, q], fill.filled())).map_err(pe)?;
                    a.draw(&Rectangle::new([p, q], grid.stroke_width(1))).map_err(pe)?;
                }
            }
            a.draw(&Rectangle::new([(x0, y0), (x0 + size * gw, y0 + size * gh)], BLACK.stroke_width(2)))
                .map_err(pe)?;
        }
        Ok(())
    }
}
// ANCHOR_END: cells

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
            .caption(&self.title, (FONT, TITLE))
            .margin(12)
            .margin_right(28)
            .x_label_area_size(58)
            .y_label_area_size(80)
            .build_cartesian_2d((x0..x1).log_scale(), 0.0..self.total as f64 * 1.05)
            .map_err(pe)?;
        chart
            .configure_mesh()
            .light_line_style(LIGHT)
            .bold_line_style(BOLD)
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_label_formatter(&|v: &f64| if is_decade(*v) { Ticks::Millis.label(*v) } else { String::new() })
            .y_label_formatter(&|v| format!("{v:.0}"))
            .axis_desc_style((FONT, DESC))
            .label_style((FONT, TICK))
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
                .draw_series(LineSeries::new(pts, c.stroke_width(3)))
                .map_err(pe)?
                .label(format!("{name} ({} of {})", t.len(), self.total))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(3)));
        }
        // Every line climbs from the lower left to the upper right, so the
        // upper left is the one corner no line reaches early.
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .border_style(BLACK)
            .background_style(WHITE)
            .label_font((FONT, TICK))
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
            &Density {
                title: "d".into(),
                x_label: "t".into(),
                series: groups(&rows),
                x_max: 20.0,
                log_x: false,
                ticks: Ticks::Number,
                refs: vec![("thesis: 5".into(), 5.0)],
            },
        )
        .unwrap();
        check(&base);
        for log_y in [false, true] {
            let base = dir.path().join(format!("scatter{log_y}"));
            let series = vec![("a".to_string(), rows.iter().map(|r| (r.x, r.y)).collect())];
            render(
                &base,
                &Scatter {
                    title: "s".into(),
                    x_label: "n".into(),
                    y_label: "t".into(),
                    series,
                    log_y,
                    ticks: Ticks::Millis,
                },
            )
            .unwrap();
            check(&base);
            let base = dir.path().join(format!("violin{log_y}"));
            render(
                &base,
                &Violin {
                    title: "v".into(),
                    y_label: "t".into(),
                    groups: groups(&rows),
                    log_y,
                    ticks: Ticks::Number,
                    refs: vec![("thesis: 3".into(), 3.0)],
                },
            )
            .unwrap();
            check(&base);
            let base = dir.path().join(format!("bar{log_y}"));
            let bars = rows.iter().take(5).map(|r| (format!("x{}", r.x), r.y)).collect();
            render(&base, &Bar { title: "b".into(), y_label: "v".into(), bars, log_y }).unwrap();
            check(&base);
        }
    }

    #[test]
    fn grouped_bars_cells_and_ticks() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().join("bars");
        let bars = Bars {
            title: "b".into(),
            x_label: "x".into(),
            y_label: "time".into(),
            categories: vec!["p1".into(), "p2".into()],
            series: vec![
                ("ours".into(), vec![Some(2.0), None]),
                ("thesis".into(), vec![Some(30.0), Some(400.0)]),
            ],
            log_y: true,
            ticks: Ticks::Millis,
            legend: true,
        };
        render(&base, &Stack { title: "s".into(), panels: vec![bars] }).unwrap();
        check(&base);
        let svg = std::fs::read_to_string(base.with_extension("svg")).unwrap();
        assert!(svg.contains("thesis") && svg.contains("100 ms"), "legend and human ticks");
        let base = dir.path().join("cells");
        let glider = vec![
            vec![Some(false), Some(true), Some(false)],
            vec![Some(false), Some(false), Some(true)],
            vec![Some(true), Some(true), None],
        ];
        render(&base, &Cells { title: "c".into(), panels: vec![("glider".into(), glider)], columns: 2 })
            .unwrap();
        check(&base);
        assert_eq!(Ticks::Millis.label(1000.0), "1 s");
        assert_eq!(Ticks::Millis.label(0.01), "10 µs");
        assert_eq!(human(1e6), "1M");
        assert_eq!(human(25_000.0), "25k");
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
