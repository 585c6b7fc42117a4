//! Life 1.06: the header `#Life 1.06`, then one line `x y` per live cell.
//! Quick to read and write, large on disk. The format has no place for a rule
//! or a description; we write none, and read `#D`/`#C` comments and `#N`/`#R`
//! rules where other programs left them.
//!
//! Book: Part III, "The Life 1.05 format", section "Life 1.06" (`book/src/winlife/life105.md`).

use super::canvas::Canvas;
use super::{Pattern, Warnings, numbered_lines};
use crate::error::{Error, Location, Result};
use crate::life::rule::Rule;

pub const HEADER: &str = "#Life 1.06";

// ANCHOR: lif106_read
/// Read a Life 1.06 file.
pub fn read(loc: &Location, text: &str, warn: &mut Warnings) -> Result<Pattern> {
    let mut canvas = Canvas::default();
    let (mut rule, mut comments, mut header) = (None, Vec::new(), false);
    for (n, raw) in numbered_lines(text) {
        let here = loc.at(n);
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if !header {
            if line != HEADER {
                return Err(Error::parse(&here, format!("expected the header '{HEADER}', found '{line}'")));
            }
            header = true;
        } else if let Some(rest) = line.strip_prefix("#D").or_else(|| line.strip_prefix("#C")) {
            comments.push(rest.trim().to_string());
        } else if line == "#N" {
            rule = Some(Rule::CONWAY);
        } else if let Some(rest) = line.strip_prefix("#R") {
            rule = Some(rest.trim().parse::<Rule>().map_err(|e| Error::parse(&here, e.to_string()))?);
        } else if line.starts_with('#') {
            warn.push(&here, format!("unknown line '{line}' ignored"));
        } else {
            let mut words = line.split_whitespace().map(str::parse::<i64>);
            match (words.next(), words.next(), words.next()) {
                (Some(Ok(x)), Some(Ok(y)), None) => canvas.run(&here, x, y, 1)?,
                _ => return Err(Error::parse(&here, format!("expected a cell 'x y', found '{line}'"))),
            }
        }
    }
    if !header {
        return Err(Error::parse(&loc.at(1), format!("empty file: expected the header '{HEADER}'")));
    }
    let mut p = canvas.into_pattern()?;
    (p.rule, p.comments) = (rule, comments);
    Ok(p)
}
// ANCHOR_END: lif106_read

// ANCHOR: lif106_write
/// Write the header and the live cells, row by row.
pub fn write(p: &Pattern) -> String {
    let mut s = format!("{HEADER}\n");
    for (x, y) in p.grid.live_cells() {
        s.push_str(&format!("{} {}\n", p.origin.0 + x as i64, p.origin.1 + y as i64));
    }
    s
}
// ANCHOR_END: lif106_write
