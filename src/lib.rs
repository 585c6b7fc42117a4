//! # lifesearch
//!
//! Searching for patterns in Conway's Game of Life: Knuth's SAT-LIFE clause
//! generators, Bontes' LIFECUBE evolver and GRIDWALKER solver, and the
//! experiments of Bontes' thesis, as one literate Rust crate. The book in
//! `book/` explains every module; each module's documentation names its chapter.

pub mod alloc;
pub mod automaton;
pub mod cnf;
pub mod error;
pub mod formats;
pub mod fsutil;
pub mod gridwalker;
pub mod knuth;
pub mod life;
pub mod search;

pub use error::{Error, Result};
