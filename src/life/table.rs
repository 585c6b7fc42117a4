//! The lookup-table engine (the JavaLife/QLife idea, thesis chapter 3): the
//! 2x2 centre of every 4x4 tile depends only on those sixteen cells, so all
//! 65,536 answers are computed once per rule and each step is table lookups.
//!
//! Book: Part II, chapter 3, section 3.1, "This crate's LIFECUBE" (`book/src/thesis/ch3.md`).

use crate::life::grid::{Grid, Topology};
use crate::life::rule::Rule;

// ANCHOR: table
/// For a 4x4 tile (bit `4 r + c` = row r, column c) the next states of its
/// four centre cells: bit 0 = (1,1), bit 1 = (2,1), bit 2 = (1,2), bit 3 = (2,2).
pub fn tile_table(rule: Rule) -> Vec<u8> {
    (0..1u32 << 16)
        .map(|tile| {
            let cell = |c: i32, r: i32| tile >> (4 * r + c) & 1 == 1;
            let mut out = 0u8;
            for (bit, (c, r)) in [(1, 1), (2, 1), (1, 2), (2, 2)].into_iter().enumerate() {
                let n = (-1..=1)
                    .flat_map(|dr| (-1..=1).map(move |dc| (dc, dr)))
                    .filter(|&(dc, dr)| (dc, dr) != (0, 0) && cell(c + dc, r + dr))
                    .count();
                out |= (rule.next(cell(c, r), n as u32) as u8) << bit;
            }
            out
        })
        .collect()
}
// ANCHOR_END: table

/// A board ready for table steps: cells as bytes with a halo, so a tile never
/// needs a bounds check.
pub struct TableBoard {
    width: usize,
    height: usize,
    topology: Topology,
    table: Vec<u8>,
    cells: Vec<u8>,
}

impl TableBoard {
    pub fn new(g: &Grid, rule: Rule, topology: Topology) -> TableBoard {
        TableBoard {
            width: g.width(),
            height: g.height(),
            topology,
            table: tile_table(rule),
            cells: g.cells().iter().map(|&c| c as u8).collect(),
        }
    }

    /// The board with one extra cell on the left and top and two on the right
    /// and bottom, filled as the topology says.
    fn haloed(&self) -> (Vec<u8>, usize) {
        let (w, h) = (self.width as isize, self.height as isize);
        let pw = self.width + 3;
        let mut p = vec![0u8; pw * (self.height + 3)];
        for py in 0..self.height as isize + 3 {
            for px in 0..pw as isize {
                let (x, y) = (px - 1, py - 1);
                let v = match self.topology {
                    Topology::Torus => self.cells[(y.rem_euclid(h) * w + x.rem_euclid(w)) as usize],
                    Topology::Bounded if x >= 0 && y >= 0 && x < w && y < h => {
                        self.cells[(y * w + x) as usize]
                    }
                    Topology::Bounded => 0,
                };
                p[py as usize * pw + px as usize] = v;
            }
        }
        (p, pw)
    }

    // ANCHOR: table_step
    pub fn step(&mut self) {
        if self.width == 0 || self.height == 0 {
            return;
        }
        let (p, pw) = self.haloed();
        let (w, h) = (self.width, self.height);
        for y in (0..h).step_by(2) {
            // Rows y-1 .. y+2 of the haloed board start at these offsets.
            let rows = [y * pw, (y + 1) * pw, (y + 2) * pw, (y + 3) * pw];
            for x in (0..w).step_by(2) {
                let mut tile = 0usize;
                for (r, &off) in rows.iter().enumerate() {
                    let s = &p[off + x..off + x + 4];
                    tile |=
                        (s[0] as usize | (s[1] as usize) << 1 | (s[2] as usize) << 2 | (s[3] as usize) << 3)
                            << (4 * r);
                }
                let out = self.table[tile];
                self.cells[y * w + x] = out & 1;
                if x + 1 < w {
                    self.cells[y * w + x + 1] = out >> 1 & 1;
                }
                if y + 1 < h {
                    self.cells[(y + 1) * w + x] = out >> 2 & 1;
                    if x + 1 < w {
                        self.cells[(y + 1) * w + x + 1] = out >> 3 & 1;
                    }
                }
            }
        }
    }
    // ANCHOR_END: table_step

    pub fn to_grid(&self) -> Grid {
        let mut g = Grid::new(self.width, self.height);
        for y in 0..self.height {
            for x in 0..self.width {
                g.set(x, y, self.cells[y * self.width + x] == 1);
            }
        }
        g
    }
}
