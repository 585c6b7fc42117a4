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
