//! Where each of a slice's nine pixels sits in its 3x3 window.
//!
//! The thesis draws pixel 0 top-left (Figure 5.2) but its code numbers the
//! columns from the east: pixel 0 is top-right. Sweeps only see overlaps, so
//! the closures of Figure 5.9 come out the same either way; the order in which
//! a pivot's constellations are tried does not, and with it the search counts
//! of Table 6.5. Everything geometric below derives from [`Convention::pixel`].
//!
//! Book: Part II, chapter 5, section 5.1 (`book/src/thesis/ch5.md`).

use super::Convention;

// ANCHOR: pixel
impl Convention {
    /// The pixel number of the cell in `row` (0 = top) and `col` (0 = west) of
    /// a 3x3 window. Rows are always numbered from the top; only the columns differ.
    #[inline]
    pub const fn pixel(self, row: usize, col: usize) -> usize {
        match self {
            Convention::ThesisCode => 3 * row + (2 - col),
            Convention::Figure52 => 3 * row + col,
        }
    }

    /// The lowest pixel number of a column: the column's pixels are `b`, `b+3`, `b+6`.
    #[inline]
    pub const fn column_base(self, col: usize) -> usize {
        self.pixel(0, col)
    }

    /// Is `p` of constellation `c` alive, for the window cell at (`row`, `col`)?
    #[inline]
    pub const fn alive(self, c: u16, row: usize, col: usize) -> bool {
        (c >> self.pixel(row, col)) & 1 == 1
    }
}
// ANCHOR_END: pixel

/// A convention fixed at compile time, so the sliver operations of the hot loop
/// are specialised for it (no branch on the convention per confrontation).
pub trait Layout: Copy + Default + Send + Sync + 'static {
    const CONVENTION: Convention;
    /// First pixel of the west column (the one an east-west overlap drops from the west member).
    const WEST: usize = Self::CONVENTION.column_base(0);
    /// First pixel of the east column (dropped from the east member).
    const EAST: usize = Self::CONVENTION.column_base(2);
}

/// Pixel 0 top-right: the thesis' code.
#[derive(Debug, Clone, Copy, Default)]
pub struct ThesisCode;
/// Pixel 0 top-left: the thesis' Figure 5.2.
#[derive(Debug, Clone, Copy, Default)]
pub struct Figure52;

impl Layout for ThesisCode {
    const CONVENTION: Convention = Convention::ThesisCode;
}
impl Layout for Figure52 {
    const CONVENTION: Convention = Convention::Figure52;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_are_a_permutation_with_centre_four() {
        for conv in [Convention::ThesisCode, Convention::Figure52] {
            let mut seen = [false; 9];
            for r in 0..3 {
                for c in 0..3 {
                    seen[conv.pixel(r, c)] = true;
                }
            }
            assert!(seen.iter().all(|&s| s));
            assert_eq!(conv.pixel(1, 1), 4);
        }
        // The thesis' code: 0 top-right, 2 top-left, 6 bottom-right, 8 bottom-left.
        let t = Convention::ThesisCode;
        assert_eq!([t.pixel(0, 2), t.pixel(0, 0), t.pixel(2, 2), t.pixel(2, 0)], [0, 2, 6, 8]);
        assert_eq!((ThesisCode::WEST, ThesisCode::EAST), (2, 0));
        assert_eq!((Figure52::WEST, Figure52::EAST), (0, 2));
    }
}
