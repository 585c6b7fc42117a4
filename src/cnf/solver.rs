//! One trait for every SAT solver, so that searches, the orphan command and the
//! experiments can swap CaDiCaL for MiniSat without changing a line.
//!
//! Book: Part II, chapter 4, section 4.3.4 (`book/src/thesis/ch4.md`).

use crate::cnf::lit::{Lit, Var};
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
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
    /// The counters as name/value pairs, available ones only.
    pub fn pairs(&self) -> Vec<(&'static str, u64)> {
        let mut v = Vec::new();
        for (k, x) in [
            ("conflicts", self.conflicts),
            ("decisions", self.decisions),
            ("propagations", self.propagations),
            ("restarts", self.restarts),
            ("learnt", self.learnt),
        ] {
            if let Some(x) = x {
                v.push((k, x));
            }
        }
        v.extend([("solves", self.solves), ("variables", self.variables), ("clauses", self.clauses)]);
        v
    }
}

/// Something to call when a solve must stop.
type Hook = Box<dyn Fn() + Send + Sync>;

/// A flag another thread may raise to stop a running solve (it then returns
/// [`Outcome::Unknown`]). Backends that cannot poll a flag register a hook
/// that is called on [`Stop::interrupt`] (MiniSat and Glucose: their
/// interrupt then sticks, and later solves also return `Unknown`).
#[derive(Clone, Default)]
pub struct Stop {
    flag: Arc<AtomicBool>,
    hooks: Arc<Mutex<Vec<Hook>>>,
    /// An alarm rung by the first [`Stop::poll`] after its time (see [`Stop::set_alarm`]).
    armed: Arc<AtomicBool>,
    alarm: Arc<Mutex<Option<(Instant, Alarm)>>>,
}

/// Something to do once, when an alarm is due.
type Alarm = Box<dyn FnOnce() + Send>;

impl std::fmt::Debug for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Stop({})", self.is_set())
    }
}

impl Stop {
    pub fn interrupt(&self) {
        self.flag.store(true, Ordering::Relaxed);
        for h in self.hooks.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            h();
        }
    }
    pub fn clear(&self) {
        self.flag.store(false, Ordering::Relaxed);
    }
    pub fn is_set(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
    /// Call `hook` on every later interrupt (until [`Stop::clear_hooks`]).
    pub fn add_hook(&self, hook: Box<dyn Fn() + Send + Sync>) {
        self.hooks.lock().unwrap_or_else(|e| e.into_inner()).push(hook);
    }
    /// Forget the hooks (a backend does this before its solver is freed).
    pub fn clear_hooks(&self) {
        self.hooks.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    // ANCHOR: alarm
    /// Call `ring` at the first [`Stop::poll`] at or after `at`. A search that
    /// polls at every node thus starts a portfolio's second engine only once
    /// it has run for a while, and never when it answers sooner: no thread is
    /// spawned for the many questions answered in microseconds.
    pub fn set_alarm(&self, at: Instant, ring: Box<dyn FnOnce() + Send>) {
        *self.alarm.lock().unwrap_or_else(|e| e.into_inner()) = Some((at, ring));
        self.armed.store(true, Ordering::Release);
    }

    /// Drop an alarm that has not rung.
    pub fn disarm(&self) {
        self.armed.store(false, Ordering::Release);
        self.alarm.lock().unwrap_or_else(|e| e.into_inner()).take();
    }

    /// [`Stop::is_set`], after ringing the alarm if it is due.
    pub fn poll(&self) -> bool {
        if self.armed.load(Ordering::Acquire) {
            let due = {
                let mut a = self.alarm.lock().unwrap_or_else(|e| e.into_inner());
                match a.as_ref() {
                    Some((at, _)) if Instant::now() >= *at => a.take(),
                    _ => None,
                }
            };
            if let Some((_, ring)) = due {
                self.armed.store(false, Ordering::Release);
                ring();
            }
        }
        self.is_set()
    }
    // ANCHOR_END: alarm
}

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
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

/// A fresh solver of the given kind, or an error naming the missing feature.
pub fn new_solver(kind: SolverKind) -> Result<Box<dyn Solver>> {
    use crate::cnf::backends;
    match kind {
        SolverKind::Cadical => Ok(Box::new(backends::cadical::Cadical::new())),
        SolverKind::Batsat => Ok(Box::new(backends::batsat::Batsat::new())),
        SolverKind::Varisat => Ok(Box::new(backends::varisat::Varisat::new())),
        #[cfg(feature = "extra-solvers")]
        SolverKind::Kissat => Ok(Box::new(backends::rustsat::KissatSolver::new())),
        #[cfg(feature = "extra-solvers")]
        SolverKind::Minisat => Ok(Box::new(backends::rustsat::Incremental::minisat())),
        #[cfg(feature = "extra-solvers")]
        SolverKind::Glucose => Ok(Box::new(backends::rustsat::Incremental::glucose())),
        #[cfg(not(feature = "extra-solvers"))]
        SolverKind::Kissat | SolverKind::Minisat | SolverKind::Glucose => Err(Error::invalid(format!(
            "solver '{kind}' is not compiled in: rebuild with `--features extra-solvers` \
             (needs libclang-dev and cmake)"
        ))),
    }
}
