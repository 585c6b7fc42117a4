//! The solver backends behind [`crate::cnf::Solver`]. Which counters each one
//! exposes (see [`crate::cnf::SolverStats`]):
//!
//! | backend | conflicts | decisions | propagations | restarts | learnt | time limit / interrupt | failed assumptions |
//! |---------|-----------|-----------|--------------|----------|--------|------------------------|--------------------|
//! | cadical | -         | -         | -            | -        | yes    | yes                    | yes                |
//! | batsat  | yes       | yes       | yes          | yes      | -      | yes                    | yes                |
//! | varisat | -         | -         | -            | -        | -      | no (runs to the end)   | yes                |
//! | kissat  | -         | -         | -            | -        | -      | yes                    | no (not incremental) |
//! | minisat | yes       | yes       | yes          | -        | yes    | yes                    | yes                |
//! | glucose | yes       | yes       | yes          | -        | yes    | yes                    | yes                |
//!
//! The `cadical` crate exposes no search counters, only a learn callback,
//! which we use to count learnt clauses.

pub mod batsat;
pub mod cadical;
#[cfg(feature = "extra-solvers")]
pub mod rustsat;
pub mod varisat;

use crate::cnf::solver::{Solver, SolverKind};
use crate::error::Result;

/// A fresh solver of the given kind, or an error naming the missing feature.
pub fn new_solver(kind: SolverKind) -> Result<Box<dyn Solver>> {
    match kind {
        SolverKind::Cadical => Ok(Box::new(cadical::Cadical::new())),
        SolverKind::Batsat => Ok(Box::new(batsat::Batsat::new())),
        SolverKind::Varisat => Ok(Box::new(varisat::Varisat::new())),
        #[cfg(feature = "extra-solvers")]
        SolverKind::Kissat => Ok(Box::new(rustsat::KissatSolver::new())),
        #[cfg(feature = "extra-solvers")]
        SolverKind::Minisat => Ok(Box::new(rustsat::Incremental::minisat())),
        #[cfg(feature = "extra-solvers")]
        SolverKind::Glucose => Ok(Box::new(rustsat::Incremental::glucose())),
        #[cfg(not(feature = "extra-solvers"))]
        SolverKind::Kissat | SolverKind::Minisat | SolverKind::Glucose => Err(kind.missing()),
    }
}
