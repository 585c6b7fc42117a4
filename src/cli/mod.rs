//! The command line, one subcommand per file. `main.rs` only dispatches.
//!
//! Book: How to reproduce, section "Single questions from the command line" (`book/src/reproduce.md`).

pub mod census;
pub mod clusters;
pub mod cnf;
pub mod convert;
pub mod evolve;
pub mod knuth;
pub mod orphan;
pub mod orphan_width;
pub mod search;
pub mod slices;

use clap::{Parser, Subcommand};

/// Search for patterns in Conway's Game of Life: evolve, convert, encode as
/// SAT, and solve with SAT solvers or GRIDWALKER.
#[derive(Debug, Parser)]
#[command(name = "lifesearch", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Evolve a pattern for some generations and print the result.
    Evolve(evolve::Args),
    /// Convert a pattern file between formats.
    Convert(convert::Args),
    /// Find the 8-connected clusters of live cells (WinLife's cluster finder).
    Clusters(clusters::Args),
    /// Knuth's clause generators SAT-LIFE, SAT-LIFE-GRID-CYCLE, SAT-LIFE-GRIDQUAD-CYCLE.
    Knuth(knuth::Args),
    /// Decide whether a pattern is an orphan (has no parent), with a SAT solver or GRIDWALKER.
    Orphan(orphan::Args),
    /// Prove that no orphan H rows high exists at any width, or find the narrowest
    /// (`orphan-width H`); check a proof certificate (`orphan-width check FILE`).
    OrphanWidth(orphan_width::Args),
    /// Count every W x H orphan of a rule exhaustively (or merge shards' counts).
    Census(census::Args),
    /// Search for still lifes, oscillators and spaceships in a box.
    Search(search::Args),
    /// Write the CNF (DIMACS or iCNF) of a search problem.
    Cnf(cnf::Args),
    /// Print GRIDWALKER's slice sizes after the first GridSolve (thesis Figure 5.9 B).
    Slices(slices::Args),
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Evolve(a) => evolve::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Clusters(a) => clusters::run(a),
        Command::Knuth(a) => knuth::run(a),
        Command::Orphan(a) => orphan::run(a),
        Command::OrphanWidth(a) => orphan_width::run(a),
        Command::Search(a) => search::run(a),
        Command::Census(a) => census::run(a),
        Command::Cnf(a) => cnf::run(a),
        Command::Slices(a) => slices::run(a),
    }
}
