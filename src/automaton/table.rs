//! Per-rule transition tables. A target cell depends on a 3x3 window of its
//! parent, that is on three bits of each of three consecutive parent lines
//! `a`, `b`, `c`. For every cell of a line and every three bits of `a` and `b`
//! we store, as a [`Mask`], the lines `c` that give the cell the wanted state;
//! the lines `c` allowed after `(a, b)` for a whole target line are then the AND
//! of these small masks over the line's known cells.
//!
//! Book: Part IV, "An exhaustive orphan census" (`book/src/beyond/census.md`).

use super::mask::Mask;
use crate::life::Rule;

/// The longest target line the tables handle: a parent line then has
/// `MAX_SIDE + 2 = 8` cells, and a [`Mask`] holds all 256 of them.
pub const MAX_SIDE: usize = 6;

/// One line of a target (a column for the automaton, a row for the census):
/// bit `y` of `known` says cell `y` is given, bit `y` of `alive` its state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Line {
    pub known: u32,
    pub alive: u32,
}

impl Line {
    /// A line of `side` cells, all given, alive where `alive` has a bit.
    pub fn full(side: usize, alive: u32) -> Line {
        Line { known: (1 << side) - 1, alive }
    }
}

// ANCHOR: table
/// The per-cell masks of one rule for lines of `side` target cells.
pub struct Table {
    side: usize,
    /// `cell[((y * 8 + a3) * 8 + b3) * 2 + out]`: the parent lines `c` whose
    /// bits y..y+2, beside bits y..y+2 of `a` (`a3`) and `b` (`b3`), give
    /// target cell `y` the state `out`.
    cell: Vec<Mask>,
}

impl Table {
    pub fn new(rule: Rule, side: usize) -> Table {
        assert!((1..=MAX_SIDE).contains(&side), "line of {side} cells");
        let lines = 1usize << (side + 2);
        let mut cell = vec![Mask::EMPTY; side * 128];
        for y in 0..side {
            for a3 in 0..8usize {
                for b3 in 0..8usize {
                    for c in 0..lines {
                        let c3 = (c >> y) & 7;
                        let alive = (b3 >> 1) & 1 == 1;
                        let n = a3.count_ones() + b3.count_ones() + c3.count_ones() - alive as u32;
                        let out = rule.next(alive, n) as usize;
                        cell[((y * 8 + a3) * 8 + b3) * 2 + out].insert(c);
                    }
                }
            }
        }
        Table { side, cell }
    }
    // ANCHOR_END: table

    /// Target cells per line.
    pub fn side(&self) -> usize {
        self.side
    }
    /// Parent lines: `2^(side + 2)`.
    pub fn lines(&self) -> usize {
        1 << (self.side + 2)
    }

    #[inline]
    fn cell_mask(&self, y: usize, a: usize, b: usize, out: u32) -> Mask {
        self.cell[((y * 8 + ((a >> y) & 7)) * 8 + ((b >> y) & 7)) * 2 + out as usize]
    }

    /// The lines `c` allowed after `(a, b)` under `line`, cell by cell: the
    /// obvious version, kept as the twin of [`StepMasks::allowed`].
    pub fn allowed_slow(&self, a: usize, b: usize, line: Line) -> Mask {
        let mut m = Mask::below(self.lines());
        for y in (0..self.side).filter(|y| line.known >> y & 1 == 1) {
            m &= self.cell_mask(y, a, b, line.alive >> y & 1);
        }
        m
    }

    // ANCHOR: step_masks
    /// The masks of one target line, pre-ANDed in two groups: cells 0..3 depend
    /// only on the low five bits of `a` and `b`, cells 3..6 only on bits 3..8,
    /// so two lookups and one AND give the allowed lines `c` of any pair.
    pub fn step_masks(&self, line: Line) -> StepMasks {
        StepMasks { lo: self.group(line, 0..self.side.min(3), 0), hi: self.group(line, 3..self.side, 3) }
    }

    fn group(&self, line: Line, cells: std::ops::Range<usize>, shift: usize) -> Vec<Mask> {
        let mut out = vec![Mask::below(self.lines()); 1024];
        for (i, m) in out.iter_mut().enumerate() {
            let (a, b) = ((i >> 5) << shift, (i & 31) << shift);
            for y in cells.clone().filter(|y| line.known >> y & 1 == 1) {
                *m &= self.cell_mask(y, a, b, line.alive >> y & 1);
            }
        }
        out
    }
}

/// The masks of every fully given line at once, for the census: `lo[i * 8 +
/// t_lo]` and `hi[i * 8 + t_hi]`, the eight possible values of a group's cells
/// side by side so that one pair's masks for all lines share cache lines.
pub struct RowMasks {
    pub lo: Vec<Mask>,
    pub hi: Vec<Mask>,
    /// Values of the low group (cells 0..3) and of the high group (cells 3..side).
    pub lo_values: usize,
    pub hi_values: usize,
}

impl Table {
    pub fn row_masks(&self) -> RowMasks {
        let (lo_cells, hi_cells) = (self.side.min(3), self.side.saturating_sub(3));
        let mut lo = vec![Mask::EMPTY; 1024 * 8];
        let mut hi = vec![Mask::EMPTY; 1024 * 8];
        for t in 0..1u32 << lo_cells {
            let g = self.group(Line { known: (1 << lo_cells) - 1, alive: t }, 0..lo_cells, 0);
            for (i, m) in g.into_iter().enumerate() {
                lo[i * 8 + t as usize] = m;
            }
        }
        for t in 0..1u32 << hi_cells {
            let line = Line { known: ((1 << hi_cells) - 1) << 3, alive: t << 3 };
            let g = self.group(line, 3..self.side, 3);
            for (i, m) in g.into_iter().enumerate() {
                hi[i * 8 + t as usize] = m;
            }
        }
        RowMasks { lo, hi, lo_values: 1 << lo_cells, hi_values: 1 << hi_cells }
    }
}

/// The masks of one target line, indexed by five bits of `a` and of `b`.
pub struct StepMasks {
    lo: Vec<Mask>,
    hi: Vec<Mask>,
}

impl StepMasks {
    /// The parent lines `c` that may follow `(a, b)`.
    #[inline]
    pub fn allowed(&self, a: usize, b: usize) -> Mask {
        self.lo[((a & 31) << 5) | (b & 31)] & self.hi[((a >> 3) << 5) | (b >> 3)]
    }
}
// ANCHOR_END: step_masks

#[cfg(test)]
mod tests {
    use super::*;
    use crate::life::naive::step;
    use crate::life::{Grid, Topology};
    use proptest::prelude::*;

    /// The target line that parent lines a, b, c give, by the naive engine
    /// on a 3-wide strip (the lines as columns).
    fn naive_line(rule: Rule, side: usize, a: usize, b: usize, c: usize) -> u32 {
        let mut g = Grid::new(3, side + 2);
        for (x, col) in [a, b, c].into_iter().enumerate() {
            for y in 0..side + 2 {
                g.set(x, y, col >> y & 1 == 1);
            }
        }
        let next = step(&g, rule, Topology::Bounded);
        (0..side).map(|y| (next.get(1, y + 1) as u32) << y).sum()
    }

    proptest! {
        #[test]
        fn masks_agree_with_the_naive_engine(
            side in 1usize..=6, a in 0usize..256, b in 0usize..256, c in 0usize..256,
            known in 0u32..64, birth in 0u16..512, survival in 0u16..512,
        ) {
            let rule = Rule { birth, survival };
            let t = Table::new(rule, side);
            let n = t.lines();
            let (a, b, c) = (a % n, b % n, c % n);
            let out = naive_line(rule, side, a, b, c);
            let known = known & ((1 << side) - 1);
            let line = Line { known, alive: out & known };
            prop_assert!(t.allowed_slow(a, b, line).contains(c));
            prop_assert_eq!(t.step_masks(line).allowed(a, b), t.allowed_slow(a, b, line));
            // Flip one known cell: c must no longer be allowed.
            if known != 0 {
                let y = known.trailing_zeros();
                let wrong = Line { known, alive: (out ^ (1 << y)) & known };
                prop_assert!(!t.step_masks(wrong).allowed(a, b).contains(c));
            }
        }
    }
}
