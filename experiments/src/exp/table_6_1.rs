//! Tables 6.1, 6.3 and 6.4 on the small-pattern set: solve times per solver,
//! peak memory, and the GRIDWALKER variants basic/single/no-repeat/track.

use super::gw::{decide, patterns, peak_heap};
use crate::harness::{Col, Ctx, Experiment, Fmt, Report, col};
use crate::plot::{Bars, Stack, Ticks, render};
use crate::table::yes;
use anyhow::{Result, bail};
use lifesearch::cnf::SolverKind;
use lifesearch::gridwalker::Variant;
use lifesearch::life::Rule;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

pub struct Table61;
pub struct Table63;
pub struct Table64;

/// One row of the thesis' Table 6.1 (`data/thesis/table-6-1.csv`), the columns used here.
#[derive(Debug, Deserialize)]
struct Thesis61 {
    pattern: usize,
    gridwalker_ms: f64,
    gw_vs_sat: f64,
}

/// One row of the thesis' Table 6.3 (`data/thesis/table-6-3.csv`), the column used here.
#[derive(Debug, Deserialize)]
struct Thesis63 {
    pattern: usize,
    gridwalker_kib: u32,
}

/// One row of the thesis' Table 6.4 (`data/thesis/table-6-4.csv`), the columns used here.
#[derive(Debug, Deserialize)]
struct Thesis64 {
    pattern: usize,
    basic_ms: f64,
    single_ms: f64,
    no_repeat_ms: f64,
    track_ms: f64,
}

impl Thesis64 {
    /// The thesis' time for `variant`; none for a variant it did not have.
    fn ms(&self, variant: Variant) -> Option<f64> {
        Some(match variant {
            Variant::Basic => self.basic_ms,
            Variant::Single => self.single_ms,
            Variant::NoRepeat => self.no_repeat_ms,
            Variant::Track => self.track_ms,
            _ => return None,
        })
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row61 {
    pub pattern: String,
    pub description: String,
    pub stand_in: bool,
    pub width: usize,
    pub height: usize,
    pub solver: String,
    pub orphan: bool,
    pub thesis_orphan: bool,
    pub runs: usize,
    pub best_ms: f64,
    /// Best SAT time over GRIDWALKER's (on GRIDWALKER rows, once SAT rows exist).
    pub gw_vs_best_sat: Option<f64>,
    /// The thesis' GRIDWALKER time and its gain over the best SAT solver on this pattern.
    pub thesis_gridwalker_ms: Option<f64>,
    pub thesis_gw_vs_sat: Option<f64>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row63 {
    pub pattern: String,
    pub stand_in: bool,
    pub solver: String,
    pub peak_bytes: u64,
    /// SAT rows: the same solver's child on an empty formula (the program itself).
    pub baseline_bytes: Option<u64>,
    pub method: String,
    /// The thesis' GRIDWALKER memory for the pattern of this number (Table 6.3).
    pub thesis_gridwalker_kib: Option<u32>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row64 {
    pub pattern: String,
    pub stand_in: bool,
    pub variant: String,
    pub orphan: bool,
    pub runs: usize,
    pub best_ms: f64,
    pub probes: Option<u64>,
    pub nodes: Option<u64>,
    pub sweeps: Option<u64>,
    pub confrontations: Option<u64>,
    /// This variant's time over basic's.
    pub basic_speedup: f64,
    /// The thesis' time for the pattern of this number and this variant (Table 6.4).
    pub thesis_ms: Option<f64>,
}

/// The distinct values in order of first appearance.
fn distinct(v: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for x in v {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// The thesis' row for our pattern `#n`, found by its `number`.
fn printed<'a, T>(thesis: &'a [T], id: &str, number: fn(&T) -> usize) -> Option<&'a T> {
    let n = id.trim_start_matches('#').parse::<usize>().ok()?;
    thesis.iter().find(|t| number(t) == n)
}

impl Experiment for Table61 {
    type Row = Row61;
    const ID: &'static str = "table-6-1";
    const TITLE: &'static str = "Table 6.1: small patterns, every solver, lowest of N runs";
    const FIGURE: bool = true;

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row61>, Report)> {
        let thesis: Vec<Thesis61> = crate::thesis::table(&ctx.thesis, "table-6-1.csv")?;
        let runs = ctx.mode.pick(1, 10, 10);
        let mut rows = Vec::new();
        let pats = patterns(ctx);
        let bar = ctx.bar(pats.len() as u64, "table-6-1");
        let kinds = super::sat::kinds();
        for p in &pats {
            let of = printed(&thesis, p.id, |t| t.pattern);
            let t = decide(&p.spec, Variant::Basic, runs)?;
            let row = |solver: &str, orphan: bool, ms: f64| Row61 {
                pattern: p.id.into(),
                description: p.description.into(),
                stand_in: p.stand_in,
                width: p.spec.width(),
                height: p.spec.height(),
                solver: solver.into(),
                orphan,
                thesis_orphan: p.thesis_orphan,
                runs,
                best_ms: ms,
                gw_vs_best_sat: None,
                thesis_gridwalker_ms: of.map(|t| t.gridwalker_ms),
                thesis_gw_vs_sat: of.map(|t| t.gw_vs_sat),
            };
            let gw_ms = t.micros / 1e3;
            let mut best_sat = f64::INFINITY;
            for &k in &kinds {
                let s = super::sat::decide(&p.spec, k, runs)?;
                if s.orphan != t.orphan() {
                    bail!("{}: {} and GRIDWALKER disagree", p.id, k.name());
                }
                best_sat = best_sat.min(s.millis);
                rows.push(row(k.name(), s.orphan, s.millis));
            }
            let mut gw = row("gridwalker", t.orphan(), gw_ms);
            gw.gw_vs_best_sat = best_sat.is_finite().then(|| best_sat / gw_ms);
            rows.push(gw);
            bar.inc(1);
        }
        bar.finish_and_clear();
        let report = Report {
            seeds: vec![61],
            solvers: std::iter::once("gridwalker basic (thesis-code convention)".to_string())
                .chain(kinds.iter().map(|&k| super::sat::version(k)))
                .collect(),
            notes: vec![format!(
                "lowest of {runs} runs; pattern construction and CNF encoding excluded; SAT: window encoding, \
                 free boundary, fresh solver per run"
            )],
            ..Default::default()
        };
        Ok((rows, report))
    }

    fn draw(&self, ctx: &Ctx, rows: &[Row61]) -> Result<()> {
        // One group per pattern: each solver we ran, then the thesis' GRIDWALKER
        // and its best SAT solver (GRIDWALKER's time times its gain).
        let patterns = distinct(rows.iter().map(|r| r.pattern.clone()));
        let solvers = distinct(rows.iter().map(|r| r.solver.clone()));
        // `f` of each pattern's row by `solver` (where None: its first row).
        let per_pattern = |solver: Option<&str>, f: &dyn Fn(&Row61) -> Option<f64>| -> Vec<Option<f64>> {
            let of =
                |p: &String| rows.iter().find(|r| &r.pattern == p && solver.is_none_or(|s| r.solver == s));
            patterns.iter().map(|p| of(p).and_then(f)).collect()
        };
        let mut series: Vec<(String, Vec<Option<f64>>)> = solvers
            .iter()
            .map(|s| (format!("ours: {s}"), per_pattern(Some(s), &|r| Some(r.best_ms))))
            .collect();
        series.push(("thesis: GridWalker".into(), per_pattern(None, &|r| r.thesis_gridwalker_ms)));
        let best_sat = |r: &Row61| Some(r.thesis_gridwalker_ms? * r.thesis_gw_vs_sat?);
        series.push(("thesis: best SAT".into(), per_pattern(None, &best_sat)));
        render(
            &ctx.figure("table-6-1"),
            &Bars {
                title: "Table 6.1: time to decide each small pattern".into(),
                x_label: "pattern (the thesis' numbering; stand-in: ours, the thesis' is lost)".into(),
                y_label: "solve time (log scale)".into(),
                categories: labelled(&patterns, |p| rows.iter().any(|r| &r.pattern == p && r.stand_in)),
                series,
                log_y: true,
                ticks: Ticks::Millis,
                legend: true,
            },
        )
    }

    /// One row per pattern: every solver's time a column, the thesis' beside ours.
    fn markdown(&self, rows: &[Row61]) -> Result<String> {
        let solvers = distinct(rows.iter().map(|r| r.solver.clone()));
        let mut wide = Vec::new();
        for p in distinct(rows.iter().map(|r| r.pattern.clone())) {
            let here: Vec<&Row61> = rows.iter().filter(|r| r.pattern == p).collect();
            let (f, gw) = (here[0], here.iter().find(|r| r.solver == "gridwalker"));
            let mut m = json!({
                "pattern": label(&p, f.stand_in),
                "description": f.description,
                "size": format!("{}x{}", f.width, f.height),
                "goe": format!("{} / {}", yes(f.orphan), yes(f.thesis_orphan)),
                "gain": gw.and_then(|g| g.gw_vs_best_sat),
                "thesis_gridwalker_ms": f.thesis_gridwalker_ms,
                "thesis_gw_vs_sat": f.thesis_gw_vs_sat,
            });
            for r in &here {
                m[r.solver.as_str()] = json!(r.best_ms);
            }
            wide.push(m);
        }
        let heads: Vec<String> = solvers.iter().map(|s| format!("{s} ms")).collect();
        let mut cols = vec![
            col("#", "pattern", Fmt::Text),
            col("Pattern", "description", Fmt::Text),
            col("Size", "size", Fmt::Text),
            col("GoE? ours / thesis", "goe", Fmt::Text),
        ];
        cols.extend(solvers.iter().zip(&heads).map(|(s, h)| col(h, s, Fmt::Fixed(2))));
        cols.extend([
            col("Gain", "gain", Fmt::Times(1)),
            col("Thesis GW ms", "thesis_gridwalker_ms", Fmt::Fixed(2)),
            col("Thesis' gain", "thesis_gw_vs_sat", Fmt::Times(1)),
        ]);
        crate::table::markdown(&cols, &wide)
    }
}

/// A child process that solves `cnf` with `kind`: this very binary, through
/// its hidden `__solve` command, so the measurement needs nothing else built.
fn child(cnf: &std::path::Path, kind: SolverKind) -> Result<lifesearch::cnf::child::ChildSolve> {
    use lifesearch::cnf::child::{command, solve_in_child};
    Ok(solve_in_child(command(&std::env::current_exe()?, &["__solve"], cnf, kind))?)
}

impl Experiment for Table63 {
    type Row = Row63;
    const ID: &'static str = "table-6-3";
    const TITLE: &'static str = "Table 6.3: peak memory per solver per pattern";

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row63>, Report)> {
        use lifesearch::search::{Boundary, Encoding, Problem, encode};
        let mut rows = Vec::new();
        let tmp = tempfile::tempdir()?;
        // The program's own footprint per solver: a child that solves the empty formula.
        let empty = tmp.path().join("empty.cnf");
        std::fs::write(&empty, "p cnf 0 0\n")?;
        let baselines: Vec<u64> = super::sat::kinds()
            .into_iter()
            .map(|k| Ok(child(&empty, k)?.max_rss_bytes))
            .collect::<Result<_>>()?;
        let thesis: Vec<Thesis63> = crate::thesis::table(&ctx.thesis, "table-6-3.csv")?;
        for p in patterns(ctx) {
            let thesis_gridwalker_kib = printed(&thesis, p.id, |t| t.pattern).map(|t| t.gridwalker_kib);
            let row = |solver: &str, peak_bytes, baseline_bytes, method: &str| Row63 {
                pattern: p.id.into(),
                stand_in: p.stand_in,
                solver: solver.into(),
                peak_bytes,
                baseline_bytes,
                method: method.into(),
                thesis_gridwalker_kib,
            };
            let (t, peak) = peak_heap(|| decide(&p.spec, Variant::Basic, 1));
            let t = t?;
            rows.push(row(
                "gridwalker",
                peak as u64,
                None,
                "heap growth during the call (counting allocator)",
            ));
            if let Some(own) = t.stat("peak_bytes") {
                let method = "grid and its clones at the deepest point (GRIDWALKER's own count)";
                rows.push(row("gridwalker", own, None, method));
            }
            let enc =
                encode(&Problem::orphan(p.spec.clone(), Boundary::Free), Encoding::Window, Rule::CONWAY)?;
            let cnf = tmp.path().join("orphan.cnf");
            std::fs::write(&cnf, lifesearch::cnf::dimacs::write(&enc.formula))?;
            for (k, &baseline) in super::sat::kinds().into_iter().zip(&baselines) {
                let peak = child(&cnf, k)?.max_rss_bytes;
                let method = "child process maximum resident set (whole process)";
                rows.push(row(k.name(), peak, Some(baseline), method));
            }
        }
        let report = Report {
            seeds: vec![61],
            solvers: std::iter::once("gridwalker basic".to_string())
                .chain(super::sat::kinds().into_iter().map(super::sat::version))
                .collect(),
            notes: vec!["SAT memory: max RSS of a child process (`experiments __solve`)".into()],
            ..Default::default()
        };
        Ok((rows, report))
    }

    /// Bytes as KiB, and the solver's share beside the thesis' GRIDWALKER.
    fn markdown(&self, rows: &[Row63]) -> Result<String> {
        let kib = |b: u64| b as f64 / 1024.0;
        let shown: Vec<Value> = rows
            .iter()
            .map(|r| {
                json!({
                    "pattern": r.pattern,
                    "stand_in": r.stand_in,
                    "solver": format!("{} ({})", r.solver, r.method),
                    "peak_kib": kib(r.peak_bytes),
                    "less_empty_kib": r.baseline_bytes.map(|b| kib(r.peak_bytes.saturating_sub(b))),
                    "thesis_kib": r.thesis_gridwalker_kib,
                })
            })
            .collect();
        const COLS: &[Col<'static>] = &[
            col("#", "pattern", Fmt::Text),
            col("Stand-in?", "stand_in", Fmt::Yes("stand-in", "thesis")),
            col("Solver", "solver", Fmt::Text),
            col("Peak KiB (ours)", "peak_kib", Fmt::Fixed(1)),
            col("less the empty formula", "less_empty_kib", Fmt::Fixed(1)),
            col("GridWalker KiB (thesis)", "thesis_kib", Fmt::Int),
        ];
        crate::table::markdown(COLS, &shown)
    }
}

const VARIANTS: [Variant; 4] = [Variant::Basic, Variant::Single, Variant::NoRepeat, Variant::Track];

/// A pattern's label: a stand-in for a lost thesis pattern says so, so that
/// it is never read as the thesis' pattern.
fn label(pattern: &str, stand_in: bool) -> String {
    if stand_in { format!("{pattern} (stand-in)") } else { pattern.to_string() }
}

/// Axis labels for patterns, each a stand-in where any of its rows is.
fn labelled(patterns: &[String], stand_in: impl Fn(&String) -> bool) -> Vec<String> {
    patterns.iter().map(|p| label(p, stand_in(p))).collect()
}

impl Experiment for Table64 {
    type Row = Row64;
    const ID: &'static str = "table-6-4";
    const TITLE: &'static str = "Table 6.4: GRIDWALKER variants basic, single, no-repeat, track";
    const FIGURE: bool = true;

    fn rows(&self, m: crate::harness::Mode) -> Option<usize> {
        Some(4 * m.pick(2, 8, 8))
    }

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row64>, Report)> {
        let runs = ctx.mode.pick(1, 10, 10);
        let mut rows = Vec::new();
        let pats = patterns(ctx);
        let thesis: Vec<Thesis64> = crate::thesis::table(&ctx.thesis, "table-6-4.csv")?;
        let bar = ctx.bar((pats.len() * VARIANTS.len()) as u64, "table-6-4");
        for p in &pats {
            let printed = printed(&thesis, p.id, |t| t.pattern);
            let mut basic_ms = None;
            for v in VARIANTS {
                let t = decide(&p.spec, v, runs)?;
                let ms = t.micros / 1e3;
                let base = *basic_ms.get_or_insert(ms);
                rows.push(Row64 {
                    pattern: p.id.into(),
                    stand_in: p.stand_in,
                    variant: v.name().into(),
                    orphan: t.orphan(),
                    runs,
                    best_ms: ms,
                    probes: t.stat("probes"),
                    nodes: t.stat("nodes"),
                    sweeps: t.stat("sweeps"),
                    confrontations: t.stat("confrontations"),
                    basic_speedup: ms / base,
                    thesis_ms: printed.and_then(|t| t.ms(v)),
                });
                bar.inc(1);
            }
        }
        bar.finish_and_clear();
        let report = Report {
            seeds: vec![61],
            solvers: VARIANTS.iter().map(|v| format!("gridwalker {}", v.name())).collect(),
            notes: vec![format!("lowest of {runs} runs")],
            ..Default::default()
        };
        Ok((rows, report))
    }

    fn draw(&self, ctx: &Ctx, rows: &[Row64]) -> Result<()> {
        // Two panels, ours above and the thesis' below, one bar per variant.
        let patterns = distinct(rows.iter().map(|r| r.pattern.clone()));
        let by_variant = |f: fn(&Row64) -> Option<f64>| -> Vec<(String, Vec<Option<f64>>)> {
            VARIANTS
                .map(|v| {
                    let of = |p: &String| rows.iter().find(|r| &r.pattern == p && r.variant == v.name());
                    (v.name().to_string(), patterns.iter().map(|p| of(p).and_then(f)).collect())
                })
                .into()
        };
        let (ours, theirs) = (by_variant(|r| Some(r.best_ms)), by_variant(|r| r.thesis_ms));
        // Ours are labelled stand-in where the thesis' pattern is lost; the
        // thesis' own bars are of its own patterns.
        let stand_ins = labelled(&patterns, |p| rows.iter().any(|r| &r.pattern == p && r.stand_in));
        let panel = |series, categories: &Vec<String>, x_label: &str, legend| Bars {
            title: String::new(),
            x_label: x_label.into(),
            y_label: "solve time (log scale)".into(),
            categories: categories.clone(),
            series,
            log_y: true,
            ticks: Ticks::Millis,
            legend,
        };
        render(
            &ctx.figure(Self::ID),
            &Stack {
                title: "Table 6.4: GRIDWALKER variants, ours and the thesis'".into(),
                panels: vec![
                    panel(
                        ours,
                        &stand_ins,
                        "pattern: ours (this machine; stand-in: the thesis' is lost)",
                        true,
                    ),
                    panel(theirs, &patterns, "pattern: the thesis' Table 6.4 (its own patterns)", false),
                ],
            },
        )
    }

    /// Every row, the thesis' time for the same pattern and variant beside ours.
    fn markdown(&self, rows: &[Row64]) -> Result<String> {
        let shown = rows
            .iter()
            .map(|r| {
                let mut v = serde_json::to_value(r)?;
                v["pattern"] = json!(label(&r.pattern, r.stand_in));
                Ok(v)
            })
            .collect::<Result<Vec<Value>>>()?;
        const COLS: &[Col<'static>] = &[
            col("#", "pattern", Fmt::Text),
            col("Variant", "variant", Fmt::Text),
            col("ms (ours)", "best_ms", Fmt::Fixed(3)),
            col("vs basic (ours)", "basic_speedup", Fmt::Times(2)),
            col("Probes", "probes", Fmt::Int),
            col("Nodes", "nodes", Fmt::Int),
            col("Sweeps", "sweeps", Fmt::Int),
            col("ms (thesis)", "thesis_ms", Fmt::Fixed(2)),
        ];
        crate::table::markdown(COLS, &shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{Mode, write_csv};

    #[test]
    fn tables_render_from_small_csvs() {
        let dir = tempfile::tempdir().unwrap();
        let c = Ctx::new(dir.path().into(), Mode::Tiny, dir.path().join("c"), false);
        let r61 = vec![Row61 {
            pattern: "#1".into(),
            description: "d".into(),
            width: 10,
            height: 10,
            solver: "gridwalker".into(),
            orphan: true,
            thesis_orphan: true,
            best_ms: 2.5,
            thesis_gridwalker_ms: Some(8.09),
            thesis_gw_vs_sat: Some(15.7),
            ..Row61::default()
        }];
        let md = Experiment::markdown(&Table61, &r61).unwrap();
        assert!(md.contains("| #1 | d | 10x10 | yes / yes | 2.50 | - | 8.09 | 15.7x |"), "{md}");
        let r64: Vec<Row64> = ["basic", "track"]
            .iter()
            .map(|v| Row64 {
                pattern: "#3".into(),
                variant: v.to_string(),
                best_ms: 1.0,
                probes: Some(91),
                basic_speedup: 1.0,
                thesis_ms: if *v == "track" { Some(2.81) } else { Some(2.67) },
                ..Row64::default()
            })
            .collect();
        write_csv(&c.csv("table-6-4"), &r64).unwrap();
        crate::harness::Run::render(&Table64, &c).unwrap();
        let md = std::fs::read_to_string(c.generated("table-6-4")).unwrap();
        assert!(md.contains("| #3 | track | 1.000 | 1.00x | 91 | - | - | 2.81 |"), "{md}");
        assert!(crate::plot::is_png(&c.figure("table-6-4").with_extension("png")));
    }
}
