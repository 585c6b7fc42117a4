//! Speculative search (thesis Listing 5.5, GetUniqueSolution): force the
//! smallest undecided slice to each of its constellations in turn, solve,
//! recurse, and restore the grid from its clone between tries.
//!
//! Book: Part II, chapter 5, section 5.3 (`book/src/thesis/ch5.md`).

use super::convention::Layout;
use super::grid::Solver;
use super::solve::Start;
use super::store::SliceStore;
use crate::life::Grid;

impl<S: SliceStore, L: Layout> Solver<S, L> {
    // ANCHOR: unique_solution
    /// A verified predecessor reachable from the current grid, or `None` if
    /// every branch ends in a contradiction. A leaf of unit slices that fails
    /// its check is a bug, and the error ends the whole search.
    pub fn unique_solution(&mut self, depth: usize) -> crate::Result<Option<Grid>> {
        self.stats.nodes += 1;
        match self.stats.nodes_by_depth.get_mut(depth) {
            Some(n) => *n += 1,
            None => self.stats.nodes_by_depth.push(1),
        }
        if self.stats.nodes > self.node_limit {
            self.out_of_nodes = true;
            return Err(crate::Error::Interrupted);
        }
        if self.stop.as_ref().is_some_and(crate::stop::Stop::poll) {
            return Err(crate::Error::Interrupted);
        }
        self.stats.max_depth = self.stats.max_depth.max(depth as u64);
        self.stats.peak_bytes = self.stats.peak_bytes.max((depth as u64 + 1) * self.grid_bytes());
        let Some(pivot) = self.next_pivot() else {
            return self.candidate();
        };
        let key = match self.failed.is_some() {
            true => {
                // The key stands for the subproblem only at a full fixpoint:
                // finish the sweeps a pivot start may have cut short.
                if self.grid_solve(Start::Fresh).is_err() {
                    self.blame();
                    return Ok(None);
                }
                let k = self.subproblem_key();
                if self.failed.as_ref().is_some_and(|f| f.contains(&k)) {
                    self.stats.memo_hits += 1;
                    return Ok(None);
                }
                Some(k)
            }
            false => None,
        };
        self.save(depth);
        let choices = self.store.fetch(self.cells[pivot]);
        for c in choices.iter() {
            self.stats.probes += 1;
            if depth == 0 {
                self.stats.top_level_tries += 1;
            }
            self.trail.touch(pivot, &self.cells[pivot]);
            self.cells[pivot] = self.store.unit(c);
            if self.variant.keeps_rows() {
                self.rows.cell_changed(pivot);
            }
            if self.tracking() {
                self.mark(pivot);
            }
            if self.grid_solve(Start::Pivot(pivot)).is_err() {
                self.blame();
            } else if let Some(found) = self.unique_solution(depth + 1)? {
                return Ok(Some(found));
            }
            self.restore(depth);
        }
        if let (Some(k), Some(f)) = (key, self.failed.as_mut()) {
            f.insert(k);
        }
        Ok(None)
    }
    // ANCHOR_END: unique_solution
}
