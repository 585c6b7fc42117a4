//! `bookgen`: the book's tooling (subcommands are being written).
fn main() {
    eprintln!("error: bookgen has no subcommands yet");
    std::process::exit(2);
}
