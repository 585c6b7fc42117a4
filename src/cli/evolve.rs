//! `lifesearch evolve`: run a pattern forward and print where it ends up.

use crate::formats::{Format, Pattern};
use crate::life::{self, Algorithm, Grid, Rule, Topology};
use anyhow::{Context, bail};
use std::path::PathBuf;

/// Arguments of `lifesearch evolve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pattern file.
    pub file: PathBuf,
    /// How many generations to run.
    #[arg(short, long)]
    pub generations: u64,
    /// Which engine evolves the pattern (all give identical results).
    #[arg(long, value_enum, default_value = "lifecube")]
    pub algorithm: Algorithm,
    /// The rule, as B3/S23 or WinLife's 23/3; default: the file's rule, else Conway's.
    #[arg(long)]
    pub rule: Option<Rule>,
    /// Run on a W x H torus (e.g. 200x200, WinLife's board); the input's top-left
    /// cell is torus cell (0, 0). Without it the plane is unbounded.
    #[arg(long, value_name = "WxH")]
    pub torus: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "txt")]
    pub to: Format,
}

/// Parse `WxH` into positive sizes.
pub fn parse_size(s: &str) -> anyhow::Result<(usize, usize)> {
    let (w, h) =
        s.split_once(['x', 'X']).with_context(|| format!("size '{s}': expected WxH, e.g. 200x200"))?;
    let w: usize = w.trim().parse().with_context(|| format!("size '{s}': bad width"))?;
    let h: usize = h.trim().parse().with_context(|| format!("size '{s}': bad height"))?;
    if w == 0 || h == 0 {
        bail!("size '{s}': width and height must be at least 1");
    }
    if w > life::grid::MAX_SIDE || h > life::grid::MAX_SIDE {
        bail!("size '{s}': at most {} on a side", life::grid::MAX_SIDE);
    }
    Ok((w, h))
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let p = super::convert::read_with_warnings(&a.file)?;
    let rule = a.rule.or(p.rule).unwrap_or(Rule::CONWAY);
    let out = match &a.torus {
        Some(size) => {
            let (w, h) = parse_size(size)?;
            if p.grid.width() > w || p.grid.height() > h {
                bail!(
                    "{}: pattern is {}x{}, larger than the {w}x{h} torus",
                    a.file.display(),
                    p.grid.width(),
                    p.grid.height()
                );
            }
            let mut g = Grid::new(w, h);
            for (x, y) in p.grid.live_cells() {
                g.set(x, y, true);
            }
            let g = life::evolve(&g, rule, Topology::Torus, a.generations, a.algorithm);
            Pattern { grid: g, rule: p.rule.or(a.rule), ..p }
        }
        None => {
            let (g, (dx, dy)) = life::evolve_unbounded(&p.grid, rule, a.generations, a.algorithm);
            Pattern { grid: g, origin: (p.origin.0 + dx, p.origin.1 + dy), rule: p.rule.or(a.rule), ..p }
        }
    };
    print!("{}", super::convert::render(&out, a.to)?);
    Ok(())
}
