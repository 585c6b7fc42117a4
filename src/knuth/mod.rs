//! Knuth's SAT-LIFE, SAT-LIFE-GRID-CYCLE and SAT-LIFE-GRIDQUAD-CYCLE: the
//! clause generators of book Part I, ported so that their text output is
//! byte for byte the same as that of Knuth's C programs.
//!
//! The programs build each clause from literals and print it at once. Here
//! the same steps produce a [`Listing`]: the clauses as values ([`Clause`] of
//! [`Lit`] of [`Var`]) with the one formatting flag the text needs. The text
//! writers ([`write_knuth`], [`write_dimacs`]) and the SAT layer both read it.
//!
//! Coordinates are Knuth's: x is the row and y the column, counted from 1.
//! For [`sat_life()`] the pattern is a [`Grid`]: its cell (gx, gy) is Knuth's
//! (x, y) = (gy + 1, gx + 1), so row 0 of the grid is Knuth's first input
//! line. For the cycles, Knuth's cell (x, y) with 1 <= x <= m, 1 <= y <= n is
//! grid cell (y - 1, x - 1) of an n-wide, m-high grid; see [`grid_cell`].
//!
//! Book: Part I, all three programs (`book/src/knuth/sat-life.md`, `book/src/knuth/sat-life-grid-cycle.md`,
//! `book/src/knuth/sat-life-gridquad-cycle.md`).

pub mod encoder;
pub mod grid_cycle;
pub mod gridquad_cycle;
pub mod sat_life;
pub mod var;

use std::collections::HashMap;
use std::fmt::Write as _;

pub use encoder::{Emitted, Style, coord};
pub use var::{Clause, Lit, TIMECODE, Var, VarKind};

use crate::error::Result;
use crate::life::Grid;

// ANCHOR: listing
/// What one run of a program writes: an optional header comment and the
/// clauses in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// The comment line the cycle programs print first (without newline).
    pub header: Option<String>,
    pub clauses: Vec<Emitted>,
}
// ANCHOR_END: listing

impl Listing {
    /// The clauses without their formatting.
    pub fn into_clauses(self) -> Vec<Clause> {
        self.clauses.into_iter().map(|e| e.clause).collect()
    }
}

/// SAT-LIFE's clauses for the step from time `t` (0..=82) of the cells that
/// the live cells of `pattern` may make alive (see the module docs for the
/// coordinates).
pub fn sat_life(pattern: &Grid, t: usize) -> Result<Vec<Clause>> {
    Ok(sat_life::listing(pattern, t as i64)?.into_clauses())
}

/// SAT-LIFE-GRID-CYCLE's clauses: a period-r oscillator (r <= 84) caged in m x n.
pub fn grid_cycle(m: usize, n: usize, r: usize) -> Result<Vec<Clause>> {
    Ok(grid_cycle::listing(m as i64, n as i64, r as i64)?.into_clauses())
}

/// SAT-LIFE-GRIDQUAD-CYCLE's clauses: as [`grid_cycle()`], with both mirror
/// symmetries, so only cells with 2x <= m + 1 and 2y <= n + 1 have variables.
pub fn gridquad_cycle(m: usize, n: usize, r: usize) -> Result<Vec<Clause>> {
    Ok(gridquad_cycle::listing(m as i64, n as i64, r as i64)?.into_clauses())
}

/// The grid cell (column, row) of Knuth's cell (x, y): (y - 1, x - 1).
pub fn grid_cell(x: u32, y: u32) -> (usize, usize) {
    (y as usize - 1, x as usize - 1)
}

// ANCHOR: write_knuth
// ⟨Subroutines⟩
/// Knuth's text: the header, then one line per clause, `~` before a
/// complemented literal; `outclause`'s lines start with a space.
pub fn write_knuth(listing: &Listing) -> String {
    let mut s = String::new();
    if let Some(h) = &listing.header {
        s.push_str(h);
        s.push('\n');
    }
    for e in &listing.clauses {
        for (i, lit) in e.clause.iter().enumerate() {
            if i > 0 || e.style == Style::Spaced {
                s.push(' ');
            }
            write!(s, "{lit}").expect("writing to a String cannot fail");
        }
        s.push('\n');
    }
    s
}
// ANCHOR_END: write_knuth

// ANCHOR: write_dimacs
// ⟨Subroutines⟩
/// Standard DIMACS CNF: variables numbered 1, 2, ... in order of first
/// appearance, each named by a comment line `c N name` so that a model can
/// be read back in Knuth's terms.
pub fn write_dimacs(listing: &Listing) -> String {
    let mut number: HashMap<Var, usize> = HashMap::new();
    let mut order: Vec<Var> = Vec::new();
    for e in &listing.clauses {
        for lit in &e.clause {
            number.entry(lit.var).or_insert_with(|| {
                order.push(lit.var);
                order.len()
            });
        }
    }
    let mut s = String::new();
    if let Some(h) = &listing.header {
        writeln!(s, "c {h}").expect("writing to a String cannot fail");
    }
    for (i, v) in order.iter().enumerate() {
        writeln!(s, "c {} {v}", i + 1).expect("writing to a String cannot fail");
    }
    writeln!(s, "p cnf {} {}", order.len(), listing.clauses.len()).expect("writing to a String cannot fail");
    for e in &listing.clauses {
        for lit in &e.clause {
            let n = number[&lit.var] as i64;
            write!(s, "{} ", if lit.neg { -n } else { n }).expect("writing to a String cannot fail");
        }
        s.push_str("0\n");
    }
    s
}
// ANCHOR_END: write_dimacs
