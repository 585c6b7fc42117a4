//! `lifesearch orphan-width H`: is there an orphan H rows high at any width?
//! Proves "none at any width" (with a certificate), finds the narrowest one
//! (verified by the column automaton and by CaDiCaL), or proves a lower bound
//! when it stops. `lifesearch orphan-width check FILE` checks a certificate.
//!
//! Book: Part IV, "Orphans of every width" (`book/src/beyond/width.md`).

use crate::automaton::lookahead::{LookaheadOptions, LookaheadVerdict, prove, write_proof};
use crate::automaton::width::{
    GIB, NextWidth, Verdict, WidthOptions, WidthResult, search, write_certificate,
};
use crate::automaton::{certificate, lookahead_check};
use crate::life::Rule;
use anyhow::{Context, bail};
use std::path::PathBuf;

/// Arguments of `lifesearch orphan-width`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The height H (1..=6), or `check` to check a certificate FILE.
    pub height: String,
    /// With `check`: the certificate to check.
    pub file: Option<PathBuf>,
    /// The rule.
    #[arg(long, default_value = "B3/S23")]
    pub rule: Rule,
    /// Stop after proving that no orphan is at most this wide.
    #[arg(long)]
    pub max_width: Option<usize>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Save the search after every width here, and resume from it when it exists.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Stop with a lower bound when the kept state sets pass this many GiB.
    #[arg(long, default_value_t = 8.0)]
    pub memory_gib: f64,
    /// Stop with a lower bound after this many seconds.
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Subset tests per member when the closed family is shrunk to a
    /// certificate (larger finds more members inside others and writes a
    /// smaller certificate; 0 writes every distinct set).
    #[arg(long, default_value_t = 64)]
    pub budget: usize,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write the certificate (when none exists at any width) or the orphan's
    /// rows (when one is found) to this file.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// No progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Prove "none at any width" with a lookahead proof set instead (after
    /// Eker): positions are a state and the next K target columns; heights
    /// 1..=4. `-o` then writes the proof set, which `check` reads too.
    #[arg(long, value_name = "K")]
    pub lookahead: Option<usize>,
    /// With `--lookahead`: the parent columns a member may take to return to
    /// the proof set.
    #[arg(long, value_name = "D", default_value_t = 12, requires = "lookahead")]
    pub depth: usize,
}

fn run_check(file: Option<PathBuf>, json: bool) -> anyhow::Result<()> {
    let Some(file) = file else { bail!("orphan-width check needs a certificate FILE") };
    let c = if lookahead_check::is_proof_file(&file)? {
        lookahead_check::check_file(&file)?
    } else {
        certificate::check_file(&file)?
    };
    if json {
        println!(
            "{}",
            serde_json::json!({"valid": true, "rule": c.rule, "height": c.height, "members": c.members})
        );
    } else {
        println!(
            "{}: valid: no {} orphan {} rows high exists at any width ({} members checked)",
            file.display(),
            c.rule,
            c.height,
            c.members
        );
    }
    Ok(())
}

pub fn run(a: Args) -> anyhow::Result<()> {
    if a.height == "check" {
        return run_check(a.file, a.json);
    }
    let height: usize = a
        .height
        .parse()
        .map_err(|_| anyhow::anyhow!("expected a height 1..=6 or 'check', not '{}'", a.height))?;
    if a.file.is_some() {
        bail!("a FILE is only read by 'orphan-width check FILE'");
    }
    if a.memory_gib.is_nan() || a.memory_gib <= 0.0 {
        bail!("--memory-gib must be positive");
    }
    if let Some(k) = a.lookahead {
        return run_lookahead(&a, height, k);
    }
    let o = WidthOptions {
        rule: a.rule,
        height,
        max_width: a.max_width,
        memory_cap_bytes: (a.memory_gib * GIB) as u64,
        time_limit_s: a.time_limit,
        checkpoint: a.checkpoint.clone(),
        progress: !a.quiet,
        budget: a.budget,
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(a.threads.unwrap_or(0)).build()?;
    let (result, automaton, family) = pool.install(|| search(&o))?;
    let mut certificate_members = None;
    match &result.verdict {
        Verdict::NoneAtAnyWidth { .. } => {
            if let Some(path) = &a.output {
                certificate_members = Some(write_streamed(path, |out| {
                    write_certificate(&automaton, &family, a.rule, out).map_err(anyhow::Error::from)
                })?);
            }
        }
        Verdict::Narrowest { rows, .. } => {
            crate::search::sat::verify_orphan(rows, a.rule).context("verifying the orphan found")?;
            if let Some(path) = &a.output {
                crate::fsutil::atomic_write(path, format!("{}\n", rows.join("\n")).as_bytes())?;
            }
        }
        Verdict::LowerBound { .. } => {}
    }
    print(&result, certificate_members, a.json, a.output.as_ref());
    Ok(())
}

/// `--lookahead K`: the greatest closed proof set for K and `--depth`.
fn run_lookahead(a: &Args, height: usize, lookahead: usize) -> anyhow::Result<()> {
    if a.max_width.is_some() || a.checkpoint.is_some() {
        bail!("--max-width and --checkpoint belong to the subset-construction search, not --lookahead");
    }
    let o = LookaheadOptions {
        rule: a.rule,
        height,
        lookahead,
        depth: a.depth,
        time_limit_s: a.time_limit,
        progress: !a.quiet,
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(a.threads.unwrap_or(0)).build()?;
    let (r, p) = pool.install(|| prove(&o))?;
    let mut written = None;
    if let (LookaheadVerdict::NoneAtAnyWidth, Some(path)) = (&r.verdict, &a.output) {
        written = Some(write_streamed(path, |out| write_proof(&p, out).map_err(anyhow::Error::from))?);
    }
    if a.json {
        let members = written.map(|m| m as usize);
        println!("{}", with_extras(&r, members, a.output.as_ref().filter(|_| written.is_some())));
        return Ok(());
    }
    let what = match r.verdict {
        LookaheadVerdict::NoneAtAnyWidth => format!(
            "no orphan at any width (a closed proof set of {} members; {})",
            r.members,
            match written {
                Some(_) => "written",
                None => "not written: pass -o FILE",
            }
        ),
        LookaheadVerdict::NotProved { window } => {
            format!("not proved with these K and D (window {window} lost its last member); this is no orphan")
        }
        LookaheadVerdict::Stopped { after_passes } => {
            format!("stopped by the time limit after {after_passes} passes")
        }
    };
    println!("{} H={} K={} D={}: {what}", r.rule, r.height, r.lookahead, r.depth);
    println!("{:.3} s, {} passes, {} sets visited", r.seconds, r.passes, r.nodes);
    Ok(())
}

/// Write a file that may be larger than memory should hold at once: through
/// a buffer into a temporary file beside it, renamed when complete.
fn write_streamed<T>(
    path: &std::path::Path,
    body: impl FnOnce(&mut std::io::BufWriter<&mut tempfile::NamedTempFile>) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    use std::io::Write;
    let mut tmp = crate::fsutil::temp_beside(path, "").with_context(|| format!("{}", path.display()))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, &mut tmp);
    let v = body(&mut out)?;
    out.flush().with_context(|| format!("{}", path.display()))?;
    drop(out);
    tmp.persist(path).with_context(|| format!("{}", path.display()))?;
    Ok(v)
}

/// A result as JSON with what both proofs add: the members written, the
/// peak memory, and the file written (if any).
fn with_extras(
    r: &impl serde::Serialize,
    written: Option<usize>,
    output: Option<&PathBuf>,
) -> serde_json::Value {
    let mut v = serde_json::to_value(r).expect("a plain struct");
    v["certificate_members"] = written.into();
    v["peak_rss_bytes"] = crate::automaton::census::peak_memory().into();
    if let Some(p) = output {
        v["output"] = p.display().to_string().into();
    }
    v
}

fn print(r: &WidthResult, certificate_members: Option<usize>, json: bool, output: Option<&PathBuf>) {
    if json {
        println!("{}", with_extras(r, certificate_members, output));
        return;
    }
    match &r.verdict {
        Verdict::NoneAtAnyWidth { closed_at } => println!(
            "{} H={}: no orphan at any width (search closed at width {closed_at}; {} sets kept; {})",
            r.rule,
            r.height,
            r.members,
            match certificate_members {
                Some(m) => format!("certificate of {m} members written"),
                None => "no certificate written: pass -o FILE".to_string(),
            }
        ),
        Verdict::Narrowest { width, rows } => {
            println!(
                "{} H={}: the narrowest orphan is {width} wide (verified by the automaton and CaDiCaL):",
                r.rule, r.height
            );
            for row in rows {
                println!("{row}");
            }
        }
        Verdict::LowerBound { width, stopped_by } => {
            println!(
                "{} H={}: no orphan at most {width} wide (stopped by {stopped_by}; {} sets kept)",
                r.rule, r.height, r.members
            );
            if let NextWidth { growth: Some(growth), next_layer_gib: Some(gib) } = r.next {
                // Small searches cost MiB, not a tenth of a GiB.
                let cost =
                    if gib >= 1.0 { format!("{gib:.1} GiB") } else { format!("{:.1} MiB", gib * 1024.0) };
                println!(
                    "new sets per width: {}; the last grew {growth:.1}-fold, so width {} would take about {cost} more",
                    r.layers.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", "),
                    width + 1,
                );
            }
        }
    }
    println!("{:.3} s, frontier peak {}, {} successors", r.seconds, r.frontier_peak, r.successors);
}
