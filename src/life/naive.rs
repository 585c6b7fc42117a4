//! The baseline of Table 3.1: count the eight neighbours of every cell, one by
//! one. Slow and obviously right, it is the twin every faster engine is tested against.
//!
//! Book: Part II, chapter 2, section 2.1.1 (`book/src/thesis/ch2.md`).

use crate::life::grid::{Grid, Topology};
use crate::life::rule::Rule;

// ANCHOR: naive_step
/// One generation by direct neighbour counting.
pub fn step(g: &Grid, rule: Rule, topology: Topology) -> Grid {
    let (w, h) = (g.width() as isize, g.height() as isize);
    let mut next = Grid::new(g.width(), g.height());
    for y in 0..h {
        for x in 0..w {
            let mut n = 0;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if dx == 0 && dy == 0 {
                        continue;
                    }
                    let alive = match topology {
                        Topology::Bounded => g.get_or_dead(x + dx, y + dy),
                        Topology::Torus => {
                            g.get((x + dx).rem_euclid(w) as usize, (y + dy).rem_euclid(h) as usize)
                        }
                    };
                    n += alive as u32;
                }
            }
            next.set(x as usize, y as usize, rule.next(g.get(x as usize, y as usize), n));
        }
    }
    next
}
// ANCHOR_END: naive_step
