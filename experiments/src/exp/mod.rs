//! One module per table or figure. Each has `run` (measure, write `data/<id>.csv`)
//! and `render` (from the CSV only: figures and `book/src/generated/<id>.md`).

use crate::harness::{Ctx, Mode, Report};
use anyhow::Result;

pub mod ancestors;
pub mod candidates;
pub mod census;
pub mod differences;
pub mod engines_vs_peers;
pub mod figure_5_9;
pub mod figure_6_1;
pub mod figure_6_3;
pub mod gw;
pub mod narrow_orphans;
pub mod orphan_zoo;
pub mod sat;
pub mod search_vs_peers;
pub mod section_6_4;
pub mod table_3_1;
pub mod table_6_1;
pub mod table_6_2;
pub mod table_6_5;

/// A table or figure of the thesis, regenerated.
pub struct Experiment {
    pub id: &'static str,
    pub title: &'static str,
    /// The CSV's columns, in order (checked by the smoke test and by `plot`).
    pub columns: &'static [&'static str],
    /// Whether `render` draws `book/src/figures/<id>.svg|png`.
    pub figure: bool,
    /// How many CSV rows a run in this mode must write, where that is fixed
    /// (`None`: as many as the run reports, at least one).
    pub rows: fn(crate::harness::Mode) -> Option<usize>,
    pub run: fn(&Ctx) -> Result<Report>,
    pub render: fn(&Ctx) -> Result<()>,
}

/// Every experiment, in an order where inputs come before their users.
pub fn all() -> Vec<Experiment> {
    // Table 6.3 measures SAT solvers' memory in child processes, which on Linux
    // inherit this process' memory high-water mark: it runs before the 256 MB
    // ancestor table is ever loaded.
    vec![
        table_6_1::TABLE_6_3,
        table_3_1::EXPERIMENT,
        engines_vs_peers::EXPERIMENT,
        section_6_4::EXPERIMENT,
        figure_5_9::FIGURE_5_9,
        figure_5_9::FIGURE_5_10,
        table_6_1::TABLE_6_1,
        table_6_1::TABLE_6_4,
        ancestors::EXPERIMENT,
        candidates::EXPERIMENT,
        table_6_2::EXPERIMENT,
        table_6_5::EXPERIMENT,
        figure_6_1::FIGURE_6_1,
        figure_6_1::FIGURE_6_2,
        figure_6_3::EXPERIMENT,
        differences::EXPERIMENT,
        census::EXPERIMENT,
        orphan_zoo::EXPERIMENT,
        narrow_orphans::EXPERIMENT,
        search_vs_peers::EXPERIMENT,
    ]
}

/// For experiments whose row count depends on what is compiled in or found.
pub fn any_rows(_: Mode) -> Option<usize> {
    None
}
