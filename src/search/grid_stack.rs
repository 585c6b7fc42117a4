//! GRIDWALKER's circular grid stack (thesis Table 5.3) as a [`CycleEngine`]
//! (`search --solver gridwalker`): it finds one pattern, with no symmetry.
//!
//! Book: Part II, chapter 5 (`book/src/thesis/ch5.md`).

use crate::error::{Error, Result};
use crate::gridwalker::stack;
use crate::search::Symmetry;
use crate::search::engine::{CycleEngine, CycleQuery, CycleVerdict, no_space_time_knobs};
use std::time::Instant;

/// The grid-stack search of a caged cycle.
#[derive(Debug, Clone, Copy, Default)]
pub struct Engine;

impl CycleEngine for Engine {
    fn name(&self) -> &'static str {
        "gridwalker"
    }
    fn supports(&self, q: &CycleQuery) -> Result<()> {
        no_space_time_knobs(self.name(), q)?;
        if q.options.count {
            return Err(Error::invalid("--count needs a SAT solver (GRIDWALKER finds one pattern)"));
        }
        if q.cycle.symmetry != Symmetry::None {
            return Err(Error::invalid(
                "--symmetry needs a SAT solver (GRIDWALKER's grid stacks impose none)",
            ));
        }
        Ok(())
    }
    fn search(&self, q: &CycleQuery) -> Result<CycleVerdict> {
        self.supports(q)?;
        let start = Instant::now();
        let c = q.cycle;
        let (w, h, period, shift) = (c.width, c.height, c.period, (c.dx, c.dy));
        // An answer was checked by simulation inside the stack search.
        let a = match &q.stop {
            Some(stop) => stack::caged_cycle_stoppable(w, h, period, shift, q.rule, stop)?,
            None => stack::caged_cycle(w, h, period, shift, q.rule)?,
        };
        Ok(CycleVerdict {
            complete: a.start.is_none(),
            solutions: a.start.into_iter().collect(),
            generations: Vec::new(),
            engine: self.name(),
            elapsed: start.elapsed(),
            counters: a.stats,
        })
    }
}
