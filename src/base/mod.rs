//! The base every engine stands on: the independent check of every answer
//! ([`verify`]), the symmetries a search may impose ([`symmetry`]), and the
//! patterns the sources name ([`known`]). It sits below GRIDWALKER, the
//! automaton and the SAT searches, and imports only `life`.
//!
//! Book: Part II, chapter 6, section 6.1 (`book/src/thesis/ch6.md`).

pub mod known;
pub mod symmetry;
pub mod verify;

pub use symmetry::Symmetry;
