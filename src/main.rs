//! The `lifesearch` command: a thin shell over the library.

use clap::Parser;

fn main() {
    let cli = lifesearch::cli::Cli::parse();
    if let Err(e) = lifesearch::cli::run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(2);
    }
}
