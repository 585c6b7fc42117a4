//! GRIDWALKER's question put to the space-time engine: does the target have
//! a parent? The same world, rule table and propagation as a cycle search,
//! with two generations (the unknown parent and the known target) and no
//! wrap ([`World::predecessor`]); a depth-first search decides the parent's
//! cells line by line. It shares everything below the search with the cycle
//! engine and nothing with GRIDWALKER's slices; the book compares the two.
//!
//! Book: Part II, chapter 6, "What is shared with GRIDWALKER" (`book/src/knuth/spacetime.md`).

use super::table::{ALIVE, DEAD, RuleTable, UNKNOWN};
use super::world::{Undo, World};
use crate::base::orphan::{Counters, OrphanEngine, OrphanQuery, Verdict};
use crate::base::verify::checked_parent;
use crate::error::{Error, Result};
use crate::life::{Grid, SpecGrid};
use std::time::Instant;

/// The space-time engine as an [`OrphanEngine`] (`orphan --solver spacetime`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Engine;

impl OrphanEngine for Engine {
    fn name(&self) -> &'static str {
        "spacetime"
    }
    fn supports(&self, q: &OrphanQuery) -> Result<()> {
        RuleTable::cached(q.rule).map(|_| ())
    }
    fn decide(&self, q: &OrphanQuery) -> Result<Verdict> {
        let start = Instant::now();
        let target = q.searched();
        let (parent, decisions, conflicts) = parent_of(&target, RuleTable::cached(q.rule)?, q)?;
        let parent = parent.map(|g| checked_parent(g, &target, 1, q.rule, self.name())).transpose()?;
        let counters =
            Counters { decisions: Some(decisions), conflicts: Some(conflicts), ..Default::default() };
        Ok(Verdict::new(parent, self.name(), start.elapsed(), counters))
    }
}

// ANCHOR: parent_of
/// Search the parent's cells line by line along its shorter side, dead first (a parent is mostly
/// dead), propagating after each decision; on a conflict flip the latest
/// decision not yet flipped. Returns the parent, if any, with the decisions
/// and conflicts.
fn parent_of(target: &SpecGrid, table: RuleTable, q: &OrphanQuery) -> Result<(Option<Grid>, u64, u64)> {
    let mut world = World::predecessor(target, table);
    world.finish(Undo::Auto);
    let (w, h) = (world.w, world.h);
    // Lines along the shorter side, as a cycle search sweeps (see `order::resolve`).
    let lines = |(a, b): (usize, usize)| (0..b).flat_map(move |j| (0..a).map(move |i| (i, j)));
    let cells: Vec<(usize, usize)> =
        if w > h { lines((h, w)).map(|(y, x)| (x, y)).collect() } else { lines((w, h)).collect() };
    let order: Vec<u32> = cells.into_iter().map(|(x, y)| world.at(x as i64, y as i64, 0) as u32).collect();
    let deadline = q.time_limit.map(|d| Instant::now() + d);
    let mut frames: Vec<(usize, u32, bool, usize)> = Vec::new();
    let mut decisions = 0u64;
    let mut ok = world.check_all();
    let mut pos = 0;
    loop {
        if ok {
            while pos < order.len() && world.state[order[pos] as usize] != UNKNOWN {
                pos += 1;
            }
            let Some(&cell) = order.get(pos) else {
                let cells = (0..h).flat_map(|y| (0..w).map(move |x| (x, y)));
                let parent =
                    cells.map(|(x, y)| world.state[world.at(x as i64, y as i64, 0)] == ALIVE).collect();
                return Ok((Some(Grid::from_cells(w, h, parent)), decisions, world.conflicts));
            };
            decisions += 1;
            if decisions & 255 == 0 {
                if q.stop.as_ref().is_some_and(|s| s.poll()) {
                    return Err(Error::Interrupted);
                }
                if deadline.is_some_and(|d| Instant::now() > d) {
                    return Err(Error::Interrupted);
                }
            }
            frames.push((world.mark(), cell, false, pos));
            ok = world.set(cell, DEAD) && world.propagate();
            continue;
        }
        // Backtrack to the latest decision with a value left to try.
        loop {
            let Some((mark, cell, flipped, at)) = frames.pop() else {
                return Ok((None, decisions, world.conflicts));
            };
            world.undo_to(mark);
            if !flipped {
                frames.push((mark, cell, true, at));
                ok = world.set(cell, ALIVE) && world.propagate();
                pos = at;
                break;
            }
        }
    }
}
// ANCHOR_END: parent_of

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::orphan::Boundary;
    use crate::life::{Cell, Rule};
    use proptest::prelude::*;

    fn target(w: usize, h: usize, cells: &[u8]) -> SpecGrid {
        let cells = cells[..w * h]
            .iter()
            .map(|&c| match c % 7 {
                0 => Cell::Unknown,
                1..=3 => Cell::Alive,
                _ => Cell::Dead,
            })
            .collect();
        SpecGrid::from_cells(w, h, cells).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The SAT twin: CaDiCaL with the window encoding decides the same
        /// question; targets up to 5x5, dense enough that orphans occur, under
        /// Life and HighLife, with either boundary.
        #[test]
        fn agrees_with_cadical(
            w in 1usize..6, h in 1usize..6, cells in proptest::collection::vec(0u8..7, 25),
            highlife in any::<bool>(), dead in any::<bool>(),
        ) {
            let rule = if highlife { Rule::HILIFE } else { Rule::CONWAY };
            let boundary = if dead { Boundary::Dead } else { Boundary::Free };
            let q = OrphanQuery::new(target(w, h, &cells)).rule(rule).boundary(boundary);
            let sat = crate::engine::by_name("cadical").unwrap().decide(&q).unwrap();
            let ours = Engine.decide(&q).unwrap();
            prop_assert_eq!(ours.is_orphan(), sat.is_orphan(), "{:?}", q.target.to_rows());
        }
    }

    /// Table 6.1's #3 (the Garden of Eden with one more live cell) has a
    /// parent, and the engine finds one.
    #[test]
    fn finds_a_parent_of_a_near_orphan() {
        let q = OrphanQuery::new(crate::base::known::garden_of_eden_with_alive(4, 4));
        let v = Engine.decide(&q).unwrap();
        assert!(!v.is_orphan());
        assert!(v.counters.decisions.unwrap() > 0);
    }

    #[test]
    fn b0_is_refused() {
        let q = OrphanQuery::new(target(2, 2, &[1; 25])).rule("B03/S23".parse().unwrap());
        assert!(Engine.supports(&q).is_err());
    }
}
