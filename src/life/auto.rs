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
//!    which its memoised quadtree feeds on. Not a soup, though (a box of at
//!    least [`SOUP_AREA`] cells, at least [`SOUP_DENSITY`] of them alive):
//!    nothing in a burning soup repeats, and HashLife on a 1024x1024 soup for
//!    40,000 generations took 8x the relay's time here; engineered patterns
//!    (Golly's guns, puffers, rakes and breeders) are sparser than that.
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

/// The fewest generations auto hands to HashLife.
pub const LONG_RUN: u64 = 1 << 15;
/// How many times its longer side a run must last for auto to pick HashLife.
pub const SIDES_PER_RUN: u64 = 8;
/// A pattern of at least this many cells in its box and at least
/// [`SOUP_DENSITY`] alive is a soup.
pub const SOUP_AREA: u64 = 1024;
/// The live fraction of a soup: random soups are drawn at 0.3-0.5, and the
/// densest engineered pattern among Golly's samples of area at least
/// [`SOUP_AREA`] is a line puffer at 0.25.
pub const SOUP_DENSITY: f64 = 0.28;
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
    /// Whether the pattern looks like a random soup (see [`SOUP_DENSITY`]).
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

/// Whether a `w` x `h` box with `population` live cells is a soup.
pub fn is_soup(w: u64, h: u64, population: u64) -> bool {
    let area = w.saturating_mul(h);
    area >= SOUP_AREA && population as f64 >= SOUP_DENSITY * area as f64
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(is_soup(64, 64, 64 * 64 / 2));
        assert!(!is_soup(36, 9, 36));
        assert!(!is_soup(16, 16, 200));
        assert!(!is_soup(100, 100, 2500));
    }
}
