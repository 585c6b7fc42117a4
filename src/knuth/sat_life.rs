//! SAT-LIFE, sections 2-7: one Life step t -> t+1 of the cells that a pattern
//! says may be alive at time t. Sections 8-15 are in [`super::encoder`].
//!
//! Coordinates: Knuth's x is the row (the line of input, counted from 1) and
//! y the column (the character in the line, counted from 1). A [`Grid`] is
//! read the same way: grid cell (gx, gy), column gx of row gy, is Knuth's cell
//! (x, y) = (gy + 1, gx + 1).
//!
//! Book: Part I, SAT-LIFE, sections 2-7 (`book/src/knuth/sat-life.md`).

use super::encoder::{Bounds, Encoder, Variant};
use super::var::Var;
use super::{Listing, coord};
use crate::error::{Error, Location, Result};
use crate::life::Grid;

// ANCHOR: command_line
// ⟨Process the command line⟩
/// Section 3: the largest time. Time t+1 must still have a letter, and
/// there are 84 of them.
pub const MAX_T: usize = 82;

fn check_time(t: i64) -> Result<usize> {
    if !(0..=MAX_T as i64).contains(&t) {
        return Err(Error::invalid(format!("The time should be between 0 and 82 (not {t})!")));
    }
    Ok(t as usize)
}
// ANCHOR_END: command_line

// ANCHOR: input
// ⟨Input the pattern⟩
/// Section 4: read the rows of a pattern, `.` for a cell that is surely dead
/// at time t and `*` for one that may be alive. Empty lines are rows too.
/// Unlike Knuth's program this takes any number of rows and columns, and a
/// last line without its newline.
pub fn read_pattern(loc: &Location, text: &str) -> Result<Grid> {
    let rows: Vec<&str> = text.split_inclusive('\n').map(|l| l.strip_suffix('\n').unwrap_or(l)).collect();
    for (i, row) in rows.iter().enumerate() {
        if let Some(c) = row.chars().find(|&c| c != '.' && c != '*') {
            return Err(Error::parse(
                &loc.at(i + 1),
                format!("Unexpected character {c:?} found in the pattern!"),
            ));
        }
    }
    let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let mut g = Grid::try_new(width, rows.len())?;
    for (gy, row) in rows.iter().enumerate() {
        for (gx, c) in row.bytes().enumerate() {
            g.set(gx, gy, c == b'*');
        }
    }
    Ok(g)
}
// ANCHOR_END: input

// ANCHOR: pattern
// ⟨If cell (x, y) is obviously dead at time t + 1, continue⟩
/// The pattern in Knuth's coordinates, with section 5's `pp`: dead outside.
struct Pattern<'a>(&'a Grid);

impl Pattern<'_> {
    fn p(&self, x: i32, y: i32) -> bool {
        self.0.get_or_dead(y as isize - 1, x as isize - 1)
    }
}
// ANCHOR_END: pattern

impl Variant for Pattern<'_> {
    // ANCHOR: alive
    // ⟨Subroutines⟩
    /// Section 7: alive only inside the rectangle of `*`s, and at a `*`.
    fn potentially_alive(&self, b: &Bounds, x: i32, y: i32) -> bool {
        b.contains(x, y) && self.p(x, y)
    }
    // ANCHOR_END: alive
    // ANCHOR: naming
    // ⟨Subroutines⟩
    /// Section 6: time t, or t + 1 when k = 1; k = 7 is the extra variable.
    fn plain_var(&self, x: i32, y: i32, tt: usize, k: u8) -> Var {
        if k == super::encoder::EXTRA {
            Var::extra(coord(x), tt, coord(y))
        } else {
            Var::cell(coord(x), tt + k as usize, coord(y))
        }
    }
    // ANCHOR_END: naming
}

// ANCHOR: main
/// Section 2: the clauses for the step from time `t`, in Knuth's order, for
/// every cell within one step of the `*`s that is not obviously dead.
pub fn listing(pattern: &Grid, t: i64) -> Result<Listing> {
    let tt = check_time(t)?;
    let stars: Vec<(i32, i32)> =
        pattern.live_cells().map(|(gx, gy)| (gy as i32 + 1, gx as i32 + 1)).collect();
    let mut listing = Listing { header: None, clauses: Vec::new() };
    let Some(bounds) = star_bounds(&stars) else { return Ok(listing) };
    let pat = Pattern(pattern);
    let mut enc = Encoder::new(Pattern(pattern), bounds);
    enc.tt = tt;
    for x in bounds.xmin - 1..=bounds.xmax + 1 {
        for y in bounds.ymin - 1..=bounds.ymax + 1 {
            if obviously_dead(&pat, x, y) {
                continue;
            }
            enc.a(x, y);
            enc.zprime(x, y);
        }
    }
    listing.clauses = enc.out;
    Ok(listing)
}

/// The rectangle of the `*`s (Knuth's xmin, xmax, ymin, ymax).
fn star_bounds(stars: &[(i32, i32)]) -> Option<Bounds> {
    let (x0, y0) = *stars.first()?;
    let mut b = Bounds { xmin: x0, xmax: x0, ymin: y0, ymax: y0 };
    for &(x, y) in stars {
        b.xmin = b.xmin.min(x);
        b.xmax = b.xmax.max(x);
        b.ymin = b.ymin.min(y);
        b.ymax = b.ymax.max(y);
    }
    Some(b)
}
// ANCHOR_END: main

// ANCHOR: obviously_dead
// ⟨If cell (x, y) is obviously dead at time t + 1, continue⟩
/// Section 5: a cell with fewer than three possibly-live cells in its 3x3
/// block (itself included) cannot be alive at time t + 1.
fn obviously_dead(pat: &Pattern, x: i32, y: i32) -> bool {
    let block = (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (x + dx, y + dy)));
    block.filter(|&(i, j)| pat.p(i, j)).count() < 3
}
// ANCHOR_END: obviously_dead
