//! `lifesearch orphan-width H`: is there an orphan H rows high at any width?
//! Proves "none at any width" (with a certificate), finds the narrowest one
//! (verified by the column automaton and by CaDiCaL), or proves a lower bound
//! when it stops. `lifesearch orphan-width check FILE` checks a certificate.
//!
//! Book: Part IV, "Orphans of every width" (`book/src/beyond/width.md`).

use crate::automaton::certificate;
use crate::automaton::width::{Verdict, WidthOptions, WidthResult, search, write_certificate};
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
}

fn run_check(file: Option<PathBuf>, json: bool) -> anyhow::Result<()> {
    let Some(file) = file else { bail!("orphan-width check needs a certificate FILE") };
    let c = certificate::check_file(&file)?;
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
    let o = WidthOptions {
        rule: a.rule,
        height,
        max_width: a.max_width,
        memory_cap_bytes: (a.memory_gib * (1u64 << 30) as f64) as u64,
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

/// Write a file that may be larger than memory should hold at once: through
/// a buffer into a temporary file beside it, renamed when complete.
fn write_streamed<T>(
    path: &std::path::Path,
    body: impl FnOnce(&mut std::io::BufWriter<&mut tempfile::NamedTempFile>) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).with_context(|| format!("{}", path.display()))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, &mut tmp);
    let v = body(&mut out)?;
    out.flush().with_context(|| format!("{}", path.display()))?;
    drop(out);
    tmp.persist(path).with_context(|| format!("{}", path.display()))?;
    Ok(v)
}

fn print(r: &WidthResult, certificate_members: Option<usize>, json: bool, output: Option<&PathBuf>) {
    if json {
        let mut v = serde_json::to_value(r).expect("a plain struct");
        v["certificate_members"] = certificate_members.into();
        v["peak_rss_bytes"] = crate::automaton::census::peak_memory().into();
        if let Some(p) = output {
            v["output"] = p.display().to_string().into();
        }
        println!("{v}");
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
        Verdict::LowerBound { width, stopped_by } => println!(
            "{} H={}: no orphan at most {width} wide (stopped by {stopped_by}; {} sets kept)",
            r.rule, r.height, r.members
        ),
    }
    println!("{:.3} s, frontier peak {}, {} successors", r.seconds, r.frontier_peak, r.successors);
}
