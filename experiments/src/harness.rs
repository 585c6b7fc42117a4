//! The harness around every experiment: where outputs go, how big a run is,
//! when an output is up to date, the manifest, progress bars and timing.

use anyhow::{Context, Result, bail, ensure};
use serde::{Serialize, de::DeserializeOwned};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub use crate::table::{Col, Fmt, col, sci};
pub use bookgen::manifest::{Entry, FullRun, Machine, Manifest, Mode, Report};

/// Everything an experiment needs to know about the run it is part of.
#[derive(Clone)]
pub struct Ctx {
    /// The repository root: outputs go to `data/`, `book/src/figures/`, `book/src/generated/`.
    pub root: PathBuf,
    pub mode: Mode,
    /// Where big derived tables are cached (never committed).
    pub cache: PathBuf,
    /// Draw progress bars (off in the smoke test).
    pub progress: bool,
    /// The thesis' vendored data (`data/thesis`), read only through [`crate::thesis`].
    pub thesis: PathBuf,
    /// The fingerprint of the code measuring now, where it is known: the
    /// runner sets it; outside a git checkout, and in unit tests, it is
    /// `None`, and nothing cached for a code is reused.
    pub code: Option<String>,
    /// While an experiment runs or is redrawn: the folder its outputs are
    /// staged in, laid out like the root (they move into place only once
    /// checked), and its id where its CSV is staged too (not in a redraw).
    stage: Option<(Option<&'static str>, PathBuf)>,
}

impl Ctx {
    pub fn new(root: PathBuf, mode: Mode, cache: PathBuf, progress: bool) -> Ctx {
        Ctx { root, mode, cache, progress, thesis: crate::thesis::default_dir(), code: None, stage: None }
    }

    /// This context measuring with the code fingerprinted `fp` (an unknown
    /// fingerprint stays unknown).
    pub fn measuring(&self, fp: &str) -> Ctx {
        Ctx { code: (fp != bookgen::fresh::UNKNOWN).then(|| fp.to_string()), ..self.clone() }
    }

    /// This context for running experiment `id`, its outputs staged under `dir`.
    pub fn staged(&self, id: &'static str, dir: &Path) -> Ctx {
        Ctx { stage: Some((Some(id), dir.to_path_buf())), ..self.clone() }
    }

    /// This context for redrawing, its figures and Markdown staged under `dir`
    /// and every CSV read from the root.
    pub fn redrawn(&self, dir: &Path) -> Ctx {
        Ctx { stage: Some((None, dir.to_path_buf())), ..self.clone() }
    }

    /// Where outputs are written: the stage while an experiment runs, else the root.
    fn out(&self) -> &Path {
        self.stage.as_ref().map_or(&self.root, |s| &s.1)
    }

    /// The CSV of experiment `id`: the staged one for the experiment running
    /// now, the committed one for any other (an input, such as the ranking).
    pub fn csv(&self, id: &str) -> PathBuf {
        let base = match &self.stage {
            Some((Some(cur), dir)) if *cur == id => dir,
            _ => &self.root,
        };
        base.join("data").join(format!("{id}.csv"))
    }
    pub fn figure(&self, id: &str) -> PathBuf {
        self.out().join("book/src/figures").join(id)
    }
    pub fn generated(&self, id: &str) -> PathBuf {
        self.out().join("book/src/generated").join(format!("{id}.md"))
    }
    /// A progress bar with an ETA; hidden when progress is off.
    pub fn bar(&self, len: u64, msg: &str) -> indicatif::ProgressBar {
        if !self.progress {
            return indicatif::ProgressBar::hidden();
        }
        let bar = indicatif::ProgressBar::new(len);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{msg:>24} [{elapsed_precise}] {wide_bar} {pos}/{len} ETA {eta}",
            )
            .expect("valid template"),
        );
        bar.set_message(msg.to_string());
        bar
    }
}

/// Rows as CSV text, the header from the serde field names.
fn csv_bytes<T: Serialize>(rows: &[T]) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r)?;
    }
    w.into_inner().map_err(|e| anyhow::anyhow!("csv: {e}"))
}

/// Write rows as CSV (header from the serde field names), atomically.
pub fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<()> {
    Ok(lifesearch::atomic_write(path, &csv_bytes(rows)?)?)
}

/// Read rows written by [`write_csv`]; errors name the file and line.
pub fn read_csv<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    rows_of(open_csv(path)?, path)
}

fn open_csv(path: &Path) -> Result<csv::Reader<std::fs::File>> {
    csv::Reader::from_path(path).with_context(|| format!("{}: cannot open", path.display()))
}

/// Every row of a CSV read from `path`, as `T`; errors name the file and line.
pub fn rows_of<T: DeserializeOwned, R: std::io::Read>(r: csv::Reader<R>, path: &Path) -> Result<Vec<T>> {
    let rows = r.into_deserialize().enumerate();
    rows.map(|(i, row)| row.with_context(|| format!("{}:{}: bad row", path.display(), i + 2))).collect()
}

/// Write a text output (generated Markdown) atomically.
pub fn write_text(path: &Path, text: &str) -> Result<()> {
    Ok(lifesearch::atomic_write(path, text.as_bytes())?)
}

/// The lowest of `runs` timings of `f` (the thesis' method), and the last
/// run's value (`f` is deterministic, so any run's would do); the value is
/// kept alive so the work is not optimised away.
pub fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let v = std::hint::black_box(f());
        best = best.min(t.elapsed());
        last = Some(v);
    }
    (best, last.expect("at least one run"))
}

/// Run a child process to its end and collect what it wrote, or kill it
/// once it has run for `limit` (then `None`). The pipes are drained on
/// their own threads, so a child that writes more than a pipe holds never
/// blocks while the parent waits for it to exit.
pub fn output_within(
    mut cmd: std::process::Command,
    limit: Duration,
) -> Result<Option<std::process::Output>> {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start {:?}", cmd.get_program()))?;
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            pipe.read_to_end(&mut v).map(|_| v)
        })
    };
    let out = drain(Box::new(child.stdout.take().context("stdout is piped")?));
    let err = drain(Box::new(child.stderr.take().context("stderr is piped")?));
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break s;
        }
        if start.elapsed() > limit {
            // The readers are left to finish on their own: a grandchild
            // (a shell's, say) may hold the pipes open after the kill.
            child.kill()?;
            child.wait()?;
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let join = |t: std::thread::JoinHandle<std::io::Result<Vec<u8>>>| {
        t.join().map_err(|_| anyhow::anyhow!("a pipe reader panicked"))?.map_err(anyhow::Error::from)
    };
    let (stdout, stderr) = (join(out)?, join(err)?);
    Ok(Some(std::process::Output { status, stdout, stderr }))
}

/// The fingerprint of the measuring code, and the commit, live in
/// `bookgen::fresh` so that the book can tell a stale output too.
pub use bookgen::fresh::{commit, fingerprint};

/// Record a complete full run in the manifest and write its figures into the README.
pub fn record_full_run(root: &Path, seconds: f64, peak_rss_bytes: u64) -> Result<()> {
    let mut m = Manifest::load(root)?;
    m.last_full_run = Some(FullRun { commit: commit(root), date: now_utc(), seconds, peak_rss_bytes });
    save_manifest(root, &m)?;
    if let Some(text) = bookgen::readme::updated(root)? {
        write_text(&root.join("README.md"), &text)?;
    }
    Ok(())
}

/// The harness process' peak resident memory over a run, sampled by a thread:
/// the census resets the kernel's own high-water mark (`VmHWM`) to measure
/// each census, so that mark alone would not cover the whole run.
pub struct PeakMemory {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<u64>,
}

impl PeakMemory {
    pub fn watch() -> PeakMemory {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut peak = 0;
            while !flag.load(Ordering::Relaxed) {
                peak = peak.max(status_bytes("VmRSS:")).max(status_bytes("VmHWM:"));
                std::thread::sleep(Duration::from_millis(50));
            }
            peak.max(status_bytes("VmHWM:"))
        });
        PeakMemory { stop, thread }
    }

    pub fn stop(self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap_or(0)
    }
}

/// A `kB` field of `/proc/self/status` in bytes (0 where there is none).
fn status_bytes(field: &str) -> u64 {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else { return 0 };
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kib| kib * 1024)
}

/// This machine, as the manifest records it.
pub fn this_machine() -> Machine {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).map(|l| l.to_string()))
        .and_then(|l| l.split(':').nth(1).map(|s| s.trim().to_string()))
        .unwrap_or_else(|| "unknown".into());
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    Machine { cpu, cores, os: format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH) }
}

/// Write the manifest atomically.
pub fn save_manifest(root: &Path, m: &Manifest) -> Result<()> {
    write_text(&Manifest::path(root), &m.to_json()?)
}

/// Today's date and time in UTC, ISO 8601, from the system clock.
pub fn now_utc() -> String {
    chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

// ANCHOR: experiment
/// One table or figure, declared: what one row of its CSV is, how to
/// measure the rows, and (optionally) how to draw them and which columns its
/// table shows. The runner ([`Run`]) does the rest: it writes the CSV, checks
/// it against `Row`, renders the table, stages and publishes.
pub trait Experiment: Sync + 'static {
    /// One row of `data/ID.csv`; its serde field names are the columns. It
    /// derives `Deserialize` with `#[serde(deny_unknown_fields)]`, so a CSV
    /// with a column too many or too few is refused.
    type Row: Serialize + DeserializeOwned;
    const ID: &'static str;
    const TITLE: &'static str;
    /// Whether [`Experiment::draw`] draws `book/src/figures/ID.svg|png`.
    const FIGURE: bool = false;
    /// The columns of the generated table, `book/src/generated/ID.md`.
    const TABLE: &'static [Col<'static>] = &[];
    /// How many rows a run in this mode must write, where that is fixed.
    fn rows(&self, _mode: Mode) -> Option<usize> {
        None
    }
    /// Measure: the rows, and what the manifest records (its row count is
    /// filled in by the runner).
    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Self::Row>, Report)>;
    /// Draw the figures from the rows (read back from the CSV).
    fn draw(&self, _ctx: &Ctx, _rows: &[Self::Row]) -> Result<()> {
        Ok(())
    }
    /// The generated Markdown: the declared table of every row. An experiment
    /// that shows a selection or several tables overrides this, still
    /// drawing each with [`crate::table::markdown`].
    fn markdown(&self, rows: &[Self::Row]) -> Result<String> {
        crate::table::markdown(Self::TABLE, rows)
    }
}
// ANCHOR_END: experiment

/// An experiment as the runner sees it: every [`Experiment`] is one.
pub trait Run: Sync {
    fn id(&self) -> &'static str;
    fn title(&self) -> &'static str;
    fn figure(&self) -> bool;
    fn rows(&self, mode: Mode) -> Option<usize>;
    /// Measure and write the CSV (staged); what the manifest records.
    fn run(&self, ctx: &Ctx) -> Result<Report>;
    /// Figures and Markdown from the CSV; its number of rows.
    fn render(&self, ctx: &Ctx) -> Result<usize>;
    /// Check a CSV against the declared row type; its number of rows.
    fn check_csv(&self, path: &Path) -> Result<usize>;
}

impl<E: Experiment> Run for E {
    fn id(&self) -> &'static str {
        E::ID
    }
    fn title(&self) -> &'static str {
        E::TITLE
    }
    fn figure(&self) -> bool {
        E::FIGURE
    }
    fn rows(&self, mode: Mode) -> Option<usize> {
        Experiment::rows(self, mode)
    }
    fn run(&self, ctx: &Ctx) -> Result<Report> {
        let (rows, mut report) = self.measure(ctx)?;
        write_csv(&ctx.csv(E::ID), &rows)?;
        report.rows = rows.len();
        Ok(report)
    }
    fn render(&self, ctx: &Ctx) -> Result<usize> {
        let rows: Vec<E::Row> = read_rows(&ctx.csv(E::ID))?;
        self.draw(ctx, &rows)?;
        write_text(&ctx.generated(E::ID), &self.markdown(&rows)?)?;
        Ok(rows.len())
    }
    fn check_csv(&self, path: &Path) -> Result<usize> {
        Ok(read_rows::<E::Row>(path)?.len())
    }
}

/// Every row of a CSV as `R`, checked: each row deserializes (no unknown
/// column, none missing) and the header is the one `R` serializes to, in
/// order. Errors name the file and line.
pub fn read_rows<R: Serialize + DeserializeOwned>(path: &Path) -> Result<Vec<R>> {
    let mut r = open_csv(path)?;
    let got = r.headers()?.clone();
    let rows: Vec<R> = rows_of(r, path)?;
    if !rows.is_empty() {
        let want = csv::Reader::from_reader(csv_bytes(&rows[..1])?.as_slice()).headers()?.clone();
        if got != want {
            let (got, want): (Vec<&str>, Vec<&str>) = (got.iter().collect(), want.iter().collect());
            bail!("{}: columns {got:?}, expected {want:?}", path.display());
        }
    }
    Ok(rows)
}

// ANCHOR: check_outputs
/// What an experiment must have written before its outputs replace the
/// committed ones: its CSV, whose every row reads back as the declared row
/// type, one row per row it reported (and as many as it declares for this
/// mode, where it declares a number), well-formed figures if it draws one,
/// and its Markdown. `reported`: the rows its run reported, where it ran.
pub fn check_outputs(ctx: &Ctx, e: &dyn Run, reported: Option<usize>) -> Result<()> {
    let csv = ctx.csv(e.id());
    ensure!(csv.exists(), "wrote no {}", csv.display());
    check_drawn(ctx, e, e.check_csv(&csv)?, reported)
}

/// [`check_outputs`] of a CSV already read and checked: `rows` rows.
pub fn check_drawn(ctx: &Ctx, e: &dyn Run, rows: usize, reported: Option<usize>) -> Result<()> {
    let csv = ctx.csv(e.id());
    ensure!(rows > 0, "{}: no rows", csv.display());
    if let Some(reported) = reported {
        ensure!(rows == reported, "{}: {rows} rows, but the run reported {reported}", csv.display());
    }
    if let Some(want) = e.rows(ctx.mode) {
        ensure!(rows == want, "{}: {rows} rows, {want} expected in {} mode", csv.display(), ctx.mode.name());
    }
    for f in figures(ctx.out(), e) {
        let f = ctx.out().join(f);
        let ok = if f.extension().is_some_and(|x| x == "svg") {
            crate::plot::is_svg(&f)
        } else {
            crate::plot::is_png(&f)
        };
        ensure!(ok, "{}: missing or not a valid figure", f.display());
    }
    let md = ctx.generated(e.id());
    ensure!(md.exists(), "wrote no {}", md.display());
    Ok(())
}
// ANCHOR_END: check_outputs

/// The figures of `e` under `dir`, relative to it: its main one where it
/// draws one, and any second ones, `book/src/figures/ID-NAME.{svg,png}`.
fn figures(dir: &Path, e: &dyn Run) -> Vec<PathBuf> {
    let figures = Path::new("book/src/figures");
    let mut v = Vec::new();
    if e.figure() {
        v.extend(["svg", "png"].map(|ext| figures.join(format!("{}.{ext}", e.id()))));
    }
    let Ok(entries) = std::fs::read_dir(dir.join(figures)) else { return v };
    let mut second: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.starts_with(&format!("{}-", e.id())) && (n.ends_with(".svg") || n.ends_with(".png")))
        .map(|n| figures.join(n))
        .collect();
    second.sort();
    v.extend(second);
    v
}

/// Move the checked outputs of `e` from `staged`'s stage to `ctx`'s root,
/// each by a rename (or an atomic copy across file systems).
pub fn publish(staged: &Ctx, ctx: &Ctx, e: &dyn Run) -> Result<()> {
    let stage = staged.out();
    let mut files = figures(stage, e);
    files.push(PathBuf::from(format!("book/src/generated/{}.md", e.id())));
    // A redraw stages no CSV to publish.
    let csv = PathBuf::from(format!("data/{}.csv", e.id()));
    if stage.join(&csv).exists() {
        files.push(csv);
    }
    for rel in files {
        let (from, to) = (stage.join(&rel), ctx.root.join(&rel));
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("{}", dir.display()))?;
        }
        if std::fs::rename(&from, &to).is_err() {
            let bytes = std::fs::read(&from).with_context(|| format!("{}", from.display()))?;
            lifesearch::atomic_write(&to, &bytes)?;
        }
    }
    Ok(())
}

/// The wall time of `f` in ms.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let r = f();
    (r, start.elapsed().as_secs_f64() * 1e3)
}

/// Run `f` with a stop flag that a watchdog raises after `cap`, and time
/// `f` alone: the watchdog's thread (the harness', not the user's) is
/// started before the clock and joined after it, see the book's page.
pub fn capped<T>(cap: Duration, f: impl FnOnce(&lifesearch::Stop) -> T) -> (T, f64) {
    let stop = lifesearch::Stop::default();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let flag = stop.clone();
    let dog = std::thread::spawn(move || {
        if done_rx.recv_timeout(cap).is_err() {
            flag.interrupt();
        }
    });
    let (r, ms) = timed(|| f(&stop));
    let _ = done_tx.send(());
    let _ = dog.join();
    (r, ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_is_stopped_at_its_limit_and_a_chatty_one_is_read_whole() {
        use std::process::Command;
        let mut slow = Command::new("sh");
        slow.args(["-c", "sleep 5"]);
        let t = Instant::now();
        assert!(output_within(slow, Duration::from_millis(100)).unwrap().is_none());
        assert!(t.elapsed() < Duration::from_secs(4), "killed, not waited for");
        // 1 MB on stdout, far more than a pipe holds, and a line on stderr.
        let mut chatty = Command::new("sh");
        chatty.args(["-c", "head -c 1048576 /dev/zero; echo oops >&2; exit 3"]);
        let out = output_within(chatty, Duration::from_secs(30)).unwrap().expect("finished");
        assert_eq!(
            (out.stdout.len(), out.stderr.as_slice(), out.status.code()),
            (1 << 20, &b"oops\n"[..], Some(3))
        );
    }

    #[test]
    fn dates_are_iso() {
        let d = now_utc();
        assert_eq!(d.len(), 20);
        assert!(d.starts_with("20") && d.ends_with('Z'));
    }

    #[derive(Serialize, serde::Deserialize, PartialEq, Debug)]
    #[serde(deny_unknown_fields)]
    struct Row {
        a: u32,
        b: String,
    }

    struct X;
    impl Experiment for X {
        type Row = Row;
        const ID: &'static str = "x";
        const TITLE: &'static str = "x";
        const TABLE: &'static [Col<'static>] = &[col("A", "a", Fmt::Int)];
        fn rows(&self, _: Mode) -> Option<usize> {
            Some(2)
        }
        fn measure(&self, _: &Ctx) -> Result<(Vec<Row>, Report)> {
            Ok((vec![Row { a: 1, b: "x".into() }, Row { a: 2, b: "y".into() }], Report::default()))
        }
    }

    #[test]
    fn csv_round_trip_and_schema_check() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.csv");
        let rows = vec![Row { a: 1, b: "x".into() }, Row { a: 2, b: "y".into() }];
        write_csv(&p, &rows).unwrap();
        assert_eq!(read_rows::<Row>(&p).unwrap(), rows);
        // A column too many, one missing, or the columns out of order: refused.
        for bad in ["a,b,c\n1,x,2\n", "a\n1\n", "b,a\nx,1\n"] {
            write_text(&p, bad).unwrap();
            assert!(read_rows::<Row>(&p).is_err(), "{bad}");
        }
    }

    #[test]
    fn outputs_with_wrong_columns_or_rows_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let ctx =
            Ctx::new(dir.path().into(), Mode::Quick, dir.path().join("c"), false).staged("x", dir.path());
        let report = Run::run(&X, &ctx).unwrap();
        assert_eq!(report.rows, 2);
        Run::render(&X, &ctx).unwrap();
        assert!(std::fs::read_to_string(ctx.generated("x")).unwrap().contains("| A |"));
        check_outputs(&ctx, &X, Some(report.rows)).unwrap();
        let err = check_outputs(&ctx, &X, Some(3)).unwrap_err().to_string();
        assert!(err.contains("2 rows, but the run reported 3"), "{err}");
        write_csv(&ctx.csv("x"), &[Row { a: 1, b: "x".into() }]).unwrap();
        let err = check_outputs(&ctx, &X, Some(1)).unwrap_err().to_string();
        assert!(err.contains("1 rows, 2 expected in quick mode"), "{err}");
        write_text(&ctx.csv("x"), "b,a\nx,1\ny,2\n").unwrap();
        assert!(check_outputs(&ctx, &X, None).unwrap_err().to_string().contains("columns"));
    }

    #[test]
    fn manifest_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let mut m = Manifest { machine: this_machine(), ..Default::default() };
        m.experiments.insert(
            "x".into(),
            Entry {
                fingerprint: "f".into(),
                commit: "c".into(),
                mode: Mode::Quick,
                date: now_utc(),
                seconds: 1.5,
                report: Report { rows: 3, seeds: vec![1], solvers: vec!["s".into()], notes: vec![] },
            },
        );
        save_manifest(dir.path(), &m).unwrap();
        assert_eq!(Manifest::load(dir.path()).unwrap(), m);
    }
}
