//! The `lifesearch` command: a thin shell over the library. The subcommands
//! live in `cli/`, part of this binary and not of the library, so the library
//! never depends on its command line.

// The library's modules under the names the subcommands use (`crate::life`, ...).
use lifesearch::{automaton, cnf, error, formats, fsutil, gridwalker, knuth, life, search};

mod cli;

use clap::Parser;

fn main() {
    let cli = cli::Cli::parse();
    if let Err(e) = cli::run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}
