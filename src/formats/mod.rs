//! Pattern files: reading and writing the formats people bring from WinLife,
//! Xlife, Golly and LifeWiki, without losing what a format can hold.

pub mod knuth_rows;

use crate::error::{Error, Location, Result};
use crate::life::grid::Grid;
use crate::life::rule::Rule;
use std::path::Path;

// ANCHOR: pattern
/// A pattern as read from a file: its cells (a dense rectangle placed at
/// `origin`, the coordinates of its top-left cell), its rule if the file named
/// one, and the free text the file carried.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Pattern {
    pub grid: Grid,
    pub origin: (i64, i64),
    pub rule: Option<Rule>,
    pub name: Option<String>,
    pub comments: Vec<String>,
}
// ANCHOR_END: pattern

impl Default for Grid {
    fn default() -> Self {
        Grid::new(0, 0)
    }
}

/// The formats we read and write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Knuth's rows of `.` and `*` (and `?` in search targets).
    Txt,
}

/// Read a pattern file in any supported format.
pub fn read_pattern(path: &Path) -> Result<Pattern> {
    let text = crate::fsutil::read_text(path)?;
    parse_pattern(&Location::file(path), &text)
}

/// Parse pattern text, detecting its format from the content.
pub fn parse_pattern(loc: &Location, text: &str) -> Result<Pattern> {
    let grid = knuth_rows::parse(loc, text)?;
    Ok(Pattern { grid, ..Pattern::default() })
}

/// Write a pattern in the given format.
pub fn write_pattern(p: &Pattern, format: Format) -> Result<String> {
    match format {
        Format::Txt => Ok(knuth_rows::write(&p.grid)),
    }
}

/// Refuse an empty input with a message that names it.
pub(crate) fn nonempty(loc: &Location, text: &str) -> Result<()> {
    if text.trim().is_empty() {
        return Err(Error::parse(loc, "empty pattern file"));
    }
    Ok(())
}
