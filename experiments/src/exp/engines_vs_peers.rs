//! Engines against their peers: the workloads of issue 25 (soups on a
//! torus and on the plane, short and long runs, the Gosper gun to 2^16,
//! 2^20 and 2^40 generations) on lifesearch's engines, Adam Goucher's
//! lifelib (PyPI `python-lifelib`, driven by `experiments/peers/lifelib_run.py`)
//! and Golly's `bgolly` (Debian package `golly`, QuickLife and HashLife).
//!
//! The peers are optional: where one is missing its rows say "not
//! installed" (install with `pip install python-lifelib` and
//! `apt-get install golly`). Every engine's final cell set is compared with
//! lifesearch's (population, bounding box and, up to a few million cells, a
//! hash of the cells relative to their bounding box): the `agrees` column.
//! Times are the lowest of several runs of the evolution alone (no
//! reading or writing), each run from a fresh engine.

use super::Experiment;
use crate::harness::{Ctx, Report, read_csv, sci, write_csv, write_text};
use crate::plot::{Bars, Ticks, render};
use anyhow::{Context, Result, bail};
use lifesearch::error::Location;
use lifesearch::formats::{self, Format, Pattern, Warnings, macrocell};
use lifesearch::life::evolver::{self, Evolved, Job, Start};
use lifesearch::life::hashlife::HashLife;
use lifesearch::life::{Grid, Rule};
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;

pub const ID: &str = "engines-vs-peers";
const SEED: u64 = 25;
/// Above this population no cell list is made (population and box only).
const HASH_LIMIT: u64 = 5_000_000;

pub const EXPERIMENT: Experiment = Experiment {
    id: ID,
    title: "Engines vs peers: lifesearch, lifelib and Golly on the same workloads",
    columns: &[
        "workload",
        "topology",
        "width",
        "height",
        "generations",
        "implementation",
        "engine",
        "version",
        "status",
        "runs",
        "best_seconds",
        "population",
        "box_width",
        "box_height",
        "cells_hash",
        "agrees",
    ],
    figure: true,
    rows: super::any_rows,
    run,
    render: draw,
};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    pub workload: String,
    pub topology: String,
    pub width: usize,
    pub height: usize,
    pub generations: u64,
    pub implementation: String,
    pub engine: String,
    pub version: String,
    /// `ok`, `not installed`, or why it was not measured.
    pub status: String,
    pub runs: usize,
    pub best_seconds: Option<f64>,
    pub population: Option<u64>,
    pub box_width: Option<u128>,
    pub box_height: Option<u128>,
    pub cells_hash: String,
    /// `yes` when the final cells equal lifesearch's first engine's, `no` when not, empty when unmeasured.
    pub agrees: String,
}

/// Best time, final state and how many runs were made (or why none).
type Measured = Result<(f64, Outcome, usize)>;

/// A peer run longer than this is not repeated.
const REPEAT_BELOW_SECONDS: f64 = 10.0;

/// Runs of a few milliseconds are repeated until they add up to a second
/// (at most this many): the lowest of three such runs moved by a fifth
/// between reruns on this shared machine, enough to flip a row's verdict.
const MAX_RUNS: usize = 50;

/// How long a timing loop goes on.
#[derive(Debug, Clone, Copy)]
struct Runs {
    /// At least this many runs (fewer only past [`REPEAT_BELOW_SECONDS`]).
    least: usize,
    /// Then more, while they add up to less than this many seconds.
    total: f64,
}

impl Runs {
    /// Has a loop that made `done` runs, the fastest `best` seconds and all
    /// together `total`, run enough?
    fn enough(self, done: usize, best: f64, total: f64) -> bool {
        if done < self.least.max(1) {
            return done > 0 && best > REPEAT_BELOW_SECONDS;
        }
        total >= self.total || done >= MAX_RUNS
    }

    /// Repeat `run` (which returns the seconds it measured) until
    /// [`enough`](Self::enough): the fastest time and the number of runs.
    fn time(self, mut run: impl FnMut() -> Result<f64>) -> Result<(f64, usize)> {
        let (mut best, mut total, mut done) = (f64::MAX, 0.0, 0);
        while !self.enough(done, best, total) {
            let secs = run()?;
            (best, total, done) = (best.min(secs), total + secs, done + 1);
        }
        Ok((best, done))
    }
}

/// A peer process running longer than this is stopped and its row says so.
const PEER_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

/// Run a command to its end, or kill it past `limit` (an error saying so).
fn output_within(cmd: Command, limit: std::time::Duration) -> Result<std::process::Output> {
    crate::harness::output_within(cmd, limit)?
        .with_context(|| format!("not finished within {} s (stopped)", limit.as_secs()))
}

/// What an engine ended on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Outcome {
    population: u64,
    box_size: Option<(u128, u128)>,
    hash: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    TorusSoup,
    PlaneSoup,
    Gun,
}

struct Workload {
    name: String,
    kind: Kind,
    side: usize,
    generations: u64,
}

fn workloads(ctx: &Ctx) -> Vec<Workload> {
    let m = ctx.mode;
    let big = m.pick(64, 1024, 1024);
    let w = |name: &str, kind, side, generations| Workload { name: name.into(), kind, side, generations };
    vec![
        w("torus-soup-short", Kind::TorusSoup, big, m.pick(20, 2_000, 2_000)),
        w("torus-soup-long", Kind::TorusSoup, big, m.pick(200, 20_000, 20_000)),
        w("plane-soup-short", Kind::PlaneSoup, big, m.pick(20, 1_000, 1_000)),
        w("plane-soup-long", Kind::PlaneSoup, big, m.pick(100, 5_000, 5_000)),
        w("small-soup-long", Kind::PlaneSoup, 64, m.pick(500, 10_000, 10_000)),
        w("gun-2^16", Kind::Gun, 36, m.pick(1 << 10, 1 << 16, 1 << 16)),
        w("gun-2^20", Kind::Gun, 36, m.pick(1 << 12, 1 << 20, 1 << 20)),
        w("gun-2^40", Kind::Gun, 36, m.pick(1 << 14, 1 << 40, 1 << 40)),
    ]
}

/// The Gosper glider gun.
fn gun() -> Grid {
    Grid::from_rows(&[
        "........................*...........",
        "......................*.*...........",
        "............**......**............**",
        "...........*...*....**............**",
        "**........*.....*...**..............",
        "**........*...*.**....*.*...........",
        "..........*.....*.......*...........",
        "...........*...*....................",
        "............**......................",
    ])
    .expect("valid rows")
}

fn start(w: &Workload) -> Grid {
    match w.kind {
        Kind::Gun => gun(),
        _ => Grid::random(w.side, w.side, 0.5, &mut rand_pcg::Pcg64::seed_from_u64(SEED ^ w.side as u64)),
    }
}

/// FNV-1a over the cells, sorted, relative to their bounding box.
fn hash_cells(mut cells: Vec<(i128, i128)>) -> Option<u64> {
    let x0 = cells.iter().map(|c| c.0).min()?;
    let y0 = cells.iter().map(|c| c.1).min()?;
    cells.sort_unstable_by_key(|&(x, y)| (y, x));
    let mut h: u64 = 0xcbf29ce484222325;
    for (x, y) in cells {
        for b in ((x - x0) as i64).to_le_bytes().into_iter().chain(((y - y0) as i64).to_le_bytes()) {
            h = (h ^ b as u64).wrapping_mul(0x100000001b3);
        }
    }
    Some(h)
}

fn outcome_of_cells(cells: Vec<(i128, i128)>) -> Outcome {
    let population = cells.len() as u64;
    let box_size = if cells.is_empty() {
        None
    } else {
        let (x0, x1) = (cells.iter().map(|c| c.0).min().unwrap(), cells.iter().map(|c| c.0).max().unwrap());
        let (y0, y1) = (cells.iter().map(|c| c.1).min().unwrap(), cells.iter().map(|c| c.1).max().unwrap());
        Some(((x1 - x0 + 1) as u128, (y1 - y0 + 1) as u128))
    };
    Outcome { population, box_size, hash: hash_cells(cells) }
}

fn outcome_of_grid(g: &Grid) -> Outcome {
    outcome_of_cells(g.live_cells().map(|(x, y)| (x as i128, y as i128)).collect())
}

fn outcome_of_tree(t: &HashLife) -> Outcome {
    let population = t.population();
    let box_size = t.bounding_box().map(|b| (b.2, b.3));
    let hash = if population <= HASH_LIMIT {
        let mut cells = Vec::with_capacity(population as usize);
        t.for_each_cell(|x, y| cells.push((x, y)));
        hash_cells(cells)
    } else {
        None
    };
    Outcome { population, box_size, hash }
}

/// One row, filled from an outcome (or a status when there is none).
fn row(w: &Workload, imp: &str, engine: &str, version: &str, r: Measured) -> (Row, Option<Outcome>) {
    let base = Row {
        workload: w.name.clone(),
        topology: if w.kind == Kind::TorusSoup { "torus" } else { "plane" }.into(),
        width: w.side,
        height: if w.kind == Kind::Gun { 9 } else { w.side },
        generations: w.generations,
        implementation: imp.into(),
        engine: engine.into(),
        version: version.into(),
        status: "ok".into(),
        runs: 0,
        best_seconds: None,
        population: None,
        box_width: None,
        box_height: None,
        cells_hash: String::new(),
        agrees: String::new(),
    };
    match r {
        Ok((secs, o, runs)) => (
            Row {
                runs,
                best_seconds: Some(secs),
                population: Some(o.population),
                box_width: o.box_size.map(|b| b.0),
                box_height: o.box_size.map(|b| b.1),
                cells_hash: o.hash.map(|h| format!("{h:016x}")).unwrap_or_default(),
                ..base
            },
            Some(o),
        ),
        Err(e) => (Row { status: format!("{e:#}").replace(['\n', ','], " "), ..base }, None),
    }
}

// ---- lifesearch ----

/// One of our engines, through the registry (`lifecube-plane` is LIFECUBE's
/// block plane, named apart from its torus sweep in the table). Each run
/// starts from a fresh copy of the start, made outside the timing.
fn ours(w: &Workload, g: &Grid, label: &str, runs: Runs) -> Measured {
    let torus = w.kind == Kind::TorusSoup;
    let engine = evolver::by_name(if label == "lifecube-plane" { "lifecube" } else { label })?;
    let mut last = None;
    let (best, done) = runs.time(|| {
        let job = Job {
            start: Start::Cells { grid: g.clone(), origin: (0, 0) },
            rule: Rule::CONWAY,
            torus,
            generations: w.generations,
            memory_cap: 4 << 30,
        };
        let t = std::time::Instant::now();
        let run = std::hint::black_box(engine.evolve(job)?);
        let secs = t.elapsed().as_secs_f64();
        last = Some(run);
        Ok(secs)
    })?;
    let outcome = match last.expect("one run").evolved {
        Evolved::Cells { grid, .. } => outcome_of_grid(&grid),
        Evolved::Tree(t) => outcome_of_tree(&t),
    };
    Ok((best, outcome, done))
}

// ---- Golly ----

fn bgolly_version() -> Option<String> {
    let out = Command::new("bgolly").arg("--help").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    let line = text.lines().find(|l| l.contains("bgolly"))?;
    Some(line.split_whitespace().nth(3).unwrap_or("unknown").to_string())
}

/// The RLE of a start pattern for a peer, placed with its top-left cell at
/// (-w/2, -h/2) (so that a Golly torus of the same size holds it whole).
fn rle_for(g: &Grid, torus: bool) -> Result<String> {
    let origin = if torus { (-(g.width() as i64) / 2, -(g.height() as i64) / 2) } else { (0, 0) };
    let p = Pattern { grid: g.clone(), origin, rule: Some(Rule::CONWAY), ..Pattern::default() };
    let text = formats::write_pattern(&p, Format::Rle)?;
    Ok(if torus {
        text.replace("rule = B3/S23", &format!("rule = B3/S23:T{},{}", g.width(), g.height()))
    } else {
        text
    })
}

fn golly(w: &Workload, g: &Grid, algo: &str, runs: Runs, dir: &Path) -> Measured {
    let torus = w.kind == Kind::TorusSoup;
    let input = dir.join("golly-in.rle");
    std::fs::write(&input, rle_for(g, torus)?)?;
    // QuickLife writes RLE only; HashLife on the plane writes macrocells (any size).
    let mc = !torus && algo == "HashLife";
    let output = dir.join(if mc { "golly-out.mc" } else { "golly-out.rle" });
    let (best, done) = runs.time(|| {
        let _ = std::fs::remove_file(&output);
        let gens = w.generations.to_string();
        let mut cmd = Command::new("bgolly");
        cmd.args(["-q", "-b", "-m", &gens, "-i", &gens, "-a", algo, "-M", "4000", "-o"])
            .arg(&output)
            .arg(&input);
        let out = output_within(cmd, PEER_LIMIT).context("running bgolly")?;
        if !out.status.success() {
            bail!("bgolly failed: {}", String::from_utf8_lossy(&out.stderr).trim());
        }
        golly_seconds(&String::from_utf8_lossy(&out.stdout), w.generations)
    })?;
    let text = std::fs::read_to_string(&output).with_context(|| format!("{}", output.display()))?;
    let loc = Location::file(&output);
    let outcome = if !mc {
        outcome_of_cells(rle_cells(&text))
    } else {
        let m = macrocell::read_tree(&loc, &text, 4 << 30, &mut Warnings::default())?;
        outcome_of_tree(&m.tree)
    };
    Ok((best, outcome, done))
}

/// `bgolly -q -b` prints a timestamp and the generation after loading (0)
/// and after each step (one step of all the generations on the plane; on
/// a bounded grid Golly forces steps of 1): the evolution is the time from
/// the line of generation 0 to the line of the last generation.
fn golly_seconds(stdout: &str, gens: u64) -> Result<f64> {
    let lines: Vec<(f64, String)> = stdout
        .lines()
        .filter_map(|l| {
            let (t, rest) = l.split_once(' ')?;
            Some((t.parse::<f64>().ok()?, rest.replace(',', "").trim().to_string()))
        })
        .collect();
    let t0 = lines.iter().find(|(_, r)| r == "0").context("no generation-0 line in bgolly's output")?.0;
    let t1 = lines
        .iter()
        .find(|(_, r)| *r == gens.to_string())
        .context("no last-generation line in bgolly's output")?
        .0;
    Ok(t1 - t0)
}

/// The live cells of an RLE body (b/. dead, o/A alive), without a dense grid.
fn rle_cells(text: &str) -> Vec<(i128, i128)> {
    let (mut x, mut y, mut n) = (0i128, 0i128, 0i128);
    let mut cells = Vec::new();
    'lines: for line in text.lines().map(str::trim) {
        if line.starts_with('#') || line.starts_with('x') {
            continue;
        }
        for c in line.chars() {
            let k = n.max(1);
            match c {
                '0'..='9' => {
                    n = n * 10 + (c as u8 - b'0') as i128;
                    continue;
                }
                'b' | '.' => x += k,
                '$' => (x, y) = (0, y + k),
                '!' => break 'lines,
                c if c.is_ascii_alphabetic() => {
                    cells.extend((0..k).map(|i| (x + i, y)));
                    x += k;
                }
                _ => {}
            }
            n = 0;
        }
    }
    cells
}

// ---- lifelib ----

fn lifelib_version() -> Option<String> {
    let out = Command::new("python3")
        .args(["-c", "import lifelib; print(getattr(lifelib, '__version__', 'unknown'))"])
        .output()
        .ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn lifelib(ctx: &Ctx, w: &Workload, g: &Grid, runs: Runs, dir: &Path) -> Measured {
    if w.kind == Kind::TorusSoup {
        bail!("not measured: lifelib's Python API has no torus");
    }
    let script = ctx.root.join("experiments/peers/lifelib_run.py");
    let input = dir.join("lifelib-in.rle");
    std::fs::write(&input, rle_for(g, false)?)?;
    let output = dir.join("lifelib-out.lif");
    let big = w.generations > 1 << 30;
    let dst = if big { PathBuf::from("-") } else { output.clone() };
    let mut cmd = Command::new("python3");
    cmd.arg(&script)
        .args(["B3/S23", &w.generations.to_string(), &runs.least.to_string()])
        .args([runs.total.to_string(), MAX_RUNS.to_string()])
        .arg(&input)
        .arg(&dst);
    let out = output_within(cmd, PEER_LIMIT).context("running python3")?;
    if !out.status.success() {
        bail!("lifelib failed: {}", String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or(""));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().rev().find(|l| l.starts_with('{')).context("no JSON from lifelib_run.py")?;
    let v: serde_json::Value = serde_json::from_str(line)?;
    let secs = v["best_seconds"].as_f64().context("best_seconds")?;
    let done = v["runs"].as_u64().context("runs")? as usize;
    let outcome = if big {
        let bb = &v["bounding_box"];
        let (bw, bh) = (bb[2].as_u64().unwrap_or(0) as u128, bb[3].as_u64().unwrap_or(0) as u128);
        let population = v["population"].as_u64().context("population")?;
        Outcome { population, box_size: (population > 0).then_some((bw, bh)), hash: None }
    } else {
        let text = std::fs::read_to_string(&output)?;
        let cells = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let mut w = l.split_whitespace().map(|v| v.parse::<i128>());
                Some((w.next()?.ok()?, w.next()?.ok()?))
            })
            .collect();
        outcome_of_cells(cells)
    };
    Ok((secs, outcome, done))
}

fn agrees(want: &Outcome, got: &Outcome) -> bool {
    want.population == got.population
        && want.box_size == got.box_size
        && (want.hash.is_none() || got.hash.is_none() || want.hash == got.hash)
}

fn run(ctx: &Ctx) -> Result<Report> {
    let runs = Runs { least: ctx.mode.pick(1, 3, 3), total: ctx.mode.pick(0.0, 1.0, 1.0) };
    let dir = tempfile::tempdir()?;
    let golly_v = bgolly_version();
    // lifelib compiles C++ on first use of a rule (a minute): not in the smoke test.
    let tiny = ctx.mode == crate::harness::Mode::Tiny;
    let lifelib_v = if tiny { None } else { lifelib_version() };
    let cases = workloads(ctx);
    let bar = ctx.bar(cases.len() as u64, ID);
    let mut rows = Vec::new();
    for w in &cases {
        let g = start(w);
        let mut engines: Vec<(&str, &str, String, Measured)> = Vec::new();
        let v = env!("CARGO_PKG_VERSION").to_string();
        match w.kind {
            Kind::TorusSoup => {
                engines.push(("lifesearch", "lifecube", v.clone(), ours(w, &g, "lifecube", runs)));
                engines.push(("lifesearch", "tiles", v.clone(), ours(w, &g, "tiles", runs)));
            }
            Kind::PlaneSoup => {
                engines.push(("lifesearch", "hashlife", v.clone(), ours(w, &g, "hashlife", runs)));
                engines.push((
                    "lifesearch",
                    "lifecube-plane",
                    v.clone(),
                    ours(w, &g, "lifecube-plane", runs),
                ));
                engines.push(("lifesearch", "tiles", v.clone(), ours(w, &g, "tiles", runs)));
                engines.push(("lifesearch", "relay", v.clone(), ours(w, &g, "relay", runs)));
            }
            Kind::Gun => engines.push(("lifesearch", "hashlife", v.clone(), ours(w, &g, "hashlife", runs))),
        }
        match &lifelib_v {
            Some(ver) => engines.push((
                "lifelib",
                "lifetree (hashlife)",
                ver.clone(),
                lifelib(ctx, w, &g, runs, dir.path()),
            )),
            None => engines.push((
                "lifelib",
                "-",
                String::new(),
                Err(if tiny {
                    anyhow::anyhow!("not run in tiny mode (lifelib compiles C++ on first use)")
                } else {
                    anyhow::anyhow!("not installed (pip install python-lifelib)")
                }),
            )),
        }
        for algo in ["QuickLife", "HashLife"] {
            let r = match &golly_v {
                // QuickLife walks every generation: the 2^40 run would take days.
                Some(_) if algo == "QuickLife" && w.generations > 1 << 22 => {
                    Err(anyhow::anyhow!("not measured: QuickLife steps every generation"))
                }
                Some(_) => golly(w, &g, algo, runs, dir.path()),
                None => Err(anyhow::anyhow!("not installed (apt-get install golly)")),
            };
            engines.push(("golly", algo, golly_v.clone().unwrap_or_default(), r));
        }
        let mut reference: Option<Outcome> = None;
        for (imp, engine, ver, r) in engines {
            let (mut row, o) = row(w, imp, engine, &ver, r);
            if let Some(o) = o {
                match &reference {
                    None => {
                        row.agrees = "reference".into();
                        reference = Some(o);
                    }
                    Some(want) => row.agrees = if agrees(want, &o) { "yes" } else { "no" }.into(),
                }
            }
            rows.push(row);
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(bad) = rows.iter().find(|r| r.agrees == "no") {
        bail!(
            "{} {} ended on different cells than lifesearch on {}",
            bad.implementation,
            bad.engine,
            bad.workload
        );
    }
    write_csv(&ctx.csv(ID), &rows)?;
    let mut solvers = vec![format!("lifesearch {}", env!("CARGO_PKG_VERSION"))];
    solvers.push(match &lifelib_v {
        Some(v) => format!("lifelib {v} (python-lifelib)"),
        None => "lifelib: not installed".into(),
    });
    solvers.push(match &golly_v {
        Some(v) => format!("bgolly {v} (golly)"),
        None => "bgolly: not installed".into(),
    });
    Ok(Report {
        rows: rows.len(),
        seeds: vec![SEED],
        solvers,
        notes: vec![format!(
            "lowest of at least {} runs of the evolution alone (a run over {REPEAT_BELOW_SECONDS} s is not repeated; short runs are repeated until they add up to {} s, at most {MAX_RUNS}; the CSV's runs column says how many); one core; soups of density 0.5",
            runs.least, runs.total
        )],
    })
}

/// The fastest lifesearch row of a workload.
fn best_ours<'a>(rows: &'a [Row], workload: &str) -> Option<&'a Row> {
    rows.iter()
        .filter(|r| r.workload == workload && r.implementation == "lifesearch" && r.best_seconds.is_some())
        .min_by(|a, b| a.best_seconds.partial_cmp(&b.best_seconds).unwrap())
}

fn peer<'a>(rows: &'a [Row], workload: &str, imp: &str, engine: Option<&str>) -> Option<&'a Row> {
    rows.iter().find(|r| {
        r.workload == workload
            && r.implementation == imp
            && engine.is_none_or(|e| r.engine == e)
            && r.best_seconds.is_some()
    })
}

/// "torus 2k", "plane 5k", "64x64 10k", "gun 2^16": topology or size and generations.
fn short_label(r: &Row) -> String {
    let g = r.generations;
    let gens = if g.is_power_of_two() && g >= 1 << 16 {
        format!("2^{}", g.trailing_zeros())
    } else if g.is_multiple_of(1000) {
        format!("{}k", g / 1000)
    } else {
        g.to_string()
    };
    let what = if r.workload.starts_with("gun") {
        "gun".to_string()
    } else if r.width < 1024 {
        format!("{}x{}", r.width, r.height)
    } else {
        r.topology.clone()
    };
    format!("{what} {gens}")
}

fn draw(ctx: &Ctx) -> Result<()> {
    let rows: Vec<Row> = read_csv(&ctx.csv(ID))?;
    let mut workloads: Vec<String> = Vec::new();
    for r in &rows {
        if !workloads.contains(&r.workload) {
            workloads.push(r.workload.clone());
        }
    }
    let secs = |f: &dyn Fn(&str) -> Option<f64>| -> Vec<Option<f64>> {
        workloads.iter().map(|w| f(w).map(|s| s.max(1e-6) * 1e3)).collect()
    };
    // Short labels that fit side by side; a star where a peer's bar is missing.
    let labels: Vec<String> = workloads
        .iter()
        .map(|w| {
            let r = rows.iter().find(|r| &r.workload == w).expect("a row");
            let missing = rows.iter().any(|r| &r.workload == w && r.best_seconds.is_none());
            format!("{}{}", short_label(r), if missing { "*" } else { "" })
        })
        .collect();
    render(
        &ctx.figure(ID),
        &Bars {
            title: "Evolution time per workload: lifesearch, lifelib, Golly".into(),
            x_label: "workload (* a bar is missing: not installed, no torus in lifelib's API, or over the time cap; see the table)".into(),
            y_label: "best time (log scale)".into(),
            categories: labels,
            series: vec![
                (
                    "lifesearch (fastest engine)".into(),
                    secs(&|w| best_ours(&rows, w).and_then(|r| r.best_seconds)),
                ),
                ("lifelib".into(), secs(&|w| peer(&rows, w, "lifelib", None).and_then(|r| r.best_seconds))),
                (
                    "Golly QuickLife".into(),
                    secs(&|w| peer(&rows, w, "golly", Some("QuickLife")).and_then(|r| r.best_seconds)),
                ),
                (
                    "Golly HashLife".into(),
                    secs(&|w| peer(&rows, w, "golly", Some("HashLife")).and_then(|r| r.best_seconds)),
                ),
            ],
            log_y: true,
            ticks: Ticks::Millis,
            legend: true,
        },
    )?;
    let cell = |r: Option<&Row>| match r {
        Some(r) => format!("{} s ({})", sci(r.best_seconds.unwrap_or(0.0)), r.engine),
        None => "-".into(),
    };
    let ratio = |a: Option<&Row>, b: Option<&Row>| match (
        a.and_then(|r| r.best_seconds),
        b.and_then(|r| r.best_seconds),
    ) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}", a / b),
        _ => "-".into(),
    };
    let mut md = String::from(
        "| Workload | Generations | lifesearch (best) | lifelib | Golly QuickLife | Golly HashLife | lifesearch / lifelib | lifesearch / best Golly | cells agree |\n\
         |---|---:|---|---|---|---|---:|---:|---|\n",
    );
    for w in &workloads {
        let first = rows.iter().find(|r| &r.workload == w).expect("a row");
        let ours = best_ours(&rows, w);
        let ll = peer(&rows, w, "lifelib", None);
        let (ql, hl) =
            (peer(&rows, w, "golly", Some("QuickLife")), peer(&rows, w, "golly", Some("HashLife")));
        let best_golly = [ql, hl]
            .into_iter()
            .flatten()
            .min_by(|a, b| a.best_seconds.partial_cmp(&b.best_seconds).unwrap());
        let agree =
            if rows.iter().filter(|r| &r.workload == w).all(|r| r.agrees != "no") { "yes" } else { "NO" };
        md += &format!(
            "| {w} ({}x{} {}) | {} | {} | {} | {} | {} | {} | {} | {agree} |\n",
            first.width,
            first.height,
            first.topology,
            first.generations,
            cell(ours),
            cell(ll),
            cell(ql),
            cell(hl),
            ratio(ours, ll),
            ratio(ours, best_golly),
        );
    }
    let missing: Vec<String> = rows
        .iter()
        .filter(|r| r.status != "ok")
        .map(|r| format!("{} {} on {}: {}", r.implementation, r.engine, r.workload, r.status))
        .collect();
    md += "\nLowest of the runs in the CSV (at least three; runs of milliseconds repeated until they add up to \
           a second), evolution only, one process at a time on a shared machine. \
           A ratio below 1 means lifesearch is ahead. \"cells agree\": every engine ended on the same \
           population and bounding box, and (up to five million cells) the same cells.\n";
    if !missing.is_empty() {
        md += "\nNot measured:\n\n";
        for m in missing {
            md += &format!("- {m}\n");
        }
    }
    write_text(&ctx.generated(ID), &md)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_runs_repeat_to_a_second_and_long_ones_stop_at_one() {
        let r = Runs { least: 3, total: 1.0 };
        assert!(!r.enough(0, f64::MAX, 0.0));
        // Three runs of a millisecond are not enough; fifty are, whatever they add up to.
        assert!(!r.enough(3, 1e-3, 3e-3));
        assert!(!r.enough(49, 1e-3, 49e-3));
        assert!(r.enough(50, 1e-3, 50e-3));
        // Three runs that add up to a second are enough, two are not.
        assert!(!r.enough(2, 0.4, 0.8));
        assert!(r.enough(3, 0.4, 1.2));
        // A run over REPEAT_BELOW_SECONDS is not repeated.
        assert!(r.enough(1, 11.0, 11.0));
        // The smoke test's single run.
        assert!(Runs { least: 1, total: 0.0 }.enough(1, 1e-3, 1e-3));
    }
}
