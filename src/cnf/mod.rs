//! Clauses, DIMACS and iCNF, and the SAT solvers behind one trait (thesis chapter 4).
//!
//! A [`Formula`] is a list of clauses over numbered variables that may carry
//! names (Knuth's `xty` codes such as `10a11`). It is written and read as
//! DIMACS, as Knuth's one-clause-per-line text, or, with a script of
//! assumption steps, as Wieringa's incremental iCNF. Every solver sits behind
//! the [`Solver`] trait, made by [`new_solver`] from a [`SolverKind`]; the
//! peak memory of one solve is measured in a child process by [`child`].
//!
//! Book: Part II, chapter 4, sections 4.3 and 4.5 (`book/src/thesis/ch4.md`).

pub mod backends;
pub mod child;
pub mod dimacs;
pub mod formula;
pub mod icnf;
pub mod knuth_format;
pub mod lit;
pub mod solver;

pub use backends::new_solver;
pub use formula::Formula;
pub use icnf::{IcnfItem, IcnfScript};
pub use lit::{Clause, Lit, Var};
pub use solver::{Outcome, Solver, SolverKind, SolverStats, Stop};
