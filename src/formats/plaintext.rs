//! LifeWiki's plaintext `.cells`: lines starting with `!` are comments
//! (`!Name: ...` and `!Author: ...` by convention), the other lines are rows of
//! `.` (dead) and `O` (alive). Rows may stop after their last live cell, and an
//! empty line is a row of dead cells. There is no place for a rule or a position.
//!
//! Book: Part III, "The Life 1.05 format", section "Plaintext" (`book/src/winlife/life105.md`).

use super::canvas::Canvas;
use super::{Pattern, Warnings, numbered_lines, one_line};
use crate::error::{Error, Location, Result};

// ANCHOR: cells_read
/// Read a plaintext file.
pub fn read(loc: &Location, text: &str, _warn: &mut Warnings) -> Result<Pattern> {
    let mut canvas = Canvas::default();
    let (mut name, mut author, mut comments) = (None, None, Vec::new());
    // Rows seen so far, and blank lines not yet known to be rows (they are,
    // if a row follows them).
    let (mut y, mut pending_blank) = (None::<i64>, 0i64);
    for (n, raw) in numbered_lines(text) {
        let here = loc.at(n);
        let line = raw.trim_end();
        if let Some(rest) = line.strip_prefix('!') {
            let rest = rest.trim();
            if let (None, Some(v)) = (&name, rest.strip_prefix("Name:")) {
                name = Some(v.trim().to_string());
            } else if let (None, Some(v)) = (&author, rest.strip_prefix("Author:")) {
                author = Some(v.trim().to_string());
            } else {
                comments.push(rest.to_string());
            }
            continue;
        }
        if line.is_empty() {
            pending_blank += y.is_some() as i64;
            continue;
        }
        let row = y.map_or(0, |y| y + 1 + pending_blank);
        (y, pending_blank) = (Some(row), 0);
        let mut width = 0i64;
        for (i, c) in line.chars().enumerate() {
            match c {
                '.' => {}
                'O' | 'o' | '*' => canvas.run(&here, i as i64, row, 1)?,
                _ => {
                    return Err(Error::parse(
                        &here,
                        format!("unexpected character '{}' in a row of '.' and 'O'", c.escape_debug()),
                    ));
                }
            }
            width = i as i64 + 1;
        }
        // Dead cells count towards the rectangle: they are the pattern's margin.
        canvas.include(&here, 0, row)?;
        canvas.include(&here, width - 1, row)?;
    }
    let mut p = canvas.into_pattern()?;
    (p.name, p.author, p.comments) = (name, author, comments);
    Ok(p)
}
// ANCHOR_END: cells_read

// ANCHOR: cells_write
/// Write the comments, then every row in full (so the rectangle survives).
pub fn write(p: &Pattern) -> String {
    let mut s = String::new();
    if let Some(n) = &p.name {
        s.push_str(&format!("!Name: {}\n", one_line(n)));
    }
    if let Some(a) = &p.author {
        s.push_str(&format!("!Author: {}\n", one_line(a)));
    }
    for c in &p.comments {
        s.push_str(&format!("!{}\n", one_line(c)));
    }
    for y in 0..p.grid.height() {
        s.extend((0..p.grid.width()).map(|x| if p.grid.get(x, y) { 'O' } else { '.' }));
        s.push('\n');
    }
    s
}
// ANCHOR_END: cells_write
