//! `--algorithm auto`: which engine suits a workload. The rule, in order:
//!
//! 1. A torus (a dense bounded board) goes to LIFECUBE: every cell is
//!    computed every generation, which the bit-parallel kernel does best.
//! 2. On the plane, a rule with birth on 0 stays with LIFECUBE's block
//!    plane (HashLife refuses B0).
//! 3. A pattern too large for a dense grid (a macrocell file) goes to HashLife.
//! 4. A long run relative to the pattern (at least [`LONG_RUN`] generations
//!    and at least [`SIDES_PER_RUN`] times the pattern's longer side) goes to
//!    HashLife: by then a soup has settled into debris and escaping
//!    gliders, and a regular pattern repeats, which is what HashLife's
//!    memoised quadtree feeds on.
//! 5. Anything else on the plane goes to LIFECUBE's block plane.
//!
//! Book: Part II, chapter 3, "HashLife" (`book/src/thesis/ch3.md`).

/// The fewest generations auto hands to HashLife.
pub const LONG_RUN: u64 = 1024;
/// How many times its longer side a run must last for auto to pick HashLife.
pub const SIDES_PER_RUN: u64 = 8;

/// What auto may choose between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Lifecube,
    Hashlife,
    Tiles,
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
        return (Choice::Lifecube, "a torus is a dense board".into());
    }
    if w.b0 {
        return (Choice::Lifecube, "HashLife refuses rules with B0".into());
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
    (
        Choice::Lifecube,
        format!("plane, {} generations is a short run for a pattern of side {side}", w.generations),
    )
}
// ANCHOR_END: pick

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule() {
        let w = |torus, b0, side, generations| pick(Workload { torus, b0, side, generations }).0;
        assert_eq!(w(true, false, Some(64), 1 << 40), Choice::Lifecube);
        assert_eq!(w(false, true, Some(64), 1 << 40), Choice::Lifecube);
        assert_eq!(w(false, false, None, 1), Choice::Hashlife);
        assert_eq!(w(false, false, Some(64), 10_000), Choice::Hashlife);
        assert_eq!(w(false, false, Some(1024), 1_000), Choice::Lifecube);
        assert_eq!(w(false, false, Some(36), 1 << 20), Choice::Hashlife);
        assert_eq!(w(false, false, Some(3), 100), Choice::Lifecube);
    }
}
