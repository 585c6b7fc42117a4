//! Knuth's pattern format: one line per row, `.` dead, `*` alive (and `?`
//! unknown in search targets). SAT-LIFE reads this on standard input.
//!
//! Book: Part III, "The Life 1.05 format", section "Knuth's rows" (`book/src/winlife/life105.md`).

use crate::error::{Error, Location, Result};
use crate::life::grid::Grid;
use crate::life::spec::{Cell, SpecGrid};

fn rows(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect()
}

/// Parse a target with `?` cells. All rows must have the same length.
pub fn parse_spec(loc: &Location, text: &str) -> Result<SpecGrid> {
    super::nonempty(loc, text)?;
    let rows = rows(text);
    let width = rows[0].1.chars().count();
    // Check every row before allocating: the rectangle is then no larger than the text.
    for (line, row) in &rows {
        let n = row.chars().count();
        if n != width {
            return Err(Error::parse(
                &loc.at(*line),
                format!("ragged row: {n} cells where the first row has {width}"),
            ));
        }
    }
    let mut g = SpecGrid::new(width, rows.len(), Cell::Dead);
    for (y, (line, row)) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let cell = match c {
                '.' => Cell::Dead,
                '*' | 'O' | 'o' => Cell::Alive,
                '?' => Cell::Unknown,
                _ => return Err(Error::parse(&loc.at(*line), format!("unexpected character '{c}'"))),
            };
            g.set(x, y, cell);
        }
    }
    Ok(g)
}

/// Parse a concrete pattern (no `?`).
pub fn parse(loc: &Location, text: &str) -> Result<Grid> {
    let spec = parse_spec(loc, text)?;
    if let Some(i) = spec.cells().iter().position(|&c| c == Cell::Unknown) {
        let line = rows(text)[i / spec.width()].0;
        return Err(Error::parse(&loc.at(line), "unknown cell '?' in a concrete pattern"));
    }
    let mut g = Grid::try_new(spec.width(), spec.height())
        .map_err(|e| Error::parse(&loc.at(rows(text)[0].0), e.to_string()))?;
    for y in 0..spec.height() {
        for x in 0..spec.width() {
            g.set(x, y, spec.get(x, y) == Cell::Alive);
        }
    }
    Ok(g)
}

/// Rows of `.` and `*`, each ended by a newline.
pub fn write(g: &Grid) -> String {
    let mut s = String::new();
    for r in g.to_rows() {
        s.push_str(&r);
        s.push('\n');
    }
    s
}
