//! GRIDWALKER: slices, slivers, sweeps and speculative search (thesis chapter 5).
//!
//! A [`slice::Slice`] is the set of 3x3 past constellations a future cell still
//! allows; neighbouring slices exchange "holes" through their overlap, the
//! [`sliver`]; [`solve`] sweeps a grid of slices until nothing changes, and
//! [`search`] forces the smallest slice to each of its constellations in turn.
//!
//! Book: Part II, chapter 5 (`book/src/thesis/ch5.md`), and its experiments in chapter 6
//! (`book/src/thesis/ch6.md`).

pub mod batch;
pub mod convention;
pub mod db;
pub mod grid;
pub mod memo;
pub mod restart;
pub mod search;
pub mod session;
pub mod slice;
pub mod sliver;
pub mod solve;
pub mod stack;
pub mod store;

use crate::base::{Counters, OrphanEngine, OrphanQuery, Verdict};
use crate::life::{Grid, Rule, SpecGrid};
use crate::stop::Stop;
use convention::{Figure52, Layout, ThesisCode};
use db::DbStore;
use grid::Solver;
use solve::Start;
use store::{PlainStore, SliceStore};

/// GridSolve variants: the thesis' (Tables 6.4 and 6.5) and ours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// Basic's sweeps, passing rows known to be consistent (same path, fewer
    /// confrontations), with a search that restarts, weighs cells by their
    /// part in contradictions, sweeps long patterns along their length and
    /// remembers failed subproblems (`restart.rs`): never far behind a SAT
    /// solver. The default.
    #[default]
    Robust,
    /// Alternating forward/reverse sweeps, repeating at a cell while its
    /// centre changes, and the thesis' search (GetMinSlice, no memory).
    Basic,
    /// Forward sweeps only (after forcing a pivot, full forward sweeps too).
    Single,
    /// Alternating sweeps, one confrontation pair per cell.
    NoRepeat,
    /// Basic, but a confrontation is skipped when neither member changed since
    /// that pair was last confronted (per-pair dirty flags, reset correctly on
    /// backtracking): the same sweeps, changes and search path, fewer confrontations.
    Track,
    /// Slices as ids in a slice store with memoised interactions.
    Db,
    /// `track` with the thesis' program's reverse pass, which skipped every
    /// cell past index 255: on grids of more than 256 cells a GridSolve can
    /// stop with pairs it never confronted. Still sound and complete (every
    /// leaf is checked), but it propagates less. Kept to test the book's
    /// explanation of Table 6.2's 40x40 batch; on 256 cells or fewer it is `track`.
    ThesisTrack,
}

impl Variant {
    /// The name on the command line and in the experiments' CSVs.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Robust => "robust",
            Variant::Basic => "basic",
            Variant::Single => "single",
            Variant::NoRepeat => "no-repeat",
            Variant::Track => "track",
            Variant::Db => "db",
            Variant::ThesisTrack => "thesis-track",
        }
    }

    /// Whether confrontations are skipped by per-pair dirty flags, which the trail saves.
    pub(crate) fn tracks(self) -> bool {
        matches!(self, Variant::Track | Variant::ThesisTrack)
    }

    /// Whether sweeps pass rows known to be consistent, which needs per-row change ticks.
    pub(crate) fn keeps_rows(self) -> bool {
        self == Variant::Robust
    }
}

/// How the nine pixels of a 3x3 constellation are numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Convention {
    /// Pixel 0 top-right (the thesis' code): the default, as only it reproduces its search counts.
    #[default]
    ThesisCode,
    /// Pixel 0 top-left, row-major (the thesis' Figure 5.2).
    #[cfg_attr(feature = "cli", value(name = "figure-5-2"))]
    #[serde(rename = "figure-5-2")]
    Figure52,
}

/// Options of one GRIDWALKER run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    pub variant: Variant,
    pub convention: Convention,
}

/// The answer to "is this pattern an orphan?": a verified predecessor (the
/// (H+2) x (W+2) parent window) or none, and the run's statistics as named
/// counters (`probes`, `nodes`, `sweeps`, `confrontations`, and for `db`
/// `slices_added`, `slice_queries`, `ns_added`, `ns_queried`, `ew_added`, `ew_queried`).
#[derive(Debug, Clone)]
pub struct OrphanAnswer {
    pub predecessor: Option<Grid>,
    pub stats: Counters,
}

// ANCHOR: decide_orphan
/// Decide whether `target` has a parent under Conway's rule: an initial
/// GridSolve, then the speculative search. Every predecessor returned has been
/// checked by evolving it. The grid covers every cell of `target` (for the
/// thesis' patterns that is the bounding box of their live cells).
pub fn decide_orphan(target: &SpecGrid, options: &Options) -> crate::Result<OrphanAnswer> {
    decide_orphan_rule(target, options, Rule::CONWAY)
}
// ANCHOR_END: decide_orphan

/// [`decide_orphan`] for any Life-like rule.
pub fn decide_orphan_rule(target: &SpecGrid, options: &Options, rule: Rule) -> crate::Result<OrphanAnswer> {
    decide_orphan_stoppable(target, options, rule, None)
}

/// [`decide_orphan_rule`] that gives up with [`crate::Error::Interrupted`]
/// once `stop` is raised (checked at every node of the search).
pub fn decide_orphan_stoppable(
    target: &SpecGrid,
    options: &Options,
    rule: Rule,
    stop: Option<&Stop>,
) -> crate::Result<OrphanAnswer> {
    if target.cells().len() != target.width() * target.height() {
        return Err(crate::Error::invalid("malformed target: cell count differs from width x height"));
    }
    let v = options.variant;
    Ok(match (options.convention, options.variant) {
        (Convention::ThesisCode, Variant::Db) => {
            decide::<_, ThesisCode>(target, rule, v, DbStore::<ThesisCode>::new(rule), stop)?.0
        }
        (Convention::Figure52, Variant::Db) => {
            decide::<_, Figure52>(target, rule, v, DbStore::<Figure52>::new(rule), stop)?.0
        }
        (Convention::ThesisCode, _) => match PlainStore::<ThesisCode, true>::detect(rule) {
            Some(store) => decide::<_, ThesisCode>(target, rule, v, store, stop)?.0,
            None => decide::<_, ThesisCode>(target, rule, v, PlainStore::<ThesisCode>::new(rule), stop)?.0,
        },
        (Convention::Figure52, _) => match PlainStore::<Figure52, true>::detect(rule) {
            Some(store) => decide::<_, Figure52>(target, rule, v, store, stop)?.0,
            None => decide::<_, Figure52>(target, rule, v, PlainStore::<Figure52>::new(rule), stop)?.0,
        },
    })
}

/// [`decide_orphan_rule`] with slices held bare, every confrontation folding
/// both members afresh ([`store::FoldingStore`], the thesis' cost per
/// confrontation). Plain variants only (`db` has its own store).
pub fn decide_orphan_refolding(
    target: &SpecGrid,
    options: &Options,
    rule: Rule,
) -> crate::Result<OrphanAnswer> {
    if options.variant == Variant::Db {
        return Err(crate::Error::invalid("the db variant keeps its own store"));
    }
    let v = options.variant;
    Ok(match options.convention {
        Convention::ThesisCode => {
            decide::<_, ThesisCode>(target, rule, v, store::FoldingStore::<ThesisCode>::new(rule), None)?.0
        }
        Convention::Figure52 => {
            decide::<_, Figure52>(target, rule, v, store::FoldingStore::<Figure52>::new(rule), None)?.0
        }
    })
}

/// One orphan question on a solver built around `store`: the initial
/// GridSolve, then the speculative search. Gives the store back, so a
/// [`session::Session`] can keep it for the next question. Every
/// predecessor returned has been checked by simulation.
pub(crate) fn decide<S: SliceStore, L: Layout>(
    target: &SpecGrid,
    rule: Rule,
    variant: Variant,
    store: S,
    stop: Option<&Stop>,
) -> crate::Result<(OrphanAnswer, S)> {
    let mut solver = Solver::<S, L>::new(target, rule, variant, store);
    solver.stop = stop.cloned();
    let found = if solver.cells.is_empty() {
        // Nothing is asked of the parent: the empty window will do.
        Some(Grid::new(target.width() + 2, target.height() + 2))
    } else if solver.has_empty() || solver.grid_solve(Start::Fresh).is_err() {
        None
    } else if variant == Variant::Robust {
        solver.restarting_solution()?
    } else {
        solver.unique_solution(0)?
    };
    let predecessor = match found {
        Some(p) => Some(crate::base::verify::checked_parent(p, target, 1, rule, "gridwalker")?),
        None => None,
    };
    let mut stats = solver.stats.counters();
    solver.store.count_into(&mut stats);
    Ok((OrphanAnswer { predecessor, stats }, solver.store))
}

/// What `lifesearch slices` shows: the slice sizes after the first GridSolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SliceReport {
    pub width: usize,
    pub height: usize,
    /// Row-major constellation counts.
    pub sizes: Vec<u32>,
    /// The first GridSolve already found an empty slice.
    pub contradiction: bool,
    /// GetMinSlice's choice: (x, y, size, centre alive, centre dead).
    pub min: Option<(usize, usize, u32, u32, u32)>,
}

// ANCHOR: first_solve
/// Run one GridSolve on `target` and report the slices (thesis Figures 5.9 B and 5.10).
pub fn first_solve(target: &SpecGrid, rule: Rule, convention: Convention) -> SliceReport {
    match convention {
        Convention::ThesisCode => first_solve_in::<ThesisCode>(target, rule),
        Convention::Figure52 => first_solve_in::<Figure52>(target, rule),
    }
}
// ANCHOR_END: first_solve

fn first_solve_in<L: Layout>(target: &SpecGrid, rule: Rule) -> SliceReport {
    let mut s = Solver::<_, L>::new(target, rule, Variant::Basic, PlainStore::<L>::new(rule));
    let contradiction = s.has_empty() || s.grid_solve(Start::Fresh).is_err();
    let min = s.min_slice().map(|i| {
        let slice = *s.cells[i].slice();
        let (on, off) = slice.split(L::CONVENTION.pixel(1, 1));
        (i % s.width, i / s.width, slice.count(), on, off)
    });
    SliceReport { width: s.width, height: s.height, sizes: s.counts(), contradiction, min }
}

/// GRIDWALKER as an [`OrphanEngine`]: any Life-like rule, every variant and
/// pixel numbering; stopped by the query's flag (polled at every node). It
/// does not watch a clock: a time limit is the caller's stop flag.
#[derive(Debug, Clone, Copy, Default)]
pub struct Engine(pub Options);

impl OrphanEngine for Engine {
    fn name(&self) -> &'static str {
        "gridwalker"
    }
    fn decide(&self, q: &OrphanQuery) -> crate::Result<Verdict> {
        let start = std::time::Instant::now();
        let a = decide_orphan_stoppable(&q.searched(), &self.0, q.rule, q.stop.as_ref())?;
        Ok(Verdict::new(a.predecessor, self.name(), start.elapsed(), a.stats))
    }
}
