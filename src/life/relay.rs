//! The relay (`--algorithm relay`): the tile engine runs a pattern on the
//! plane while it is busy, and hands it to HashLife once it has settled.
//!
//! The two engines are good at opposite halves of a soup's life. While a soup
//! is young nothing repeats, and HashLife pays for its memo tables and its
//! overlapping sub-squares without reuse, several times the tiles' cost. Once
//! the soup has settled into still and period-2 debris, oscillators and
//! escaping gliders, the tiles still pay every generation for every glider,
//! while HashLife's memoised squares carry them a power of two generations
//! at a time.
//!
//! The sign of settling is the tiles' own work: the rows they compute per
//! generation. Debris that sleeps costs no rows, and a glider or an
//! oscillator costs the same rows in every window of generations that is a
//! multiple of its period and of the time a glider takes to cross a tile
//! (256 generations), so once only these are left, consecutive windows cost
//! the same, up to an oscillator of odd period whose phase shifts a little
//! from one window to the next. The relay watches [`WINDOW`]-generation
//! windows and hands over once three in a row cost the same within
//! 1/[`TOLERANCE`], if at least [`MIN_LEFT`] generations remain for HashLife
//! to skip through.
//!
//! Book: Part II, chapter 3, "The relay" (`book/src/thesis/ch3.md`).

use crate::error::{Error, Result};
use crate::life::grid::Grid;
use crate::life::hashlife::{self, HashLife};
use crate::life::rule::Rule;
use crate::life::tiles::Tiles;

// ANCHOR: constants
/// Generations per window: a glider crosses a 64-cell tile in 256
/// generations, a lightweight spaceship in 128, and the period-2, 4 and 8
/// debris divides it, so each costs the same rows in every window.
pub const WINDOW: u64 = 256;
/// Two windows cost the same when they differ by at most 1/`TOLERANCE` of the
/// larger: a pulsar (period 3) shifts phase by a generation each window.
pub const TOLERANCE: u64 = 128;
/// A pattern that grows without end (a gun, a puffer, a breeder) never
/// settles: each window costs the tiles more than the one before, as its
/// stream of ships lengthens. After this many rising windows in a row the
/// relay hands over all the same, since HashLife is what such a pattern
/// needs; a young soup that spreads for a while costs HashLife's speed on
/// chaos at worst, which is where `auto` would otherwise have sent it.
pub const RISING: u32 = 4;
/// The fewest generations worth a hand-over: HashLife's first jumps over a
/// freshly built tree cost about as much as a thousand generations of the
/// tiles on a settled 64x64 soup.
pub const MIN_LEFT: u64 = 2048;
// ANCHOR_END: constants

/// When to hand over (the defaults are [`WINDOW`] and [`MIN_LEFT`]; the
/// tests force early hand-overs with small ones).
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub window: u64,
    pub min_left: u64,
    /// HashLife's memory cap in bytes.
    pub memory_cap: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options { window: WINDOW, min_left: MIN_LEFT, memory_cap: 4 << 30 }
    }
}

/// Where the pattern ended: with the tiles (as a grid and the coordinates of
/// its top-left cell), or with HashLife after a hand-over at `handed_over`.
#[derive(Debug)]
pub enum Relayed {
    Tiles(Grid, (i64, i64)),
    Tree { tree: Box<HashLife>, handed_over: u64 },
}

// ANCHOR: relay
/// `generations` steps of `g` (top-left cell at `origin`) on the plane.
/// Rules with birth on 0 are refused, as both engines refuse them.
pub fn evolve_plane(
    g: &Grid,
    origin: (i64, i64),
    rule: Rule,
    generations: u64,
    opts: Options,
) -> Result<Relayed> {
    hashlife::check_rule(rule)?;
    if opts.window == 0 {
        return Err(Error::invalid("relay: the window must be at least one generation"));
    }
    let mut tiles = Tiles::plane(g, origin, rule);
    // The costs of the last windows, how many in a row matched, and how
    // many in a row cost more than the one before.
    let (mut last, mut same, mut rising) = (None, 0, 0);
    while generations - tiles.generation() >= opts.window + opts.min_left {
        let before = tiles.rows_computed;
        tiles.advance(opts.window);
        let cost = tiles.rows_computed - before;
        same = match last {
            Some(l) if cost.abs_diff(l) <= cost.max(l) / TOLERANCE => same + 1,
            _ => 0,
        };
        rising = if last.is_some_and(|l| cost > l) { rising + 1 } else { 0 };
        if same == 2 || rising == RISING {
            let handed_over = tiles.generation();
            let mut tree = HashLife::from_tiles(tiles.tile_rows(), rule, opts.memory_cap)?;
            drop(tiles);
            tree.set_generation(handed_over as u128);
            tree.advance(generations - handed_over);
            return Ok(Relayed::Tree { tree: Box::new(tree), handed_over });
        }
        last = Some(cost);
    }
    tiles.advance(generations - tiles.generation());
    let (grid, at) = tiles.to_grid();
    Ok(Relayed::Tiles(grid, at))
}
// ANCHOR_END: relay
