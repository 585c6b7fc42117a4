//! One trait for every SAT solver, so that searches, the orphan command and the
//! experiments can swap CaDiCaL for MiniSat without changing a line.
//!
//! Book: Part II, chapter 4, section 4.3.4 (`book/src/thesis/ch4.md`).

use crate::base::Counters;
use crate::cnf::lit::{Lit, Var};
use crate::error::{Error, Result};
use std::time::{Duration, Instant};

// ANCHOR: outcome
/// The answer of one solve call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Sat,
    Unsat,
    /// Interrupted or out of time.
    Unknown,
}
// ANCHOR_END: outcome

/// Counters a backend reports after its solves (cumulative over the solver's
/// life). `None` means the backend does not expose that counter.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SolverStats {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decisions: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub propagations: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restarts: Option<u64>,
    /// Clauses learnt (CaDiCaL: counted through its learn callback).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub learnt: Option<u64>,
    /// Solve calls made.
    pub solves: u64,
    pub variables: u64,
    pub clauses: u64,
}

impl SolverStats {
    /// The counters as the engines report them, available ones only.
    pub fn counters(&self) -> Counters {
        Counters {
            conflicts: self.conflicts,
            decisions: self.decisions,
            propagations: self.propagations,
            restarts: self.restarts,
            learnt: self.learnt,
            solves: Some(self.solves),
            variables: Some(self.variables),
            clauses: Some(self.clauses),
            ..Counters::default()
        }
    }
}

pub use crate::stop::Stop;

/// The stop conditions of one solve: the shared flag and a deadline.
#[derive(Debug, Clone, Default)]
pub(crate) struct Limits {
    pub stop: Stop,
    pub time_limit: Option<Duration>,
}

impl Limits {
    pub fn deadline(&self) -> Option<Instant> {
        self.time_limit.map(|d| Instant::now() + d)
    }
}

// ANCHOR: solver_trait
/// An incremental SAT solver.
pub trait Solver {
    /// The name used on the command line (`cadical`, `batsat`, ...).
    fn name(&self) -> &'static str;
    /// Add a clause permanently.
    fn add_clause(&mut self, clause: &[Lit]);
    /// Solve under assumptions (unit literals that hold for this call only).
    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<Outcome>;
    /// Solve the clauses added so far.
    fn solve(&mut self) -> Result<Outcome> {
        self.solve_with(&[])
    }
    /// The value of a variable in the last model (after [`Outcome::Sat`]);
    /// `None` when the solver leaves it open or never saw it.
    fn value(&self, v: Var) -> Option<bool>;
    /// The assumptions of the last unsatisfiable call that the refutation
    /// used (a subset, not necessarily minimal). `None` when the backend cannot say.
    fn failed_assumptions(&self) -> Option<Vec<Lit>>;
    /// Counters so far.
    fn stats(&self) -> SolverStats;
    /// Stop every later solve after this long (`None`: no limit).
    fn set_time_limit(&mut self, limit: Option<Duration>);
    /// A handle that stops a running solve from another thread.
    fn stopper(&self) -> Stop;
    /// Can clauses be added and solves repeated cheaply? (Kissat: no.)
    fn is_incremental(&self) -> bool {
        true
    }
    /// The model over variables `0..n` (open variables read as false).
    fn model(&self, n: u32) -> Vec<bool> {
        (0..n).map(|i| self.value(Var(i)).unwrap_or(false)).collect()
    }
}
// ANCHOR_END: solver_trait

// ANCHOR: solver_kind
/// The solvers we know by name; some need the `extra-solvers` feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum SolverKind {
    /// CaDiCaL (C++, statically linked): the default.
    Cadical,
    /// BatSat, a pure-Rust MiniSat descendant.
    Batsat,
    /// Varisat, a pure-Rust CDCL solver.
    Varisat,
    /// Kissat via rustsat (feature `extra-solvers`; not incremental).
    Kissat,
    /// MiniSat 2 via rustsat (feature `extra-solvers`).
    Minisat,
    /// Glucose 4 via rustsat (feature `extra-solvers`).
    Glucose,
}
// ANCHOR_END: solver_kind

impl SolverKind {
    pub const ALL: [SolverKind; 6] = [
        SolverKind::Cadical,
        SolverKind::Batsat,
        SolverKind::Varisat,
        SolverKind::Kissat,
        SolverKind::Minisat,
        SolverKind::Glucose,
    ];
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Cadical => "cadical",
            SolverKind::Batsat => "batsat",
            SolverKind::Varisat => "varisat",
            SolverKind::Kissat => "kissat",
            SolverKind::Minisat => "minisat",
            SolverKind::Glucose => "glucose",
        }
    }
    /// Is this solver compiled into this build?
    pub fn available(self) -> bool {
        matches!(self, SolverKind::Cadical | SolverKind::Batsat | SolverKind::Varisat)
            || cfg!(feature = "extra-solvers")
    }
    /// Ok if this solver is compiled into this build, else the error that
    /// names the feature to rebuild with: what an engine's `supports` says,
    /// without building a solver to find out.
    pub fn compiled_in(self) -> Result<()> {
        if self.available() { Ok(()) } else { Err(self.missing()) }
    }
    /// The error for a solver this build lacks.
    pub(crate) fn missing(self) -> Error {
        Error::invalid(format!(
            "solver '{self}' is not compiled in: rebuild with `--features extra-solvers` \
             (needs libclang-dev and cmake)"
        ))
    }
    /// The solvers compiled into this build.
    pub fn available_kinds() -> Vec<SolverKind> {
        SolverKind::ALL.into_iter().filter(|k| k.available()).collect()
    }
}

impl std::str::FromStr for SolverKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<SolverKind> {
        SolverKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| {
            Error::invalid(format!(
                "unknown solver '{s}' (known: {})",
                SolverKind::ALL.map(|k| k.name()).join(", ")
            ))
        })
    }
}

impl std::fmt::Display for SolverKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
