//! One way to ask "is this target an orphan?" and one way to answer it: an
//! [`OrphanQuery`] (target, rule, boundary, stop flag, time limit) goes into
//! any [`OrphanEngine`] (each SAT backend, GRIDWALKER's variants, the column
//! automaton, the `auto` portfolio) and a [`Verdict`] comes back (orphan or a
//! checked parent, the engine that answered, the time as a [`Duration`], and
//! the [`Counters`]). The engines are listed once, in [`crate::engine`].
//!
//! Book: Part IV, "A GRIDWALKER that never loses badly" (`book/src/beyond/robust.md`).

use crate::error::Result;
use crate::life::{Cell, Grid, Rule, SpecGrid};
use crate::stop::Stop;
use std::time::Duration;

/// What lies outside the box of a predecessor search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Boundary {
    /// Only the given cells are constrained (an orphan in the strict sense).
    #[default]
    Free,
    /// The target is surrounded by a ring of dead cells (a Garden of Eden in the strict sense).
    Dead,
}

/// The target an engine that knows no boundary searches: with a dead
/// boundary, the target widened by a ring of known dead cells.
pub fn effective_target(target: &SpecGrid, boundary: Boundary) -> SpecGrid {
    match boundary {
        Boundary::Free => target.clone(),
        Boundary::Dead => {
            let mut t = SpecGrid::new(target.width() + 2, target.height() + 2, Cell::Dead);
            for y in 0..target.height() {
                for x in 0..target.width() {
                    t.set(x + 1, y + 1, target.get(x, y));
                }
            }
            t
        }
    }
}

/// The question: does `target` (its `?` cells free) have a parent under `rule`?
#[derive(Debug, Clone)]
pub struct OrphanQuery {
    pub target: SpecGrid,
    pub rule: Rule,
    pub boundary: Boundary,
    /// Raised by another thread: the engine gives up with [`crate::Error::Interrupted`].
    pub stop: Option<Stop>,
    /// Give up after this long (engines that cannot watch a clock ignore it).
    pub time_limit: Option<Duration>,
}

impl OrphanQuery {
    /// Conway's rule, a free boundary, no stop flag, no time limit.
    pub fn new(target: SpecGrid) -> OrphanQuery {
        OrphanQuery { target, rule: Rule::CONWAY, boundary: Boundary::Free, stop: None, time_limit: None }
    }
    pub fn rule(mut self, rule: Rule) -> OrphanQuery {
        self.rule = rule;
        self
    }
    pub fn boundary(mut self, boundary: Boundary) -> OrphanQuery {
        self.boundary = boundary;
        self
    }
    pub fn stop(mut self, stop: Stop) -> OrphanQuery {
        self.stop = Some(stop);
        self
    }
    pub fn time_limit(mut self, limit: Duration) -> OrphanQuery {
        self.time_limit = Some(limit);
        self
    }
    /// The target with the boundary made explicit (see [`effective_target`]).
    pub fn searched(&self) -> SpecGrid {
        effective_target(&self.target, self.boundary)
    }
}

/// Declares [`Counters`] once: each counter is a field, and its name is the
/// field's name (the key in the CLI's JSON `stats` and in the experiments' CSVs).
macro_rules! counters {
    ($($(#[doc = $doc:literal])* $name:ident),* $(,)?) => {
        /// What an engine counted; `None`: this engine does not count it.
        #[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
        pub struct Counters {
            $($(#[doc = $doc])* #[serde(skip_serializing_if = "Option::is_none")] pub $name: Option<u64>,)*
        }

        impl Counters {
            /// Every counter's name, in declaration order.
            pub const NAMES: &[&str] = &[$(stringify!($name)),*];

            /// The counter called `name`, if this engine reports it.
            pub fn get(&self, name: &str) -> Option<u64> {
                match name {
                    $(stringify!($name) => self.$name,)*
                    _ => None,
                }
            }

            /// Each counter that both `self` and `before` report becomes the
            /// difference, what was counted since `before` (a store's running
            /// totals turned into one question's).
            pub fn subtract(&mut self, before: &Counters) {
                $(if let (Some(a), Some(b)) = (self.$name, before.$name) { self.$name = Some(a - b); })*
            }

            /// The counters this engine reports, as (name, value) pairs.
            pub fn pairs(&self) -> Vec<(&'static str, u64)> {
                let mut v = Vec::new();
                $(if let Some(x) = self.$name { v.push((stringify!($name), x)); })*
                v
            }
        }
    };
}

counters! {
    // GRIDWALKER (`gridwalker::grid::Stats`)
    probes, nodes, sweeps, confrontations, ns_confrontations, ew_confrontations, changes, skipped,
    max_depth, top_level_tries, memo_hits, restarts, peak_bytes,
    // GRIDWALKER's `db` store
    slices_added, slice_queries, ns_added, ns_queried, ew_added, ew_queried, contradictions, interned, purges,
    // a GRIDWALKER session: the store's size after the question
    store_size,
    // SAT solvers (`cnf::SolverStats`) and the space-time search
    conflicts, decisions, propagations, learnt, solves, variables, clauses,
    // the column automaton
    peak_states, states_expanded,
}

/// The answer, from whichever engine.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// A parent: the (W+2) x (H+2) window around the searched target, checked
    /// by [`crate::base::verify::checked_parent`]. `None`: the target is an orphan.
    pub parent: Option<Grid>,
    /// The engine that answered (`auto` names its winner).
    pub engine: &'static str,
    /// Wall time of the whole call.
    pub elapsed: Duration,
    pub counters: Counters,
    /// Time spent building clauses (SAT engines; included in `elapsed`).
    pub encode_time: Option<Duration>,
    /// The column automaton: it read rows rather than columns, and (for an
    /// orphan) the 0-based line after which no state was left.
    pub transposed: Option<bool>,
    pub emptied_at: Option<usize>,
}

impl Verdict {
    /// A verdict with no extras.
    pub fn new(parent: Option<Grid>, engine: &'static str, elapsed: Duration, counters: Counters) -> Verdict {
        Verdict { parent, engine, elapsed, counters, encode_time: None, transposed: None, emptied_at: None }
    }
    pub fn is_orphan(&self) -> bool {
        self.parent.is_none()
    }
    /// The elapsed time in milliseconds (the unit of the CLI's JSON).
    pub fn millis(&self) -> f64 {
        self.elapsed.as_secs_f64() * 1e3
    }
}

/// Anything that can answer an [`OrphanQuery`]. Implement this and add one
/// line to [`crate::engine::registry`] to add an engine.
pub trait OrphanEngine: Send + Sync {
    /// The name on the command line (`--solver NAME`) and in the CSVs.
    fn name(&self) -> &'static str;
    /// Can this engine answer `query` at all (its rule, its size)? `Err` says why not.
    fn supports(&self, query: &OrphanQuery) -> Result<()> {
        let _ = query;
        Ok(())
    }
    /// Answer the question; every parent returned has been checked by simulation.
    fn decide(&self, query: &OrphanQuery) -> Result<Verdict>;
}
