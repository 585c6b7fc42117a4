//! The grid of slices for one future pattern: one slice per target cell, in
//! row-major order, and the bookkeeping the variants need (change flags for
//! `track`, statistics, the clones of the search).
//!
//! Book: Part II, chapter 5, sections 5.2 and 5.3 (`book/src/thesis/ch5.md`).

use super::Variant;
use super::convention::Layout;
use super::store::SliceStore;
use crate::base::Counters;
use crate::life::lifecube::step_narrow;
use crate::life::{Cell, Grid, Rule, SpecGrid, Topology};
use crate::simd::simd_copies;
use std::marker::PhantomData;

/// Counters of one run; see [`Stats::counters`] for their names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Pivot forcings (constellations tried by the search).
    pub probes: u64,
    /// Calls of GetUniqueSolution, the top-level call included.
    pub nodes: u64,
    /// Sweeps, partial pivot-start sweeps included.
    pub sweeps: u64,
    /// SliverSolve calls that changed a slice (the thesis' ChangeCount, summed).
    pub changes: u64,
    pub ns_confrontations: u64,
    pub ew_confrontations: u64,
    /// Confrontations passed because neither member had changed since the
    /// pair was found consistent (`track` per pair, `robust` per row).
    pub skipped: u64,
    pub max_depth: u64,
    /// Constellations tried at the top level of the search.
    pub top_level_tries: u64,
    /// Nodes cut short because their subproblem was known to fail.
    pub memo_hits: u64,
    /// Searches begun afresh when a round's budget of nodes ran out.
    pub restarts: u64,
    /// The grid and its clones at the deepest point of the search.
    pub peak_bytes: u64,
    /// Nodes per depth (the top-level call is depth 0): where a search spends itself.
    pub nodes_by_depth: Vec<u64>,
}

impl Stats {
    /// The run's counters as the engines report them (`nodes_by_depth` aside).
    pub fn counters(&self) -> Counters {
        Counters {
            probes: Some(self.probes),
            nodes: Some(self.nodes),
            sweeps: Some(self.sweeps),
            confrontations: Some(self.ns_confrontations + self.ew_confrontations),
            ns_confrontations: Some(self.ns_confrontations),
            ew_confrontations: Some(self.ew_confrontations),
            changes: Some(self.changes),
            skipped: Some(self.skipped),
            max_depth: Some(self.max_depth),
            top_level_tries: Some(self.top_level_tries),
            memo_hits: Some(self.memo_hits),
            restarts: Some(self.restarts),
            peak_bytes: Some(self.peak_bytes),
            ..Counters::default()
        }
    }
}

// ANCHOR: rows
/// When each row last changed and when each row's pairs were last found
/// consistent, in ticks of one clock (`robust` only). A pair confronted
/// without change is consistent, and stays so until one of its slices
/// changes; so a sweep may pass a row whose pairs were all found consistent
/// after its rows last changed. It passes only pairs whose confrontation
/// would change nothing, so the sweeps, their changes, the contradictions
/// found and the search path are the same as without it: only the count of
/// confrontations drops (the verification sweep that ends every GridSolve
/// goes back over just the rows near the last change). The same exactness
/// as `track`, kept per row rather than per pair, so cheap enough to pay.
#[derive(Debug, Clone)]
pub(crate) struct Rows {
    tick: u64,
    /// Per row: the tick of its last change.
    changed: Vec<u64>,
    /// Per row: the tick at which its east-west pairs were found consistent.
    ew_clean: Vec<u64>,
    /// Per row: the same for the pairs between it and the row below.
    ns_clean: Vec<u64>,
    /// Per cell: its row (a division per restored slice was a visible cost).
    row_of: Vec<u32>,
}

impl Rows {
    fn new(w: usize, h: usize) -> Rows {
        let row_of = (0..h as u32).flat_map(|y| std::iter::repeat_n(y, w)).collect();
        Rows { tick: 1, changed: vec![1; h], ew_clean: vec![0; h], ns_clean: vec![0; h], row_of }
    }

    /// The slice of cell `i` changed.
    #[inline(always)]
    pub(crate) fn cell_changed(&mut self, i: usize) {
        self.changed(self.row_of[i] as usize);
    }

    /// Row `y` changed (a slice in it changed or was restored).
    #[inline(always)]
    pub(crate) fn changed(&mut self, y: usize) {
        self.tick += 1;
        self.changed[y] = self.tick;
    }

    fn all_changed(&mut self) {
        self.tick += 1;
        self.changed.fill(self.tick);
    }

    /// Are row `y`'s east-west pairs all consistent?
    #[inline(always)]
    pub(crate) fn ew_clean(&self, y: usize) -> bool {
        self.ew_clean[y] >= self.changed[y]
    }

    /// Are the pairs from row `y` to row `y + 1` all consistent?
    #[inline(always)]
    pub(crate) fn ns_clean(&self, y: usize) -> bool {
        self.ns_clean[y] >= self.changed[y].max(self.changed[y + 1])
    }

    /// A sweep went over row `y`'s east-west pairs and the pairs from row
    /// `north` to `north + 1` (if any), which rows `y` and `other` hold:
    /// either something changed, or all of them are consistent now.
    #[inline(always)]
    pub(crate) fn swept(&mut self, y: usize, north: Option<usize>, other: usize, any: bool) {
        if any {
            self.changed(y);
            self.changed[other] = self.tick;
        } else {
            self.ew_clean[y] = self.tick;
            if let Some(n) = north {
                self.ns_clean[n] = self.tick;
            }
        }
    }
}
// ANCHOR_END: rows

/// Change flags of the `track` variant, per cell: the pair with the east
/// neighbour and the pair with the south neighbour may be inconsistent.
pub(crate) const EW_DIRTY: u8 = 1;
pub(crate) const NS_DIRTY: u8 = 2;

/// The clones of Listing 5.5, made incremental: one stack of (cell, old
/// contents) for the whole search, and for each depth where its save left
/// the stack and (for `track`) its change flags. Restoring pops back to the
/// mark, writing back only the slices that changed. One stack, not one list
/// per depth, so a deep search allocates nothing as it dives.
pub(crate) struct Trail<Id> {
    changed: Vec<u32>,
    old: Vec<Id>,
    /// Per depth: the stack's length at its save.
    marks: Vec<usize>,
    /// Per depth, `track` only: the change flags at its save, one row of
    /// `stamp.len()` bytes per depth.
    dirty: Vec<u8>,
    /// Per cell: the epoch in which it was last logged, so each is logged
    /// once. Epoch 0, before the first save, finds every stamp current, so
    /// nothing is logged until there is something to restore.
    stamp: Vec<u32>,
    epoch: u32,
}

impl<Id: Copy> Trail<Id> {
    fn new(n: usize) -> Self {
        // Room for a few levels' worth of changes up front: growing the stack
        // a doubling at a time was a visible share of a short search.
        let room = (8 * n).min(1 << 12);
        Trail {
            changed: Vec::with_capacity(room),
            old: Vec::with_capacity(room),
            marks: Vec::new(),
            dirty: Vec::new(),
            stamp: vec![0; n],
            epoch: 0,
        }
    }

    /// Slice `i`, now `old`, is about to change: remember `old` unless it
    /// was already remembered since the last save or restore. Deeper levels
    /// undo their own changes before returning, so above a depth's mark lie
    /// only that depth's entries, each cell once.
    #[inline(always)]
    pub(crate) fn touch(&mut self, i: usize, old: &Id) {
        if self.stamp[i] != self.epoch {
            self.stamp[i] = self.epoch;
            self.changed.push(i as u32);
            self.old.push(*old);
        }
    }

    /// Forget everything logged (after a restart has put the grid back).
    fn clear(&mut self) {
        self.changed.clear();
        self.old.clear();
        self.marks.clear();
        self.dirty.clear();
        self.start();
    }

    /// A new epoch: every cell may be logged once more.
    fn start(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // After 2^32 epochs an old stamp could look current: forget them all.
            self.stamp.fill(0);
            self.epoch = 1;
        }
    }
}

/// How the search picks the slice to split next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pivot {
    /// GetMinSlice: the first smallest, row-major (the thesis).
    MinSlice,
    /// The smallest relative to its part in past contradictions.
    DomWdeg,
    /// Along the long axis, one line at a time.
    Front,
}

// ANCHOR: solver
/// A grid of slices with its store and options: the state GridSolve and the
/// speculative search work on.
pub struct Solver<S: SliceStore, L: Layout> {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<S::Id>,
    /// `track` only: which pairs may be inconsistent (see [`EW_DIRTY`]).
    pub(crate) dirty: Vec<u8>,
    pub store: S,
    pub variant: Variant,
    pub stats: Stats,
    pub(crate) trail: Trail<S::Id>,
    pub(crate) target: SpecGrid,
    pub(crate) rule: Rule,
    /// Raised by another thread (a portfolio's other engine answered, a time
    /// limit passed): the search gives up at its next node.
    pub(crate) stop: Option<crate::stop::Stop>,
    /// Subproblems known to fail, by the 128-bit hash of their undecided
    /// slices (see `memo.rs`); `None` when the variant does not remember.
    pub(crate) failed: Option<std::collections::HashSet<u128, rustc_hash::FxBuildHasher>>,
    /// How the next slice to split is chosen.
    pub pivot: Pivot,
    /// The pair whose confrontation last ended in a contradiction.
    pub(crate) conflict: (usize, usize),
    /// Per cell: its share of the contradictions so far, recent ones
    /// weighing more (the "weighted degree" of dom/wdeg).
    pub(crate) weight: Vec<f64>,
    /// What the next contradiction adds to a weight (it grows, so old ones fade).
    pub(crate) bump: f64,
    /// The search stops (with [`crate::Error::Interrupted`]) once `stats.nodes`
    /// passes this: a restart's budget.
    pub(crate) node_limit: u64,
    /// The last stop was `node_limit`'s, not the caller's.
    pub(crate) out_of_nodes: bool,
    /// `robust` only: which rows' pairs a sweep may pass (see [`Rows`]).
    pub(crate) rows: Rows,
    layout: PhantomData<L>,
}
// ANCHOR_END: solver

impl<S: SliceStore, L: Layout> Solver<S, L> {
    /// One slice per target cell: 140 live, 372 dead, 512 unknown (for Conway).
    pub fn new(target: &SpecGrid, rule: Rule, variant: Variant, mut store: S) -> Self {
        let cells = target.cells().iter().map(|&c| store.initial(c)).collect::<Vec<_>>();
        let n = cells.len();
        Solver {
            width: target.width(),
            height: target.height(),
            cells,
            dirty: vec![if variant.tracks() { EW_DIRTY | NS_DIRTY } else { 0 }; n],
            store,
            variant,
            stats: Stats::default(),
            trail: Trail::new(n),
            target: target.clone(),
            rule,
            stop: None,
            failed: None,
            pivot: Pivot::MinSlice,
            conflict: (0, 0),
            weight: vec![0.0; n],
            bump: 1.0,
            node_limit: u64::MAX,
            out_of_nodes: false,
            rows: if variant.keeps_rows() {
                Rows::new(target.width(), target.height())
            } else {
                Rows::new(0, 0)
            },
            layout: PhantomData,
        }
    }

    /// Remember failed subproblems (see `memo.rs`) from now on, or stop doing so.
    pub fn remember_failures(&mut self, on: bool) {
        match (on, self.failed.is_some()) {
            (true, false) => self.failed = Some(Default::default()),
            (false, true) => self.failed = None,
            _ => {}
        }
    }

    /// Put the grid back to `cells` and forget the trail (a restart).
    pub(crate) fn reset_to(&mut self, cells: &[S::Id]) {
        self.cells.copy_from_slice(cells);
        self.trail.clear();
        self.rows.all_changed();
    }

    /// Give up at the next node once `stop` is raised.
    pub fn set_stop(&mut self, stop: Option<crate::stop::Stop>) {
        self.stop = stop;
    }

    #[inline]
    pub fn tracking(&self) -> bool {
        self.variant.tracks()
    }

    /// The constellation counts, row-major.
    pub fn counts(&self) -> Vec<u32> {
        self.cells.iter().map(|&id| self.store.count(id)).collect()
    }

    /// Does some slice start empty (a rule under which a cell state cannot arise)?
    pub fn has_empty(&self) -> bool {
        self.cells.iter().any(|&id| self.store.count(id) == 0)
    }

    /// A slice changed: every pair it belongs to may now be inconsistent.
    #[inline]
    pub(crate) fn mark(&mut self, i: usize) {
        self.dirty[i] |= EW_DIRTY | NS_DIRTY;
        // At x = 0 this flags the previous row's last cell, which has no east
        // pair: harmless, and cheaper than a division to find x.
        if i > 0 {
            self.dirty[i - 1] |= EW_DIRTY;
        }
        if i >= self.width {
            self.dirty[i - self.width] |= NS_DIRTY;
        }
    }

    // ANCHOR: min_slice
    /// GetMinSlice: the first slice, row-major, of the smallest count above
    /// one; a count of two cannot be beaten, so stop there. `None` when every
    /// slice is a unit slice.
    #[inline(always)]
    pub fn min_slice(&self) -> Option<usize> {
        let mut best: Option<(usize, u32)> = None;
        for (i, &id) in self.cells.iter().enumerate() {
            let c = self.store.count(id);
            if c > 1 && best.is_none_or(|(_, b)| c < b) {
                if c == 2 {
                    return Some(i);
                }
                best = Some((i, c));
            }
        }
        best.map(|(i, _)| i)
    }
    // ANCHOR_END: min_slice

    /// The pivot along the pattern's long axis: in the first line across it
    /// (a column of a wide pattern, a row of a tall or square one) that still
    /// holds an undecided slice, the smallest such slice. Decisions then
    /// advance as one front, so the undecided part of the grid is a band
    /// beyond the front that different branches reach in the same state.
    #[inline(always)]
    pub fn front_slice(&self) -> Option<usize> {
        let (w, h) = (self.width, self.height);
        let wide = w > h;
        let (lines, across) = if wide { (w, h) } else { (h, w) };
        for line in 0..lines {
            let mut best: Option<(usize, u32)> = None;
            for k in 0..across {
                let i = if wide { k * w + line } else { line * w + k };
                let c = self.store.count(self.cells[i]);
                if c > 1 && best.is_none_or(|(_, b)| c < b) {
                    best = Some((i, c));
                }
            }
            if let Some((i, _)) = best {
                return Some(i);
            }
        }
        None
    }

    // ANCHOR: dom_wdeg
    /// dom/wdeg (Boussemart et al., 2004): the undecided slice with the
    /// fewest constellations per unit of weight, a cell's weight being how
    /// often it took part in a contradiction. With no contradiction yet it
    /// is GetMinSlice; as they come, the search turns to the cells where the
    /// pattern's refutation lives and leaves the easy ones alone.
    #[inline(always)]
    pub fn dom_wdeg_slice(&self) -> Option<usize> {
        let mut best: Option<(usize, f64)> = None;
        for (i, &id) in self.cells.iter().enumerate() {
            let c = self.store.count(id);
            if c <= 1 {
                continue;
            }
            let score = c as f64 / (1.0 + self.weight[i]);
            if best.is_none_or(|(_, b)| score < b) {
                best = Some((i, score));
            }
        }
        best.map(|b| b.0)
    }

    /// A contradiction between the pair last confronted: both cells gain
    /// weight. Each contradiction weighs 5% more than the last, so the
    /// weights follow the search's recent troubles (as a SAT solver's VSIDS does).
    pub(crate) fn blame(&mut self) {
        let (a, b) = self.conflict;
        self.weight[a] += self.bump;
        self.weight[b] += self.bump;
        self.bump *= 1.05;
        if self.bump > 1e100 {
            self.weight.iter_mut().for_each(|w| *w *= 1e-100);
            self.bump *= 1e-100;
        }
    }
    // ANCHOR_END: dom_wdeg

    simd_copies! {
        /// The next slice to split, by the current rule. Each rule reads the
        /// count of every slice at every node; on a long pattern that scan, not
        /// GridSolve, is most of a node's time, so it is compiled once more for
        /// the hardware population count.
        pub(crate) fn next_pivot(&self) -> Option<usize> => next_pivot_portable;
        next_pivot_popcnt: "popcnt" if has!("popcnt");
    }

    #[inline(always)]
    fn next_pivot_portable(&self) -> Option<usize> {
        match self.pivot {
            Pivot::MinSlice => self.min_slice(),
            Pivot::DomWdeg => self.dom_wdeg_slice(),
            Pivot::Front => self.front_slice(),
        }
    }

    /// Save the grid before a pivot is tried (the clone of Listing 5.5): from
    /// now on every slice changed is logged on the trail first.
    pub(crate) fn save(&mut self, depth: usize) {
        let tracking = self.tracking();
        let t = &mut self.trail;
        t.marks.resize(depth + 1, 0);
        t.marks[depth] = t.changed.len();
        if tracking {
            let n = self.dirty.len();
            t.dirty.resize((depth + 1) * n, 0);
            t.dirty[depth * n..].copy_from_slice(&self.dirty);
        }
        t.start();
    }

    /// Put the grid back as [`Solver::save`] at `depth` found it.
    pub(crate) fn restore(&mut self, depth: usize) {
        let t = &mut self.trail;
        let mark = t.marks[depth];
        for (&i, &old) in t.changed[mark..].iter().zip(&t.old[mark..]) {
            self.cells[i as usize] = old;
        }
        if self.variant.keeps_rows() {
            for &i in &t.changed[mark..] {
                self.rows.cell_changed(i as usize);
            }
        }
        t.changed.truncate(mark);
        t.old.truncate(mark);
        if self.variant.tracks() {
            let n = self.dirty.len();
            self.dirty.copy_from_slice(&t.dirty[depth * n..(depth + 1) * n]);
        }
        t.start();
    }

    /// Bytes of one grid (slices or ids, plus change flags).
    pub fn grid_bytes(&self) -> u64 {
        (self.cells.len() * (std::mem::size_of::<S::Id>() + 1)) as u64
    }

    // ANCHOR: candidate
    /// A grid of unit slices is a candidate predecessor: paint every slice's
    /// constellation into the (H+2)x(W+2) parent window, live and dead pixels
    /// apart, and keep the window only if no two slices disagree on a pixel
    /// they share (for unit slices that is exactly their slivers agreeing).
    /// One generation of it must then give the target: every slice allows
    /// only constellations with the right future, so if it does not, the
    /// solver is wrong, and that is an error, not a "no".
    pub fn candidate(&self) -> crate::Result<Option<Grid>> {
        let (w, h) = (self.width, self.height);
        let pw = w + 2;
        let mut live = vec![false; pw * (h + 2)];
        let mut dead = vec![false; pw * (h + 2)];
        let conv = L::CONVENTION;
        for y in 0..h {
            for x in 0..w {
                let Some(c) = self.store.peek(self.cells[y * w + x]).single() else { return Ok(None) };
                for r in 0..3 {
                    for col in 0..3 {
                        let p = (y + r) * pw + x + col;
                        if conv.alive(c, r, col) {
                            live[p] = true;
                        } else {
                            dead[p] = true;
                        }
                    }
                }
            }
        }
        if live.iter().zip(&dead).any(|(&l, &d)| l && d) {
            return Ok(None);
        }
        let parent = Grid::from_cells(pw, h + 2, live);
        if !verify(&parent, &self.target, self.rule) {
            return Err(crate::Error::invalid(
                "gridwalker: a grid of consistent unit slices does not evolve into the target (a bug)",
            ));
        }
        Ok(Some(parent))
    }
    // ANCHOR_END: candidate
}

/// Does one generation of the (H+2)x(W+2) `parent` give `target` on every
/// known cell? Windows up to 64 cells wide are stepped by LIFECUBE's adder
/// network a word per row, wider ones by naive counting.
pub fn verify(parent: &Grid, target: &SpecGrid, rule: Rule) -> bool {
    if parent.width() != target.width() + 2 || parent.height() != target.height() + 2 {
        return false;
    }
    if parent.width() <= 64 {
        let rows: Vec<u64> = (0..parent.height())
            .map(|y| (0..parent.width()).fold(0, |r, x| r | (parent.get(x, y) as u64) << x))
            .collect();
        let next = step_narrow(&rows, parent.width(), rule);
        gives(target, |x, y| next[y] >> x & 1 == 1)
    } else {
        let next = crate::life::naive::step(parent, rule, Topology::Bounded);
        gives(target, |x, y| next.get(x, y))
    }
}

/// Does the next generation `alive(x, y)` of the parent window show every
/// known cell of `target` (one cell in from the window's edge)?
fn gives(target: &SpecGrid, alive: impl Fn(usize, usize) -> bool) -> bool {
    (0..target.height()).all(|y| {
        (0..target.width()).all(|x| match target.get(x, y) {
            Cell::Unknown => true,
            Cell::Alive => alive(x + 1, y + 1),
            Cell::Dead => !alive(x + 1, y + 1),
        })
    })
}
