//! A future pattern whose cells may be unknown: the question every search asks
//! ("what could have led here?") starts from one of these.
//!
//! Book: Part II, chapter 5, section 5.2 (`book/src/thesis/ch5.md`).

use crate::life::grid::Grid;

// ANCHOR: spec
/// One cell of a search target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cell {
    Dead,
    Alive,
    /// `?`: any state is acceptable.
    Unknown,
}

/// A rectangle of target cells, row-major. The fields are private so that
/// `cells.len() == width * height` always holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SpecGrid {
    width: usize,
    height: usize,
    cells: Vec<Cell>,
}
// ANCHOR_END: spec

impl SpecGrid {
    /// A `width` x `height` target with every cell `fill`.
    pub fn new(width: usize, height: usize, fill: Cell) -> SpecGrid {
        SpecGrid { width, height, cells: vec![fill; width * height] }
    }
    /// A target from its row-major cells; an error when their number is not `width * height`.
    pub fn from_cells(width: usize, height: usize, cells: Vec<Cell>) -> crate::Result<SpecGrid> {
        if width.checked_mul(height) != Some(cells.len()) {
            return Err(crate::Error::invalid(format!(
                "a {width}x{height} target needs {} cells, not {}",
                width.saturating_mul(height),
                cells.len()
            )));
        }
        Ok(SpecGrid { width, height, cells })
    }
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }
    /// The cells, row-major.
    #[inline]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }
    /// The cells, row-major, to change in place (their number cannot change).
    #[inline]
    pub fn cells_mut(&mut self) -> &mut [Cell] {
        &mut self.cells
    }
    #[inline]
    pub fn get(&self, x: usize, y: usize) -> Cell {
        self.cells[y * self.width + x]
    }
    #[inline]
    pub fn set(&mut self, x: usize, y: usize, c: Cell) {
        self.cells[y * self.width + x] = c;
    }
    /// How many cells are `c`.
    pub fn count(&self, c: Cell) -> usize {
        self.cells.iter().filter(|&&x| x == c).count()
    }
    /// Does a concrete grid of the same size agree on every known cell?
    pub fn matches(&self, g: &Grid) -> bool {
        g.width() == self.width
            && g.height() == self.height
            && (0..self.height).all(|y| {
                (0..self.width).all(|x| match self.get(x, y) {
                    Cell::Unknown => true,
                    Cell::Alive => g.get(x, y),
                    Cell::Dead => !g.get(x, y),
                })
            })
    }
    /// A random target from a seeded generator: each cell is `?` with
    /// probability `unknown`, otherwise alive with probability `density`.
    pub fn random(
        width: usize,
        height: usize,
        density: f64,
        unknown: f64,
        rng: &mut impl rand::Rng,
    ) -> SpecGrid {
        let mut t = SpecGrid::new(width, height, Cell::Dead);
        for c in t.cells.iter_mut() {
            *c = if rng.random_bool(unknown) {
                Cell::Unknown
            } else if rng.random_bool(density) {
                Cell::Alive
            } else {
                Cell::Dead
            };
        }
        t
    }

    /// Rows of `.`, `*` and `?`.
    pub fn to_rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| {
                (0..self.width)
                    .map(|x| match self.get(x, y) {
                        Cell::Dead => '.',
                        Cell::Alive => '*',
                        Cell::Unknown => '?',
                    })
                    .collect()
            })
            .collect()
    }
}

impl From<&Grid> for SpecGrid {
    fn from(g: &Grid) -> SpecGrid {
        SpecGrid {
            width: g.width(),
            height: g.height(),
            cells: g.cells().iter().map(|&a| if a { Cell::Alive } else { Cell::Dead }).collect(),
        }
    }
}
