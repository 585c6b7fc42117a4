//! The default search: restarts. The thesis' search splits the smallest
//! slice first and never looks back; on most Gardens of Eden that is the
//! fastest way there is, but on some it loses its way for minutes (Eker's
//! 5x45 orphan; a large soup). Here the search runs in rounds with a budget
//! of nodes that doubles each round, and each round runs twice, once with
//! each of two ways to pick the slice to split:
//!
//! - dom/wdeg: the smallest slice relative to its part in past
//!   contradictions, which finds the knot of a compact orphan at once and
//!   leaves the rest of a large pattern alone;
//! - the front: along the pattern's long axis, a line at a time, which with
//!   remembered failures turns a long thin pattern into a walk of a finite
//!   automaton, as Hardouin-Duparc's method does.
//!
//! Both share what they learn: the cells' weights and the failed
//! subproblems (`memo.rs`), which stay true whatever the order of splits.
//! The first run (dom/wdeg without memory, which at first is GetMinSlice)
//! is the thesis' search in all but the order of ties, so the easy cases
//! pay nothing for the rest.
//!
//! Book: Part IV, "A GRIDWALKER that never loses badly".

use super::convention::Layout;
use super::grid::{Pivot, Solver};
use super::store::SliceStore;
use crate::life::Grid;

/// The first run's budget in nodes; each round doubles it.
const FIRST_BUDGET: u64 = 1 << 10;

/// Remembered failures kept before the table is emptied (16 bytes each).
const MEMO_CAP: usize = 1 << 22;

impl<S: SliceStore, L: Layout> Solver<S, L> {
    // ANCHOR: restarts
    /// A verified predecessor or `None`, by rounds of restarts (see the
    /// module's documentation). Call it on a grid already solved once.
    pub fn restarting_solution(&mut self) -> crate::Result<Option<Grid>> {
        let root = self.cells.clone();
        let mut budget = FIRST_BUDGET;
        for round in 0u32.. {
            for pivot in [Pivot::DomWdeg, Pivot::Front] {
                self.pivot = pivot;
                self.remember_failures(round > 0 || pivot == Pivot::Front);
                if self.failed.as_ref().is_some_and(|f| f.len() > MEMO_CAP) {
                    self.failed = Some(Default::default());
                }
                self.node_limit = self.stats.nodes.saturating_add(budget);
                match self.unique_solution(0) {
                    Err(crate::Error::Interrupted) if self.out_of_nodes => {
                        self.out_of_nodes = false;
                        self.stats.restarts += 1;
                        self.reset_to(&root);
                    }
                    answer => {
                        self.node_limit = u64::MAX;
                        return answer;
                    }
                }
            }
            budget = budget.saturating_mul(2);
        }
        unreachable!("the rounds only end by returning")
    }
    // ANCHOR_END: restarts
}
