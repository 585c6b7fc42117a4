//! `lifesearch orphan FILE`: does this pattern (with `?` cells) have a parent?
//! Answered by a SAT solver, by GRIDWALKER, or by the column automaton (for
//! patterns at most six cells on one side); a predecessor is only ever
//! printed after it has been evolved into the pattern.

use crate::cnf::{Outcome, SolverKind, new_solver};
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
    /// The column automaton of `crate::automaton` (any Life-like rule).
    Automaton,
    /// The portfolio of `crate::search::portfolio`: the automaton where it
    /// applies, else GRIDWALKER and CaDiCaL racing on two threads.
    Auto,
}

impl OrphanSolver {
    pub fn name(self) -> &'static str {
        match self {
            OrphanSolver::Sat(k) => k.name(),
            OrphanSolver::Gridwalker => "gridwalker",
            OrphanSolver::Automaton => "automaton",
            OrphanSolver::Auto => "auto",
        }
    }
}

/// Parse a solver name for the command line.
pub fn parse_orphan_solver(s: &str) -> Result<OrphanSolver, String> {
    if s == "gridwalker" {
        return Ok(OrphanSolver::Gridwalker);
    }
    if s == "automaton" {
        return Ok(OrphanSolver::Automaton);
    }
    if s == "auto" {
        return Ok(OrphanSolver::Auto);
    }
    s.parse::<SolverKind>().map(OrphanSolver::Sat).map_err(|_| {
        format!(
            "unknown solver '{s}' (known: auto, cadical, batsat, varisat, kissat, minisat, glucose, gridwalker, automaton)"
        )
    })
}

/// Arguments of `lifesearch orphan`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pattern: rows of `.` (dead), `*` (alive) and `?` (unknown).
    pub file: PathBuf,
    /// cadical (default), batsat, varisat, kissat, minisat, glucose (the last
    /// three need the `extra-solvers` feature), gridwalker, automaton (the
    /// column automaton: patterns at most 6 cells on their shorter side), or
    /// auto (the automaton where it applies, else GRIDWALKER and CaDiCaL racing;
    /// the JSON's `engine` says which answered).
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
    /// The rule, for `--solver automaton` (the other solvers answer for B3/S23).
    #[arg(long, default_value = "B3/S23")]
    pub rule: Rule,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Read a search target (see [`crate::formats::target::read_target`]).
pub fn read_target(path: &Path) -> anyhow::Result<SpecGrid> {
    Ok(crate::formats::target::read_target(path)?)
}

/// The answer before printing.
struct Report {
    orphan: bool,
    /// The engine that answered (differs from the solver for `auto`).
    engine: &'static str,
    /// The automaton's column (or row) where its state set emptied.
    emptied_at: Option<(usize, bool)>,
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
        Outcome::Sat => Ok(Report {
            orphan: false,
            engine: kind.name(),
            emptied_at: None,
            predecessor: a.generations.into_iter().next(),
            millis,
            stats,
        }),
        Outcome::Unsat => Ok(Report {
            orphan: true,
            engine: kind.name(),
            emptied_at: None,
            predecessor: None,
            millis,
            stats,
        }),
        Outcome::Unknown => bail!("{kind} gave up without an answer"),
    }
}

fn with_gridwalker(target: &SpecGrid, variant: Variant, convention: Convention) -> anyhow::Result<Report> {
    let start = Instant::now();
    let answer = gridwalker::decide_orphan(target, &gridwalker::Options { variant, convention })?;
    let millis = start.elapsed().as_secs_f64() * 1e3;
    let stats = answer.stats.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(*v))).collect();
    Ok(Report {
        orphan: answer.predecessor.is_none(),
        engine: "gridwalker",
        emptied_at: None,
        predecessor: answer.predecessor,
        millis,
        stats,
    })
}

fn with_automaton(target: &SpecGrid, rule: Rule) -> anyhow::Result<Report> {
    let start = Instant::now();
    let a = crate::automaton::decide(target, rule)?;
    let millis = start.elapsed().as_secs_f64() * 1e3;
    let mut stats = serde_json::Map::new();
    stats.insert("peak_states".into(), a.peak_states.into());
    stats.insert("states_expanded".into(), a.states_expanded.into());
    stats.insert("transposed".into(), a.transposed.into());
    Ok(Report {
        orphan: a.predecessor.is_none(),
        engine: "automaton",
        emptied_at: a.emptied_at.map(|i| (i, a.transposed)),
        predecessor: a.predecessor,
        millis,
        stats,
    })
}

fn with_auto(target: &SpecGrid, boundary: Boundary) -> anyhow::Result<Report> {
    let a = crate::search::portfolio::decide_orphan_auto(target, boundary)?;
    Ok(Report {
        orphan: a.found.is_none(),
        engine: a.engine.name(),
        emptied_at: None,
        predecessor: a.found,
        millis: a.millis,
        stats: a.stats.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(*v))).collect(),
    })
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let target = read_target(&a.file)?;
    let boundary = if a.dead_surroundings { Boundary::Dead } else { Boundary::Free };
    if let OrphanSolver::Sat(kind) = a.solver
        && !kind.available()
    {
        new_solver(kind)?; // the clear "not compiled in" error
    }
    if a.rule != Rule::CONWAY && a.solver != OrphanSolver::Automaton {
        bail!("--rule {} needs --solver automaton (the other solvers answer for B3/S23 only)", a.rule);
    }
    let report = match a.solver {
        OrphanSolver::Sat(kind) => with_sat(kind, &target, boundary, a.encoding)?,
        OrphanSolver::Gridwalker => {
            with_gridwalker(&effective_target(&target, boundary), a.variant, a.convention)?
        }
        OrphanSolver::Automaton => with_automaton(&effective_target(&target, boundary), a.rule)?,
        OrphanSolver::Auto => with_auto(&target, boundary)?,
    };
    // Every predecessor was checked by simulation inside the library.
    if a.json {
        let mut v = serde_json::json!({
            "orphan": report.orphan,
            "predecessor": report.predecessor.as_ref().map(|g| g.to_rows()),
            "solver": a.solver.name(),
            "engine": report.engine,
            "millis": report.millis,
            "stats": report.stats,
        });
        if let Some((i, _)) = report.emptied_at {
            v["emptied_at"] = i.into();
        }
        println!("{v}");
    } else {
        let unknown = target.count(Cell::Unknown);
        println!(
            "{}x{} pattern ({unknown} unknown cells): {} ({} in {:.3} ms)",
            target.width(),
            target.height(),
            if report.orphan { "orphan" } else { "has a predecessor" },
            report.engine,
            report.millis
        );
        if let Some((i, transposed)) = report.emptied_at {
            println!(
                "the automaton's state set emptied at {} {i} (0-based)",
                if transposed { "row" } else { "column" }
            );
        }
        if let Some(p) = &report.predecessor {
            for row in p.to_rows() {
                println!("{row}");
            }
        }
    }
    Ok(())
}
