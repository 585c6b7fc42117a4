//! GRIDWALKER: slices, slivers, sweeps and speculative search (thesis chapter 5).

use crate::life::{Grid, SpecGrid};

/// GridSolve variants compared in the thesis' Tables 6.4 and 6.5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// Alternating forward/reverse sweeps, repeating at a cell while its centre changes.
    #[default]
    Basic,
    /// Forward sweeps only.
    Single,
    /// Alternating sweeps, one confrontation pair per cell.
    NoRepeat,
    /// Only revisit cells a change can reach (dirty bitset).
    Track,
    /// Slices as ids in a slice store with memoised interactions.
    Db,
}

/// How the nine pixels of a 3x3 constellation are numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Convention {
    /// Pixel 0 top-right (the thesis' code): the default, as only it reproduces its search counts.
    #[default]
    ThesisCode,
    /// Pixel 0 top-left, row-major (the thesis' Figure 5.2).
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
    pub stats: Vec<(&'static str, u64)>,
}

/// Decide whether `target` has a parent. (Contract for the CLI; to be written.)
pub fn decide_orphan(_target: &SpecGrid, _options: &Options) -> crate::Result<OrphanAnswer> {
    Err(crate::Error::invalid("the GRIDWALKER solver is not implemented yet"))
}
