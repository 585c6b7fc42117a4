//! A search target: the pattern whose parent is sought, with `?` for cells
//! that may be either. Read from rows of `.`, `*` and `?`, or from any
//! pattern format (every cell then known).

use super::knuth_rows;
use crate::error::{Location, Result};
use crate::fsutil::read_text;
use crate::life::SpecGrid;
use std::path::Path;

/// Read a search target: rows of `.`, `*` and `?` (lines starting with `#`
/// or `!` are comments), or any pattern format the formats module reads. A
/// `?` decides only where it stands in a row, not in a comment (an RLE file
/// may well carry a URL with a `?` in its `#C` lines).
pub fn read_target(path: &Path) -> Result<SpecGrid> {
    let text = read_text(path)?;
    let loc = Location::file(path);
    // Comment lines become blank lines, so errors keep their line numbers.
    let rows: String = text
        .lines()
        .map(|l| if l.starts_with('#') || l.starts_with('!') { "" } else { l })
        .collect::<Vec<_>>()
        .join("\n");
    let rows_only = rows.chars().all(|c| matches!(c, '.' | '*' | '?' | 'O' | 'o' | '\n' | '\r' | ' ' | '\t'));
    let header = rows.lines().any(|l| l.trim_start().starts_with("x ") || l.trim_start().starts_with("x="));
    if rows_only || (rows.contains('?') && !header) {
        return knuth_rows::parse_spec(&loc, &rows);
    }
    let p = super::read_pattern(path)?;
    Ok(SpecGrid::from(&p.grid))
}
