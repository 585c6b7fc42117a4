//! Patterns the sources name, kept in one place so that every test, benchmark
//! and experiment asks its question of exactly the same cells.
//!
//! Book: Part II, chapter 5, section 5.3.1 (`book/src/thesis/ch5.md`).

use crate::life::{Cell, Grid, SpecGrid};

// ANCHOR: garden_of_eden
/// Hartman et al.'s 10x10 Garden of Eden, the thesis' Figure 5.8 and Table
/// 6.1's pattern #1 (rows top to bottom, as corrected in the seeds' ERRATA).
pub const GARDEN_OF_EDEN_10X10: [&str; 10] = [
    ".*.***.*..",
    "..*.*.*..*",
    "*.***..**.",
    ".*.*****.*",
    "*..*..****",
    "****..*..*",
    "*.*****.*.",
    ".**..***.*",
    "*..*.*.*..",
    "..*.***.*.",
];
// ANCHOR_END: garden_of_eden

/// The Garden of Eden as a search target.
pub fn garden_of_eden() -> SpecGrid {
    SpecGrid::from(&Grid::from_rows(&GARDEN_OF_EDEN_10X10).expect("well-formed rows"))
}

/// The Garden of Eden with cell (x, y) made alive: Table 6.1's #3 is (4, 4),
/// its #4 is (2, 0); neither is an orphan.
pub fn garden_of_eden_with_alive(x: usize, y: usize) -> SpecGrid {
    let mut t = garden_of_eden();
    t.set(x, y, Cell::Alive);
    t
}
