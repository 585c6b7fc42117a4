//! `lifesearch orphan FILE`: does this pattern (with `?` cells) have a parent?
//! Answered by a SAT solver, by GRIDWALKER, or by the column automaton (for
//! patterns at most six cells on one side); a predecessor is only ever
//! printed after it has been evolved into the pattern.

use crate::engine::{EngineOptions, OrphanQuery};
use crate::gridwalker::{self, Convention, Variant};
use crate::life::{Cell, Rule, SpecGrid};
use crate::search::{Boundary, Encoding};
use std::path::{Path, PathBuf};

/// Parse a solver name for the command line: one of [`crate::engine::names`].
pub fn parse_orphan_solver(s: &str) -> Result<String, String> {
    crate::engine::by_name(s).map(|_| s.to_string()).map_err(|e| e.to_string())
}

/// Arguments of `lifesearch orphan`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pattern: rows of `.` (dead), `*` (alive) and `?` (unknown).
    pub file: PathBuf,
    /// cadical (default), batsat, varisat, kissat, minisat, glucose (the last
    /// three need the `extra-solvers` feature), gridwalker, automaton (the
    /// column automaton: patterns at most 6 cells on their shorter side),
    /// spacetime (the space-time search engine's propagation, two
    /// generations deep: quick to find a parent, slow to prove none), or
    /// auto (the automaton where it applies, else GRIDWALKER and CaDiCaL racing;
    /// the JSON's `engine` says which answered).
    #[arg(long, default_value = "cadical", value_parser = parse_orphan_solver)]
    pub solver: String,
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
    /// The rule (any Life-like rule; the knuth encoding knows B3/S23 only).
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

pub fn run(a: Args) -> anyhow::Result<()> {
    let target = read_target(&a.file)?;
    let boundary = if a.dead_surroundings { Boundary::Dead } else { Boundary::Free };
    let options = EngineOptions {
        encoding: a.encoding,
        gridwalker: gridwalker::Options { variant: a.variant, convention: a.convention },
    };
    let engine = crate::engine::build(&a.solver, &options)?;
    let query = OrphanQuery::new(target.clone()).rule(a.rule).boundary(boundary);
    engine.supports(&query)?; // e.g. the clear "not compiled in" error
    let report = engine.decide(&query)?;
    // A SAT engine's `millis` is the solver's time (loading the clauses and
    // solving); building the clauses is reported beside the counters.
    let millis = report.elapsed.saturating_sub(report.encode_time.unwrap_or_default()).as_secs_f64() * 1e3;
    let mut stats = serde_json::to_value(&report.counters)?.as_object().cloned().unwrap_or_default();
    if let Some(t) = report.encode_time {
        stats.insert("encode_millis".into(), (t.as_secs_f64() * 1e3).into());
    }
    if let Some(t) = report.transposed {
        stats.insert("transposed".into(), t.into());
    }
    let emptied_at = report.emptied_at.map(|i| (i, report.transposed.unwrap_or(false)));
    // Every predecessor was checked by simulation inside the library.
    if a.json {
        let mut v = serde_json::json!({
            "orphan": report.is_orphan(),
            "predecessor": report.parent.as_ref().map(|g| g.to_rows()),
            "solver": a.solver,
            "engine": report.engine,
            "millis": millis,
            "stats": stats,
        });
        if let Some((i, _)) = emptied_at {
            v["emptied_at"] = i.into();
        }
        println!("{v}");
    } else {
        let unknown = target.count(Cell::Unknown);
        println!(
            "{}x{} pattern ({unknown} unknown cells): {} ({} in {:.3} ms)",
            target.width(),
            target.height(),
            if report.is_orphan() { "orphan" } else { "has a predecessor" },
            report.engine,
            millis
        );
        if let Some((i, transposed)) = emptied_at {
            println!(
                "the automaton's state set emptied at {} {i} (0-based)",
                if transposed { "row" } else { "column" }
            );
        }
        if let Some(p) = &report.parent {
            for row in p.to_rows() {
                println!("{row}");
            }
        }
    }
    Ok(())
}
