//! `lifesearch orphan FILE`: does this pattern (with `?` cells) have a parent?
//! Answered by a SAT solver or by GRIDWALKER; a predecessor is only ever
//! printed after it has been evolved into the pattern.

use crate::cnf::{Outcome, SolverKind, new_solver};
use crate::error::Location;
use crate::gridwalker::{self, Convention, Variant};
use crate::life::{Cell, Grid, Rule, SpecGrid};
use crate::search::encode::effective_target;
use crate::search::{Boundary, Encoding, Problem, encode, solve};
use anyhow::bail;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A solver for the orphan question: a SAT solver or GRIDWALKER.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrphanSolver {
    Sat(SolverKind),
    Gridwalker,
}

impl OrphanSolver {
    pub fn name(self) -> &'static str {
        match self {
            OrphanSolver::Sat(k) => k.name(),
            OrphanSolver::Gridwalker => "gridwalker",
        }
    }
}

/// Parse a solver name for the command line.
pub fn parse_orphan_solver(s: &str) -> Result<OrphanSolver, String> {
    if s == "gridwalker" {
        return Ok(OrphanSolver::Gridwalker);
    }
    s.parse::<SolverKind>().map(OrphanSolver::Sat).map_err(|_| {
        format!(
            "unknown solver '{s}' (known: cadical, batsat, varisat, kissat, minisat, glucose, gridwalker)"
        )
    })
}

/// Arguments of `lifesearch orphan`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pattern: rows of `.` (dead), `*` (alive) and `?` (unknown).
    pub file: PathBuf,
    /// cadical (default), batsat, varisat, kissat, minisat, glucose (the last
    /// three need the `extra-solvers` feature) or gridwalker.
    #[arg(long, default_value = "cadical", value_parser = parse_orphan_solver)]
    pub solver: OrphanSolver,
    /// How a SAT solver sees one Life step.
    #[arg(long, value_enum, default_value_t)]
    pub encoding: Encoding,
    /// Surround the pattern with a ring of dead cells (a Garden of Eden in the strict sense).
    #[arg(long)]
    pub dead_surroundings: bool,
    /// GRIDWALKER's GridSolve variant.
    #[arg(long, value_enum, default_value_t)]
    pub variant: Variant,
    /// GRIDWALKER's pixel numbering.
    #[arg(long, value_enum, default_value_t)]
    pub convention: Convention,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Read a search target: rows of `.`, `*` and `?` (lines starting with `#`
/// or `!` are comments), or any pattern format the formats module reads. A
/// `?` decides only where it stands in a row, not in a comment (an RLE file
/// may well carry a URL with a `?` in its `#C` lines).
pub fn read_target(path: &Path) -> anyhow::Result<SpecGrid> {
    let text = crate::fsutil::read_text(path)?;
    let loc = Location::file(path);
    // Comment lines become blank lines, so errors keep their line numbers.
    let rows: String = text
        .lines()
        .map(|l| if l.starts_with('#') || l.starts_with('!') { "" } else { l })
        .collect::<Vec<_>>()
        .join("\n");
    let rows_only = rows.chars().all(|c| matches!(c, '.' | '*' | '?' | 'O' | 'o' | '\n' | '\r' | ' ' | '\t'));
    let header = rows.lines().any(|l| l.trim_start().starts_with("x ") || l.trim_start().starts_with("x="));
    if rows_only || (rows.contains('?') && !header) {
        return Ok(crate::formats::knuth_rows::parse_spec(&loc, &rows)?);
    }
    let p = crate::formats::read_pattern(path)?;
    Ok(SpecGrid::from(&p.grid))
}

/// The answer before printing.
struct Report {
    orphan: bool,
    predecessor: Option<Grid>,
    millis: f64,
    stats: serde_json::Map<String, serde_json::Value>,
}

fn with_sat(
    kind: SolverKind,
    target: &SpecGrid,
    boundary: Boundary,
    encoding: Encoding,
) -> anyhow::Result<Report> {
    let problem = Problem::orphan(target.clone(), boundary);
    let mut solver = new_solver(kind)?;
    let start = Instant::now();
    let enc = encode(&problem, encoding, Rule::CONWAY)?;
    let encode_millis = start.elapsed().as_secs_f64() * 1e3;
    // `millis` is the solver's time (loading the clauses and solving); building
    // the clauses is reported beside the counters.
    let a = solve(&enc, solver.as_mut())?;
    let millis = a.millis;
    let mut stats = serde_json::to_value(&a.stats)?.as_object().cloned().unwrap_or_default();
    stats.insert("encode_millis".into(), encode_millis.into());
    match a.outcome {
        Outcome::Sat => {
            Ok(Report { orphan: false, predecessor: a.generations.into_iter().next(), millis, stats })
        }
        Outcome::Unsat => Ok(Report { orphan: true, predecessor: None, millis, stats }),
        Outcome::Unknown => bail!("{kind} gave up without an answer"),
    }
}

fn with_gridwalker(target: &SpecGrid, variant: Variant, convention: Convention) -> anyhow::Result<Report> {
    let start = Instant::now();
    let answer = gridwalker::decide_orphan(target, &gridwalker::Options { variant, convention })?;
    let millis = start.elapsed().as_secs_f64() * 1e3;
    let stats = answer.stats.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(*v))).collect();
    Ok(Report { orphan: answer.predecessor.is_none(), predecessor: answer.predecessor, millis, stats })
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let target = read_target(&a.file)?;
    let boundary = if a.dead_surroundings { Boundary::Dead } else { Boundary::Free };
    if let OrphanSolver::Sat(kind) = a.solver
        && !kind.available()
    {
        new_solver(kind)?; // the clear "not compiled in" error
    }
    let report = match a.solver {
        OrphanSolver::Sat(kind) => with_sat(kind, &target, boundary, a.encoding)?,
        OrphanSolver::Gridwalker => {
            with_gridwalker(&effective_target(&target, boundary), a.variant, a.convention)?
        }
    };
    // Every predecessor was checked by simulation inside the library.
    if a.json {
        let v = serde_json::json!({
            "orphan": report.orphan,
            "predecessor": report.predecessor.as_ref().map(|g| g.to_rows()),
            "solver": a.solver.name(),
            "millis": report.millis,
            "stats": report.stats,
        });
        println!("{v}");
    } else {
        let unknown = target.cells.iter().filter(|&&c| c == Cell::Unknown).count();
        println!(
            "{}x{} pattern ({unknown} unknown cells): {} ({} in {:.3} ms)",
            target.width,
            target.height,
            if report.orphan { "orphan" } else { "has a predecessor" },
            a.solver.name(),
            report.millis
        );
        if let Some(p) = &report.predecessor {
            for row in p.to_rows() {
                println!("{row}");
            }
        }
    }
    Ok(())
}
