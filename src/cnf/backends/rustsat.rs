//! Kissat, MiniSat and Glucose through the rustsat crates (feature
//! `extra-solvers`; building them needs cmake and libclang).
//!
//! Kissat is **not incremental**: it solves once and then refuses new clauses
//! and assumptions. [`KissatSolver`] therefore keeps every clause and builds a
//! fresh Kissat for each solve, turning assumptions into unit clauses; it can
//! say nothing about failed assumptions, and a stream of solves pays the full
//! set-up each time (which is what the thesis' non-incremental runs measured).

use crate::cnf::lit::{Lit, Var};
use crate::cnf::solver::{Limits, Outcome, Solver, SolverStats, Stop};
use crate::error::{Error, Result};
use rustsat::solvers::{
    ControlSignal, GetInternalStats, Interrupt, InterruptSolver, Solve, SolveIncremental, SolverResult,
    Terminate,
};
use rustsat::types::TernaryVal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn to_rs(l: Lit) -> rustsat::types::Lit {
    rustsat::types::Lit::new(l.var().0, l.is_neg())
}

fn from_rs(l: rustsat::types::Lit) -> Lit {
    Lit::new(Var(l.var().idx32()), l.is_neg())
}

fn outcome(r: SolverResult) -> Outcome {
    match r {
        SolverResult::Sat => Outcome::Sat,
        SolverResult::Unsat => Outcome::Unsat,
        SolverResult::Interrupted => Outcome::Unknown,
    }
}

fn err(name: &str, e: anyhow::Error) -> Error {
    Error::invalid(format!("{name}: {e}"))
}

/// The MiniSat-family solvers, which are incremental.
trait Backend: SolveIncremental + Interrupt + GetInternalStats + Default {}
impl Backend for rustsat_minisat::core::Minisat {}
impl Backend for rustsat_glucose::core::Glucose {}

/// MiniSat or Glucose: incremental, with a core and search counters.
pub struct Incremental {
    name: &'static str,
    solver: Box<dyn Driver>,
    limits: Limits,
    last: Option<Outcome>,
    core: Option<Vec<Lit>>,
    max_var: u32,
    solves: u64,
    clauses: u64,
    /// Keeps the hook that interrupts the C solver on `limits.stop`.
    hook: Option<crate::stop::HookGuard>,
}

/// The object-safe part of a [`Backend`] that [`Incremental`] drives.
trait Driver {
    fn add(&mut self, c: rustsat::types::Clause) -> anyhow::Result<()>;
    fn solve(&mut self, a: &[rustsat::types::Lit], deadline: Option<Instant>)
    -> anyhow::Result<SolverResult>;
    fn lit_val(&self, l: rustsat::types::Lit) -> anyhow::Result<TernaryVal>;
    fn core(&mut self) -> anyhow::Result<Vec<rustsat::types::Lit>>;
    fn counters(&self) -> (u64, u64, u64);
    fn hook(&mut self) -> Box<dyn Fn() + Send + Sync>;
}

impl<S: Backend> Driver for S
where
    S::Interrupter: Send + Sync + 'static,
{
    fn add(&mut self, c: rustsat::types::Clause) -> anyhow::Result<()> {
        self.add_clause(c)
    }
    fn solve(
        &mut self,
        a: &[rustsat::types::Lit],
        deadline: Option<Instant>,
    ) -> anyhow::Result<SolverResult> {
        let Some(deadline) = deadline else {
            return self.solve_assumps(a);
        };
        // A watchdog thread interrupts the solver at the deadline.
        let done = AtomicBool::new(false);
        let interrupter = self.interrupter();
        std::thread::scope(|s| {
            s.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    if Instant::now() >= deadline {
                        interrupter.interrupt();
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
            });
            let r = self.solve_assumps(a);
            done.store(true, Ordering::Relaxed);
            r
        })
    }
    fn lit_val(&self, l: rustsat::types::Lit) -> anyhow::Result<TernaryVal> {
        Solve::lit_val(self, l)
    }
    fn core(&mut self) -> anyhow::Result<Vec<rustsat::types::Lit>> {
        SolveIncremental::core(self)
    }
    fn counters(&self) -> (u64, u64, u64) {
        (self.conflicts() as u64, self.decisions() as u64, self.propagations() as u64)
    }
    fn hook(&mut self) -> Box<dyn Fn() + Send + Sync> {
        let i = self.interrupter();
        Box::new(move || i.interrupt())
    }
}

impl Incremental {
    fn with(name: &'static str, mut solver: Box<dyn Driver>) -> Incremental {
        let limits = Limits::default();
        let hook = Some(limits.stop.add_hook(solver.hook()));
        Incremental { name, solver, limits, last: None, core: None, max_var: 0, solves: 0, clauses: 0, hook }
    }
    pub fn minisat() -> Incremental {
        Incremental::with("minisat", Box::new(rustsat_minisat::core::Minisat::default()))
    }
    pub fn glucose() -> Incremental {
        Incremental::with("glucose", Box::new(rustsat_glucose::core::Glucose::default()))
    }
}

impl Drop for Incremental {
    fn drop(&mut self) {
        // The hook points into the C solver, which is about to be freed.
        drop(self.hook.take());
    }
}

impl Solver for Incremental {
    fn name(&self) -> &'static str {
        self.name
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        self.last = None;
        self.clauses += 1;
        for l in clause {
            self.max_var = self.max_var.max(l.var().0 + 1);
        }
        // Adding only fails when the C++ side runs out of memory.
        if let Err(e) = self.solver.add(clause.iter().map(|&l| to_rs(l)).collect()) {
            panic!("{}: {e}", self.name);
        }
    }
    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<Outcome> {
        let a: Vec<_> = assumptions.iter().map(|&l| to_rs(l)).collect();
        for l in assumptions {
            self.max_var = self.max_var.max(l.var().0 + 1);
        }
        self.solves += 1;
        if self.limits.stop.is_set() {
            self.last = Some(Outcome::Unknown);
            return Ok(Outcome::Unknown);
        }
        let r = outcome(self.solver.solve(&a, self.limits.deadline()).map_err(|e| err(self.name, e))?);
        self.core = None;
        if r == Outcome::Unsat {
            // rustsat's core is a clause of negated assumptions.
            let c = self.solver.core().map_err(|e| err(self.name, e))?;
            self.core = Some(c.into_iter().map(|l| !from_rs(l)).collect());
        }
        self.last = Some(r);
        Ok(r)
    }
    fn value(&self, v: Var) -> Option<bool> {
        if self.last != Some(Outcome::Sat) || v.0 >= self.max_var {
            return None;
        }
        match self.solver.lit_val(to_rs(v.pos())).ok()? {
            TernaryVal::True => Some(true),
            TernaryVal::False => Some(false),
            TernaryVal::DontCare => None,
        }
    }
    fn failed_assumptions(&self) -> Option<Vec<Lit>> {
        if self.last == Some(Outcome::Unsat) { self.core.clone() } else { None }
    }
    fn stats(&self) -> SolverStats {
        let (c, d, p) = self.solver.counters();
        SolverStats {
            conflicts: Some(c),
            decisions: Some(d),
            propagations: Some(p),
            solves: self.solves,
            variables: self.max_var as u64,
            clauses: self.clauses,
            ..SolverStats::default()
        }
    }
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.limits.time_limit = limit;
    }
    fn stopper(&self) -> Stop {
        self.limits.stop.clone()
    }
}

/// Kissat, rebuilt for every solve (see the module notes).
#[derive(Default)]
pub struct KissatSolver {
    clauses: Vec<Vec<Lit>>,
    model: Vec<Option<bool>>,
    limits: Limits,
    solves: u64,
    max_var: u32,
}

impl KissatSolver {
    pub fn new() -> KissatSolver {
        KissatSolver::default()
    }
}

impl Solver for KissatSolver {
    fn name(&self) -> &'static str {
        "kissat"
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        self.model.clear();
        for l in clause {
            self.max_var = self.max_var.max(l.var().0 + 1);
        }
        self.clauses.push(clause.to_vec());
    }
    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<Outcome> {
        self.solves += 1;
        self.model.clear();
        let mut k = rustsat_kissat::Kissat::default();
        let stop = self.limits.stop.clone();
        let deadline = self.limits.deadline();
        k.attach_terminator(move || {
            if stop.is_set() || deadline.is_some_and(|d| Instant::now() >= d) {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
        let e = |e| err("kissat", e);
        for c in &self.clauses {
            k.add_clause(c.iter().map(|&l| to_rs(l)).collect()).map_err(e)?;
        }
        for &a in assumptions {
            self.max_var = self.max_var.max(a.var().0 + 1);
            k.add_clause([to_rs(a)].into_iter().collect()).map_err(e)?;
        }
        // Kissat polls the terminator too rarely to honour a deadline, so a
        // watchdog thread also interrupts it.
        let done = AtomicBool::new(false);
        let interrupter = k.interrupter();
        let stop = self.limits.stop.clone();
        let r = std::thread::scope(|s| {
            s.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    if stop.is_set() || deadline.is_some_and(|d| Instant::now() >= d) {
                        interrupter.interrupt();
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
            });
            let r = k.solve();
            done.store(true, Ordering::Relaxed);
            r
        });
        let r = outcome(r.map_err(e)?);
        if r == Outcome::Sat {
            for i in 0..self.max_var {
                let v = match k.lit_val(to_rs(Var(i).pos())).map_err(e)? {
                    TernaryVal::True => Some(true),
                    TernaryVal::False => Some(false),
                    TernaryVal::DontCare => None,
                };
                self.model.push(v);
            }
        }
        Ok(r)
    }
    fn value(&self, v: Var) -> Option<bool> {
        self.model.get(v.index()).copied().flatten()
    }
    fn failed_assumptions(&self) -> Option<Vec<Lit>> {
        None
    }
    fn stats(&self) -> SolverStats {
        SolverStats {
            solves: self.solves,
            variables: self.max_var as u64,
            clauses: self.clauses.len() as u64,
            ..SolverStats::default()
        }
    }
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.limits.time_limit = limit;
    }
    fn stopper(&self) -> Stop {
        self.limits.stop.clone()
    }
    fn is_incremental(&self) -> bool {
        false
    }
}
