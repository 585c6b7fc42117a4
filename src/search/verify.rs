//! Check answers by evolving them with the reference engine
//! ([`crate::life::naive::step`]), independently of any encoding.
//!
//! Book: Part II, chapter 6, section 6.1 (`book/src/thesis/ch6.md`).

use crate::life::naive::step;
use crate::life::{Cell, Grid, Rule, SpecGrid, Topology};

/// `generations` steps of `g` in an otherwise dead plane, on a grid widened by `margin`.
fn run(g: &Grid, rule: Rule, generations: usize, margin: usize) -> Vec<Grid> {
    let mut out = vec![g.padded(margin)];
    for _ in 0..generations {
        let next = step(out.last().expect("nonempty"), rule, Topology::Bounded);
        out.push(next);
    }
    out
}

// ANCHOR: verify_predecessor
/// Does `parent` (the target's window widened by `generations` cells on each
/// side) evolve into every known cell of `target` after `generations` steps?
pub fn is_predecessor(parent: &Grid, target: &SpecGrid, generations: usize, rule: Rule) -> bool {
    let m = generations;
    if parent.width() != target.width + 2 * m || parent.height() != target.height + 2 * m {
        return false;
    }
    let last = run(parent, rule, m, 0).pop().expect("nonempty");
    target.matches(&last.crop(m, m, target.width, target.height))
}
// ANCHOR_END: verify_predecessor

/// Is the pattern, shifted by (sx, sy) inside a frame of `margin`, equal to `g` (same frame)?
fn shifted_equal(g0: &Grid, g: &Grid, sx: isize, sy: isize) -> bool {
    (0..g.height() as isize).all(|y| {
        (0..g.width() as isize).all(|x| g.get(x as usize, y as usize) == g0.get_or_dead(x - sx, y - sy))
    })
}

// ANCHOR: verify_cycle
/// Is `g0` (a `W` x `H` box) a non-empty pattern that stays in its box, is
/// back at (dx, dy) after `period` steps, and at no earlier divisor of the
/// period (with the proportional move)? `Err` says what fails.
pub fn check_cycle(g0: &Grid, period: usize, dx: i64, dy: i64, rule: Rule) -> Result<(), String> {
    if g0.population() == 0 {
        return Err("the pattern is empty".into());
    }
    let m = period + 2;
    let gens = run(g0, rule, period, m);
    let (w, h) = (g0.width(), g0.height());
    for (t, g) in gens.iter().enumerate().take(period) {
        for (x, y) in g.live_cells() {
            if x < m || y < m || x >= m + w || y >= m + h {
                return Err(format!("generation {t} leaves the {w}x{h} box"));
            }
        }
    }
    if !shifted_equal(&gens[0], &gens[period], dx as isize, dy as isize) {
        return Err(format!("generation {period} is not generation 0 moved by ({dx}, {dy})"));
    }
    for d in 1..period {
        let p = period as i64;
        let d64 = d as i64;
        if period.is_multiple_of(d) && (dx * d64) % p == 0 && (dy * d64) % p == 0 {
            let (sx, sy) = ((dx * d64 / p) as isize, (dy * d64 / p) as isize);
            if shifted_equal(&gens[0], &gens[d], sx, sy) {
                return Err(format!("the period is {d}, not {period}"));
            }
        }
    }
    Ok(())
}
// ANCHOR_END: verify_cycle

/// The known cells of a target as a concrete grid guess (unknowns dead): handy for tests.
pub fn known_cells(target: &SpecGrid) -> Grid {
    let mut g = Grid::new(target.width, target.height);
    for y in 0..target.height {
        for x in 0..target.width {
            g.set(x, y, target.get(x, y) == Cell::Alive);
        }
    }
    g
}
