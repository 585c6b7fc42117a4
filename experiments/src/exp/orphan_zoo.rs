//! Beyond the thesis: every engine on every pattern of the orphan zoo
//! (`data/zoo`), each solve in its own child process with a time cap, so a
//! runaway search neither stops the run nor inflates another's memory.
//! Every verdict is compared with the zoo's, established when the zoo was
//! made: a disagreement fails the experiment.

use super::gw::median;
use crate::harness::{Col, Ctx, Experiment, Fmt, Mode, Report, col};
use crate::plot::{Cactus, Cells, render};
use crate::zoo;
use anyhow::{Context, Result, bail};
use lifesearch::automaton::table::MAX_SIDE;
use lifesearch::engine::{EngineOptions, OrphanQuery};
use lifesearch::gridwalker::{Options, Variant};
use lifesearch::life::{Cell, SpecGrid};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

pub struct OrphanZoo;
const ID: &str = "orphan-zoo";

// ANCHOR: zoo_solvers
/// The engines raced on the zoo: CaDiCaL (time includes building the
/// clauses), GRIDWALKER's default (robust) variant and the thesis' basic one,
/// the column automaton (where one side is at most six cells; elsewhere the
/// row says `n/a`), the `auto` portfolio, and the space-time search engine
/// asked for a parent. Full mode adds BatSat.
pub fn solvers(m: Mode) -> Vec<&'static str> {
    let mut s = vec!["cadical", "gridwalker", "gridwalker-basic", "automaton", "auto", "spacetime"];
    if m == Mode::Full {
        s.insert(1, "batsat");
    }
    s
}

/// The time cap of one solve. The space-time engine gets at most a second:
/// it proves no orphan of the zoo within a minute (three-valued cells keep no
/// record of the parents' rows already refuted, which GRIDWALKER's slices
/// are), so a longer cap would only add its timeouts to the run.
fn cap(m: Mode, solver: &str) -> Duration {
    let cap = Duration::from_secs(m.pick(2, 10, 60));
    if solver == "spacetime" { cap.min(Duration::from_secs(1)) } else { cap }
}
// ANCHOR_END: zoo_solvers

const KINDS: [&str; 7] = ["literature", "transformed", "embedded", "flip", "soup", "random", "unknown"];

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub pattern: String,
    pub kind: String,
    pub width: usize,
    pub height: usize,
    pub solver: String,
    pub expected: String,
    /// orphan, predecessor, timeout, or n/a (the automaton on a wide pattern).
    pub verdict: String,
    /// The lowest of the timed runs (one run above 100 ms), in the child.
    pub ms: Option<f64>,
    pub work: Option<u64>,
    /// What `work` counts: nodes (GRIDWALKER), conflicts (SAT), states (automaton).
    pub work_unit: String,
    /// The child process' peak resident memory, whole process.
    pub peak_memory_bytes: Option<u64>,
    /// The engine that answered (for auto: the race's winner).
    pub engine: String,
    /// The time cap of this run.
    pub cap_s: f64,
}

/// What a child reports for one solve.
#[derive(Debug, Serialize, Deserialize)]
pub struct ChildReport {
    pub orphan: bool,
    pub ms: f64,
    pub work: u64,
    pub work_unit: String,
    pub engine: String,
    pub peak_memory_bytes: u64,
}

// ANCHOR: zoo_child
/// The child's side: decide `file` with `solver`, repeating while the runs
/// are short (at most 5 runs or 300 ms in all), and report the lowest time.
pub fn child(file: &Path, solver: &str) -> Result<ChildReport> {
    let t = lifesearch::formats::target::read_target(file)?;
    let mut best: Option<ChildReport> = None;
    let start = Instant::now();
    for _ in 0..5 {
        let r = decide_once(&t, solver)?;
        if best.as_ref().is_some_and(|b| b.orphan != r.orphan) {
            bail!("{solver} changed its verdict between runs");
        }
        if best.as_ref().is_none_or(|b| r.ms < b.ms) {
            best = Some(r);
        }
        if start.elapsed() > Duration::from_millis(300) {
            break;
        }
    }
    let mut best = best.expect("one run at least");
    best.peak_memory_bytes = lifesearch::cnf::child::own_peak_rss();
    Ok(best)
}

fn decide_once(t: &SpecGrid, solver: &str) -> Result<ChildReport> {
    let start = Instant::now();
    // Every engine through the library's one interface (`lifesearch::engine`).
    let (name, variant) = match solver {
        "gridwalker-basic" => ("gridwalker", Variant::Basic),
        s => (s, Variant::default()),
    };
    let options =
        EngineOptions { gridwalker: Options { variant, ..Options::default() }, ..EngineOptions::default() };
    let v = lifesearch::engine::build(name, &options)?.decide(&OrphanQuery::new(t.clone()))?;
    let (orphan, engine, stats) = (v.is_orphan(), v.engine, v.counters.pairs());
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let (work, unit) = work(engine, &stats);
    Ok(ChildReport { orphan, ms, work, work_unit: unit.into(), engine: engine.into(), peak_memory_bytes: 0 })
}

/// The engine's work counter: GRIDWALKER's nodes, a SAT solver's conflicts
/// (CaDiCaL reports the clauses it learnt, one per conflict), the
/// automaton's states expanded.
fn work(engine: &str, stats: &[(&'static str, u64)]) -> (u64, &'static str) {
    let (keys, unit): (&[&str], _) = match engine {
        "gridwalker" => (&["nodes"], "nodes"),
        "automaton" => (&["states_expanded"], "states"),
        _ => (&["conflicts", "learnt"], "conflicts"),
    };
    let n = keys.iter().find_map(|k| stats.iter().find(|s| s.0 == *k)).map_or(0, |s| s.1);
    (n, unit)
}
// ANCHOR_END: zoo_child

// ANCHOR: zoo_parent
/// The parent's side: run the child, kill it at the cap (then `None`).
fn run_child(file: &Path, solver: &str, cap: Duration) -> Result<Option<ChildReport>> {
    let mut cmd = Command::new(std::env::current_exe()?);
    cmd.args(["__orphan", "--solver", solver]).arg(file);
    let Some(out) = crate::harness::output_within(cmd, cap)? else { return Ok(None) };
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        bail!("{solver} on {}: {}", file.display(), stderr.lines().last().unwrap_or("failed"));
    }
    Ok(Some(
        serde_json::from_str(stdout.trim())
            .with_context(|| format!("{solver}: unexpected report '{stdout}'"))?,
    ))
}
// ANCHOR_END: zoo_parent

// ANCHOR: zoo_ratios
/// Per pattern, `a`'s time over `b`'s (a timeout counts as the cap), for the
/// patterns both were run on.
pub fn ratios(rows: &[Row], a: &str, b: &str, cap_ms: f64) -> Vec<(String, String, f64)> {
    let time = |s: &str, p: &str| {
        rows.iter().find(|r| r.solver == s && r.pattern == p).and_then(|r| match r.verdict.as_str() {
            "timeout" => Some(cap_ms),
            "n/a" => None,
            _ => r.ms,
        })
    };
    rows.iter()
        .filter(|r| r.solver == a)
        .filter_map(|r| {
            Some((r.pattern.clone(), r.kind.clone(), time(a, &r.pattern)? / time(b, &r.pattern)?))
        })
        .collect()
}
// ANCHOR_END: zoo_ratios

/// A few of the zoo's literature orphans as cell diagrams, read from the
/// committed `data/zoo` (nothing drawn where there is no zoo), written as
/// `book/src/figures/orphan-zoo-patterns.{svg,png}`.
fn patterns_figure(ctx: &Ctx) -> Result<()> {
    const SHOWN: [(&str, &str); 6] = [
        ("lit-goe1-banks-1971", "Banks 1971"),
        ("lit-goe2-flammenkamp-1991", "Flammenkamp 1991"),
        ("lit-goe-flammenkamp-beluchenko-2006-12x12", "Beluchenko 2006"),
        ("lit-goe6-heule-2011-10x10", "Heule et al. 2011"),
        ("lit-goe10-eker-2016-11x9", "Eker 2016"),
        ("lit-goe-45cells-11x11", "45 cells"),
    ];
    let dir = ctx.root.join("data/zoo");
    if !dir.join("zoo.csv").exists() {
        return Ok(());
    }
    let zoo = zoo::read(&dir)?;
    let panels: Vec<(String, Vec<Vec<Option<bool>>>)> = SHOWN
        .iter()
        .filter_map(|(name, label)| {
            let (e, t) = zoo.iter().find(|(e, _)| e.name == *name)?;
            let known = |c: &Cell| (*c != Cell::Unknown).then_some(*c == Cell::Alive);
            let rows =
                t.cells().chunks(t.width().max(1)).map(|row| row.iter().map(known).collect()).collect();
            Some((format!("{label}, {}x{}", e.width, e.height), rows))
        })
        .collect();
    if panels.is_empty() {
        return Ok(());
    }
    // Staged beside the main figure and published with it.
    render(
        &ctx.figure(&format!("{ID}-patterns")),
        &Cells { title: "Orphans from the literature (black: alive)".into(), panels, columns: 3 },
    )
}

impl Experiment for OrphanZoo {
    type Row = Row;
    const ID: &'static str = ID;
    const TITLE: &'static str = "Beyond the thesis: every engine on the orphan zoo";
    const FIGURE: bool = true;

    fn rows(&self, m: Mode) -> Option<usize> {
        // All of the zoo's patterns, or in tiny mode one of each kind.
        let total = zoo::entries(&zoo::default_dir()).map_or(0, |z| z.len());
        let patterns = if m == Mode::Tiny { total.min(KINDS.len()) } else { total };
        Some(patterns * solvers(m).len())
    }

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row>, Report)> {
        let dir = zoo::default_dir();
        let mut entries = zoo::read(&dir)?;
        if ctx.mode == Mode::Tiny {
            // One pattern of each kind, the first in the zoo's order.
            let mut seen = std::collections::HashSet::new();
            entries.retain(|(e, _)| seen.insert(e.kind.clone()));
        }
        let solvers = solvers(ctx.mode);
        let bar = ctx.bar((entries.len() * solvers.len()) as u64, ID);
        let mut rows = Vec::new();
        for (e, t) in &entries {
            for &s in &solvers {
                bar.inc(1);
                let cap = cap(ctx.mode, s);
                let mut row = Row {
                    pattern: e.name.clone(),
                    kind: e.kind.clone(),
                    width: e.width,
                    height: e.height,
                    solver: s.into(),
                    expected: e.verdict.clone(),
                    verdict: "n/a".into(),
                    cap_s: cap.as_secs_f64(),
                    ..Row::default()
                };
                if s != "automaton" || t.width().min(t.height()) <= MAX_SIDE {
                    row = match run_child(&dir.join(&e.file), s, cap)? {
                        None => Row { verdict: "timeout".into(), ..row },
                        Some(r) => Row {
                            verdict: if r.orphan { "orphan" } else { "predecessor" }.into(),
                            ms: Some(r.ms),
                            work: Some(r.work),
                            work_unit: r.work_unit,
                            peak_memory_bytes: Some(r.peak_memory_bytes),
                            engine: r.engine,
                            ..row
                        },
                    };
                    // A verdict (not a timeout) must be the zoo's.
                    if row.ms.is_some() && row.verdict != e.verdict {
                        bail!("{s} says {} is {}, the zoo says {}", e.name, row.verdict, e.verdict);
                    }
                }
                rows.push(row);
            }
        }
        bar.finish_and_clear();
        let report = Report {
            seeds: vec![zoo::SEED],
            solvers: solvers.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        };
        Ok((rows, report))
    }

    fn draw(&self, ctx: &Ctx, rows: &[Row]) -> Result<()> {
        // Every pattern has a row per solver, in the same order.
        let solvers: Vec<&str> =
            rows.iter().take_while(|r| r.pattern == rows[0].pattern).map(|r| r.solver.as_str()).collect();
        let patterns = rows.iter().filter(|r| r.solver == solvers[0]).count();
        let cap_ms = rows.first().map_or(0.0, |r| r.cap_s * 1e3);
        render(
            &ctx.figure(ID),
            &Cactus {
                title: format!("The orphan zoo: {patterns} patterns, every engine ({} s cap)", cap_ms / 1e3),
                x_label: "time per pattern (log scale)".into(),
                y_label: "patterns settled within that time".into(),
                series: solvers
                    .iter()
                    .map(|&s| {
                        let of = || rows.iter().filter(move |r| r.solver == s);
                        // A solver with a shorter cap says so in the legend.
                        let own = of().map(|r| r.cap_s * 1e3).fold(cap_ms, f64::min);
                        let label =
                            if own < cap_ms { format!("{s} ({} s cap)", own / 1e3) } else { s.to_string() };
                        (label, of().filter_map(|r| r.ms).collect())
                    })
                    .collect(),
                total: patterns,
            },
        )?;
        patterns_figure(ctx)
    }

    /// Per kind, each engine's median time and the worst and median ratios
    /// that the targets name; then the medians over all and the timeouts.
    fn markdown(&self, rows: &[Row]) -> Result<String> {
        let cap_ms = rows.first().map_or(0.0, |r| r.cap_s * 1e3);
        let gw_cad = ratios(rows, "gridwalker", "cadical", cap_ms);
        // auto against the faster of the two: the larger of its two ratios.
        let auto_gw = ratios(rows, "auto", "gridwalker", cap_ms);
        let best: Vec<(String, String, f64)> = ratios(rows, "auto", "cadical", cap_ms)
            .into_iter()
            .filter_map(|(p, k, a_c)| auto_gw.iter().find(|q| q.0 == p).map(|q| (p, k, a_c.max(q.2))))
            .collect();
        let mut by_kind = Vec::new();
        for kind in KINDS.into_iter().chain(["all"]) {
            let of = |r: &Row| kind == "all" || r.kind == kind;
            let n = rows.iter().filter(|r| r.solver == "cadical" && of(r)).count();
            if n == 0 {
                continue;
            }
            let med = |s: &str| {
                let v: Vec<f64> =
                    rows.iter().filter(|r| r.solver == s && of(r)).filter_map(|r| r.ms).collect();
                (!v.is_empty()).then(|| median(v))
            };
            let worst = |v: &[(String, String, f64)]| {
                v.iter()
                    .filter(|x| kind == "all" || x.1 == kind)
                    .max_by(|a, b| a.2.total_cmp(&b.2))
                    .map(|x| format!("{:.3} ({})", x.2, x.0))
            };
            by_kind.push(json!({
                "kind": kind, "patterns": n, "cadical": med("cadical"), "gridwalker": med("gridwalker"),
                "basic": med("gridwalker-basic"), "auto": med("auto"), "spacetime": med("spacetime"),
                "worst_gw": worst(&gw_cad), "worst_auto": worst(&best),
            }));
        }
        let ratio_median = |v: &[(String, String, f64)]| median(v.iter().map(|x| x.2).collect());
        let overall = json!({
            "gw": ratio_median(&gw_cad), "auto": ratio_median(&best), "timeouts": timeouts(rows),
        });
        let cols = [
            col("kind", "kind", Fmt::Text),
            col("patterns", "patterns", Fmt::Int),
            col("median ms: cadical", "cadical", Fmt::Fixed(2)),
            col("gridwalker", "gridwalker", Fmt::Fixed(2)),
            col("gridwalker-basic", "basic", Fmt::Fixed(2)),
            col("auto", "auto", Fmt::Fixed(2)),
            col("spacetime (settled)", "spacetime", Fmt::Fixed(2)),
            col("worst gridwalker / cadical", "worst_gw", Fmt::Text),
            col("worst auto / best of the two", "worst_auto", Fmt::Text),
        ];
        let totals: [Col<'_>; 3] = [
            col("Median ratio gridwalker / cadical", "gw", Fmt::Fixed(4)),
            col("Median ratio auto / the faster of the two", "auto", Fmt::Fixed(3)),
            col("Timeouts", "timeouts", Fmt::Text),
        ];
        Ok(format!(
            "{}\n{}",
            crate::table::markdown(&cols, &by_kind)?,
            crate::table::markdown(&totals, &[overall])?
        ))
    }
}

/// Timeouts per solver, in order of each solver's first.
fn timeouts(rows: &[Row]) -> String {
    let by = crate::plot::group(
        &[],
        rows.iter().filter(|r| r.verdict == "timeout").map(|r| (r.solver.as_str(), ())),
    );
    let by: Vec<String> = by.iter().map(|(s, n)| format!("{s} {}", n.len())).collect();
    if by.is_empty() { "none".into() } else { by.join(", ") }
}
