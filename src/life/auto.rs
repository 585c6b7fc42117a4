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
//!    which its memoised quadtree feeds on.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule() {
        let w = |torus, b0, side, generations| pick(Workload { torus, b0, side, generations }).0;
        assert_eq!(w(true, false, Some(64), 1 << 40), Choice::Tiles);
        assert_eq!(w(true, false, Some(1024), 2000), Choice::Lifecube);
        assert_eq!(w(true, true, Some(64), 1 << 40), Choice::Lifecube);
        assert_eq!(w(false, true, Some(64), 1 << 40), Choice::Lifecube);
        assert_eq!(w(false, false, None, 1), Choice::Hashlife);
        assert_eq!(w(false, false, Some(64), 10_000), Choice::Relay);
        assert_eq!(w(false, false, Some(1024), 5_000), Choice::Relay);
        assert_eq!(w(false, false, Some(36), 1 << 16), Choice::Hashlife);
        assert_eq!(w(false, false, Some(3), 100), Choice::Relay);
    }
}
