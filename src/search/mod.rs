//! Search problems (predecessors, orphans, still lifes, oscillators, spaceships)
//! turned into CNF or GridWalker grid stacks.
//!
//! A [`Problem`] describes a stack of generations over a box: which cells are
//! fixed on or off, unknown, or of no interest, what lies outside (dead or
//! free), and a symmetry. [`encode`](encode::encode) turns it into a
//! [`Formula`](crate::cnf::Formula) with one of two [`Encoding`]s, and
//! [`solve()`] / [`count()`] run a SAT solver on it and
//! read the answer back as grids, every one of which can be checked by
//! evolving it ([`verify`]). [`incremental`] keeps one formula for a whole
//! stream of orphan questions and changes only the assumptions.
//!
//! Book: Part II, chapter 6, section 6.1 (`book/src/thesis/ch6.md`), with the encodings in chapter 4, section
//! 4.3.1 (`book/src/thesis/ch4.md`).

pub mod ancestors;
pub mod encode;
pub mod engine;
pub mod incremental;
pub use crate::base::known;
pub mod grid_stack;
pub mod knuth_network;
pub mod layer;
pub mod placement;
pub mod portfolio;
pub mod problem;
pub mod sat;
pub mod solve;
pub mod spacetime;
pub use crate::base::verify;
pub mod window;

pub use encode::{Encoded, encode, encode_with};
pub use engine::{CycleEngine, CycleQuery, CycleVerdict};
pub use placement::Placement;
pub use problem::{Boundary, Cycle, Encoding, Problem, Symmetry};
pub use solve::{Answer, CountResult, count, solve, solve_until, with_stop};
