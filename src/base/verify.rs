//! Check answers by evolving them with the reference engine
//! ([`crate::life::naive::step`]), independently of any encoding. Every
//! solver's answer leaves the library through [`checked_parent`] or
//! [`checked_cycle`].
//!
//! Book: Part II, chapter 6, section 6.1 (`book/src/thesis/ch6.md`).

use crate::base::Symmetry;
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
    if parent.width() != target.width() + 2 * m || parent.height() != target.height() + 2 * m {
        return false;
    }
    let last = run(parent, rule, m, 0).pop().expect("nonempty");
    target.matches(&last.crop(m, m, target.width(), target.height()))
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
    // A frame of one cell, and of the move: while generation t stays in the
    // box, generation t+1 lives within one cell of it, so the frame computes
    // it exactly; the first generation that leaves is reported before any
    // later one is read; and generation 0 moved by (dx, dy) still fits the
    // frame for the comparisons. A wider frame would change no verdict.
    let m = 1.max(dx.unsigned_abs().max(dy.unsigned_abs()) as usize);
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
    let mut g = Grid::new(target.width(), target.height());
    for y in 0..target.height() {
        for x in 0..target.width() {
            g.set(x, y, target.get(x, y) == Cell::Alive);
        }
    }
    g
}

// ANCHOR: checked
/// Every answer a solver returns passes through here before it leaves the
/// library: a parent window is run forward `generations` steps by the naive
/// engine (which shares no code with any encoding or with GRIDWALKER's
/// slices) and must show every known cell of `target`. A wrong one is an
/// error naming the solver, never an answer.
pub fn checked_parent(
    mut parent: Grid,
    target: &SpecGrid,
    generations: usize,
    rule: Rule,
    solver: &str,
) -> crate::Result<Grid> {
    spoil_if_tampering(&mut parent, |g| is_predecessor(g, target, generations, rule));
    if !is_predecessor(&parent, target, generations, rule) {
        return Err(crate::Error::invalid(format!(
            "{solver}: its {}x{} parent does not evolve into the {}x{} target in {generations} \
             generation(s) under {rule} (a bug; the answer was withheld)",
            parent.width(),
            parent.height(),
            target.width(),
            target.height()
        )));
    }
    Ok(parent)
}

/// The same for a still life, oscillator or spaceship: the pattern must be
/// non-empty, stay in its box, come back moved by (dx, dy) after exactly
/// `period` generations, and have the symmetry asked for.
pub fn checked_cycle(
    mut g: Grid,
    period: usize,
    (dx, dy): (i64, i64),
    symmetry: Symmetry,
    rule: Rule,
    solver: &str,
) -> crate::Result<Grid> {
    let ok = |g: &Grid| check_cycle(g, period, dx, dy, rule).is_ok() && has_symmetry(g, symmetry);
    spoil_if_tampering(&mut g, ok);
    if let Err(why) = check_cycle(&g, period, dx, dy, rule) {
        return Err(crate::Error::invalid(format!(
            "{solver}: its answer is no period-{period} cycle moving by ({dx}, {dy}): {why} \
             (a bug; the answer was withheld)"
        )));
    }
    if !has_symmetry(&g, symmetry) {
        return Err(crate::Error::invalid(format!(
            "{solver}: its answer lacks the {symmetry:?} symmetry asked for (a bug; the answer was withheld)"
        )));
    }
    Ok(g)
}
// ANCHOR_END: checked

/// Does `g` equal its images under `symmetry`?
pub fn has_symmetry(g: &Grid, symmetry: Symmetry) -> bool {
    let (w, h) = (g.width(), g.height());
    if symmetry.needs_square() && w != h {
        return false;
    }
    (0..h)
        .all(|y| (0..w).all(|x| symmetry.images(w, h, x, y).iter().all(|&(u, v)| g.get(u, v) == g.get(x, y))))
}

#[cfg(any(test, feature = "test-hooks"))]
thread_local! {
    static TAMPER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Test hook (feature `test-hooks`): inside `f`, on this thread, every answer
/// is spoiled just before its check (one cell flipped so that it is wrong), so
/// a test can see each solver's front end refuse a wrong answer. Batch drivers
/// carry the setting to their worker threads.
#[cfg(any(test, feature = "test-hooks"))]
pub fn with_spoiled_answers<T>(f: impl FnOnce() -> T) -> T {
    super::hook::with_flag(&TAMPER, f)
}

/// Is the test hook on for this thread? (Always false without `test-hooks`.)
pub(crate) fn tampering() -> bool {
    #[cfg(any(test, feature = "test-hooks"))]
    return super::hook::is_on(&TAMPER);
    #[cfg(not(any(test, feature = "test-hooks")))]
    false
}

/// Run `f` with the test hook set as given (for worker threads).
pub(crate) fn with_tampering<T>(on: bool, f: impl FnOnce() -> T) -> T {
    #[cfg(any(test, feature = "test-hooks"))]
    if on {
        return with_spoiled_answers(f);
    }
    let _ = on;
    f()
}

/// With the test hook on, flip the first cell (row-major) whose flip makes
/// `still_good` false, so the answer is certainly wrong.
pub(crate) fn spoil_if_tampering(g: &mut Grid, still_good: impl Fn(&Grid) -> bool) {
    if !tampering() {
        return;
    }
    for y in 0..g.height() {
        for x in 0..g.width() {
            let v = g.get(x, y);
            g.set(x, y, !v);
            if !still_good(g) {
                return;
            }
            g.set(x, y, v);
        }
    }
}
