//! A dense rectangle of cells: the interchange type between formats, engines
//! and searches. Engines keep their own packed layouts and convert at the edges.
//!
//! Book: Part II, chapter 2, section 2.1 (`book/src/thesis/ch2.md`), and Part III, "The torus board"
//! (`book/src/winlife/torus.md`).

use crate::error::{Error, Result};

// ANCHOR: grid
/// A `width` x `height` rectangle of cells, row-major, `(x, y)` with y downwards.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    width: usize,
    height: usize,
    cells: Vec<bool>,
}
// ANCHOR_END: grid

/// What lies beyond the edge of a grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topology {
    /// Cells outside are dead forever (births there are lost).
    Bounded,
    /// The grid wraps on both axes (WinLife's board).
    Torus,
}

/// The largest side we accept: beyond this a dense grid no longer fits in memory sensibly.
pub const MAX_SIDE: usize = 1 << 16;

impl Grid {
    /// An all-dead grid. Zero sizes are allowed here (an empty pattern); engines
    /// that need cells check for themselves.
    pub fn new(width: usize, height: usize) -> Grid {
        Grid { width, height, cells: vec![false; width * height] }
    }

    /// Like [`Grid::new`] but refusing absurd sizes with an error instead of an abort.
    pub fn try_new(width: usize, height: usize) -> Result<Grid> {
        if width > MAX_SIDE || height > MAX_SIDE || width.saturating_mul(height) > (1 << 32) {
            return Err(Error::invalid(format!("grid {width}x{height} is too large")));
        }
        Ok(Grid::new(width, height))
    }

    /// A grid from its cells in row-major order (`cells.len() == width * height`).
    pub fn from_cells(width: usize, height: usize, cells: Vec<bool>) -> Grid {
        assert_eq!(cells.len(), width * height, "cell count must match the size");
        Grid { width, height, cells }
    }

    pub fn width(&self) -> usize {
        self.width
    }
    pub fn height(&self) -> usize {
        self.height
    }
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> bool {
        self.cells[y * self.width + x]
    }
    #[inline]
    pub fn set(&mut self, x: usize, y: usize, alive: bool) {
        self.cells[y * self.width + x] = alive;
    }
    /// The cell at signed coordinates, dead outside the rectangle.
    #[inline]
    pub fn get_or_dead(&self, x: isize, y: isize) -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < self.width
            && (y as usize) < self.height
            && self.get(x as usize, y as usize)
    }
    pub fn cells(&self) -> &[bool] {
        &self.cells
    }
    pub fn population(&self) -> usize {
        self.cells.iter().filter(|&&c| c).count()
    }
    /// Live cells as (x, y), row by row.
    pub fn live_cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        // Row slices, not `get`: no index arithmetic or bounds check per cell.
        self.cells.chunks(self.width.max(1)).enumerate().flat_map(|(y, row)| {
            row.iter().enumerate().filter(|&(_, &alive)| alive).map(move |(x, _)| (x, y))
        })
    }

    /// Parse rows of `.` (dead) and `*` (alive); `O`/`o` count as alive too.
    /// Short rows are padded with dead cells.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Grid> {
        let width = rows.iter().map(|r| r.as_ref().chars().count()).max().unwrap_or(0);
        let mut g = Grid::try_new(width, rows.len())?;
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.as_ref().chars().enumerate() {
                match c {
                    '.' => {}
                    '*' | 'O' | 'o' => g.set(x, y, true),
                    _ => return Err(Error::invalid(format!("row {}: unexpected character '{c}'", y + 1))),
                }
            }
        }
        Ok(g)
    }

    /// Rows of `.` and `*`, the format Knuth's programs read.
    pub fn to_rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| (0..self.width).map(|x| if self.get(x, y) { '*' } else { '.' }).collect())
            .collect()
    }

    /// A copy with `border` dead cells added on every side.
    pub fn padded(&self, border: usize) -> Grid {
        let mut g = Grid::new(self.width + 2 * border, self.height + 2 * border);
        for (x, y) in self.live_cells() {
            g.set(x + border, y + border, true);
        }
        g
    }

    /// The smallest rectangle holding every live cell, as (x, y, width, height);
    /// `None` for an empty grid.
    pub fn bounding_box(&self) -> Option<(usize, usize, usize, usize)> {
        let (mut y0, mut y1, mut xmin, mut xmax) = (None, 0, usize::MAX, 0);
        for (y, row) in self.cells.chunks(self.width.max(1)).enumerate() {
            // An empty row is scanned once; a row with a live cell has a last one too.
            let Some(first) = row.iter().position(|&c| c) else { continue };
            let last = row.iter().rposition(|&c| c).unwrap_or(first);
            y0.get_or_insert(y);
            y1 = y;
            xmin = xmin.min(first);
            xmax = xmax.max(last);
        }
        let y0 = y0?;
        Some((xmin, y0, xmax - xmin + 1, y1 - y0 + 1))
    }

    /// The sub-rectangle at (x, y) of the given size (must lie inside).
    pub fn crop(&self, x: usize, y: usize, width: usize, height: usize) -> Grid {
        let mut g = Grid::new(width, height);
        for yy in 0..height {
            for xx in 0..width {
                g.set(xx, yy, self.get(x + xx, y + yy));
            }
        }
        g
    }

    /// A random soup with the given live density, from a seeded generator.
    pub fn random(width: usize, height: usize, density: f64, rng: &mut impl rand::Rng) -> Grid {
        let mut g = Grid::new(width, height);
        for c in g.cells.iter_mut() {
            *c = rng.random_bool(density);
        }
        g
    }
}

#[cfg(test)]
mod tests {
    use super::Grid;
    use proptest::prelude::*;

    proptest! {
        /// The row-slice walks against `get` on every cell, in the same order.
        #[test]
        fn live_cells_and_box_match_a_cell_by_cell_scan(
            (w, h, cells) in (0usize..70, 0usize..9).prop_flat_map(|(w, h)| {
                (Just(w), Just(h), proptest::collection::vec(proptest::bool::weighted(0.1), w * h))
            })
        ) {
            let g = Grid::from_cells(w, h, cells);
            let scan: Vec<(usize, usize)> =
                (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).filter(|&(x, y)| g.get(x, y)).collect();
            prop_assert_eq!(g.live_cells().collect::<Vec<_>>(), scan.clone());
            let bbox = (!scan.is_empty()).then(|| {
                let (xs, ys) = (scan.iter().map(|c| c.0), scan.iter().map(|c| c.1));
                let (x0, x1) = (xs.clone().min().unwrap(), xs.max().unwrap());
                let (y0, y1) = (ys.clone().min().unwrap(), ys.max().unwrap());
                (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
            });
            prop_assert_eq!(g.bounding_box(), bbox);
        }
    }
}
