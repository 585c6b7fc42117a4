//! `lifesearch convert`: read a pattern in any format, write it in another.

use crate::formats::{self, Format, Pattern};
use crate::fsutil::atomic_write;
use std::path::{Path, PathBuf};

/// Arguments of `lifesearch convert`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pattern file (format detected from its content, then its extension).
    pub input: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "rle")]
    pub to: Format,
    /// Write here (whole or not at all) instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Read a pattern file, printing the reader's warnings on stderr.
pub fn read_with_warnings(path: &Path) -> anyhow::Result<Pattern> {
    let loaded = formats::load(path)?;
    for w in &loaded.warnings {
        eprintln!("{w}");
    }
    Ok(loaded.pattern)
}

/// Write a pattern in a format, printing the writer's warnings on stderr.
pub fn render(p: &Pattern, to: Format) -> anyhow::Result<String> {
    let written = formats::write(p, to)?;
    for w in &written.warnings {
        eprintln!("warning: {w}");
    }
    Ok(written.text)
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let p = read_with_warnings(&a.input)?;
    let text = render(&p, a.to)?;
    match &a.output {
        Some(out) => atomic_write(out, text.as_bytes())?,
        None => print!("{text}"),
    }
    Ok(())
}
