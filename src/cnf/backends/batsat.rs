//! BatSat, a pure-Rust descendant of MiniSat: incremental, with assumptions,
//! an unsat core over the assumptions, and MiniSat's counters.

use crate::cnf::lit::{Lit, Var};
use crate::cnf::solver::{Limits, Outcome, Solver, SolverStats, Stop};
use crate::error::Result;
use batsat::{SolverInterface, lbool};
use std::time::{Duration, Instant};

/// BatSat polls `stop` regularly: the flag or the deadline ends the solve.
#[derive(Default)]
pub struct Watch {
    stop: Stop,
    deadline: Option<Instant>,
}

impl batsat::Callbacks for Watch {
    fn stop(&self) -> bool {
        self.stop.is_set() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

pub struct Batsat {
    solver: batsat::Solver<Watch>,
    limits: Limits,
    last: Option<Outcome>,
    solves: u64,
    clauses: u64,
}

impl Batsat {
    pub fn new() -> Batsat {
        let limits = Limits::default();
        let watch = Watch { stop: limits.stop.clone(), deadline: None };
        Batsat {
            solver: batsat::Solver::new(batsat::SolverOpts::default(), watch),
            limits,
            last: None,
            solves: 0,
            clauses: 0,
        }
    }
    fn lit(&mut self, l: Lit) -> batsat::Lit {
        let v = self.solver.var_of_int(l.var().0);
        batsat::Lit::new(v, !l.is_neg())
    }
    fn from_batsat(l: batsat::Lit) -> Lit {
        Lit::new(Var(l.var().idx()), !l.sign())
    }
}

impl Default for Batsat {
    fn default() -> Self {
        Batsat::new()
    }
}

impl Solver for Batsat {
    fn name(&self) -> &'static str {
        "batsat"
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        self.last = None;
        self.clauses += 1;
        let mut c: Vec<batsat::Lit> = clause.iter().map(|&l| self.lit(l)).collect();
        // `false` only says the formula is already unsatisfiable; the next solve reports it.
        let _ = self.solver.add_clause_reuse(&mut c);
    }
    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<Outcome> {
        let a: Vec<batsat::Lit> = assumptions.iter().map(|&l| self.lit(l)).collect();
        self.solver.cb_mut().deadline = self.limits.deadline();
        self.solves += 1;
        let r = self.solver.solve_limited(&a);
        let r = if r == lbool::TRUE {
            Outcome::Sat
        } else if r == lbool::FALSE {
            Outcome::Unsat
        } else {
            Outcome::Unknown
        };
        self.last = Some(r);
        Ok(r)
    }
    fn value(&self, v: Var) -> Option<bool> {
        if self.last != Some(Outcome::Sat) || v.0 >= self.solver.num_vars() {
            return None;
        }
        let x = self.solver.get_model().get(v.index()).copied()?;
        if x == lbool::TRUE {
            Some(true)
        } else if x == lbool::FALSE {
            Some(false)
        } else {
            None
        }
    }
    fn failed_assumptions(&self) -> Option<Vec<Lit>> {
        if self.last != Some(Outcome::Unsat) {
            return None;
        }
        // MiniSat's `conflict` holds the negations of the failed assumptions.
        Some(self.solver.unsat_core().iter().map(|&l| !Batsat::from_batsat(l)).collect())
    }
    fn stats(&self) -> SolverStats {
        SolverStats {
            conflicts: Some(self.solver.num_conflicts()),
            decisions: Some(self.solver.num_decisions()),
            propagations: Some(self.solver.num_propagations()),
            restarts: Some(self.solver.num_restarts()),
            learnt: None,
            solves: self.solves,
            variables: self.solver.num_vars() as u64,
            clauses: self.clauses,
        }
    }
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.limits.time_limit = limit;
    }
    fn stopper(&self) -> Stop {
        self.limits.stop.clone()
    }
}
