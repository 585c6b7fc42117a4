//! The base every engine stands on: the independent check of every answer
//! ([`verify`]), the symmetries a search may impose ([`symmetry`]), the
//! patterns the sources name ([`known`]), and the one question and answer of
//! every orphan engine ([`orphan`]). It sits below GRIDWALKER, the automaton
//! and the SAT searches, and imports only `life`, `stop` and `error`.
//!
//! Book: Part II, chapter 6, section 6.1 (`book/src/thesis/ch6.md`).

#[cfg(any(test, feature = "test-hooks"))]
pub(crate) mod hook;
pub mod known;
pub mod orphan;
pub mod symmetry;
pub mod verify;

pub use orphan::{Boundary, Counters, OrphanEngine, OrphanQuery, Verdict, effective_target};
pub use symmetry::Symmetry;
