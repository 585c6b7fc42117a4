//! `lifesearch census W H`: count the W x H orphans of a rule exhaustively
//! (shards, checkpoints, a progress bar), and `lifesearch census merge` to sum
//! the shards' results.

use crate::automaton::census::{Census, CensusOptions, census, merge, orphan_line};
use crate::automaton::shard::Shard;
use crate::life::Rule;
use anyhow::Context;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `lifesearch census`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    pub merge: Option<Sub>,
    /// Width of the box (the shorter side 1 to 6; the longer at most 7 for six, 8 for five, 10 for four, 12 for three, 20 for two, 40 for one cell).
    #[arg(required = true)]
    pub width: Option<usize>,
    /// Height of the box (the shorter side 1 to 6; the longer at most 7 for six, 8 for five, 10 for four, 12 for three, 20 for two, 40 for one cell).
    #[arg(required = true)]
    pub height: Option<usize>,
    /// The rule, e.g. B3/S23 or B36/S23.
    #[arg(long, default_value = "B3/S23")]
    pub rule: Rule,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Compute only the K-th of N independent shares of the work (1-based), e.g. 3/8.
    #[arg(long, default_value = "1/1")]
    pub shard: Shard,
    /// Save progress to FILE every few seconds, and resume from it if it exists.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Write the orphans to FILE, one per line as rows of `.` and `*` joined by `/`.
    #[arg(short = 'o', value_name = "ORPHANS")]
    pub orphans: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Sum the JSON results of every shard of one census (refusing mismatched or missing shards).
    Merge {
        /// The shards' `--json` outputs.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

fn print(c: &Census, json: bool) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string(c)?);
        return Ok(());
    }
    let shard = if c.shard_n > 1 { format!(" (shard {}/{})", c.shard_k, c.shard_n) } else { String::new() };
    println!(
        "{}x{} {}{shard}: {} orphans of {} targets, checksum {}",
        c.width, c.height, c.rule, c.orphans, c.targets, c.checksum
    );
    println!(
        "{:.2} s, peak memory {:.1} MB; {} top and {} bottom classes, {} class pairs tested ({} past the filter)",
        c.seconds,
        c.peak_memory_bytes as f64 / 1e6,
        c.classes_top,
        c.classes_bottom,
        c.tests,
        c.full_tests
    );
    println!(
        "spot checks passed: {} random parents, {} random targets, {} orphans re-decided by the automaton",
        c.checks.random_parents, c.checks.random_targets, c.checks.orphans_redecided
    );
    Ok(())
}

fn progress_bar() -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("census [{elapsed_precise}] {wide_bar} {percent}% ETA {eta}")
            .expect("valid template"),
    );
    bar
}

pub fn run(a: Args) -> anyhow::Result<()> {
    if let Some(Sub::Merge { files, json }) = a.merge {
        let parts = files
            .iter()
            .map(|f| {
                let text = crate::fsutil::read_text(f)?;
                serde_json::from_str::<Census>(&text)
                    .with_context(|| format!("{}: not the --json output of lifesearch census", f.display()))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        return print(&merge(&parts)?, json);
    }
    let (width, height) = (a.width.expect("required"), a.height.expect("required"));
    let bar = progress_bar();
    let report = |done: u64, total: u64| {
        bar.set_length(total);
        bar.set_position(done);
    };
    let options = CensusOptions {
        shard: a.shard,
        checkpoint: a.checkpoint.clone(),
        checkpoint_every: Duration::from_secs(5),
        list_orphans: a.orphans.is_some(),
        progress: Some(&report),
        ..CensusOptions::new(width, height, a.rule)
    };
    let threads = a.threads.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let (result, orphans) = pool.install(|| census(&options))?;
    bar.finish_and_clear();
    if let Some(path) = &a.orphans {
        let mut text = String::with_capacity(orphans.len() * (width + 1) * height);
        for &t in &orphans {
            text += &orphan_line(width, height, t);
            text.push('\n');
        }
        crate::fsutil::atomic_write(path, text.as_bytes())?;
    }
    print(&result, a.json)
}
