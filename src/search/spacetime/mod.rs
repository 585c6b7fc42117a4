//! A space-time propagation engine for still lifes, oscillators and
//! spaceships in a box, in the manner of David Bell's lifesrc: three-valued
//! cells over (x, y, t), propagation through each cell's neighbourhood and
//! successor by a precomputed rule table ([`table`]), a depth-first search
//! with a trail ([`search`](mod@search)) in an order taken from the motion ([`order`]),
//! symmetry by identifying cells, and no encoding step.
//!
//! Book: Part I, "A space-time propagation engine" (`book/src/knuth/spacetime.md`).

pub mod order;
pub mod predecessor;
pub mod search;
pub mod table;
pub mod world;

pub use order::{FirstValue, SearchOrder};
#[cfg(any(test, feature = "test-hooks"))]
pub use search::search_with_schedule;
pub use search::{Options, PROBE_AFTER, PROBE_RATIO, PROBE_SLICE, Schedule, SpacetimeAnswer, Undo, search};

use crate::error::Result;
use crate::search::engine::{CycleEngine, CycleQuery, CycleVerdict};
use std::time::Duration;

impl SpacetimeAnswer {
    /// This answer as a [`CycleVerdict`] of the engine `engine`.
    pub fn verdict(self, engine: &'static str) -> CycleVerdict {
        CycleVerdict {
            counters: self.counters(),
            solutions: self.solutions,
            generations: Vec::new(),
            complete: self.complete,
            engine,
            elapsed: Duration::from_secs_f64(self.millis / 1e3),
        }
    }
}

/// The space-time engine as a [`CycleEngine`] (`--solver spacetime`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Engine;

impl CycleEngine for Engine {
    fn name(&self) -> &'static str {
        "spacetime"
    }
    fn search(&self, q: &CycleQuery) -> Result<CycleVerdict> {
        Ok(search(&q.problem(), q.rule, &q.options, q.stop.as_ref())?.verdict(self.name()))
    }
}
