//! `lifesearch cnf`: write the CNF of a search problem as DIMACS, Knuth's
//! text, or an incremental iCNF script; and the hidden `cnf __solve FILE`
//! that `lifesearch::cnf::child::solve_in_child` runs in a child process.

use crate::cli::orphan::read_target;
use crate::cli::search::{CycleArgs, Kind};
use crate::cnf::{IcnfScript, SolverKind, dimacs, knuth_format};
use crate::life::Rule;
use crate::search::incremental::PredecessorStream;
use crate::search::{Boundary, Problem, encode};
use anyhow::{bail, ensure};
use std::path::PathBuf;

/// Which problem to encode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum What {
    /// Predecessor of the pattern FILE (with `--icnf`: of every FILE in turn).
    Orphan,
    StillLife,
    Oscillator,
    Spaceship,
    /// Internal: solve a DIMACS or iCNF FILE and print JSON (used to measure memory).
    #[value(name = "__solve", hide = true)]
    Solve,
}

/// Output text format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum CnfFormat {
    #[default]
    Dimacs,
    /// Knuth's lines of named literals.
    Knuth,
}

/// Arguments of `lifesearch cnf`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(value_enum)]
    pub what: What,
    /// Pattern files (orphan).
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub cycle: CycleArgs,
    /// Surround the pattern with dead cells (orphan).
    #[arg(long)]
    pub dead_surroundings: bool,
    /// Write Wieringa's incremental format: one formula, one `a` line per pattern.
    #[arg(long)]
    pub icnf: bool,
    #[arg(long, value_enum, default_value_t)]
    pub format: CnfFormat,
    /// Output file (default: standard output). Written atomically.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Solver for `__solve`.
    #[arg(long, default_value = "cadical", hide = true)]
    pub solver: SolverKind,
}

fn emit(a: &Args, text: String) -> anyhow::Result<()> {
    match &a.output {
        Some(p) => crate::fsutil::atomic_write(p, text.as_bytes())?,
        None => print!("{text}"),
    }
    Ok(())
}

/// The child side of the memory measurement: solve, print JSON, exit.
fn solve_file(a: &Args) -> anyhow::Result<()> {
    ensure!(a.files.len() == 1, "__solve takes one file");
    let report = crate::cnf::child::serve(&a.files[0], a.solver)?;
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

pub fn run(a: Args) -> anyhow::Result<()> {
    if a.what == What::Solve {
        return solve_file(&a);
    }
    let boundary = if a.dead_surroundings { Boundary::Dead } else { Boundary::Free };
    let problem = match a.what {
        What::Orphan => {
            ensure!(!a.files.is_empty(), "orphan needs a pattern FILE");
            if a.icnf {
                let targets = a.files.iter().map(|f| read_target(f)).collect::<anyhow::Result<Vec<_>>>()?;
                ensure!(boundary == Boundary::Free, "--icnf streams use free surroundings");
                let (w, h) = (targets[0].width(), targets[0].height());
                for (t, f) in targets.iter().zip(&a.files) {
                    ensure!(
                        (t.width(), t.height()) == (w, h),
                        "{}: a {}x{} pattern in a stream of {w}x{h} patterns",
                        f.display(),
                        t.width(),
                        t.height()
                    );
                }
                return emit(
                    &a,
                    PredecessorStream::icnf_for(
                        w,
                        h,
                        Rule::CONWAY,
                        a.cycle.encoding.unwrap_or_default(),
                        &targets,
                    )?
                    .write(),
                );
            }
            ensure!(a.files.len() == 1, "orphan takes one FILE (or several with --icnf)");
            Problem::orphan(read_target(&a.files[0])?, boundary)
        }
        What::StillLife => a.cycle.problem(Kind::StillLife)?,
        What::Oscillator => a.cycle.problem(Kind::Oscillator)?,
        What::Spaceship => a.cycle.problem(Kind::Spaceship)?,
        What::Solve => unreachable!("handled above"),
    };
    if a.what != What::Orphan && !a.files.is_empty() {
        bail!("pattern files only go with 'orphan'");
    }
    let enc = encode(&problem, a.cycle.encoding.unwrap_or_default(), Rule::CONWAY)?;
    if a.icnf {
        let mut script = IcnfScript::default();
        script.items.extend(enc.formula.clauses().iter().cloned().map(crate::cnf::IcnfItem::Clause));
        script.items.push(crate::cnf::IcnfItem::Assume(Vec::new()));
        return emit(&a, script.write());
    }
    let text = match a.format {
        CnfFormat::Dimacs => dimacs::write(&enc.formula),
        CnfFormat::Knuth => knuth_format::write(&enc.formula),
    };
    emit(&a, text)
}
