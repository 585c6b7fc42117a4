//! Generic charts drawn only from CSV data: heat map, density, scatter, violin,
//! bars, cactus and cells. Each chart is drawn twice, as SVG and as PNG, each
//! file written whole or not at all. PNG text is rasterised with the DejaVu Sans
//! font we ship in `experiments/assets/` (Bitstream Vera licence, see LICENSE-DejaVu.txt).

use anyhow::{Context, Result, anyhow};
use plotters::chart::MeshStyle;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;
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
    paint(SVGBackend::with_string(&mut svg, SIZE).into_drawing_area(), chart)?;
    lifesearch::atomic_write(&base.with_extension("svg"), svg.as_bytes())?;
    // The bitmap backend writes a file itself: draw into a temporary file
    // beside the target (removed if anything fails), then rename it.
    let tmp = lifesearch::temp_beside(base, ".png")?;
    paint(BitMapBackend::new(tmp.path(), SIZE).into_drawing_area(), chart)?;
    tmp.persist(base.with_extension("png"))
        .with_context(|| base.with_extension("png").display().to_string())?;
    Ok(())
}

fn paint<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, chart: &impl Chart) -> Result<()> {
    root.fill(&WHITE).map_err(pe)?;
    chart.draw(&root)?;
    root.present().map_err(pe)
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

/// Series `i`: the thesis' values (name starting "thesis") in greys, the
/// first in the same dark grey in every figure; the others from the palette
/// in order.
fn series_color(series: &[(String, Vec<Option<f64>>)], i: usize) -> RGBColor {
    if series[i].0.starts_with("thesis") {
        const GREYS: [RGBColor; 3] = [RGBColor(40, 40, 40), RGBColor(150, 150, 150), RGBColor(95, 95, 95)];
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
    /// The label of a tick at `v` on an axis drawn in log10 units: whole
    /// decades only.
    fn decade_label(self, v: f64) -> String {
        if (v - v.round()).abs() < 1e-6 { self.label(10f64.powf(v.round())) } else { String::new() }
    }

    /// The label of a tick at `v` on a logarithmic (`log`) or linear axis;
    /// a logarithmic one labels its powers of ten only.
    fn scale_label(self, v: f64, log: bool) -> String {
        let decade = v > 0.0 && (v.log10() - v.log10().round()).abs() < 1e-6;
        if log && !decade { String::new() } else { self.label(v) }
    }

    pub fn label(self, v: f64) -> String {
        let a = v.abs();
        match self {
            Ticks::Number => human(v),
            Ticks::Millis if a == 0.0 => "0".into(),
            Ticks::Millis if a < 1e-3 => format!("{} ns", trim(v * 1e6)),
            Ticks::Millis if a < 1.0 => format!("{} µs", trim(v * 1e3)),
            Ticks::Millis if a < 1e3 => format!("{} ms", trim(v)),
            Ticks::Millis => format!("{} s", trim(v / 1e3)),
        }
    }
}

/// A short label for a linear tick (0.005, 0.25, 12).
fn trim_tick(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// The label of the tick at `x` on a category axis (category `i` at `x = i`).
fn category(names: &[String], x: f64) -> String {
    let i = x.round();
    let whole = (x - i).abs() < 1e-6 && i >= 0.0;
    if whole { names.get(i as usize).cloned().unwrap_or_default() } else { String::new() }
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

/// `(name, value)` pairs gathered into one series per name: first those of
/// `names`, in that order (a name without values gives no series), then any
/// other name in the order it first appears.
pub fn group<'a, T>(names: &[&str], pairs: impl IntoIterator<Item = (&'a str, T)>) -> Vec<(String, Vec<T>)> {
    let mut series: Vec<(String, Vec<T>)> = names.iter().map(|n| (n.to_string(), Vec::new())).collect();
    for (name, value) in pairs {
        match series.iter_mut().find(|s| s.0 == name) {
            Some(s) => s.1.push(value),
            None => series.push((name.to_string(), vec![value])),
        }
    }
    series.retain(|s| !s.1.is_empty());
    series
}

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
        legend(&top.split_vertically(TITLE + 4).1, &items)?;
    }
    Ok(rest)
}

/// A one-line legend centred across the top 30 px of `root`: a swatch and a
/// name per item; returns the area below it.
fn legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    items: &[(String, RGBColor)],
) -> Result<DrawingArea<DB, Shift>> {
    let (area, rest) = root.split_vertically(30);
    let style = TextStyle::from((FONT, TICK).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
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
    Ok(rest)
}

/// A value axis, linear or logarithmic as the data asks at run time, so that
/// each chart builds and styles one mesh rather than one per scale.
enum Axis {
    Lin(RangedCoordf64),
    Log(LogCoord<f64>),
}

impl Axis {
    fn new(r: Range<f64>, log: bool) -> Axis {
        if log { Axis::Log(r.log_scale().into()) } else { Axis::Lin(r.into()) }
    }
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;
    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        match self {
            Axis::Lin(a) => a.map(v, limit),
            Axis::Log(a) => a.map(v, limit),
        }
    }
    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        match self {
            Axis::Lin(a) => a.key_points(hint),
            Axis::Log(a) => a.key_points(hint),
        }
    }
    fn range(&self) -> Range<f64> {
        match self {
            Axis::Lin(a) => a.range(),
            Axis::Log(a) => a.range(),
        }
    }
}

type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<Axis, Axis>>;

/// A chart area on `root` with the shared margins: `caption` (none if empty)
/// above, `right` px free on the right for a last x label, and label areas
/// of `areas` (below, left) px.
fn plot<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    caption: &str,
    right: u32,
    areas: (u32, u32),
    x: Axis,
    y: Axis,
) -> Result<Plot<'a, DB>> {
    let mut cb = ChartBuilder::on(root);
    if !caption.is_empty() {
        cb.caption(caption, (FONT, TITLE));
    }
    cb.margin(12).margin_right(right).x_label_area_size(areas.0).y_label_area_size(areas.1);
    cb.build_cartesian_2d(x, y).map_err(pe)
}

/// Grid lines: light at every tick, a little darker at the labelled ones.
const LIGHT: RGBColor = RGBColor(238, 238, 238);
const BOLD: RGBColor = RGBColor(205, 205, 205);

/// The grid and fonts every chart shares, and the axis descriptions (none
/// for an empty `x_desc`).
fn mesh<'a, 'b, DB: DrawingBackend>(
    chart: &'b mut Plot<'a, DB>,
    x_desc: &str,
    y_desc: &str,
) -> MeshStyle<'a, 'b, Axis, Axis, DB> {
    let mut m = chart.configure_mesh();
    m.light_line_style(LIGHT).bold_line_style(BOLD).y_desc(y_desc);
    m.axis_desc_style((FONT, DESC)).label_style((FONT, TICK));
    if !x_desc.is_empty() {
        m.x_desc(x_desc);
    }
    m
}

/// A reference value, not data (e.g. a value the thesis states): a dashed
/// dark line from `a` to `b`, and `label` at `at`, anchored at its `pos`.
fn reference<DB: DrawingBackend>(
    area: &DrawingArea<DB, Cartesian2d<Axis, Axis>>,
    label: &str,
    (a, b): ((f64, f64), (f64, f64)),
    at: (f64, f64),
    pos: Pos,
) -> Result<()> {
    let p = |t: f64| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
    for i in (0..40).step_by(2) {
        let dash = vec![p(i as f64 / 40.0), p((i + 1) as f64 / 40.0)];
        area.draw(&PathElement::new(dash, RGBColor(60, 60, 60).stroke_width(2))).map_err(pe)?;
    }
    let style = TextStyle::from((FONT, TICK).into_font()).pos(pos);
    area.draw(&Text::new(label.to_string(), at, style)).map_err(pe)
}

// ANCHOR: heatmap
/// A grid of numbers (row 0 at the top), shaded by value and labelled.
pub struct Heatmap {
    pub title: String,
    /// `cells[y][x]`; `None` cells are left blank.
    pub cells: Vec<Vec<Option<f64>>>,
}

impl Chart for Heatmap {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let h = self.cells.len();
        let w = self.cells.iter().map(|r| r.len()).max().unwrap_or(0);
        let (lo, hi) = range(self.cells.iter().flatten().flatten().map(|v| (v + 1.0).ln()));
        let (x, y) = (Axis::new(0.0..w.max(1) as f64, false), Axis::new(0.0..h.max(1) as f64, false));
        let chart = plot(root, &self.title, 12, (0, 0), x, y)?;
        let area = chart.plotting_area();
        let style = TextStyle::from((FONT, TICK).into_font()).pos(Pos::new(HPos::Center, VPos::Center));
        for (y, row) in self.cells.iter().enumerate() {
            for (x, v) in row.iter().enumerate() {
                let Some(v) = v else { continue };
                let t = (((v + 1.0).ln() - lo) / (hi - lo)).clamp(0.0, 1.0);
                let fill = RGBColor(255 - (t * 200.0) as u8, 255 - (t * 150.0) as u8, 255);
                let (x, top) = (x as f64, (h - y) as f64);
                area.draw(&Rectangle::new([(x, top - 1.0), (x + 1.0, top)], fill.filled())).map_err(pe)?;
                area.draw(&Text::new(format!("{v}"), (x + 0.5, top - 0.5), style.clone())).map_err(pe)?;
            }
        }
        Ok(())
    }
}
// ANCHOR_END: heatmap

/// Smoothed distributions of several series on one axis, cut at `x_max`:
/// densities of log10 of the values (per decade), on a logarithmic axis in
/// milliseconds from the smallest value to `x_max`.
pub struct Density {
    pub title: String,
    pub x_label: String,
    pub series: Vec<(String, Vec<f64>)>,
    pub x_max: f64,
    /// Reference values (label, value) drawn as dashed vertical lines, e.g.
    /// a value the thesis states; one beyond the axis is left out.
    pub refs: Vec<(String, f64)>,
}

impl Chart for Density {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let tf = |v: f64| v.max(1e-12).log10();
        let lo = self.series.iter().flat_map(|s| &s.1).filter(|&&v| v > 0.0).fold(f64::MAX, |a, &v| a.min(v));
        let (a, b) = decades(lo.min(self.x_max), self.x_max);
        let (x0, x1) = (a.log10(), b.log10());
        let xs: Vec<f64> = (0..=300).map(|i| x0 + (x1 - x0) * i as f64 / 300.0).collect();
        let kept = |v: &Vec<f64>| v.iter().copied().filter(|&x| x <= self.x_max).map(tf).collect::<Vec<_>>();
        let curves: Vec<Vec<f64>> = self.series.iter().map(|(_, v)| kde(&kept(v), &xs)).collect();
        let y_max = curves.iter().flatten().fold(0.0f64, |a, &b| a.max(b)).max(1e-12) * 1.05;
        let root = titled_with_legend(root, &self.title, self.series.iter().map(|s| s.0.as_str()))?;
        let (x, y) = (Axis::new(x0..x1, false), Axis::new(0.0..y_max, false));
        let mut chart = plot(&root, "", 28, (58, 80), x, y)?;
        mesh(&mut chart, &self.x_label, "density (per decade)")
            .x_labels(((x1 - x0) as usize + 1) * 2)
            .x_label_formatter(&|v| Ticks::Millis.decade_label(*v))
            .y_label_formatter(&|v| trim_tick(*v))
            .draw()
            .map_err(pe)?;
        for (i, ys) in curves.iter().enumerate() {
            let c = color(i);
            let curve = AreaSeries::new(xs.iter().copied().zip(ys.iter().copied()), 0.0, c.mix(0.15));
            chart.draw_series(curve.border_style(c.stroke_width(3))).map_err(pe)?;
        }
        let top = Pos::new(HPos::Right, VPos::Top);
        for (label, x) in self.refs.iter().map(|(l, v)| (l, tf(*v))).filter(|r| (x0..=x1).contains(&r.1)) {
            reference(chart.plotting_area(), label, ((x, 0.0), (x, y_max)), (x, y_max * 0.97), top)?;
        }
        Ok(())
    }
}

/// Points of several series on a logarithmic y axis in milliseconds (points
/// at or below zero left out).
pub struct Scatter {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<(String, Vec<(f64, f64)>)>,
}

impl Chart for Scatter {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let pts = || self.series.iter().flat_map(|(_, p)| p.iter());
        let (x0, x1) = range(pts().map(|p| p.0));
        let y1 = range(pts().map(|p| p.1)).1;
        let lo = pts().map(|p| p.1).filter(|&v| v > 0.0).fold(f64::MAX, f64::min).min(y1).max(1e-12);
        let (b, t) = decades(lo, y1);
        let root = titled_with_legend(root, &self.title, self.series.iter().map(|s| s.0.as_str()))?;
        let mut chart = plot(&root, "", 12, (58, 96), Axis::new(x0..x1, false), Axis::new(b..t, true))?;
        mesh(&mut chart, &self.x_label, &self.y_label)
            .x_label_formatter(&|v| human(*v))
            .y_label_formatter(&|v| Ticks::Millis.scale_label(*v, true))
            .draw()
            .map_err(pe)?;
        for (i, (_, p)) in self.series.iter().enumerate() {
            let c = color(i);
            let shown = p.iter().filter(|q| q.1 > 0.0);
            chart.draw_series(shown.map(|&q| Circle::new(q, 1, c.mix(0.7).filled()))).map_err(pe)?;
        }
        Ok(())
    }
}

/// Constant-width violins (as the thesis' Figure 6.3), one per group, on a
/// log10 axis in milliseconds; a black bar marks each group's median.
pub struct Violin {
    pub title: String,
    pub y_label: String,
    pub groups: Vec<(String, Vec<f64>)>,
    /// Reference values (label, value) drawn as dashed horizontal lines
    /// across the chart, e.g. values the thesis states.
    pub refs: Vec<(String, f64)>,
}

impl Chart for Violin {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let tf = |v: f64| v.max(1e-12).log10();
        let groups: Vec<Vec<f64>> =
            self.groups.iter().map(|(_, v)| v.iter().map(|&x| tf(x)).collect()).collect();
        let refs: Vec<(&String, f64)> = self.refs.iter().map(|(l, v)| (l, tf(*v))).collect();
        let (y0, y1) = range(groups.iter().flatten().copied().chain(refs.iter().map(|r| r.1)));
        let pad = (y1 - y0) * 0.05;
        let (y0, y1) = (y0 - pad, y1 + pad);
        let n = groups.len().max(1);
        let right = n as f64 - 0.5;
        let names: Vec<String> = self.groups.iter().map(|g| g.0.clone()).collect();
        let (x, y) = (Axis::new(-0.5..right, false), Axis::new(y0..y1, false));
        let mut chart = plot(root, &self.title, 12, (40, 96), x, y)?;
        mesh(&mut chart, "", &self.y_label)
            .disable_x_mesh()
            .x_labels(n)
            .y_labels((((y1 - y0) * 2.0) as usize).max(2))
            .x_label_formatter(&|x| category(&names, *x))
            .y_label_formatter(&|v| Ticks::Millis.decade_label(*v))
            .draw()
            .map_err(pe)?;
        let area = chart.plotting_area();
        let ys: Vec<f64> = (0..=160).map(|i| y0 + (y1 - y0) * i as f64 / 160.0).collect();
        for (i, v) in groups.iter().enumerate() {
            let d = kde(v, &ys);
            let max = d.iter().fold(0.0f64, |a, &b| a.max(b)).max(1e-300);
            let cx = i as f64;
            let mut outline: Vec<(f64, f64)> =
                ys.iter().zip(&d).map(|(&y, &w)| (cx + 0.4 * w / max, y)).collect();
            outline.extend(ys.iter().zip(&d).rev().map(|(&y, &w)| (cx - 0.4 * w / max, y)));
            area.draw(&Polygon::new(outline, color(i).mix(0.75).filled())).map_err(pe)?;
            let mut sorted = v.clone();
            sorted.sort_by(f64::total_cmp);
            if let Some(&m) = sorted.get(sorted.len() / 2) {
                area.draw(&PathElement::new(vec![(cx - 0.12, m), (cx + 0.12, m)], BLACK.stroke_width(3)))
                    .map_err(pe)?;
            }
        }
        for (label, y) in refs {
            let at = (n as f64 - 0.52, y);
            reference(area, label, ((-0.5, y), (right, y)), at, Pos::new(HPos::Right, VPos::Bottom))?;
        }
        Ok(())
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
        let root = if self.title.is_empty() {
            root.clone()
        } else {
            root.titled(&self.title, (FONT, TITLE)).map_err(pe)?
        };
        let root = if self.legend && (self.series.len() > 1 || not_run) {
            let items =
                self.series.iter().enumerate().map(|(j, s)| (s.0.clone(), series_color(&self.series, j)));
            let not_run = not_run.then(|| ("hatched grey: not run".to_string(), NOT_RUN));
            legend(&root, &items.chain(not_run).collect::<Vec<_>>())?
        } else {
            root
        };
        let n = self.categories.len().max(1);
        let vals = || self.series.iter().flat_map(|s| s.1.iter().flatten().copied());
        let (lo, hi) = range(vals());
        // The bars' base and the height of a "not run" cell.
        let (y, base, cell) = if self.log_y {
            let lo = vals().filter(|&v| v > 0.0).fold(f64::MAX, f64::min).min(hi).max(1e-12);
            // Whole decades at both ends, so the log axis always has labelled
            // ticks.
            let (base, top) = decades(lo, hi);
            (Axis::new(base..top, true), base, base * (top / base).powf(0.12))
        } else {
            let top = hi * 1.1;
            (Axis::new(lo.min(0.0)..top, false), 0.0, top * 0.12)
        };
        let longest = self.categories.iter().map(|c| c.chars().count()).max().unwrap_or(1).max(1);
        // Shrink the category labels (never below 14 px) until they fit side by side.
        let x_font = ((820.0 / (n as f64 * longest as f64 * 0.62)).floor() as u32).clamp(14, TICK);
        let x = Axis::new(-0.5..n as f64 - 0.5, false);
        let mut chart = plot(&root, "", 12, (58, 96), x, y)?;
        mesh(&mut chart, &self.x_label, &self.y_label)
            .disable_x_mesh()
            .x_labels(n)
            .x_label_formatter(&|x| category(&self.categories, *x))
            .y_label_formatter(&|v| self.ticks.scale_label(*v, self.log_y))
            .x_label_style((FONT, x_font))
            .draw()
            .map_err(pe)?;
        let area = chart.plotting_area();
        let width = 0.8 / self.series.len().max(1) as f64;
        // The left and right edges of series j's bar in category i.
        let slot = |i: usize, j: usize| {
            let x = i as f64 - 0.4 + width * j as f64;
            (x + width * 0.06, x + width * 0.94)
        };
        for (j, (_, v)) in self.series.iter().enumerate() {
            let c = series_color(&self.series, j);
            for (i, y) in v.iter().enumerate() {
                if let Some(y) = y.filter(|&y| !self.log_y || y > 0.0) {
                    let (l, r) = slot(i, j);
                    area.draw(&Rectangle::new([(l, base), (r, y)], c.filled())).map_err(pe)?;
                }
            }
        }
        let small = TextStyle::from((FONT, TICK).into_font());
        for &(i, j, what) in marks {
            let (l, r) = slot(i, j);
            let mid = (l + r) / 2.0;
            if what == Empty::Zero {
                let style = small.pos(Pos::new(HPos::Center, VPos::Bottom));
                area.draw(&Text::new("0".to_string(), (mid, base), style)).map_err(pe)?;
                continue;
            }
            area.draw(&Rectangle::new([(l, base), (r, cell)], NOT_RUN.mix(0.35).filled())).map_err(pe)?;
            let d = (r - l) / 4.0;
            for t in 0..4 {
                let hatch = vec![(l + d * t as f64, base), (l + d * (t + 1) as f64, cell)];
                area.draw(&PathElement::new(hatch, NOT_RUN.stroke_width(2))).map_err(pe)?;
            }
            let style = small.transform(FontTransform::Rotate270).pos(Pos::new(HPos::Left, VPos::Center));
            area.draw(&Text::new("not run".to_string(), (mid, cell), style)).map_err(pe)?;
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
        let style = TextStyle::from((FONT, TICK).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
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
                    let fill = c.map_or(RGBColor(190, 190, 190), |live| if live { BLACK } else { WHITE });
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
        let (x, y) = (Axis::new(x0..x1, true), Axis::new(0.0..self.total as f64 * 1.05, false));
        let mut chart = plot(root, &self.title, 28, (58, 80), x, y)?;
        mesh(&mut chart, &self.x_label, &self.y_label)
            .x_label_formatter(&|v| Ticks::Millis.scale_label(*v, true))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .draw()
            .map_err(pe)?;
        for (i, (name, times)) in self.series.iter().enumerate() {
            let c = color(i);
            let mut t: Vec<f64> = times.iter().map(|&v| v.max(x0)).collect();
            t.sort_by(f64::total_cmp);
            let steps = t.iter().enumerate().flat_map(|(k, &v)| [(v, k as f64), (v, (k + 1) as f64)]);
            chart
                .draw_series(LineSeries::new(std::iter::once((x0, 0.0)).chain(steps), c.stroke_width(3)))
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
            .map_err(pe)
    }
}
// ANCHOR_END: cactus

#[cfg(test)]
mod tests {
    use super::*;

    /// Render `chart` as `dir/name`, check both files and that no temporary
    /// is left behind; returns the SVG.
    fn drawn(dir: &Path, name: &str, chart: &impl Chart) -> String {
        let base = dir.join(name);
        render(&base, chart).unwrap();
        assert!(is_svg(&base.with_extension("svg")) && is_png(&base.with_extension("png")), "{name}");
        let tmp = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp"));
        assert_eq!(tmp.count(), 0, "temporary files left behind");
        std::fs::read_to_string(base.with_extension("svg")).unwrap()
    }

    #[test]
    fn every_chart_draws() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let t = || String::from("t");
        let ys: Vec<f64> = (0..40).map(|i| 1.0 + (i * i % 17) as f64).collect();
        let half = |g: usize| ys.iter().skip(g).step_by(2).copied().collect::<Vec<f64>>();
        let groups = vec![("a".to_string(), half(0)), ("b".to_string(), half(1))];
        let cells = (0..4).map(|y| (0..5).map(|x| (x != y).then_some(ys[y * 5 + x])).collect()).collect();
        let svg = drawn(dir, "heat", &Heatmap { title: t(), cells });
        assert!(svg.contains("\n17\n") || svg.contains("\n2\n"), "labels are drawn");
        let refs = vec![("thesis: 5".to_string(), 5.0)];
        let density = Density { title: t(), x_label: t(), series: groups.clone(), x_max: 20.0, refs };
        drawn(dir, "density", &density);
        let series = vec![(t(), ys.iter().enumerate().map(|(x, &y)| (x as f64, y)).collect())];
        drawn(dir, "scatter", &Scatter { title: t(), x_label: t(), y_label: t(), series });
        drawn(dir, "violin", &Violin { title: t(), y_label: t(), groups, refs: density.refs });
        let glider = vec![
            vec![Some(false), Some(true), Some(false)],
            vec![Some(false), Some(false), Some(true)],
            vec![Some(true), Some(true), None],
        ];
        drawn(dir, "cells", &Cells { title: t(), panels: vec![("glider".into(), glider)], columns: 2 });
    }

    #[test]
    fn bars_with_legend_marks_and_human_ticks() {
        let dir = tempfile::tempdir().unwrap();
        for log_y in [false, true] {
            let bars = Bars {
                title: "b".into(),
                x_label: "x".into(),
                y_label: "time".into(),
                categories: vec!["p1".into(), "p2".into()],
                series: vec![
                    ("ours".into(), vec![Some(2.0), None]),
                    ("thesis".into(), vec![Some(30.0), Some(400.0)]),
                ],
                log_y,
                ticks: Ticks::Millis,
                legend: true,
            };
            let panels = vec![MarkedBars { bars, marks: vec![(1, 0, Empty::NotRun)] }];
            let svg = drawn(dir.path(), &format!("bars{log_y}"), &Stack { title: "s".into(), panels });
            assert!(svg.contains("thesis") && svg.contains("100 ms"), "legend and human ticks");
        }
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
