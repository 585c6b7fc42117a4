//! The experiments harness: regenerates every table and figure of Bontes'
//! thesis into `data/<id>.csv`, `book/src/figures/<id>.svg|png` and
//! `book/src/generated/<id>.md`, recording how in `data/manifest.json`
//! (`experiments --help` lists the commands).

mod candidates;
mod exp;
mod harness;
mod inputs;
mod plot;
mod table;
mod thesis;
mod zoo;

use anyhow::{Result, bail, ensure};
use clap::{Parser, Subcommand};
use harness::{Ctx, Entry, Manifest, Mode, Report};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "experiments", about = "Regenerate the thesis' tables and figures")]
struct Cli {
    /// Repository root (outputs go to data/ and book/src/ below it).
    #[arg(long, global = true)]
    root: Option<PathBuf>,
    /// Tiny sizes, for the smoke test (seconds, numbers meaningless).
    #[arg(long, global = true, hide = true)]
    tiny: bool,
    /// No progress bars.
    #[arg(long, global = true)]
    quiet: bool,
    /// The thesis' vendored data (default: `data/thesis` in this repository).
    #[arg(long, global = true, value_name = "DIR")]
    thesis_data: Option<PathBuf>,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run every experiment, then build the book.
    All {
        /// The thesis' sizes (hours) instead of the quick ones (minutes).
        #[arg(long)]
        full: bool,
        /// Rerun even if the outputs are up to date for this code and mode.
        #[arg(long)]
        force: bool,
    },
    /// Run the named experiments.
    Run {
        ids: Vec<String>,
        #[arg(long)]
        full: bool,
        #[arg(long)]
        force: bool,
    },
    /// List the experiments and the state of their outputs.
    List,
    /// Redraw figures and generated tables from the CSVs, without measuring:
    /// those of the experiments or figures named, or of every experiment.
    Plot {
        /// Experiment ids (see `list`) or figure ids (`orphan-zoo-patterns`); none: all of them.
        ids: Vec<String>,
    },
    /// Write Table 6.2's 40 patterns (20x20 and 40x40, in generation order) as
    /// rows of `.` and `*` into DIR, to give them to other solvers.
    Patterns {
        dir: PathBuf,
        /// Also write the first N candidates of Figures 6.1/6.2, in generation
        /// order, into DIR/figure-6-1-candidates.txt (blank line between them).
        #[arg(long, value_name = "N")]
        candidates: Option<usize>,
    },
    /// Check every experiment's committed outputs as its runner checks a
    /// run's, in the mode they were measured in: the CSV's columns and row
    /// count, valid SVG and PNG figures, the Markdown.
    #[command(hide = true)]
    Check,
    /// Make an orphan zoo: its patterns, and `zoo.csv` with each verdict
    /// established by two solvers (the committed one: `experiments zoo`; a
    /// held-out one of the same kinds: `experiments zoo --seed 2 --out DIR`).
    Zoo {
        /// Where to write it (default: data/zoo, whose literature it reads).
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long, default_value_t = zoo::SEED)]
        seed: u64,
    },
    /// Measure a held-out set of search problems (the kinds of
    /// search-vs-peers, drawn from SEED) on lifesearch's engines and
    /// rlifesrc, write the rows to OUT and print how `auto` and the best
    /// engine fared.
    SearchHeldOut {
        #[arg(long, default_value_t = 2)]
        seed: u64,
        /// How many problems.
        #[arg(long, default_value_t = 24)]
        count: usize,
        /// Where the rows go (CSV, the columns of data/search-vs-peers.csv).
        #[arg(long)]
        out: PathBuf,
        /// Each engine's cap per problem, in seconds.
        #[arg(long, default_value_t = 10.0)]
        cap: f64,
        /// Take as many runs as the committed table's full mode (three at
        /// least, up to 25 within a second; without it, quick mode's up to 10
        /// within 200 ms), which steadies rows of a few microseconds.
        #[arg(long)]
        full: bool,
        /// Draw oscillators only, of this period and up (of 2, 3, 4, 5, 6,
        /// 8 and 15): the problems on which `auto` races CaDiCaL.
        #[arg(long, value_parser = clap::value_parser!(u64).range(2..=15))]
        oscillators_from: Option<u64>,
        /// Draw the oscillators' symmetry from all ten (the first draws
        /// knew five: none, both mirrors, all eight, the quarter and the
        /// half turn), so that a draw can hold single and diagonal mirrors.
        #[arg(long)]
        all_symmetries: bool,
    },
    /// One orphan-zoo solve in a child process (prints one JSON line).
    #[command(name = "__orphan", hide = true)]
    Orphan {
        file: PathBuf,
        #[arg(long)]
        solver: String,
    },
    /// Internal: solve a DIMACS or iCNF FILE and print one JSON line (the
    /// child process whose peak memory Table 6.3 measures).
    #[command(name = "__solve", hide = true)]
    Solve {
        file: PathBuf,
        #[arg(long)]
        solver: lifesearch::cnf::SolverKind,
    },
}

fn src_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

// ANCHOR: run_one
/// What [`run_one`] did with an experiment.
enum Outcome {
    Done,
    /// Nothing: its outputs are up to date for this code and mode.
    UpToDate,
}

/// Run one experiment (unless its outputs are up to date and it is not
/// forced) and record it in the manifest.
fn run_one(ctx: &Ctx, e: &dyn harness::Run, fp: &str, force: bool) -> Result<Outcome> {
    let mut manifest = Manifest::load_or_new(&ctx.root)?;
    let fresh = manifest.experiments.get(e.id()).is_some_and(|m| m.fingerprint == fp && m.mode == ctx.mode)
        && ctx.csv(e.id()).exists();
    if fresh && !force {
        return Ok(Outcome::UpToDate);
    }
    let t = Instant::now();
    let report = make_outputs(ctx, e, true)?;
    manifest = Manifest::load_or_new(&ctx.root)?;
    manifest.machine = harness::this_machine();
    manifest.experiments.insert(
        e.id().to_string(),
        Entry {
            fingerprint: fp.to_string(),
            commit: harness::commit(&src_root()),
            mode: ctx.mode,
            date: harness::now_utc(),
            seconds: t.elapsed().as_secs_f64(),
            report,
        },
    );
    harness::save_manifest(&ctx.root, &manifest)?;
    Ok(Outcome::Done)
}

/// Make `e`'s outputs in a stage folder beside the outputs: measured afresh
/// (`measure`; then its report), or redrawn from the committed CSV. Draw
/// from the CSV, check what was written, and only then move it into place:
/// a failure anywhere leaves the committed outputs as they were.
fn make_outputs(ctx: &Ctx, e: &dyn harness::Run, measure: bool) -> Result<Report> {
    std::fs::create_dir_all(&ctx.root)?;
    let stage = tempfile::Builder::new().prefix(".stage-").tempdir_in(&ctx.root)?;
    let staged = if measure { ctx.staged(e.id(), stage.path()) } else { ctx.redrawn(stage.path()) };
    let report = if measure { e.run(&staged)? } else { Report::default() };
    let rows = e.render(&staged)?;
    harness::check_drawn(&staged, e, rows, measure.then_some(report.rows))?;
    harness::publish(&staged, ctx, e)?;
    Ok(report)
}
// ANCHOR_END: run_one

/// Run the named experiments in the harness' order; `(no failure, every one
/// measured afresh)`. Any failure, or a missing or altered input, makes the
/// whole run fail (exit status 1), each with one line naming the experiment
/// (or the input) and the cause.
fn run_many(ctx: &Ctx, ids: &[String], force: bool) -> Result<(bool, bool)> {
    let all = exp::all();
    for id in ids {
        ensure!(all.iter().any(|e| e.id() == id), "unknown experiment '{id}' (see `experiments list`)");
    }
    // The thesis' data first: if it is not what was vendored, nothing is measured.
    if let Err(err) = thesis::verify_all(&ctx.thesis) {
        eprintln!("{:<24} FAILED: {}", "data/thesis", one_line(&err));
        return Ok((false, false));
    }
    let fp = harness::fingerprint(&src_root());
    let ctx = &ctx.measuring(&fp);
    let (mut failed, mut skipped) = (false, false);
    for e in all.iter().filter(|e| ids.iter().any(|i| i == e.id())) {
        let t = Instant::now();
        match run_one(ctx, e.as_ref(), &fp, force) {
            Ok(Outcome::Done) => eprintln!("{:<24} done in {:.1} s", e.id(), t.elapsed().as_secs_f64()),
            Ok(Outcome::UpToDate) => {
                eprintln!("{:<24} up to date (use --force to rerun)", e.id());
                skipped = true;
            }
            Err(err) => {
                eprintln!("{:<24} FAILED: {}", e.id(), one_line(&err));
                failed = true;
            }
        }
    }
    Ok((!failed, !skipped))
}

/// Apply `f` to each of `exps` that has a CSV, with `ctx` in the mode the
/// manifest says the CSV was measured in (so it is checked as its runner
/// checked it), and write one line per experiment to `out`, in `words`: (no
/// CSV, done, failed). Whether every one succeeded.
fn each_csv(
    ctx: &Ctx,
    exps: Vec<Box<dyn harness::Run>>,
    out: &mut dyn std::io::Write,
    words: [&str; 3],
    f: impl Fn(&Ctx, &dyn harness::Run) -> Result<()>,
) -> Result<bool> {
    let manifest = Manifest::load_or_new(&ctx.root)?;
    let mut ok = true;
    for e in exps {
        let said = if ctx.csv(e.id()).exists() {
            let mut ctx = ctx.clone();
            ctx.mode = manifest.experiments.get(e.id()).map_or(ctx.mode, |m| m.mode);
            match f(&ctx, e.as_ref()) {
                Ok(()) => words[1].to_string(),
                Err(err) => {
                    ok = false;
                    format!("{}: {}", words[2], one_line(&err))
                }
            }
        } else {
            words[0].to_string()
        };
        writeln!(out, "{:<24} {said}", e.id())?;
    }
    Ok(ok)
}

/// An error and its causes on one line.
fn one_line(err: &anyhow::Error) -> String {
    format!("{err:#}").replace('\n', " ")
}

// ANCHOR: book_hook
/// Build the book at the end of `all` (with the figures and tables just made).
fn build_book(ctx: &Ctx) -> bool {
    if !ctx.root.join("book/book.toml").exists() {
        eprintln!("book: no book/book.toml under {}; not built", ctx.root.display());
        return true;
    }
    let built = bookgen::build_book(&ctx.root);
    match &built {
        Ok(out) => eprintln!("book: built into {}", out.display()),
        Err(e) => eprintln!("book: FAILED: {e:#}"),
    }
    built.is_ok()
}
// ANCHOR_END: book_hook

fn main() {
    let cli = Cli::parse();
    match real_main(cli) {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::exit(2);
        }
    }
}

fn real_main(cli: Cli) -> Result<bool> {
    let root = match cli.root {
        Some(r) => r,
        None => src_root().canonicalize()?,
    };
    let mk = |full: bool| {
        let mode = match (cli.tiny, full) {
            (true, _) => Mode::Tiny,
            (false, true) => Mode::Full,
            (false, false) => Mode::Quick,
        };
        let mut ctx =
            Ctx::new(root.clone(), mode, src_root().join("target/lifesearch-cache"), !cli.quiet && !cli.tiny);
        if let Some(d) = &cli.thesis_data {
            ctx.thesis = d.clone();
        }
        ctx
    };
    match cli.cmd {
        Cmd::All { full, force } => {
            let ctx = mk(full);
            let start = Instant::now();
            let peak = harness::PeakMemory::watch();
            let ids: Vec<String> = exp::all().iter().map(|e| e.id().to_string()).collect();
            let (ok, measured) = run_many(&ctx, &ids, force)?;
            // A complete full run is what the README quotes.
            if ok && measured && ctx.mode == Mode::Full {
                harness::record_full_run(&ctx.root, start.elapsed().as_secs_f64(), peak.stop())?;
            }
            // The book is built from a complete, successful run only.
            Ok(ok && build_book(&ctx))
        }
        Cmd::Run { ids, full, force } => {
            ensure!(!ids.is_empty(), "run: name at least one experiment (see `experiments list`)");
            Ok(run_many(&mk(full), &ids, force)?.0)
        }
        Cmd::Patterns { dir, candidates: count } => {
            let ctx = mk(false);
            let (q, rank, _) = candidates::load_ranking(&ctx)?;
            let (b20, b40) = candidates::table_6_2_batches(&rank, q);
            std::fs::create_dir_all(&dir)?;
            if let Some(n) = count {
                let text: Vec<String> = candidates::candidates(&rank, q, 50)
                    .iter()
                    .take(n)
                    .map(|(_, g)| lifesearch::formats::knuth_rows::write(g))
                    .collect();
                harness::write_text(&dir.join("figure-6-1-candidates.txt"), &text.join("\n"))?;
                eprintln!("wrote {} candidates to {}", text.len(), dir.display());
            }
            for (side, batch) in [(20, b20), (40, b40)] {
                for (i, g) in batch.iter().enumerate() {
                    let path = dir.join(format!("table-6-2-{side}x{side}-{:02}.txt", i + 1));
                    harness::write_text(&path, &lifesearch::formats::knuth_rows::write(g))?;
                }
            }
            eprintln!("wrote 40 patterns to {}", dir.display());
            Ok(true)
        }
        Cmd::List => {
            let ctx = mk(false);
            let manifest = Manifest::load_or_new(&ctx.root)?;
            let fp = harness::fingerprint(&src_root());
            for e in exp::all() {
                let state = match manifest.experiments.get(e.id()) {
                    Some(m) => {
                        let fresh = if m.fingerprint == fp { "current" } else { "STALE" };
                        let commit = m.commit.get(..7).unwrap_or(&m.commit);
                        format!(
                            "{fresh:<7} {} run at {commit}, {} ({} rows)",
                            m.mode.name(),
                            m.date,
                            m.report.rows
                        )
                    }
                    None => "STALE   not run".into(),
                };
                println!("{:<24} {:<60} {state}", e.id(), e.title());
            }
            Ok(true)
        }
        Cmd::Zoo { out, seed } => {
            let out = out.unwrap_or_else(zoo::default_dir);
            let entries = zoo::generate(&zoo::default_dir(), &out, seed, &mk(false).bar(0, "zoo"))?;
            let orphans = entries.iter().filter(|e| e.verdict == "orphan").count();
            println!("{}: {} patterns, {orphans} orphans", out.display(), entries.len());
            Ok(true)
        }
        Cmd::SearchHeldOut { seed, count, out, cap, full, oscillators_from, all_symmetries } => {
            let cap = std::time::Duration::try_from_secs_f64(cap)
                .map_err(|e| anyhow::anyhow!("--cap {cap}: {e}"))?;
            let report = exp::search_vs_peers::run_held_out(
                seed,
                count,
                (oscillators_from, all_symmetries),
                cap,
                full,
                &out,
            )?;
            println!("{report}");
            Ok(true)
        }
        Cmd::Orphan { file, solver } => {
            let report = exp::orphan_zoo::child(&file, &solver)?;
            println!("{}", serde_json::to_string(&report)?);
            Ok(true)
        }
        Cmd::Solve { file, solver } => {
            let report = lifesearch::cnf::child::serve(&file, solver)?;
            println!("{}", serde_json::to_string(&report)?);
            Ok(true)
        }
        Cmd::Check => {
            each_csv(&mk(false), exp::all(), &mut std::io::stdout(), ["no output", "ok", "BAD"], |ctx, e| {
                harness::check_outputs(ctx, e, None)
            })
        }
        Cmd::Plot { ids } => {
            // A figure's own id (`orphan-zoo-patterns`) names the experiment that draws it.
            let all = exp::all();
            let mut owners = Vec::new();
            for id in &ids {
                let owns = |e: &&str| id == e || id.strip_prefix(e).is_some_and(|rest| rest.starts_with('-'));
                let Some(owner) = all.iter().map(|e| e.id()).filter(owns).max_by_key(|e| e.len()) else {
                    bail!("unknown experiment or figure '{id}' (see `experiments list`)");
                };
                owners.push(owner);
            }
            let exps = all.into_iter().filter(|e| ids.is_empty() || owners.contains(&e.id())).collect();
            let words = ["no CSV yet; nothing to draw", "redrawn", "FAILED"];
            each_csv(&mk(false), exps, &mut std::io::stderr(), words, |ctx, e| {
                make_outputs(ctx, e, false).map(drop)
            })
        }
    }
}
