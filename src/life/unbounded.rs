//! The unbounded plane for patterns that grow: 64x64 blocks kept in a hash map
//! and allocated only where cells live (the thesis' super-blocks play this
//! part). A block is computed when it or a neighbour holds live cells; blocks
//! that die are dropped, so memory follows the pattern, not its bounding box.
//!
//! Book: Part II, chapter 3, section 3.1, "This crate's LIFECUBE" (`book/src/thesis/ch3.md`).

use crate::life::grid::Grid;
use crate::life::lifecube::{combine, three_sum};
use crate::life::rule::Rule;
use std::collections::{HashMap, HashSet};

const B: i64 = 64;

/// One 64x64 block: word `r` holds row `r`, bit `k` column `k`.
type Block = [u64; 64];

// ANCHOR: universe
/// A pattern in the unbounded plane.
#[derive(Debug, Clone)]
pub struct Universe {
    rule: Rule,
    blocks: HashMap<(i64, i64), Block>,
}
// ANCHOR_END: universe

impl Universe {
    /// Place a grid with its top-left cell at `origin`.
    pub fn new(g: &Grid, origin: (i64, i64), rule: Rule) -> Universe {
        let mut u = Universe { rule, blocks: HashMap::new() };
        for (x, y) in g.live_cells() {
            u.set(origin.0 + x as i64, origin.1 + y as i64);
        }
        u
    }

    fn set(&mut self, x: i64, y: i64) {
        let b = self.blocks.entry((x.div_euclid(B), y.div_euclid(B))).or_insert([0; 64]);
        b[y.rem_euclid(B) as usize] |= 1 << x.rem_euclid(B);
    }

    pub fn population(&self) -> u64 {
        self.blocks.values().flat_map(|b| b.iter()).map(|w| w.count_ones() as u64).sum()
    }

    /// Number of allocated blocks (for the memory story of the book).
    pub fn block_count(&self) -> usize {
        self.blocks.len()
    }

    // ANCHOR: universe_step
    /// One generation: every block that has live cells, and every neighbour
    /// of one, is recomputed from its own rows and the edges of its neighbours.
    pub fn step(&mut self) {
        let mut todo: HashSet<(i64, i64)> = HashSet::new();
        for &(bx, by) in self.blocks.keys() {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    todo.insert((bx + dx, by + dy));
                }
            }
        }
        let zero = [0u64; 64];
        let mut next = HashMap::with_capacity(todo.len());
        for (bx, by) in todo {
            let at = |dx: i64, dy: i64| self.blocks.get(&(bx + dx, by + dy)).unwrap_or(&zero);
            let (w, c, e) = (at(-1, 0), at(0, 0), at(1, 0));
            let (nw, n, ne) = (at(-1, -1), at(0, -1), at(1, -1));
            let (sw, s, se) = (at(-1, 1), at(0, 1), at(1, 1));
            // Horizontal sums of rows -1 ..= 64 of this block.
            let mut s0 = [0u64; 66];
            let mut s1 = [0u64; 66];
            (s0[0], s1[0]) = three_sum(nw[63], n[63], ne[63]);
            for r in 0..64 {
                (s0[r + 1], s1[r + 1]) = three_sum(w[r], c[r], e[r]);
            }
            (s0[65], s1[65]) = three_sum(sw[0], s[0], se[0]);
            let mut out = [0u64; 64];
            let mut diff = [0u64; 64];
            combine(
                self.rule,
                [&s0[..64], &s1[..64], &s0[1..65], &s1[1..65], &s0[2..], &s1[2..]],
                c,
                &mut out,
                &mut diff,
            );
            if out.iter().any(|&x| x != 0) {
                next.insert((bx, by), out);
            }
        }
        self.blocks = next;
    }
    // ANCHOR_END: universe_step

    /// The live cells as a grid cropped to their bounding box, and the
    /// coordinates of its top-left cell.
    pub fn to_grid(&self) -> (Grid, (i64, i64)) {
        let cells: Vec<(i64, i64)> = self
            .blocks
            .iter()
            .flat_map(|(&(bx, by), b)| {
                b.iter().enumerate().flat_map(move |(r, &w)| {
                    (0..64).filter(move |k| w >> k & 1 == 1).map(move |k| (bx * B + k, by * B + r as i64))
                })
            })
            .collect();
        if cells.is_empty() {
            return (Grid::new(0, 0), (0, 0));
        }
        let x0 = cells.iter().map(|c| c.0).min().unwrap();
        let x1 = cells.iter().map(|c| c.0).max().unwrap();
        let y0 = cells.iter().map(|c| c.1).min().unwrap();
        let y1 = cells.iter().map(|c| c.1).max().unwrap();
        let mut g = Grid::new((x1 - x0 + 1) as usize, (y1 - y0 + 1) as usize);
        for (x, y) in cells {
            g.set((x - x0) as usize, (y - y0) as usize, true);
        }
        (g, (x0, y0))
    }
}
