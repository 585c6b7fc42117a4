//! `lifesearch knuth`: Knuth's three clause generators, with his output
//! format (byte for byte) or DIMACS.

use crate::error::Location;
use crate::knuth::{self, Listing};
use anyhow::Context;
use std::io::{Read, Write};

/// Arguments of `lifesearch knuth`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub program: Program,
    /// Write standard DIMACS CNF (with a `c N name` line per variable) instead of Knuth's text.
    #[arg(long, global = true)]
    pub dimacs: bool,
}

#[derive(Debug, clap::Subcommand)]
pub enum Program {
    /// SAT-LIFE: the step from time T of the pattern on stdin (rows of `.` and `*`).
    #[command(name = "sat-life")]
    SatLife {
        /// The time, 0 to 82.
        #[arg(allow_negative_numbers = true)]
        t: i64,
    },
    /// SAT-LIFE-GRID-CYCLE: a period-R oscillator caged in an M x N grid.
    #[command(name = "grid-cycle")]
    GridCycle {
        #[arg(allow_negative_numbers = true)]
        m: i64,
        #[arg(allow_negative_numbers = true)]
        n: i64,
        #[arg(allow_negative_numbers = true)]
        r: i64,
    },
    /// SAT-LIFE-GRIDQUAD-CYCLE: as grid-cycle, with horizontal and vertical mirror symmetry.
    #[command(name = "gridquad-cycle")]
    GridquadCycle {
        #[arg(allow_negative_numbers = true)]
        m: i64,
        #[arg(allow_negative_numbers = true)]
        n: i64,
        #[arg(allow_negative_numbers = true)]
        r: i64,
    },
}

/// Run one of the programs and print its clauses on stdout.
pub fn run(args: Args) -> anyhow::Result<()> {
    let listing: Listing = match args.program {
        Program::SatLife { t } => {
            let mut bytes = Vec::new();
            std::io::stdin().read_to_end(&mut bytes).context("reading the pattern from <stdin>")?;
            let loc = Location::new("<stdin>", None);
            let text = crate::fsutil::text_from_bytes("<stdin>", bytes)?;
            let pattern = knuth::sat_life::read_pattern(&loc, &text)?;
            knuth::sat_life::listing(&pattern, t)?
        }
        Program::GridCycle { m, n, r } => knuth::grid_cycle::listing(m, n, r)?,
        Program::GridquadCycle { m, n, r } => knuth::gridquad_cycle::listing(m, n, r)?,
    };
    let text = if args.dimacs { knuth::write_dimacs(&listing) } else { knuth::write_knuth(&listing) };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|_| out.flush()).context("writing to <stdout>")?;
    Ok(())
}
