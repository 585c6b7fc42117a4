//! Varisat, a pure-Rust CDCL solver: incremental with assumptions and a failed
//! core, but it exposes no counters and cannot be interrupted from outside, so
//! time limits and [`Stop`] are ignored.

use crate::cnf::lit::{Lit, Var};
use crate::cnf::solver::{Outcome, Solver, SolverStats, Stop};
use crate::error::{Error, Result};
use std::time::Duration;
use varisat::ExtendFormula;

pub struct Varisat {
    solver: varisat::Solver<'static>,
    model: Vec<Option<bool>>,
    failed: Option<Vec<Lit>>,
    stop: Stop,
    solves: u64,
    clauses: u64,
    max_var: u32,
}

fn to_varisat(l: Lit) -> varisat::Lit {
    varisat::Lit::from_index(l.var().index(), !l.is_neg())
}

fn from_varisat(l: varisat::Lit) -> Lit {
    Lit::new(Var(l.var().index() as u32), !l.is_positive())
}

impl Varisat {
    pub fn new() -> Varisat {
        Varisat {
            solver: varisat::Solver::new(),
            model: Vec::new(),
            failed: None,
            stop: Stop::default(),
            solves: 0,
            clauses: 0,
            max_var: 0,
        }
    }
}

impl Default for Varisat {
    fn default() -> Self {
        Varisat::new()
    }
}

impl Solver for Varisat {
    fn name(&self) -> &'static str {
        "varisat"
    }
    fn add_clause(&mut self, clause: &[Lit]) {
        self.clauses += 1;
        self.model.clear();
        self.failed = None;
        for l in clause {
            self.max_var = self.max_var.max(l.var().0 + 1);
        }
        let c: Vec<varisat::Lit> = clause.iter().map(|&l| to_varisat(l)).collect();
        self.solver.add_clause(&c);
    }
    fn solve_with(&mut self, assumptions: &[Lit]) -> Result<Outcome> {
        let a: Vec<varisat::Lit> = assumptions.iter().map(|&l| to_varisat(l)).collect();
        self.solver.assume(&a);
        self.solves += 1;
        self.model.clear();
        self.failed = None;
        match self.solver.solve() {
            Ok(true) => {
                for l in self.solver.model().unwrap_or_default() {
                    let i = l.var().index();
                    if self.model.len() <= i {
                        self.model.resize(i + 1, None);
                    }
                    self.model[i] = Some(l.is_positive());
                }
                Ok(Outcome::Sat)
            }
            Ok(false) => {
                self.failed = self.solver.failed_core().map(|c| c.iter().map(|&l| from_varisat(l)).collect());
                Ok(Outcome::Unsat)
            }
            Err(varisat::solver::SolverError::Interrupted) => Ok(Outcome::Unknown),
            Err(e) => Err(Error::invalid(format!("varisat: {e}"))),
        }
    }
    fn value(&self, v: Var) -> Option<bool> {
        self.model.get(v.index()).copied().flatten()
    }
    fn failed_assumptions(&self) -> Option<Vec<Lit>> {
        self.failed.clone()
    }
    fn stats(&self) -> SolverStats {
        SolverStats {
            solves: self.solves,
            variables: self.max_var as u64,
            clauses: self.clauses,
            ..SolverStats::default()
        }
    }
    fn set_time_limit(&mut self, _limit: Option<Duration>) {}
    fn stopper(&self) -> Stop {
        self.stop.clone()
    }
}
