//! GRIDWALKER's default search: rounds of restarts with a doubling node
//! budget, each round run once choosing slices by dom/wdeg and once along the
//! pattern's long axis (the front), sharing the cells' weights and the failed
//! subproblems of `memo.rs`. Why this order and what it buys: the book.
//!
//! Book: Part IV, "A GRIDWALKER that never loses badly" (`book/src/beyond/robust.md`).

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
    /// A verified predecessor or `None`, by rounds of restarts. Call it on a
    /// grid already solved once.
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
