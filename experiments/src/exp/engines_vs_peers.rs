//! Engines against their peers: the workloads of issue 25 (soups on a
//! torus and on the plane, short and long runs, the Gosper gun to 2^16,
//! 2^20 and 2^40 generations) on lifesearch's engines, Adam Goucher's
//! lifelib (PyPI `python-lifelib`, driven by `experiments/peers/lifelib_run.py`)
//! and Golly's `bgolly` (Debian package `golly`, QuickLife and HashLife).
//! A missing peer's rows say "not installed" in a quick run; a full run
//! refuses to start without both peers, because it would replace the
//! published comparison with empty rows. Every engine's final cells are
//! compared with lifesearch's first engine's: population, bounding box and,
//! up to [`HASH_LIMIT`] cells, a hash of the cells relative to their box.

use crate::harness::{Ctx, Experiment, Fmt, Mode, Report, col, sci, timed};
use crate::plot::{Bars, Ticks, render};
use anyhow::{Context, Result, anyhow, bail};
use lifesearch::error::Location;
use lifesearch::formats::{self, Format, Pattern, Warnings, macrocell, rle};
use lifesearch::life::evolver::{self, Evolved, Job, Start};
use lifesearch::life::hashlife::HashLife;
use lifesearch::life::{Grid, Rule};
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct EnginesVsPeers;

const ID: &str = "engines-vs-peers";
const SEED: u64 = 25;
/// Above this population no cell list is made (population and box only).
const HASH_LIMIT: u64 = 5_000_000;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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

/// What a peer printed, or why it did not finish: it could not start, ran past
/// [`PEER_LIMIT`] (then it is killed) or failed (the last line of its stderr).
fn peer_stdout(name: &str, cmd: Command) -> Result<String> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let out = crate::harness::output_within(cmd, PEER_LIMIT)
        .and_then(|o| o.with_context(|| format!("not finished within {} s (stopped)", PEER_LIMIT.as_secs())))
        .with_context(|| format!("running {program}"))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        bail!("{name} failed: {}", stderr.trim().lines().last().unwrap_or(""));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
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

fn start(w: &Workload) -> Grid {
    match w.kind {
        Kind::Gun => {
            // The Gosper glider gun (36x9), as the library's own tests hold it.
            let text = include_str!("../../../tests/data/formats/gun.rle");
            formats::parse_pattern(&Location::new("gun.rle", None), text).expect("a valid RLE").grid
        }
        _ => Grid::random(w.side, w.side, 0.5, &mut rand_pcg::Pcg64::seed_from_u64(SEED ^ w.side as u64)),
    }
}

/// Population, bounding box and an FNV-1a hash of the cells, sorted,
/// relative to their box.
fn outcome_of_cells(mut cells: Vec<(i128, i128)>) -> Outcome {
    let population = cells.len() as u64;
    let (xs, ys) = (cells.iter().map(|c| c.0), cells.iter().map(|c| c.1));
    let (Some(x0), Some(x1), Some(y0), Some(y1)) = (xs.clone().min(), xs.max(), ys.clone().min(), ys.max())
    else {
        return Outcome { population, box_size: None, hash: None };
    };
    cells.sort_unstable_by_key(|&(x, y)| (y, x));
    let mut h: u64 = 0xcbf29ce484222325;
    for (x, y) in cells {
        for b in ((x - x0) as i64).to_le_bytes().into_iter().chain(((y - y0) as i64).to_le_bytes()) {
            h = (h ^ b as u64).wrapping_mul(0x100000001b3);
        }
    }
    Outcome { population, box_size: Some(((x1 - x0 + 1) as u128, (y1 - y0 + 1) as u128)), hash: Some(h) }
}

fn outcome_of_tree(t: &HashLife) -> Outcome {
    let population = t.population();
    let box_size = t.bounding_box().map(|b| (b.2, b.3));
    if population > HASH_LIMIT {
        return Outcome { population, box_size, hash: None };
    }
    let mut cells = Vec::with_capacity(population as usize);
    t.for_each_cell(|x, y| cells.push((x, y)));
    Outcome { population, box_size, ..outcome_of_cells(cells) }
}

/// One row of `who` (implementation, engine, version): the outcome, or the status saying why there
/// is none. A workload's first outcome becomes the `reference` the later ones must agree with.
fn row(w: &Workload, who: (&str, &str, &str), r: Measured, reference: &mut Option<Outcome>) -> Row {
    let (implementation, engine, version) = who;
    let ok = r.as_ref().ok();
    let outcome = ok.map(|m| &m.1);
    let box_size = outcome.and_then(|o| o.box_size);
    let agrees = match (outcome, &*reference) {
        (None, _) => "",
        (Some(o), None) => {
            *reference = Some(o.clone());
            "reference"
        }
        (Some(o), Some(want)) if agrees(want, o) => "yes",
        (Some(_), Some(_)) => "no",
    };
    Row {
        workload: w.name.clone(),
        topology: if w.kind == Kind::TorusSoup { "torus" } else { "plane" }.into(),
        width: w.side,
        height: if w.kind == Kind::Gun { 9 } else { w.side },
        generations: w.generations,
        implementation: implementation.into(),
        engine: engine.into(),
        version: version.into(),
        status: match &r {
            Ok(_) => "ok".into(),
            Err(e) => format!("{e:#}").replace(['\n', ','], " "),
        },
        runs: ok.map_or(0, |m| m.2),
        best_seconds: ok.map(|m| m.0),
        population: outcome.map(|o| o.population),
        box_width: box_size.map(|b| b.0),
        box_height: box_size.map(|b| b.1),
        cells_hash: outcome.and_then(|o| o.hash).map(|h| format!("{h:016x}")).unwrap_or_default(),
        agrees: agrees.into(),
    }
}

// ---- lifesearch ----

/// One of our engines, through the registry (`lifecube-plane` is LIFECUBE's
/// block plane, named apart from its torus sweep in the table). Each run
/// starts from a fresh copy of the start, made outside the timing.
fn our_engine(w: &Workload, g: &Grid, label: &str, runs: Runs) -> Measured {
    let engine = evolver::by_name(if label == "lifecube-plane" { "lifecube" } else { label })?;
    let mut last = None;
    let (best, done) = runs.time(|| {
        let job = Job {
            start: Start::Cells { grid: g.clone(), origin: (0, 0) },
            rule: Rule::CONWAY,
            torus: w.kind == Kind::TorusSoup,
            generations: w.generations,
            memory_cap: 4 << 30,
        };
        let (run, ms) = timed(|| engine.evolve(job));
        last = Some(run?);
        Ok(ms / 1e3)
    })?;
    let outcome = match last.expect("one run").evolved {
        Evolved::Cells { grid, .. } => {
            outcome_of_cells(grid.live_cells().map(|(x, y)| (x as i128, y as i128)).collect())
        }
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
    if !torus {
        return Ok(text);
    }
    Ok(text.replace("rule = B3/S23", &format!("rule = B3/S23:T{},{}", g.width(), g.height())))
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
        golly_seconds(&peer_stdout("bgolly", cmd)?, w.generations)
    })?;
    let text = std::fs::read_to_string(&output).with_context(|| format!("{}", output.display()))?;
    let (loc, warn) = (Location::file(&output), &mut Warnings::default());
    let outcome = if !mc {
        // Sparse: a gun's glider stream spans far more than a dense grid.
        let runs = rle::read_wide(&loc, &text, warn)?.runs;
        let cells =
            runs.into_iter().flat_map(|(x, y, n)| (0..n as i128).map(move |i| (x as i128 + i, y as i128)));
        outcome_of_cells(cells.collect())
    } else {
        outcome_of_tree(&macrocell::read_tree(&loc, &text, 4 << 30, warn)?.tree)
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
    let at = |g: &str, what: &'static str| lines.iter().find(|(_, r)| r == g).map(|l| l.0).context(what);
    let t0 = at("0", "no generation-0 line in bgolly's output")?;
    Ok(at(&gens.to_string(), "no last-generation line in bgolly's output")? - t0)
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
    let stdout = peer_stdout("lifelib", cmd)?;
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

/// A full run's error when a peer is missing, naming each and how to install it.
fn refuse_without_peers(peers: &[(&str, &std::result::Result<String, &str>)]) -> Result<()> {
    let missing: Vec<String> =
        peers.iter().filter_map(|(name, v)| v.as_ref().err().map(|why| format!("{name}: {why}"))).collect();
    if !missing.is_empty() {
        bail!(
            "a full run compares with both peers and would publish empty rows without them ({}); \
             install them, or run quick mode, whose book says which were not measured",
            missing.join("; ")
        );
    }
    Ok(())
}

fn agrees(want: &Outcome, got: &Outcome) -> bool {
    want.population == got.population
        && want.box_size == got.box_size
        && (want.hash.is_none() || got.hash.is_none() || want.hash == got.hash)
}

impl Experiment for EnginesVsPeers {
    type Row = Row;
    const ID: &'static str = ID;
    const TITLE: &'static str = "Engines vs peers: lifesearch, lifelib and Golly on the same workloads";
    const FIGURE: bool = true;

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row>, Report)> {
        let runs = Runs { least: ctx.mode.pick(1, 3, 3), total: ctx.mode.pick(0.0, 1.0, 1.0) };
        let dir = tempfile::tempdir()?;
        let golly_version = bgolly_version().ok_or("not installed (apt-get install golly)");
        let lifelib_version = match ctx.mode {
            Mode::Tiny => Err("not run in tiny mode (lifelib compiles C++ on first use)"),
            _ => lifelib_version().ok_or("not installed (pip install python-lifelib)"),
        };
        if ctx.mode == Mode::Full {
            refuse_without_peers(&[("bgolly", &golly_version), ("lifelib", &lifelib_version)])?;
        }
        let cases = workloads(ctx);
        let bar = ctx.bar(cases.len() as u64, ID);
        let mut rows = Vec::new();
        for w in &cases {
            let g = start(w);
            let mut reference = None;
            let mut add = |implementation: &str, engine: &str, version: &str, r: Measured| {
                rows.push(row(w, (implementation, engine, version), r, &mut reference));
            };
            let our_engines: &[&str] = match w.kind {
                Kind::TorusSoup => &["lifecube", "tiles"],
                Kind::PlaneSoup => &["hashlife", "lifecube-plane", "tiles", "relay"],
                Kind::Gun => &["hashlife"],
            };
            for engine in our_engines {
                add("lifesearch", engine, env!("CARGO_PKG_VERSION"), our_engine(w, &g, engine, runs));
            }
            match &lifelib_version {
                Ok(v) => add("lifelib", "lifetree (hashlife)", v, lifelib(ctx, w, &g, runs, dir.path())),
                Err(why) => add("lifelib", "-", "", Err(anyhow!(*why))),
            }
            for algo in ["QuickLife", "HashLife"] {
                let r = match &golly_version {
                    // QuickLife walks every generation: the 2^40 run would take days.
                    Ok(_) if algo == "QuickLife" && w.generations > 1 << 22 => {
                        Err(anyhow!("not measured: QuickLife steps every generation"))
                    }
                    Ok(_) => golly(w, &g, algo, runs, dir.path()),
                    Err(why) => Err(anyhow!(*why)),
                };
                add("golly", algo, golly_version.as_deref().unwrap_or_default(), r);
            }
            bar.inc(1);
        }
        bar.finish_and_clear();
        if let Some(bad) = rows.iter().find(|r| r.agrees == "no") {
            let (implementation, engine, on) = (&bad.implementation, &bad.engine, &bad.workload);
            bail!("{implementation} {engine} ended on different cells than lifesearch on {on}");
        }
        let solvers = vec![
            format!("lifesearch {}", env!("CARGO_PKG_VERSION")),
            lifelib_version
                .map_or("lifelib: not installed".into(), |v| format!("lifelib {v} (python-lifelib)")),
            golly_version.map_or("bgolly: not installed".into(), |v| format!("bgolly {v} (golly)")),
        ];
        let notes = vec![format!(
            "lowest of at least {} runs of the evolution alone (a run over {REPEAT_BELOW_SECONDS} s is not repeated; short runs are repeated until they add up to {} s, at most {MAX_RUNS}; the CSV's runs column says how many); one core; soups of density 0.5",
            runs.least, runs.total
        )];
        Ok((rows, Report { seeds: vec![SEED], solvers, notes, ..Report::default() }))
    }

    fn draw(&self, ctx: &Ctx, rows: &[Row]) -> Result<()> {
        let lines = lines(rows);
        // Short labels that fit side by side; a star where a peer's bar is missing.
        let categories = lines
            .iter()
            .map(|l| format!("{}{}", short_label(l.first), if l.missing { "*" } else { "" }))
            .collect();
        let series = ["lifesearch (fastest engine)", "lifelib", "Golly QuickLife", "Golly HashLife"]
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let ms =
                    lines.iter().map(|l| l.best[i].and_then(|r| r.best_seconds).map(|s| s.max(1e-6) * 1e3));
                (name.to_string(), ms.collect())
            })
            .collect();
        render(
            &ctx.figure(ID),
            &Bars {
                title: "Evolution time per workload: lifesearch, lifelib, Golly".into(),
                x_label: "workload (* a bar is missing: not installed, no torus in lifelib's API, or over the time cap; see the table)".into(),
                y_label: "best time (log scale)".into(),
                categories,
                series,
                log_y: true,
                ticks: Ticks::Millis,
                legend: true,
            },
        )
    }

    fn markdown(&self, rows: &[Row]) -> Result<String> {
        let cell = |r: Option<&Row>| {
            r.map_or("-".into(), |r| format!("{} s ({})", sci(r.best_seconds.unwrap_or(0.0)), r.engine))
        };
        let ratio = |a: Option<&Row>, b: Option<&Row>| match (a?.best_seconds, b?.best_seconds) {
            (Some(a), Some(b)) if b > 0.0 => Some(a / b),
            _ => None,
        };
        let wide: Vec<serde_json::Value> = lines(rows)
            .iter()
            .map(|l| {
                let [ours, lifelib, quick, hash] = l.best;
                let golly = [quick, hash]
                    .into_iter()
                    .flatten()
                    .min_by(|a, b| a.best_seconds.partial_cmp(&b.best_seconds).unwrap());
                let f = l.first;
                json!({
                    "workload": format!("{} ({}x{} {})", f.workload, f.width, f.height, f.topology),
                    "generations": f.generations,
                    "ours": cell(ours),
                    "lifelib": cell(lifelib),
                    "quick": cell(quick),
                    "hash": cell(hash),
                    "vs_lifelib": ratio(ours, lifelib),
                    "vs_golly": ratio(ours, golly),
                    "agree": if l.agree { "yes" } else { "NO" },
                })
            })
            .collect();
        let text = |head, field| col(head, field, Fmt::Text);
        let cols = [
            text("Workload", "workload"),
            col("Generations", "generations", Fmt::Fixed(0)),
            text("lifesearch (best)", "ours"),
            text("lifelib", "lifelib"),
            text("Golly QuickLife", "quick"),
            text("Golly HashLife", "hash"),
            col("lifesearch / lifelib", "vs_lifelib", Fmt::Fixed(2)),
            col("lifesearch / best Golly", "vs_golly", Fmt::Fixed(2)),
            text("cells agree", "agree"),
        ];
        let mut md = crate::table::markdown(&cols, &wide)?;
        md += "\nLowest of the runs in the CSV (at least three; runs of milliseconds repeated until they add up to \
               a second), evolution only, one process at a time on a shared machine. \
               A ratio below 1 means lifesearch is ahead. \"cells agree\": every engine ended on the same \
               population and bounding box, and (up to five million cells) the same cells.\n";
        let missing: Vec<&Row> = rows.iter().filter(|r| r.status != "ok").collect();
        if !missing.is_empty() {
            md += "\nNot measured:\n\n";
            for r in missing {
                md += &format!("- {} {} on {}: {}\n", r.implementation, r.engine, r.workload, r.status);
            }
        }
        Ok(md)
    }
}

/// One workload as the figure and the table show it.
struct Line<'a> {
    first: &'a Row,
    /// The fastest of lifesearch's engines, lifelib, Golly's QuickLife and HashLife (timed rows only).
    best: [Option<&'a Row>; 4],
    /// Some engine has no time.
    missing: bool,
    agree: bool,
}

/// The workloads in the order of the rows (a workload's rows are consecutive).
fn lines<'a>(rows: &'a [Row]) -> Vec<Line<'a>> {
    let line = |all: &'a [Row]| {
        let timed = || all.iter().filter(|r| r.best_seconds.is_some());
        let peer = |imp: &str, engine: Option<&str>| {
            timed().find(|r| r.implementation == imp && engine.is_none_or(|e| r.engine == e))
        };
        let ours = timed()
            .filter(|r| r.implementation == "lifesearch")
            .min_by(|a, b| a.best_seconds.partial_cmp(&b.best_seconds).unwrap());
        Line {
            first: &all[0],
            best: [
                ours,
                peer("lifelib", None),
                peer("golly", Some("QuickLife")),
                peer("golly", Some("HashLife")),
            ],
            missing: all.iter().any(|r| r.best_seconds.is_none()),
            agree: all.iter().all(|r| r.agrees != "no"),
        }
    };
    rows.chunk_by(|a, b| a.workload == b.workload).map(line).collect()
}

/// "torus 2k", "plane 5k", "64x64 10k", "gun 2^16": topology or size and generations.
fn short_label(r: &Row) -> String {
    let gens = match r.generations {
        g if g.is_power_of_two() && g >= 1 << 16 => format!("2^{}", g.trailing_zeros()),
        g if g.is_multiple_of(1000) => format!("{}k", g / 1000),
        g => g.to_string(),
    };
    let what = match r.workload.as_str() {
        w if w.starts_with("gun") => "gun".to_string(),
        _ if r.width < 1024 => format!("{}x{}", r.width, r.height),
        _ => r.topology.clone(),
    };
    format!("{what} {gens}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_run_refuses_without_a_peer() {
        let (here, gone) = (Ok("3.3".to_string()), Err("not installed (apt-get install golly)"));
        assert!(refuse_without_peers(&[("bgolly", &here), ("lifelib", &here)]).is_ok());
        let e = refuse_without_peers(&[("bgolly", &gone), ("lifelib", &here)]).unwrap_err().to_string();
        assert!(
            e.contains("bgolly: not installed (apt-get install golly)") && !e.contains("lifelib:"),
            "{e}"
        );
    }

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
