//! `bookgen apparatus | check | build [DIR] | restamp`: regenerate Part I's CWEB
//! apparatus, fail if the committed chapters are stale, build the book, or
//! move verified manifest entries to the current fingerprint ([`bookgen::fresh::restamp`]).

use std::process::ExitCode;

const USAGE: &str = "usage: bookgen apparatus | check | build [DIR] | restamp";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Vec<String>) -> anyhow::Result<()> {
    let root = bookgen::find_root(&std::env::current_dir()?)?;
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["apparatus"] => {
            for p in bookgen::apparatus(&root)? {
                println!("wrote {}", p.display());
            }
        }
        ["check"] => {
            let stale = bookgen::check(&root)?;
            if !stale.is_empty() {
                let names: Vec<String> = stale.iter().map(|p| p.display().to_string()).collect();
                anyhow::bail!("stale (run `cargo run -p bookgen -- apparatus`): {}", names.join(", "));
            }
            println!("book apparatus is up to date");
            bookgen::readme::check(&root)?;
            println!("README's measured figures are the manifest's");
        }
        ["restamp"] => {
            for id in bookgen::fresh::restamp(&root)? {
                println!("restamped {id}");
            }
        }
        ["build"] => println!("built {}", bookgen::build_book(&root)?.display()),
        ["build", dir] => {
            println!("built {}", bookgen::build_book_to(&root, Some(std::path::Path::new(dir)))?.display())
        }
        _ => anyhow::bail!("{USAGE}"),
    }
    Ok(())
}
