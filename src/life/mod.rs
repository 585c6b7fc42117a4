//! Rules, grids and the engines that evolve them (thesis chapter 3; WinLife's rules and torus).
//!
//! Book: Part II, chapter 3, section 3.1 (`book/src/thesis/ch3.md`).

pub mod auto;
pub mod batch;
pub mod clusters;
pub mod evolver;
pub mod grid;
pub mod hashlife;
pub mod lifecube;
pub mod naive;
pub mod relay;
pub mod rule;
pub mod spec;
pub mod table;
pub mod tiles;
pub mod unbounded;

pub use grid::{Grid, Topology};
pub use rule::Rule;
pub use spec::{Cell, SpecGrid};

/// The engines of Table 3.1; all give identical results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// Count the eight neighbours of every cell.
    Naive,
    /// Look up 4x4 tiles in a precomputed table of their 2x2 centres.
    Table,
    /// Bit-parallel adder network over 64-cell words, skipping still regions.
    Lifecube,
    /// LIFECUBE on all cores (rayon).
    LifecubeParallel,
}

/// One generation of a bounded grid or torus with the chosen engine.
pub fn step(g: &Grid, rule: Rule, topology: Topology, alg: Algorithm) -> Grid {
    evolve(g, rule, topology, 1, alg)
}

// ANCHOR: evolve
/// `generations` steps of a bounded grid or torus. Each engine converts to its
/// own layout once, so the steps themselves run at full speed.
pub fn evolve(g: &Grid, rule: Rule, topology: Topology, generations: u64, alg: Algorithm) -> Grid {
    match alg {
        Algorithm::Naive => {
            let mut g = g.clone();
            for _ in 0..generations {
                g = naive::step(&g, rule, topology);
            }
            g
        }
        Algorithm::Table => {
            let mut b = table::TableBoard::new(g, rule, topology);
            for _ in 0..generations {
                b.step();
            }
            b.to_grid()
        }
        Algorithm::Lifecube => lifecube::evolve(g, rule, topology, generations, false),
        Algorithm::LifecubeParallel => lifecube::evolve(g, rule, topology, generations, true),
    }
}
// ANCHOR_END: evolve

/// One generation of a pattern in the unbounded plane: the grid is widened by
/// one cell on each side first, so nothing is lost at the edge, then trimmed to
/// its live cells. Returns the new grid and how far its origin moved.
pub fn step_unbounded(g: &Grid, rule: Rule, alg: Algorithm) -> (Grid, (i64, i64)) {
    let next = step(&g.padded(1), rule, Topology::Bounded, alg);
    match next.bounding_box() {
        None => (Grid::new(0, 0), (0, 0)),
        Some((x, y, w, h)) => (next.crop(x, y, w, h), (x as i64 - 1, y as i64 - 1)),
    }
}

/// `generations` steps in the unbounded plane; returns the final live
/// rectangle and the offset of its top-left cell from the input's. LIFECUBE
/// uses the sparse block universe; the other engines widen a dense grid.
pub fn evolve_unbounded(g: &Grid, rule: Rule, generations: u64, alg: Algorithm) -> (Grid, (i64, i64)) {
    if matches!(alg, Algorithm::Lifecube | Algorithm::LifecubeParallel) {
        let mut u = unbounded::Universe::new(g, (0, 0), rule);
        for _ in 0..generations {
            u.step();
        }
        return u.to_grid();
    }
    let mut g = g.clone();
    let (mut ox, mut oy) = (0i64, 0i64);
    for _ in 0..generations {
        if g.width() == 0 {
            break;
        }
        let (n, (dx, dy)) = step_unbounded(&g, rule, alg);
        g = n;
        ox += dx;
        oy += dy;
    }
    (g, (ox, oy))
}
