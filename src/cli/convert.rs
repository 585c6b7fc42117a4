//! `lifesearch convert`: read a pattern in any format, write it in another.

use crate::formats::{self, Format, Pattern};
use crate::fsutil::atomic_write;
use std::path::{Path, PathBuf};

/// Arguments of `lifesearch convert`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pattern file (format detected from its content, then its extension).
    pub input: PathBuf,
    /// Output format; default: from the output file's extension (`.lif`,
    /// `.rle`, `.cells`, `.txt`, `.mc`), else RLE.
    #[arg(long, value_enum)]
    pub to: Option<Format>,
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

/// The format an output file's extension asks for, if it names one.
pub fn format_for(path: &Path) -> Option<Format> {
    match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
        "lif" | "life" => Some(Format::Lif),
        "rle" => Some(Format::Rle),
        "cells" => Some(Format::Cells),
        "txt" => Some(Format::Txt),
        "mc" => Some(Format::Mc),
        _ => None,
    }
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let to = a.to.or_else(|| a.output.as_deref().and_then(format_for)).unwrap_or(Format::Rle);
    let p = read_with_warnings(&a.input)?;
    let text = render(&p, to)?;
    match &a.output {
        Some(out) => atomic_write(out, text.as_bytes())?,
        None => print!("{text}"),
    }
    Ok(())
}
