//! The experiments harness: regenerates every table and figure of the thesis
//! into `data/*.csv` and `book/src/figures/`. (To be written.)

fn main() {
    eprintln!("experiments: not implemented yet");
    std::process::exit(2);
}
