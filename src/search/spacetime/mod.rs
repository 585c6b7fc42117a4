//! A space-time propagation engine for still lifes, oscillators and
//! spaceships in a box, in the manner of David Bell's lifesrc: three-valued
//! cells over (x, y, t), propagation through each cell's neighbourhood and
//! successor by a precomputed rule table ([`table`]), a depth-first search
//! with a trail ([`search`](mod@search)) in an order taken from the motion ([`order`]),
//! symmetry by identifying cells, and no encoding step.
//!
//! Book: Part I, "A space-time propagation engine" (`book/src/knuth/spacetime.md`).

pub mod order;
pub mod search;
pub mod table;
pub mod world;

pub use order::{FirstValue, SearchOrder};
#[cfg(any(test, feature = "test-hooks"))]
pub use search::search_with_schedule;
pub use search::{Options, PROBE_AFTER, PROBE_RATIO, PROBE_SLICE, Schedule, SpacetimeAnswer, Undo, search};
