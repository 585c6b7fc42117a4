//! The depth-first search over the space-time box: decide the next unknown
//! cell in the search order (dead first), propagate, and on a conflict undo
//! the trail back to the latest decision not yet flipped and flip it.
//!
//! Book: Part II, chapter 6, "A space-time propagation engine" (`book/src/knuth/spacetime.md`).

use super::order::{self, SearchOrder};
use super::table::{ALIVE, DEAD, RuleTable, UNKNOWN};
use super::world::World;
use crate::cnf::Stop;
use crate::error::{Error, Result};
use crate::life::{Cell, Grid, Rule, SpecGrid};
use crate::search::encode::prime_factors;
use crate::search::problem::{Encoding, Problem, Symmetry};
use crate::search::verify::checked_cycle;
use std::time::Instant;

// ANCHOR: options
/// How to run a search.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub order: SearchOrder,
    /// At most this many live cells in generation 0.
    pub max_population: Option<usize>,
    /// Known cells of generation 0 (the box's size; `?` free).
    pub known: Option<SpecGrid>,
    /// Enumerate every answer (distinct generation 0) instead of stopping at the first.
    pub count: bool,
    /// Stop counting after this many.
    pub limit: Option<u64>,
}
// ANCHOR_END: options

/// The answers and counters of one search.
#[derive(Debug, Clone)]
pub struct SpacetimeAnswer {
    /// Generation 0 of every answer, each checked by simulation.
    pub solutions: Vec<Grid>,
    /// True when the search space was exhausted (so with no solutions: none exists).
    pub complete: bool,
    pub decisions: u64,
    pub conflicts: u64,
    pub millis: f64,
}

impl SpacetimeAnswer {
    pub fn stats(&self) -> Vec<(&'static str, u64)> {
        vec![("decisions", self.decisions), ("conflicts", self.conflicts)]
    }
}

/// One decision on the stack: the trail length before it, the cell, whether
/// the second value is being tried, and the search-order position.
#[derive(Clone, Copy)]
struct Frame {
    mark: usize,
    cell: u32,
    flipped: bool,
    pos: usize,
}

// ANCHOR: translation
/// Which translations of an answer the symmetry leaves free: a pattern that
/// no generation puts on row 0 can move up a row and stay an answer, unless a
/// symmetry pins it vertically (and likewise for columns).
fn translation_free(s: Symmetry) -> (bool, bool) {
    match s {
        Symmetry::None => (true, true),
        Symmetry::MirrorLr => (true, false),
        Symmetry::MirrorUd => (false, true),
        _ => (false, false),
    }
}
// ANCHOR_END: translation

/// Lay out the world of a cycle problem: cells, fixed cells, symmetry, the
/// exact-period and non-empty groups, and (when finding, not counting) the
/// first row and column touched by some generation.
fn build(problem: &Problem, rule: Rule, opts: &Options) -> Result<(World, Vec<(u32, u8)>)> {
    let Problem::Cycle { width: w, height: h, period: p, dx, dy, symmetry } = *problem else {
        return Err(Error::invalid("the space-time engine searches still lifes, oscillators and spaceships"));
    };
    problem.validate(Encoding::Window, rule)?;
    let table = RuleTable::new(rule)?;
    let mut world = World::new(w, h, p, (dx, dy), table);
    world.max_population = opts.max_population.unwrap_or(usize::MAX);
    let at = |x: usize, y: usize, t: usize| (t * (w + 4) * (h + 4) + (y + 2) * (w + 4) + x + 2) as u32;
    debug_assert_eq!(at(0, 0, 0) as usize, world.at(0, 0, 0));
    let dead = world.dead_cell();
    let mut fixed: Vec<(u32, u8)> = world.fixed_dead((dx, dy)).into_iter().map(|c| (c, DEAD)).collect();
    if let Some(k) = &opts.known {
        if (k.width(), k.height()) != (w, h) {
            return Err(Error::invalid(format!(
                "the known cells are {}x{}, the box is {w}x{h}",
                k.width(),
                k.height()
            )));
        }
        for y in 0..h {
            for x in 0..w {
                match k.get(x, y) {
                    Cell::Alive => fixed.push((at(x, y, 0), ALIVE)),
                    Cell::Dead => fixed.push((at(x, y, 0), DEAD)),
                    Cell::Unknown => {}
                }
            }
        }
    }
    // Symmetry by identification: on every generation of an oscillator, on
    // generation 0 of a spaceship (as the SAT encodings do).
    let sym_layers = if dx == 0 && dy == 0 { p } else { 1 };
    for t in 0..sym_layers {
        for y in 0..h {
            for x in 0..w {
                for (u, v) in symmetry.images(w, h, x, y) {
                    world.identify(at(x, y, t), at(u, v, t));
                }
            }
        }
    }
    // Not all dead.
    let gen0: Vec<(u32, u32)> =
        (0..h).flat_map(|y| (0..w).map(move |x| (y, x))).map(|(y, x)| (at(x, y, 0), dead)).collect();
    world.add_group(&gen0);
    // ANCHOR: exact_period
    // Exact period: for each prime q of the period, generation p/q differs
    // somewhere from generation 0 moved by (dx/q, dy/q).
    for q in prime_factors(p) {
        let q = q as i64;
        if dx % q != 0 || dy % q != 0 {
            continue;
        }
        let (sx, sy, d) = (dx / q, dy / q, p / q as usize);
        let cell = |x: i64, y: i64, t: usize| {
            if x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h {
                at(x as usize, y as usize, t)
            } else {
                dead
            }
        };
        let mut pairs = Vec::new();
        for y in sy.min(0)..h as i64 + sy.max(0) {
            for x in sx.min(0)..w as i64 + sx.max(0) {
                let (a, b) = (cell(x, y, d), cell(x - sx, y - sy, 0));
                if a != dead || b != dead {
                    pairs.push((a, b));
                }
            }
        }
        world.add_group(&pairs);
    }
    // ANCHOR_END: exact_period
    // ANCHOR: front
    // Translation: when finding one answer with nothing pinned, some
    // generation touches row 0 and some touches column 0. An oscillator may
    // also start at any phase and be mirrored left-right (or top-bottom), so
    // the front, the first line of the sweep, is non-empty at generation 0
    // in its first half: the search learns at once when a front fails.
    if !opts.count && opts.known.is_none() && (dx != 0 || dy != 0) {
        ship_front(&mut world, (w, h, p), (dx, dy), symmetry, at);
    } else if !opts.count && opts.known.is_none() {
        let (rows, cols) = translation_free(symmetry);
        let swept = order::resolve(opts.order, w, h, dx, dy);
        let still = dx == 0 && dy == 0;
        let cell_row = |x: usize, t: usize| (at(x, 0, t), dead);
        let cell_col = |y: usize, t: usize| (at(0, y, t), dead);
        if rows {
            let front = still && swept == SearchOrder::Row;
            let top: Vec<_> = if front {
                (0..=w / 2).map(|x| cell_row(x, 0)).collect()
            } else {
                (0..p).flat_map(|t| (0..w).map(move |x| (x, t))).map(|(x, t)| cell_row(x, t)).collect()
            };
            world.add_group(&top);
        }
        if cols {
            let front = still && swept == SearchOrder::Column;
            let left: Vec<_> = if front {
                (0..=h / 2).map(|y| cell_col(y, 0)).collect()
            } else {
                (0..p).flat_map(|t| (0..h).map(move |y| (y, t))).map(|(y, t)| cell_col(y, t)).collect()
            };
            world.add_group(&left);
        }
    }
    // ANCHOR_END: front
    Ok((world, fixed))
}

// ANCHOR: ship_front
/// The front of a spaceship search. Cells nearer the leading edge than
/// |d| - 1 lines are dead at generation 0 (their predecessors would lie
/// beyond the ring); if line |d| - 1 (and, moving diagonally, the column
/// |dx| - 1 as well) is empty too, generation 0 moved by (dx, dy) still
/// fits the box, so generations 1..=P are an answer as well: advancing the
/// phase until the front is non-empty always ends, since the pattern cannot
/// move forever in a box. So some answer has a live front at generation 0,
/// and the search decides the front first. Across an orthogonal motion the
/// translation stays free (some generation touches the first line) and,
/// with no symmetry, the mirror image across the motion is an answer too,
/// so half the front suffices (mirror, then move back to the first line:
/// the front cell only moves nearer to it).
fn ship_front(
    world: &mut World,
    (w, h, p): (usize, usize, usize),
    (dx, dy): (i64, i64),
    symmetry: Symmetry,
    at: impl Fn(usize, usize, usize) -> u32,
) {
    let dead = world.dead_cell();
    let (ax, ay) = (dx.unsigned_abs() as usize, dy.unsigned_abs() as usize);
    let free = symmetry == Symmetry::None;
    let mut front = Vec::new();
    if ay > 0 && ay <= h {
        let yf = if dy > 0 { h - ay } else { ay - 1 };
        let xs = if dx == 0 && free { w / 2 + 1 } else { w };
        front.extend((0..xs).map(|x| (at(x, yf, 0), dead)));
    }
    if ax > 0 && ax <= w {
        let xf = if dx > 0 { w - ax } else { ax - 1 };
        let ys = if dy == 0 && free { h / 2 + 1 } else { h };
        front.extend((0..ys).map(|y| (at(xf, y, 0), dead)));
    }
    world.add_group(&front);
    let (rows, cols) = translation_free(symmetry);
    if dx == 0 && cols {
        let left: Vec<_> =
            (0..p).flat_map(|t| (0..h).map(move |y| (y, t))).map(|(y, t)| (at(0, y, t), dead)).collect();
        world.add_group(&left);
    }
    if dy == 0 && rows {
        let top: Vec<_> =
            (0..p).flat_map(|t| (0..w).map(move |x| (x, t))).map(|(x, t)| (at(x, 0, t), dead)).collect();
        world.add_group(&top);
    }
}
// ANCHOR_END: ship_front

// ANCHOR: search
/// Search `problem` (a [`Problem::Cycle`]) under `rule`. Every answer is
/// checked by simulation before it is returned. With `stop`, the search
/// polls it every few hundred decisions and returns [`Error::Interrupted`].
pub fn search(problem: &Problem, rule: Rule, opts: &Options, stop: Option<&Stop>) -> Result<SpacetimeAnswer> {
    let start = Instant::now();
    let Problem::Cycle { width: w, height: h, period: p, dx, dy, symmetry } = *problem else {
        return Err(Error::invalid("the space-time engine searches still lifes, oscillators and spaceships"));
    };
    let (mut world, fixed) = build(problem, rule, opts)?;
    let order: Vec<u32> = order::cells(opts.order, w, h, dx, dy)
        .into_iter()
        .flat_map(|(x, y)| (0..p).map(move |t| (x, y, t)))
        .map(|(x, y, t)| world.at(x as i64, y as i64, t) as u32)
        .collect();
    let mut solutions = Vec::new();
    let mut decisions = 0u64;
    let finish = |world: &World, solutions, complete, decisions| SpacetimeAnswer {
        solutions,
        complete,
        decisions,
        conflicts: world.conflicts,
        millis: start.elapsed().as_secs_f64() * 1e3,
    };
    let mut root_ok = !world.has_empty_group();
    for &(c, v) in &fixed {
        root_ok = root_ok
            && match world.state[c as usize] {
                UNKNOWN => world.set(c, v),
                s => s == v,
            };
    }
    if !(root_ok && world.check_all()) {
        return Ok(finish(&world, solutions, true, decisions));
    }
    let mut frames: Vec<Frame> = Vec::new();
    let mut pos = 0;
    loop {
        while pos < order.len() && world.state[order[pos] as usize] != UNKNOWN {
            pos += 1;
        }
        if pos < order.len() {
            decisions += 1;
            if decisions & 255 == 0 && stop.is_some_and(|s| s.poll()) {
                return Err(Error::Interrupted);
            }
            let cell = order[pos];
            frames.push(Frame { mark: world.trail.len(), cell, flipped: false, pos });
            if world.set(cell, DEAD) && world.propagate() {
                continue;
            }
        } else {
            // Every cell is known: generation 0 decides the rest, so this is one answer.
            let g = Grid::from_cells(
                w,
                h,
                (0..h)
                    .flat_map(|y| (0..w).map(move |x| (x, y)))
                    .map(|(x, y)| world.state[world.at(x as i64, y as i64, 0)] == ALIVE)
                    .collect(),
            );
            solutions.push(checked_cycle(g, p, (dx, dy), symmetry, rule, "spacetime")?);
            if !opts.count || opts.limit.is_some_and(|l| solutions.len() as u64 >= l) {
                let complete = false;
                return Ok(finish(&world, solutions, complete, decisions));
            }
        }
        // Backtrack to the latest decision with a value left to try.
        loop {
            let Some(f) = frames.pop() else {
                return Ok(finish(&world, solutions, true, decisions));
            };
            world.undo_to(f.mark);
            if !f.flipped {
                frames.push(Frame { flipped: true, ..f });
                pos = f.pos;
                if world.set(f.cell, ALIVE) && world.propagate() {
                    break;
                }
            }
        }
    }
}
// ANCHOR_END: search
