//! One way to ask for a still life, oscillator or spaceship in a box, and
//! one answer, whichever engine searches: the cycle-search twin of the
//! orphan question ([`crate::base::OrphanEngine`]). The command line
//! (`search --solver NAME`), the experiments and the tests look the engines
//! up in [`crate::engine::cycle_registry`].
//!
//! Book: Part I, "A space-time propagation engine" (`book/src/knuth/spacetime.md`).

use crate::base::Counters;
use crate::cnf::Stop;
use crate::error::{Error, Result};
use crate::life::{Grid, Rule};
use crate::search::spacetime::order::{FirstValue, SearchOrder};
use crate::search::spacetime::search::{self as spacetime, placement};
use crate::search::{Cycle, Encoding, Placement, Problem};
use std::time::Duration;

// ANCHOR: cycle_query
/// A cycle search: the box and cycle, the rule, how the answers are wanted
/// (one, or a count; the space-time engine's own knobs), the step encoding
/// a SAT engine uses (`None`: [`crate::search::sat::sat_encoding`]'s choice)
/// and a stop flag.
#[derive(Debug, Clone)]
pub struct CycleQuery {
    pub cycle: Cycle,
    pub rule: Rule,
    pub options: spacetime::Options,
    pub encoding: Option<Encoding>,
    pub stop: Option<Stop>,
}

/// What a cycle engine found.
#[derive(Debug, Clone)]
pub struct CycleVerdict {
    /// Generation 0 of every answer found, each checked by simulation.
    pub solutions: Vec<Grid>,
    /// Every generation of the first answer, where the engine reads them
    /// off its own variables (the SAT engines); else empty.
    pub generations: Vec<Grid>,
    /// The search space was exhausted (no answers: none exists; counting: the count is exact).
    pub complete: bool,
    /// The engine that answered (`auto` names its winner).
    pub engine: &'static str,
    /// Wall time of the whole call.
    pub elapsed: Duration,
    pub counters: Counters,
}

/// Anything that can answer a [`CycleQuery`]. Implement this and add one
/// line to [`crate::engine::cycle_registry`] to add an engine.
pub trait CycleEngine: Send + Sync {
    /// The name on the command line (`--solver NAME`) and in the CSVs.
    fn name(&self) -> &'static str;
    /// Can this engine answer `query` at all? `Err` says why not.
    fn supports(&self, query: &CycleQuery) -> Result<()> {
        let _ = query;
        Ok(())
    }
    /// Search; every answer returned has been checked by simulation.
    fn search(&self, query: &CycleQuery) -> Result<CycleVerdict>;
}
// ANCHOR_END: cycle_query

impl CycleQuery {
    /// The search for `cycle` under `rule`: one answer, default options.
    pub fn new(cycle: Cycle, rule: Rule) -> CycleQuery {
        CycleQuery { cycle, rule, options: spacetime::Options::default(), encoding: None, stop: None }
    }
    pub fn options(mut self, options: spacetime::Options) -> CycleQuery {
        self.options = options;
        self
    }
    pub fn encoding(mut self, encoding: Option<Encoding>) -> CycleQuery {
        self.encoding = encoding;
        self
    }
    pub fn stop(mut self, stop: Stop) -> CycleQuery {
        self.stop = Some(stop);
        self
    }
    /// The search as a [`Problem`].
    pub fn problem(&self) -> Problem {
        Problem::Cycle(self.cycle)
    }
    /// The placements a formula for this query admits (see [`placement`]).
    pub fn placement(&self) -> Placement {
        placement(&self.options)
    }
    /// Does the query ask for any of the space-time engine's own knobs (known
    /// cells, a population cap, a search order, a first value)?
    pub fn space_time_only(&self) -> bool {
        let o = &self.options;
        o.known.is_some()
            || o.max_population.is_some()
            || o.order != SearchOrder::Auto
            || o.first != FirstValue::Auto
    }
}

/// Refuse a query that asks `engine` for the space-time engine's own knobs.
pub(crate) fn no_space_time_knobs(engine: &str, q: &CycleQuery) -> Result<()> {
    if q.space_time_only() {
        return Err(Error::invalid(format!(
            "--max-population, --known, --order and --first need --solver spacetime or auto, not {engine}"
        )));
    }
    Ok(())
}
