//! One module per table or figure, each an [`crate::harness::Experiment`],
//! and the registry of them all ([`all`]).

use crate::harness::Run;

pub mod ancestors;
pub mod candidates;
pub mod census;
pub mod census_automaton;
pub mod differences;
pub mod engines_vs_peers;
pub mod figure_5_9;
pub mod figure_6_1;
pub mod figure_6_3;
pub mod first_value;
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

/// Every experiment, in an order where inputs come before their users.
pub fn all() -> Vec<Box<dyn Run>> {
    // Table 6.3 measures SAT solvers' memory in child processes, which on Linux
    // inherit this process' memory high-water mark: it runs before the 256 MB
    // ancestor table is ever loaded.
    vec![
        Box::new(table_6_1::Table63),
        Box::new(table_3_1::Table31),
        Box::new(engines_vs_peers::EnginesVsPeers),
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
        Box::new(first_value::FirstValues),
    ]
}
