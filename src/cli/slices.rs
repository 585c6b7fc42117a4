//! `lifesearch slices`: the constellation count of every slice after the first
//! GridSolve (the thesis' Figure 5.9 B), and with `--min` the slice the search
//! would pivot on, split by its centre pixel (Figure 5.10).

use crate::error::Location;
use crate::formats::knuth_rows;
use crate::gridwalker::{Convention, first_solve};
use crate::life::Rule;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `lifesearch slices`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The target: rows of `.` (dead), `*` (alive) and `?` (unknown).
    pub file: PathBuf,
    /// Also print the minimal slice: its size and how many of its
    /// constellations have the centre pixel alive and dead.
    #[arg(long)]
    pub min: bool,
    /// How the nine pixels of a slice are numbered (the counts do not depend on it).
    #[arg(long, value_enum, default_value_t)]
    pub convention: Convention,
    /// The rule, as B3/S23 or 23/3.
    #[arg(long, default_value = "B3/S23")]
    pub rule: Rule,
}

// ANCHOR: slices_run
pub fn run(args: Args) -> anyhow::Result<()> {
    let text = crate::fsutil::read_text(&args.file)?;
    let target = knuth_rows::parse_spec(&Location::file(&args.file), &text)?;
    let report = first_solve(&target, args.rule, args.convention);
    let mut out = String::new();
    for row in report.sizes.chunks(report.width.max(1)) {
        let cells: Vec<String> = row.iter().map(|n| n.to_string()).collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    if args.min {
        match report.min {
            Some((x, y, size, on, off)) => {
                out.push_str(&format!("min {size} at x={x} y={y}: centre alive {on}, centre dead {off}\n"))
            }
            None => out.push_str("min none: no slice has two or more constellations\n"),
        }
    }
    if report.contradiction {
        out.push_str("contradiction: a slice is empty, the pattern is an orphan\n");
    }
    std::io::stdout().lock().write_all(out.as_bytes())?;
    Ok(())
}
// ANCHOR_END: slices_run
