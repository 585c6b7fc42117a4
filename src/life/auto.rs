//! `--algorithm auto`: which engine suits a workload. The rule, in order:
//!
//! 1. A torus with a rule that has birth on 0 goes to LIFECUBE: its dead
//!    regions flash, so nothing ever sleeps.
//! 2. A torus run of at least [`TORUS_LONG`] generations goes to the tile
//!    engine (whose driver sweeps with LIFECUBE while the soup is dense,
//!    then lets settled debris sleep); a shorter one to LIFECUBE, since a
//!    fresh soup is busy everywhere and the full sweep does that best.
//! 3. On the plane, a rule with birth on 0 stays with LIFECUBE's block
//!    plane (HashLife and the tiles refuse B0).
//! 4. A pattern too large for a dense grid (a macrocell file) goes to HashLife.
//! 5. A very long run relative to the pattern (at least [`LONG_RUN`]
//!    generations and at least [`SIDES_PER_RUN`] times the pattern's longer
//!    side) goes to HashLife: a regular pattern (a gun, a puffer) repeats,
//!    which its memoised quadtree feeds on. Not a soup, though (see
//!    [`is_soup`]): nothing in a burning soup repeats, and HashLife on a
//!    1024x1024 soup for 40,000 generations took 8x the relay's time here.
//! 6. Anything else on the plane goes to the relay: the tile engine while
//!    the soup is busy (its debris sleeps, and only gliders and the active
//!    zone cost), then HashLife once it has settled, for the escaping gliders.
//!
//! Measured on this machine (`engines-vs-peers`): the tiles beat HashLife
//! on 1024x1024 plane soups (1,000 and 5,000 generations; the relay never
//! hands over there); the relay beats both on a 64x64 soup for 10,000
//! generations; HashLife wins the Gosper gun from 2^16 generations on.
//!
//! Book: Part II, chapter 3, "HashLife" (`book/src/thesis/ch3.md`).

use crate::life::grid::Grid;

/// The fewest generations auto hands to HashLife.
pub const LONG_RUN: u64 = 1 << 15;
/// How many times its longer side a run must last for auto to pick HashLife.
pub const SIDES_PER_RUN: u64 = 8;
/// The fewest cells in the box of a soup: apgsearch's soups are 16x16.
pub const SOUP_AREA: usize = 256;
/// The side of the blocks [`is_soup`] counts.
pub const SOUP_BLOCK: usize = 4;
/// The fraction of a soup's blocks that hold a live cell. A random soup of
/// density d fills 1 - (1 - d)^16 of its 4x4 blocks: 0.82 at d = 0.1, about
/// where the relay starts to beat HashLife on long runs here. Engineered
/// patterns leave most of their box empty: among Golly's samples with a box
/// of at least [`SOUP_AREA`] cells, the fullest (bar agars, still-life fields
/// and a 20x20 methuselah, soups in all but name) is a line puffer at 0.75.
pub const SOUP_SPREAD: f64 = 0.78;
/// The fewest generations on a torus for which auto picks the tiles.
pub const TORUS_LONG: u64 = 4096;

/// What auto may choose between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Lifecube,
    Hashlife,
    Tiles,
    Relay,
}

/// The workload as auto sees it.
#[derive(Debug, Clone, Copy)]
pub struct Workload {
    pub torus: bool,
    pub b0: bool,
    /// The pattern's longer side, `None` when it is too large for a dense grid.
    pub side: Option<u64>,
    /// Whether the pattern looks like a random soup (see [`is_soup`]).
    pub soup: bool,
    pub generations: u64,
}

// ANCHOR: pick
/// The engine for a workload and the reason, for the stderr line.
pub fn pick(w: Workload) -> (Choice, String) {
    if w.torus {
        if w.b0 {
            return (Choice::Lifecube, "a torus under a B0 rule never settles".into());
        }
        if w.generations >= TORUS_LONG {
            let why = format!("torus, {} generations >= {TORUS_LONG}: the soup settles", w.generations);
            return (Choice::Tiles, why);
        }
        return (Choice::Lifecube, format!("torus, {} generations < {TORUS_LONG}: dense", w.generations));
    }
    if w.b0 {
        return (Choice::Lifecube, "HashLife and the tiles refuse rules with B0".into());
    }
    let Some(side) = w.side else {
        return (Choice::Hashlife, "the pattern is too large for a dense grid".into());
    };
    if w.soup {
        return (Choice::Relay, format!("plane, a soup of side {side}: nothing repeats while it burns"));
    }
    if w.generations >= LONG_RUN && w.generations >= SIDES_PER_RUN.saturating_mul(side.max(1)) {
        let why = format!(
            "plane, {} generations >= {LONG_RUN} and >= {SIDES_PER_RUN} x the pattern's side {side}",
            w.generations
        );
        return (Choice::Hashlife, why);
    }
    (Choice::Relay, format!("plane, {} generations for a pattern of side {side}", w.generations))
}
// ANCHOR_END: pick

// ANCHOR: is_soup
/// Whether `grid` looks like a random soup: its live cells' box has at least
/// [`SOUP_AREA`] cells, and live cells are spread over at least
/// [`SOUP_SPREAD`] of the box's [`SOUP_BLOCK`]-square blocks. Spread, not
/// density: a sparse soup (one cell in ten) is as unrepeating as a dense one.
pub fn is_soup(grid: &Grid) -> bool {
    let Some((x0, y0, w, h)) = grid.bounding_box() else { return false };
    if w.saturating_mul(h) < SOUP_AREA {
        return false;
    }
    let rows: Vec<&[bool]> =
        grid.cells().chunks(grid.width()).skip(y0).take(h).map(|r| &r[x0..x0 + w]).collect();
    let mut filled = 0usize;
    for band in rows.chunks(SOUP_BLOCK) {
        for bx in (0..w).step_by(SOUP_BLOCK) {
            let cols = bx..(bx + SOUP_BLOCK).min(w);
            filled += usize::from(band.iter().any(|row| row[cols.clone()].contains(&true)));
        }
    }
    let blocks = w.div_ceil(SOUP_BLOCK) * h.div_ceil(SOUP_BLOCK);
    filled as f64 >= SOUP_SPREAD * blocks as f64
}
// ANCHOR_END: is_soup

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{Warnings, rle};
    use crate::life::grid::Topology;
    use crate::life::{naive, rule::Rule};
    use rand::SeedableRng;

    #[test]
    fn the_rule() {
        let w = |torus, b0, side, generations| pick(Workload { torus, b0, side, soup: false, generations }).0;
        assert_eq!(w(true, false, Some(64), 1 << 40), Choice::Tiles);
        assert_eq!(w(true, false, Some(1024), 2000), Choice::Lifecube);
        assert_eq!(w(true, true, Some(64), 1 << 40), Choice::Lifecube);
        assert_eq!(w(false, true, Some(64), 1 << 40), Choice::Lifecube);
        assert_eq!(w(false, false, None, 1), Choice::Hashlife);
        assert_eq!(w(false, false, Some(64), 10_000), Choice::Relay);
        assert_eq!(w(false, false, Some(1024), 5_000), Choice::Relay);
        assert_eq!(w(false, false, Some(36), 1 << 16), Choice::Hashlife);
        assert_eq!(w(false, false, Some(3), 100), Choice::Relay);
        // A soup goes to the relay however long the run; a soup on a torus still to the tiles.
        let soup = |torus, generations| {
            pick(Workload { torus, b0: false, side: Some(1024), soup: true, generations }).0
        };
        assert_eq!(soup(false, 1 << 40), Choice::Relay);
        assert_eq!(soup(true, 1 << 40), Choice::Tiles);
    }

    #[test]
    fn soups_are_told_by_spread() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for density in [0.12, 0.25, 0.5] {
            assert!(is_soup(&Grid::random(64, 64, density, &mut rng)), "a soup at {density}");
        }
        // Too sparse to fill its blocks, too small a box, or an empty grid.
        assert!(!is_soup(&Grid::random(200, 200, 0.04, &mut rng)));
        assert!(!is_soup(&Grid::random(15, 15, 0.5, &mut rng)));
        assert!(!is_soup(&Grid::new(64, 64)));
        // A dense soup in one corner of a large empty board is still a soup:
        // the box is the live cells', not the board's.
        let mut board = Grid::new(500, 500);
        let soup = Grid::random(40, 40, 0.5, &mut rng);
        for (x, y) in soup.live_cells() {
            board.set(x + 300, y + 200, true);
        }
        assert!(is_soup(&board));
        // A Gosper gun and its stream: a line of gliders across a mostly empty box.
        let loc = crate::error::Location::new("gun.rle", None);
        let text = include_str!("../../tests/data/formats/gun.rle");
        let gun = rle::read(&loc, text, &mut Warnings::default()).unwrap().grid;
        let mut board = Grid::new(120, 120);
        for (x, y) in gun.live_cells() {
            board.set(x + 2, y + 2, true);
        }
        for _ in 0..300 {
            board = naive::step(&board, Rule::CONWAY, Topology::Bounded);
        }
        let (_, _, w, h) = board.bounding_box().unwrap();
        assert!(w * h >= SOUP_AREA, "the stream spans a box of {w}x{h}");
        assert!(!is_soup(&board));
    }
}
