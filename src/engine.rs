//! Every orphan engine and every cycle engine, listed once. The command line
//! (`orphan --solver NAME`, `search --solver NAME`), the experiments and the
//! tests look engines up here; adding an engine is one [`OrphanEngine`] (or
//! [`CycleEngine`]) impl and one line in [`registry`] (or [`cycle_registry`]).
//!
//! Book: Part IV, "A GRIDWALKER that never loses badly" (`book/src/beyond/robust.md`).

pub use crate::base::orphan::{Boundary, Counters, OrphanEngine, OrphanQuery, Verdict};
use crate::cnf::SolverKind;
use crate::error::{Error, Result};
use crate::gridwalker;
pub use crate::search::engine::{CycleEngine, CycleQuery, CycleVerdict};
use crate::search::{Encoding, grid_stack, portfolio, sat, spacetime};

/// The engines' tunable options (each engine reads its own).
#[derive(Debug, Clone, Copy, Default)]
pub struct EngineOptions {
    /// The step encoding of the SAT engines.
    pub encoding: Encoding,
    /// GRIDWALKER's variant and pixel numbering.
    pub gridwalker: gridwalker::Options,
}

/// Makes an engine with the given options.
pub type Make = fn(&EngineOptions) -> Box<dyn OrphanEngine>;

fn sat_engine(kind: SolverKind, o: &EngineOptions) -> Box<dyn OrphanEngine> {
    Box::new(sat::Engine { kind, encoding: o.encoding })
}

// ANCHOR: registry
/// Every engine by name, `auto` (the portfolio) first. SAT backends that are
/// not compiled in are listed; asking one for an answer says how to build it.
pub fn registry() -> Vec<(&'static str, Make)> {
    vec![
        ("auto", |_| Box::new(portfolio::Auto)),
        ("cadical", |o| sat_engine(SolverKind::Cadical, o)),
        ("batsat", |o| sat_engine(SolverKind::Batsat, o)),
        ("varisat", |o| sat_engine(SolverKind::Varisat, o)),
        ("kissat", |o| sat_engine(SolverKind::Kissat, o)),
        ("minisat", |o| sat_engine(SolverKind::Minisat, o)),
        ("glucose", |o| sat_engine(SolverKind::Glucose, o)),
        ("gridwalker", |o| Box::new(gridwalker::Engine(o.gridwalker))),
        ("automaton", |_| Box::new(crate::automaton::solve::Engine)),
        ("spacetime", |_| Box::new(spacetime::predecessor::Engine)),
    ]
}
// ANCHOR_END: registry

/// The names of every engine, in registry order.
pub fn names() -> Vec<&'static str> {
    registry().into_iter().map(|(n, _)| n).collect()
}

/// The engine called `name` with the given options, or an error listing the known ones.
pub fn build(name: &str, options: &EngineOptions) -> Result<Box<dyn OrphanEngine>> {
    registry()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, make)| make(options))
        .ok_or_else(|| Error::invalid(format!("unknown solver '{name}' (known: {})", names().join(", "))))
}

/// The engine called `name` with default options.
pub fn by_name(name: &str) -> Result<Box<dyn OrphanEngine>> {
    build(name, &EngineOptions::default())
}

/// Makes a cycle engine.
pub type MakeCycle = fn() -> Box<dyn CycleEngine>;

// ANCHOR: cycle_registry
/// Every cycle engine (still lifes, oscillators, spaceships) by name, `auto`
/// (the space-time engine racing CaDiCaL) first.
pub fn cycle_registry() -> Vec<(&'static str, MakeCycle)> {
    vec![
        ("auto", || Box::new(portfolio::Auto)),
        ("spacetime", || Box::new(spacetime::Engine)),
        ("cadical", || Box::new(sat::Engine::new(SolverKind::Cadical))),
        ("batsat", || Box::new(sat::Engine::new(SolverKind::Batsat))),
        ("varisat", || Box::new(sat::Engine::new(SolverKind::Varisat))),
        ("kissat", || Box::new(sat::Engine::new(SolverKind::Kissat))),
        ("minisat", || Box::new(sat::Engine::new(SolverKind::Minisat))),
        ("glucose", || Box::new(sat::Engine::new(SolverKind::Glucose))),
        ("gridwalker", || Box::new(grid_stack::Engine)),
    ]
}
// ANCHOR_END: cycle_registry

/// The names of every cycle engine, in registry order.
pub fn cycle_names() -> Vec<&'static str> {
    cycle_registry().into_iter().map(|(n, _)| n).collect()
}

/// The cycle engine called `name`, or an error listing the known ones.
pub fn cycle_engine(name: &str) -> Result<Box<dyn CycleEngine>> {
    if name == "automaton" {
        return Err(Error::invalid(
            "the automaton decides orphans only; search with spacetime, a SAT solver or gridwalker",
        ));
    }
    cycle_registry().into_iter().find(|(n, _)| *n == name).map(|(_, make)| make()).ok_or_else(|| {
        Error::invalid(format!("unknown solver '{name}' (known: {})", cycle_names().join(", ")))
    })
}
