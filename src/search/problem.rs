//! What a search asks, independent of how it is encoded.
//!
//! Book: Part II, chapter 6, section 6.1 (`book/src/thesis/ch6.md`).

use crate::error::{Error, Result};
use crate::life::{Rule, SpecGrid};

pub use crate::base::Symmetry;

pub use crate::base::orphan::Boundary;

/// How one Life step becomes clauses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    /// For every cell, forbid each 3x3 parent window that gives the wrong
    /// next state: no auxiliary variables, any Life-like rule.
    #[default]
    Window,
    /// Knuth's SAT-LIFE counting network (Conway's rule only).
    Knuth,
}

// ANCHOR: problem
/// A search over a stack of generations.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// A parent `generations` steps before `target` (`?` cells are not
    /// constrained). The parent window extends `generations` cells beyond the
    /// target on every side (one more with a dead boundary).
    Predecessor { target: SpecGrid, generations: usize, boundary: Boundary },
    /// A still life, oscillator or spaceship in a box (see [`Cycle`]).
    Cycle(Cycle),
}

/// A non-empty pattern caged in `width` x `height` whose generation
/// `period` is generation 0 moved by (dx, dy), and no earlier generation
/// is (exact period). Still lifes: period 1; oscillators: dx = dy = 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cycle {
    pub width: usize,
    pub height: usize,
    pub period: usize,
    pub dx: i64,
    pub dy: i64,
    pub symmetry: Symmetry,
}
// ANCHOR_END: problem

/// The most generations Knuth's time codes can name (`a`..`z`, `A`..`Z`, 32 punctuation marks).
pub const KNUTH_TIME_CODES: usize = 84;

/// The longest period (or number of predecessor steps) Knuth's names allow.
pub const MAX_KNUTH_STEPS: usize = 83;

/// The largest box side we accept (beyond this the CNF would not fit in memory anyway).
pub const MAX_SIDE: usize = 4096;

impl Problem {
    pub fn still_life(width: usize, height: usize) -> Problem {
        Problem::Cycle(Cycle { width, height, period: 1, dx: 0, dy: 0, symmetry: Symmetry::None })
    }
    pub fn oscillator(width: usize, height: usize, period: usize) -> Problem {
        Problem::Cycle(Cycle { width, height, period, dx: 0, dy: 0, symmetry: Symmetry::None })
    }
    pub fn orphan(target: SpecGrid, boundary: Boundary) -> Problem {
        Problem::Predecessor { target, generations: 1, boundary }
    }

    /// The cycle a still-life, oscillator or spaceship search asks for; a
    /// predecessor search is refused here, once for every engine.
    pub fn cycle(&self) -> Result<Cycle> {
        match self {
            Problem::Cycle(c) => Ok(*c),
            Problem::Predecessor { .. } => Err(Error::invalid(
                "this engine searches still lifes, oscillators and spaceships, not predecessors",
            )),
        }
    }

    /// Refuse descriptions that cannot be encoded, with a one-line reason.
    pub fn validate(&self, encoding: Encoding, rule: Rule) -> Result<()> {
        let (w, h, steps) = match self {
            Problem::Predecessor { target, generations, .. } => {
                if *generations == 0 {
                    return Err(Error::invalid("a predecessor search needs at least one generation"));
                }
                (target.width(), target.height(), *generations)
            }
            Problem::Cycle(Cycle { width, height, period, dx, dy, symmetry }) => {
                if *period == 0 {
                    return Err(Error::invalid("the period must be at least 1"));
                }
                if symmetry.needs_square() && width != height {
                    return Err(Error::invalid(format!(
                        "symmetry {symmetry:?} needs a square box, not {width}x{height}"
                    )));
                }
                if *width > 0
                    && *height > 0
                    && (dx.unsigned_abs() as usize >= *width || dy.unsigned_abs() as usize >= *height)
                {
                    return Err(Error::invalid(format!(
                        "a displacement of ({dx}, {dy}) cannot happen inside a {width}x{height} box"
                    )));
                }
                if rule == Rule::CONWAY && 2 * dx.unsigned_abs().max(dy.unsigned_abs()) as usize > *period {
                    return Err(Error::invalid(format!(
                        "a move of ({dx}, {dy}) in {period} generations is faster than c/2, \
                         which no Life pattern can reach"
                    )));
                }
                (*width, *height, *period)
            }
        };
        if w == 0 || h == 0 {
            return Err(Error::invalid(format!("the box {w}x{h} is empty: both sides must be at least 1")));
        }
        if w > MAX_SIDE || h > MAX_SIDE {
            return Err(Error::invalid(format!("the box {w}x{h} is too large (at most {MAX_SIDE} a side)")));
        }
        if encoding == Encoding::Knuth {
            if steps > MAX_KNUTH_STEPS {
                return Err(Error::invalid(format!(
                    "Knuth's names have {KNUTH_TIME_CODES} time codes, so at most {MAX_KNUTH_STEPS} \
                     generations; this search needs {steps} (use --encoding window)"
                )));
            }
            if rule != Rule::CONWAY {
                return Err(Error::invalid("the knuth encoding only knows Conway's rule B3/S23"));
            }
        }
        Ok(())
    }
}
