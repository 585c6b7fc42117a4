//! The `lifesearch` command: a thin shell over the library. The subcommands
//! live in `cli/`, part of this binary and not of the library, so the library
//! never depends on its command line.

// The library's modules under the names the subcommands use (`crate::life`, ...).
use lifesearch::{automaton, cnf, engine, error, formats, gridwalker, knuth, life, search};

/// The library's file helpers under the name the subcommands use.
mod fsutil {
    pub use lifesearch::{atomic_write, read_text, temp_beside, text_from_bytes};
}

mod cli;

use clap::Parser;

fn main() {
    let cli = cli::Cli::parse();
    if let Err(e) = cli::run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}
