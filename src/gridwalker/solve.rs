//! GridSolve and SliverSolve (thesis Listing 5.6, Sections 6.2.1-6.2.3):
//! sweep the grid confronting neighbours until a sweep changes nothing.
//!
//! Book: Part II, chapter 5, section 5.3.1 (`book/src/thesis/ch5.md`), and chapter 6, sections 6.2.1-6.2.3
//! (`book/src/thesis/ch6.md`).

use super::Variant;
use super::convention::Layout;
use super::grid::{EW_DIRTY, NS_DIRTY, Solver};
use super::sliver::{Changed, Contradiction};
use super::store::SliceStore;
use crate::simd::simd_copies;

/// The last cell index the thesis' program's reverse pass reached.
const THESIS_REVERSE_LIMIT: usize = 255;

/// Where a GridSolve begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// A full forward sweep first.
    Fresh,
    /// Just after forcing the slice at this index: the rest of a reverse sweep
    /// from the pivot (thesis code; Table 6.5 depends on it).
    Pivot(usize),
}

impl<S: SliceStore, L: Layout> Solver<S, L> {
    // ANCHOR: pairs
    /// Confront the slice at `i` with its east neighbour. `TRACK`: the
    /// `track` variant, fixed at compile time so the other variants pay nothing for it.
    #[inline(always)]
    fn ew<const TRACK: bool>(&mut self, i: usize) -> Result<Changed, Contradiction> {
        if TRACK {
            if self.dirty[i] & EW_DIRTY == 0 {
                self.stats.skipped += 1;
                return Ok(Changed::default());
            }
            self.dirty[i] &= !EW_DIRTY;
        }
        self.stats.ew_confrontations += 1;
        let (left, right) = self.cells.split_at_mut(i + 1);
        let trail = &mut self.trail;
        let r = self.store.confront_ew(&mut left[i], &mut right[0], |second, old| {
            trail.touch(if second { i + 1 } else { i }, old)
        });
        let Ok(ch) = r else {
            self.conflict = (i, i + 1);
            return r;
        };
        if TRACK {
            self.note(i, i + 1, ch, EW_DIRTY);
        }
        Ok(ch)
    }

    /// Confront the slice at `i` with its south neighbour.
    #[inline(always)]
    fn ns<const TRACK: bool>(&mut self, i: usize) -> Result<Changed, Contradiction> {
        if TRACK {
            if self.dirty[i] & NS_DIRTY == 0 {
                self.stats.skipped += 1;
                return Ok(Changed::default());
            }
            self.dirty[i] &= !NS_DIRTY;
        }
        self.stats.ns_confrontations += 1;
        let j = i + self.width;
        let (upper, lower) = self.cells.split_at_mut(j);
        let trail = &mut self.trail;
        let r = self.store.confront_ns(&mut upper[i], &mut lower[0], |second, old| {
            trail.touch(if second { j } else { i }, old)
        });
        let Ok(ch) = r else {
            self.conflict = (i, j);
            return r;
        };
        if TRACK {
            self.note(i, j, ch, NS_DIRTY);
        }
        Ok(ch)
    }

    /// `track`: a changed member dirties its other pairs; the confronted pair
    /// itself is consistent afterwards (both slivers equal the intersection).
    #[inline(always)]
    fn note(&mut self, i: usize, j: usize, ch: Changed, flag: u8) {
        if ch.first {
            self.mark(i);
        }
        if ch.second {
            self.mark(j);
        }
        self.dirty[i] &= !flag;
    }
    // ANCHOR_END: pairs

    // ANCHOR: sliver_solve
    /// SliverSolve going forward at cell `i`: east, then south; while the
    /// south confrontation changed the centre, east again (stop if the centre
    /// did not change) and south again. Returns whether any slice changed.
    /// `EAST`, `SOUTH`: the cell has an east, a south neighbour (known per loop, so
    /// the sweep does not test the edges cell by cell). `REPEAT`: all but `no-repeat`.
    #[inline(always)]
    fn sliver_forward<const TRACK: bool, const REPEAT: bool, const EAST: bool, const SOUTH: bool>(
        &mut self,
        i: usize,
    ) -> Result<bool, Contradiction> {
        let mut any = false;
        if EAST {
            let c = self.ew::<TRACK>(i)?;
            any |= c.first | c.second;
        }
        if !SOUTH {
            return Ok(any);
        }
        let c = self.ns::<TRACK>(i)?;
        any |= c.first | c.second;
        let mut centre = c.first;
        while REPEAT && EAST && centre {
            let c = self.ew::<TRACK>(i)?;
            any |= c.first | c.second;
            if !c.first {
                break;
            }
            let c = self.ns::<TRACK>(i)?;
            any |= c.first | c.second;
            centre = c.first;
        }
        Ok(any)
    }

    /// The mirror image going back: west, then north.
    #[inline(always)]
    fn sliver_reverse<const TRACK: bool, const REPEAT: bool, const WEST: bool, const NORTH: bool>(
        &mut self,
        i: usize,
    ) -> Result<bool, Contradiction> {
        let mut any = false;
        if WEST {
            let c = self.ew::<TRACK>(i - 1)?;
            any |= c.first | c.second;
        }
        if !NORTH {
            return Ok(any);
        }
        let north = i - self.width;
        let c = self.ns::<TRACK>(north)?;
        any |= c.first | c.second;
        let mut centre = c.second;
        while REPEAT && WEST && centre {
            let c = self.ew::<TRACK>(i - 1)?;
            any |= c.first | c.second;
            if !c.second {
                break;
            }
            let c = self.ns::<TRACK>(north)?;
            any |= c.first | c.second;
            centre = c.second;
        }
        Ok(any)
    }
    // ANCHOR_END: sliver_solve

    // ANCHOR: clean
    /// `track`: are all of cell `i`'s pairs in this sweep clean? Then the
    /// sweep passes it with one test instead of a call per pair, counting its
    /// pairs as skipped. Going forward a cell owns its east and south pairs;
    /// going back, its west neighbour's east pair and its north neighbour's
    /// south pair. `H`, `V`: the cell has its horizontal, vertical pair.
    #[inline(always)]
    fn clean<const T: bool, const FORWARD: bool, const H: bool, const V: bool>(&mut self, i: usize) -> bool {
        if !T {
            return false;
        }
        let (h, v) = if FORWARD { (i, i) } else { (i.wrapping_sub(1), i.wrapping_sub(self.width)) };
        let dirty =
            (if H { self.dirty[h] & EW_DIRTY } else { 0 }) | (if V { self.dirty[v] & NS_DIRTY } else { 0 });
        if dirty == 0 {
            self.stats.skipped += H as u64 + V as u64;
        }
        dirty == 0
    }
    // ANCHOR_END: clean

    /// A forward sweep over the whole grid, row by row: the last column has
    /// no east pair, the last row no south pair. The count of SliverSolve
    /// calls that changed something.
    #[inline(always)]
    fn forward<const T: bool, const R: bool, const W: bool>(&mut self) -> Result<u64, Contradiction> {
        let (w, h) = (self.width, self.height);
        let mut changes = 0;
        for y in 0..h {
            let row = y * w;
            let south = y + 1 < h;
            if W && self.rows.ew_clean(y) && (!south || self.rows.ns_clean(y)) {
                self.stats.skipped += (w - 1 + if south { w } else { 0 }) as u64;
                continue;
            }
            let before = changes;
            if south {
                for i in row..row + w - 1 {
                    if !self.clean::<T, true, true, true>(i) {
                        changes += self.sliver_forward::<T, R, true, true>(i)? as u64;
                    }
                }
                if !self.clean::<T, true, false, true>(row + w - 1) {
                    changes += self.sliver_forward::<T, R, false, true>(row + w - 1)? as u64;
                }
            } else {
                for i in row..row + w - 1 {
                    if !self.clean::<T, true, true, false>(i) {
                        changes += self.sliver_forward::<T, R, true, false>(i)? as u64;
                    }
                }
            }
            if W {
                let below = if south { y + 1 } else { y };
                self.rows.swept(y, south.then_some(y), below, changes != before);
            }
        }
        Ok(changes)
    }

    /// A reverse sweep from cell index `start` (inclusive) back to the origin.
    /// `B`: the thesis' program's reverse pass, which skipped every cell past
    /// index 255 (`thesis-track` only).
    #[inline(always)]
    fn reverse_from<const T: bool, const R: bool, const B: bool, const W: bool>(
        &mut self,
        start: usize,
    ) -> Result<u64, Contradiction> {
        let start = if B { start.min(THESIS_REVERSE_LIMIT) } else { start };
        let w = self.width;
        let mut changes = 0;
        for y in (0..=start / w).rev() {
            let row = y * w;
            let last = if y == start / w { start } else { row + w - 1 };
            // Row y's east-west pairs and the pairs from row y - 1 to it.
            if W && self.rows.ew_clean(y) && (y == 0 || self.rows.ns_clean(y - 1)) {
                self.stats.skipped += (last - row + if y > 0 { last - row + 1 } else { 0 }) as u64;
                continue;
            }
            let before = changes;
            if y > 0 {
                for i in (row + 1..=last).rev() {
                    if !self.clean::<T, false, true, true>(i) {
                        changes += self.sliver_reverse::<T, R, true, true>(i)? as u64;
                    }
                }
                if !self.clean::<T, false, false, true>(row) {
                    changes += self.sliver_reverse::<T, R, false, true>(row)? as u64;
                }
            } else {
                for i in (row + 1..=last).rev() {
                    if !self.clean::<T, false, true, false>(i) {
                        changes += self.sliver_reverse::<T, R, true, false>(i)? as u64;
                    }
                }
            }
            // A row begun part-way (at the pivot) proves only some pairs consistent.
            let any = changes != before;
            if W && (any || last == row + w - 1) {
                self.rows.swept(y, y.checked_sub(1), y.saturating_sub(1), any);
            }
        }
        Ok(changes)
    }

    /// One sweep; the count of SliverSolve calls that changed something.
    #[inline(always)]
    fn sweep<const T: bool, const R: bool, const B: bool, const W: bool>(
        &mut self,
        forward: bool,
    ) -> Result<u64, Contradiction> {
        self.stats.sweeps += 1;
        let changes = if forward {
            self.forward::<T, R, W>()?
        } else {
            self.reverse_from::<T, R, B, W>(self.cells.len() - 1)?
        };
        self.stats.changes += changes;
        Ok(changes)
    }

    // ANCHOR: grid_solve
    simd_copies! {
        /// GridSolve: sweep until a sweep changes nothing, alternating direction
        /// (except `single`, which always sweeps forward). `Err` on a contradiction.
        /// Compiled once more for AVX2 (a slice is two 256-bit words) and the
        /// hardware bit instructions, chosen at run time.
        pub fn grid_solve(&mut self, start: Start) -> Result<(), Contradiction>
            => grid_solve_portable;
        grid_solve_avx2: "avx2,bmi1,bmi2,popcnt"
            if has!("avx2") && has!("bmi1") && has!("bmi2") && has!("popcnt");
    }

    #[inline(always)]
    fn grid_solve_portable(&mut self, start: Start) -> Result<(), Contradiction> {
        match self.variant {
            Variant::Track => self.grid_solve_with::<true, true, false, false>(start),
            Variant::ThesisTrack => self.grid_solve_with::<true, true, true, false>(start),
            Variant::NoRepeat => self.grid_solve_with::<false, false, false, false>(start),
            v if v.keeps_rows() && !every_row_swept() => {
                self.grid_solve_with::<false, true, false, true>(start)
            }
            _ => self.grid_solve_with::<false, true, false, false>(start),
        }
    }

    #[inline(always)]
    fn grid_solve_with<const T: bool, const R: bool, const B: bool, const W: bool>(
        &mut self,
        start: Start,
    ) -> Result<(), Contradiction> {
        if self.cells.is_empty() {
            return Ok(());
        }
        let single = self.variant == Variant::Single;
        let mut forward = true;
        if let (Start::Pivot(p), false) = (start, single) {
            self.stats.sweeps += 1;
            let changes = self.reverse_from::<T, R, B, W>(p)?;
            self.stats.changes += changes;
            if changes == 0 {
                return Ok(());
            }
        }
        loop {
            if self.sweep::<T, R, B, W>(forward)? == 0 {
                return Ok(());
            }
            forward = single || !forward;
        }
    }
    // ANCHOR_END: grid_solve
}

#[cfg(any(test, feature = "test-hooks"))]
thread_local! {
    static EVERY_ROW: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Test hook (feature `test-hooks`): inside `f`, on this thread, `robust`
/// sweeps every row, passing none that [`super::grid::Rows`] knows to be
/// consistent, so a test can check that passing them changes nothing but
/// the count of confrontations.
#[cfg(any(test, feature = "test-hooks"))]
pub fn with_every_row_swept<T>(f: impl FnOnce() -> T) -> T {
    crate::base::hook::with_flag(&EVERY_ROW, f)
}

#[inline(always)]
fn every_row_swept() -> bool {
    #[cfg(any(test, feature = "test-hooks"))]
    return crate::base::hook::is_on(&EVERY_ROW);
    #[cfg(not(any(test, feature = "test-hooks")))]
    false
}
