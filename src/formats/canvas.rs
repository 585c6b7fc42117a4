//! Where readers put the cells they find before the pattern's size is known.
//!
//! Life 1.05 blocks, Life 1.06 coordinates and RLE runs may lie anywhere in
//! the plane, so a reader cannot allocate the grid up front. It records
//! horizontal runs of live cells instead (their number is bounded by the size
//! of the input), watches the bounding box grow, and refuses, at the line that
//! causes it, any box too large to hold as a dense grid. Only then is the grid
//! allocated, so a hostile file with a run count of ten billion gets a clear
//! error instead of an allocation abort.
//!
//! Book: Part III, "The Life 1.05 format" (`book/src/winlife/life105.md`).

use super::Pattern;
use crate::error::{Error, Location, Result};
use crate::life::grid::{Grid, MAX_SIDE};

/// The most cells a pattern file may span (live or dead): 2^28, a 16384 x 16384
/// square, a quarter of a gigabyte as a dense grid.
pub const MAX_AREA: u64 = 1 << 28;
/// The widest box a pattern read for HashLife may span, which keeps every
/// coordinate, and the pattern's growth for many generations, inside `i64`.
pub const WIDE_SIDE: u64 = 1 << 48;
/// The most live cells a pattern read for HashLife may hold.
pub const WIDE_LIVE: u64 = MAX_AREA;

// ANCHOR: canvas
/// Live runs in the plane and their bounding box.
#[derive(Debug, Default)]
pub struct Canvas {
    runs: Vec<(i64, i64, u64)>,
    bounds: Option<(i64, i64, i64, i64)>,
    /// Sparse: no dense grid will be made, so the box may span up to
    /// [`WIDE_SIDE`] on a side and only the live cells are limited.
    wide: bool,
    live: u64,
}

impl Canvas {
    /// A canvas for a pattern that goes to HashLife as a quadtree: the box
    /// may be far wider than a dense grid, the live cells may not be more.
    pub fn wide() -> Canvas {
        Canvas { wide: true, ..Canvas::default() }
    }

    /// The longest run, and the farthest coordinate, a reader should accept.
    pub fn max_side(&self) -> u64 {
        if self.wide { WIDE_SIDE } else { MAX_SIDE as u64 }
    }

    /// Mark a run of `len` live cells starting at (x, y); `loc` names the line
    /// responsible, for the error if the pattern grows too large.
    pub fn run(&mut self, loc: &Location, x: i64, y: i64, len: u64) -> Result<()> {
        if len == 0 {
            return Ok(());
        }
        self.include(loc, x, y)?;
        let last = i64::try_from(len - 1).ok().and_then(|l| x.checked_add(l));
        let last = last.ok_or_else(|| too_large(loc))?;
        self.include(loc, last, y)?;
        self.live = self.live.saturating_add(len);
        if self.wide && self.live > WIDE_LIVE {
            return Err(Error::parse(loc, format!("pattern too large: more than {WIDE_LIVE} live cells")));
        }
        self.runs.push((x, y, len));
        Ok(())
    }

    /// Widen the bounding box to hold (x, y) without making it live: a file
    /// may state a size larger than its live cells.
    pub fn include(&mut self, loc: &Location, x: i64, y: i64) -> Result<()> {
        let b = match self.bounds {
            None => (x, y, x, y),
            Some((x0, y0, x1, y1)) => (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
        };
        let w = (b.2 as i128 - b.0 as i128 + 1) as u128;
        let h = (b.3 as i128 - b.1 as i128 + 1) as u128;
        if self.wide {
            if w > WIDE_SIDE as u128 || h > WIDE_SIDE as u128 {
                return Err(Error::parse(
                    loc,
                    format!("pattern too large: wider or taller than {WIDE_SIDE} cells"),
                ));
            }
        } else if w > MAX_SIDE as u128 || h > MAX_SIDE as u128 || w * h > MAX_AREA as u128 {
            return Err(too_large(loc));
        }
        self.bounds = Some(b);
        Ok(())
    }

    /// The live runs as (x, y, length).
    pub fn into_runs(self) -> Vec<(i64, i64, u64)> {
        self.runs
    }

    /// The dense pattern: the bounding box as grid, its top-left as origin.
    pub fn into_pattern(self) -> Result<Pattern> {
        let Some((x0, y0, x1, y1)) = self.bounds else {
            return Ok(Pattern::default());
        };
        let mut grid = Grid::try_new((x1 - x0 + 1) as usize, (y1 - y0 + 1) as usize)?;
        for (x, y, len) in self.runs {
            for i in 0..len as usize {
                grid.set((x - x0) as usize + i, (y - y0) as usize, true);
            }
        }
        Ok(Pattern { grid, origin: (x0, y0), ..Pattern::default() })
    }
}
// ANCHOR_END: canvas

fn too_large(loc: &Location) -> Error {
    Error::parse(
        loc,
        format!(
            "pattern too large: it would span more than {MAX_SIDE} cells on a side or {MAX_AREA} cells in all"
        ),
    )
}
