//! Every orphan engine, listed once. The command line (`orphan --solver
//! NAME`), the experiments and the tests look engines up here; adding an
//! engine is one [`OrphanEngine`] impl and one line in [`registry`].
//!
//! Book: Part IV, "A GRIDWALKER that never loses badly" (`book/src/beyond/robust.md`).

pub use crate::base::orphan::{Boundary, Counters, OrphanEngine, OrphanQuery, Verdict};
use crate::cnf::SolverKind;
use crate::error::{Error, Result};
use crate::gridwalker;
use crate::search::{Encoding, portfolio, sat};

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
