//! # lifesearch
//!
//! Searching for patterns in Conway's Game of Life: Knuth's SAT-LIFE clause
//! generators, Bontes' LIFECUBE evolver and GRIDWALKER solver, and the
//! experiments of Bontes' thesis, as one literate Rust crate. The book in
//! `book/` explains every module; each module's documentation names its chapter.
//!
//! Evolve a glider four generations, ask whether a small pattern has a parent,
//! then search a box for an oscillator:
//!
//! ```
//! use lifesearch::{Algorithm, CycleQuery, Grid, OrphanQuery, Rule, SpecGrid, Topology, engine};
//! use lifesearch::search::{Cycle, Symmetry};
//!
//! let glider = Grid::from_rows(&[".*...", "..*..", "***..", ".....", "....."]).unwrap();
//! let later = lifesearch::life::evolve(&glider, Rule::CONWAY, Topology::Torus, 4, Algorithm::Lifecube);
//! assert_eq!(later.population(), 5); // a glider again, one cell down and right
//!
//! // Every engine answers through one interface; `auto` is the portfolio.
//! let target = SpecGrid::from(&glider);
//! let verdict = engine::by_name("auto").unwrap().decide(&OrphanQuery::new(target)).unwrap();
//! assert!(!verdict.is_orphan()); // a glider has a parent: the glider before it
//!
//! // The cycle engines answer through one interface too: a period-2
//! // oscillator in a 3x3 box is the blinker, under any rule that keeps it.
//! let cycle = Cycle { width: 3, height: 3, period: 2, dx: 0, dy: 0, symmetry: Symmetry::None };
//! let found = engine::cycle_engine("auto").unwrap().search(&CycleQuery::new(cycle, Rule::CONWAY)).unwrap();
//! assert_eq!(found.solutions[0].population(), 3);
//! ```
//!
//! The modules, bottom to top (each imports only from the ones before it;
//! `tests/layers.rs` checks): [`error`] and [`stop`]; [`life`]; [`formats`] and
//! [`knuth`]; [`base`] (answer checks, symmetry, known patterns); [`cnf`] (SAT
//! solvers); the engines [`gridwalker`] and [`automaton`]; [`search`] (problems,
//! encodings, the space-time search); and [`engine`] (one interface for every
//! orphan engine and one for every cycle engine, their registries, and the
//! `auto` portfolios). The concept modules
//! stay public because the tests, benchmarks and experiments reach into them.

#![warn(clippy::undocumented_unsafe_blocks)]

pub mod alloc;
pub mod automaton;
pub mod base;
pub mod cnf;
pub mod engine;
pub mod error;
pub mod formats;
mod fsutil;
pub mod gridwalker;
pub mod knuth;
pub mod life;
pub mod search;
mod simd;
pub mod stop;

pub use engine::{Counters, CycleEngine, CycleQuery, CycleVerdict, OrphanEngine, OrphanQuery, Verdict};
pub use error::{Error, Result};
pub use fsutil::{atomic_write, read_text, temp_beside, text_from_bytes};
pub use life::{Algorithm, Cell, Grid, Rule, SpecGrid, Topology};
pub use stop::Stop;
