//! One module per table or figure, each an [`crate::harness::Experiment`],
//! and the registry of them all ([`all`]).

use crate::harness::{Ctx, Mode, Report, Run};
use anyhow::Result;
use std::path::Path;

pub mod ancestors;
pub mod candidates;
pub mod census;
pub mod census_automaton;
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

/// An experiment not yet declared as an [`crate::harness::Experiment`]:
/// it writes its CSV and Markdown itself.
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

impl Run for Experiment {
    fn id(&self) -> &'static str {
        self.id
    }
    fn title(&self) -> &'static str {
        self.title
    }
    fn figure(&self) -> bool {
        self.figure
    }
    fn rows(&self, mode: Mode) -> Option<usize> {
        (self.rows)(mode)
    }
    fn run(&self, ctx: &Ctx) -> Result<Report> {
        (self.run)(ctx)
    }
    fn render(&self, ctx: &Ctx) -> Result<()> {
        (self.render)(ctx)
    }
    fn check_csv(&self, path: &Path) -> Result<usize> {
        let mut r = csv::Reader::from_path(path)?;
        let got: Vec<String> = r.headers()?.iter().map(str::to_string).collect();
        if got != self.columns {
            anyhow::bail!("{}: columns {:?}, expected {:?}", path.display(), got, self.columns);
        }
        Ok(r.records().collect::<Result<Vec<_>, _>>()?.len())
    }
}

/// Every experiment, in an order where inputs come before their users.
pub fn all() -> Vec<Box<dyn Run>> {
    // Table 6.3 measures SAT solvers' memory in child processes, which on Linux
    // inherit this process' memory high-water mark: it runs before the 256 MB
    // ancestor table is ever loaded.
    vec![
        Box::new(table_6_1::Table63),
        Box::new(table_3_1::Table31),
        Box::new(engines_vs_peers::EXPERIMENT),
        Box::new(section_6_4::Section64),
        Box::new(figure_5_9::Figure59),
        Box::new(figure_5_9::Figure510),
        Box::new(table_6_1::Table61),
        Box::new(table_6_1::Table64),
        Box::new(ancestors::Ancestors),
        Box::new(candidates::Candidates),
        Box::new(table_6_2::Table62Batches),
        Box::new(table_6_5::Table65),
        Box::new(figure_6_1::Figure61),
        Box::new(figure_6_1::Figure62),
        Box::new(figure_6_3::Figure63),
        Box::new(differences::Differences),
        Box::new(census::Census),
        Box::new(census_automaton::CensusAutomaton),
        Box::new(orphan_zoo::OrphanZoo),
        Box::new(narrow_orphans::NarrowOrphans),
        Box::new(search_vs_peers::SearchVsPeers),
    ]
}

/// For experiments whose row count depends on what is compiled in or found.
pub fn any_rows(_: Mode) -> Option<usize> {
    None
}
