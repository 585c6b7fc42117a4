//! CaDiCaL through the `cadical` crate: the default solver, incremental, with
//! assumptions and failed-assumption queries.

use crate::cnf::lit::{Lit, Var};
use crate::cnf::solver::{Limits, Outcome, Solver, SolverStats, Stop};
use crate::error::Result;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The callbacks CaDiCaL polls: stop on the flag or the deadline, count learnt clauses.
struct Watch {
    stop: Stop,
    deadline: Option<Instant>,
    learnt: Arc<AtomicU64>,
}

impl cadical::Callbacks for Watch {
    fn terminate(&mut self) -> bool {
        self.stop.is_set() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
    fn max_length(&self) -> i32 {
        i32::MAX
    }
    fn learn(&mut self, _clause: &[i32]) {
        self.learnt.fetch_add(1, Ordering::Relaxed);
    }
}

pub struct Cadical {
    solver: cadical::Solver<Watch>,
    limits: Limits,
    last: Option<Outcome>,
    assumptions: Vec<Lit>,
    solves: u64,
    clauses: u64,
    learnt: Arc<AtomicU64>,
}

impl Cadical {
    pub fn new() -> Cadical {
        let mut solver = cadical::Solver::new();
        let limits = Limits::default();
        let learnt = Arc::new(AtomicU64::new(0));
        solver.set_callbacks(Some(Watch {
            stop: limits.stop.clone(),
            deadline: None,
            learnt: learnt.clone(),
        }));
        Cadical { solver, limits, last: None, assumptions: Vec::new(), solves: 0, clauses: 0, learnt }
    }
}

impl Default for Cadical {
    fn default() -> Self {
        Cadical::new()
    }
}

impl Solver for Cadical {
    fn name(&self) -> &'static str {
        "cadical"
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        self.last = None;
        self.clauses += 1;
        self.solver.add_clause(clause.iter().map(|l| l.dimacs()));
    }
    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<Outcome> {
        let deadline = self.limits.deadline();
        if let Some(w) = self.solver.get_callbacks() {
            w.deadline = deadline;
        }
        self.assumptions = assumptions.to_vec();
        self.solves += 1;
        let r = match self.solver.solve_with(assumptions.iter().map(|l| l.dimacs())) {
            Some(true) => Outcome::Sat,
            Some(false) => Outcome::Unsat,
            None => Outcome::Unknown,
        };
        self.last = Some(r);
        Ok(r)
    }
    fn value(&self, v: Var) -> Option<bool> {
        if self.last != Some(Outcome::Sat) || v.dimacs() > self.solver.max_variable() {
            return None;
        }
        self.solver.value(v.dimacs())
    }
    fn failed_assumptions(&self) -> Option<Vec<Lit>> {
        if self.last != Some(Outcome::Unsat) {
            return None;
        }
        Some(self.assumptions.iter().copied().filter(|l| self.solver.failed(l.dimacs())).collect())
    }
    fn stats(&self) -> SolverStats {
        SolverStats {
            learnt: Some(self.learnt.load(Ordering::Relaxed)),
            solves: self.solves,
            variables: self.solver.max_variable().max(0) as u64,
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
