//! The depth-first search over the space-time box: decide the next unknown
//! cell in the search order ([`order::first_value`] first), propagate, and on a conflict undo
//! the trail back to the latest decision not yet flipped and flip it.
//!
//! Book: Part II, chapter 6, "A space-time propagation engine" (`book/src/knuth/spacetime.md`).

use super::order::{self, FirstValue, SearchOrder};
use super::table::{ALIVE, DEAD, RuleTable, UNKNOWN};
pub use super::world::Undo;
use super::world::World;
use crate::base::Counters;
use crate::cnf::Stop;
use crate::error::{Error, Result};
use crate::life::{Cell, Grid, Rule, SpecGrid};
use crate::search::layer::prime_factors;
use crate::search::placement::{Placement, live_groups};
use crate::search::problem::{Cycle, Encoding, Problem};
use crate::search::verify::checked_cycle;
use std::time::Instant;

// ANCHOR: options
/// How to run a search.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub order: SearchOrder,
    /// Which value a decision tries first.
    pub first: FirstValue,
    /// At most this many live cells in generation 0.
    pub max_population: Option<usize>,
    /// Known cells of generation 0 (the box's size; `?` free).
    pub known: Option<SpecGrid>,
    /// Enumerate every answer (distinct generation 0) instead of stopping at the first.
    pub count: bool,
    /// Stop counting after this many.
    pub limit: Option<u64>,
    /// Count each answer once up to translation in the box
    /// ([`Placement::UpToTranslation`]) instead of every placement.
    pub up_to_translation: bool,
    /// How a conflict is undone (the answers and the search tree are the same either way).
    pub undo: Undo,
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
    pub fn counters(&self) -> Counters {
        Counters { decisions: Some(self.decisions), conflicts: Some(self.conflicts), ..Default::default() }
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

/// Lay out the world of a cycle problem: cells, fixed cells, symmetry, the
/// exact-period and non-empty groups, and the groups of [`placement`].
fn build(problem: &Problem, rule: Rule, opts: &Options) -> Result<(World, Vec<(u32, u8)>)> {
    let Cycle { width: w, height: h, period: p, dx, dy, symmetry } = problem.cycle()?;
    problem.validate(Encoding::Window, rule)?;
    let table = RuleTable::cached(rule)?;
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
    // ANCHOR: symmetry_layers
    // Symmetry by identification, on every generation: the answer's
    // generation 0 is symmetric, and a Life-like rule commutes with every
    // symmetry of the square, so generations 1..P-1 are symmetric too (the
    // box maps onto itself). Only generation P, generation 0 moved, need not
    // be, and it is not a layer of the box. Saying so on every layer lets
    // propagation use it; a ship's search shrinks by orders of magnitude.
    for t in 0..p {
        for y in 0..h {
            for x in 0..w {
                for (u, v) in symmetry.images(w, h, x, y) {
                    world.identify(at(x, y, t), at(u, v, t));
                }
            }
        }
    }
    // ANCHOR_END: symmetry_layers
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
    // ANCHOR: placement_groups
    // Translation (and, finding one answer, the phase and a mirror image):
    // the same groups of cells the SAT encodings make clauses of.
    for group in live_groups(problem, placement(opts), opts.order) {
        let pairs: Vec<(u32, u32)> = group.into_iter().map(|(x, y, t)| (at(x, y, t), dead)).collect();
        world.add_group(&pairs);
    }
    // ANCHOR_END: placement_groups
    world.finish(opts.undo);
    Ok((world, fixed))
}

/// The placements a search with `opts` admits: with known cells (which
/// may pin the pattern anywhere) every one; counting, every one unless asked
/// to count up to translation; finding under a population cap, one per
/// translation (another phase may have more cells); else one answer's.
pub fn placement(opts: &Options) -> Placement {
    if opts.known.is_some() || (opts.count && !opts.up_to_translation) {
        Placement::Every
    } else if opts.count || opts.max_population.is_some() {
        Placement::UpToTranslation
    } else {
        Placement::OneAnswer
    }
}

// ANCHOR: probe
/// A stationary pattern's search that has not answered within its first
/// [`PROBE_AFTER`] decisions starts a probe: a second search of the same box
/// that tries the other value first (dead, the first search trying alive).
/// The two take turns: the probe's turn is [`PROBE_SLICE`] decisions, the
/// first search's [`PROBE_RATIO`] times that (a [`Schedule`] whose `after` is
/// shorter than its `longest` doubles the first search's turn up to it; the
/// default's are equal, so it runs its longest turn from the start). Which value
/// leads to an answer soon varies by orders of magnitude either way (a p3 in
/// 9x9 with a quarter turn takes 158 decisions alive first and 5,296 dead
/// first; a p3 in 7x7, 3 million alive first and 645 dead first), while a
/// proof of "none" visits the same tree either way. The two split a proof
/// of "none" between them: the probe walks the same tree from the other
/// end, and the search ends where their paths cross (`met`), so a proof
/// pays only the few nodes both decided and the rest of the turn in which
/// they met. A search that answers pays the probe's share: nothing within
/// the first [`PROBE_AFTER`] decisions, as most boxes need, and after that
/// 1/([`PROBE_RATIO`] + 1) of the decisions, and about as much of the time
/// (a dead-first decision costs what an alive-first one does). Alive
/// first, and the probe a seventeenth of the decisions, because rlifesrc
/// tries alive first: a box it answers soon is then soon here too, at most
/// a sixteenth slower than alive first alone, and a box where dead first
/// wins, slow for alive first and so as a rule for rlifesrc, can afford a
/// slower rescue (the book's "The search order" gives the measurements).
pub const PROBE_AFTER: u64 = 1024;
/// The probe's decisions in one turn.
pub const PROBE_SLICE: u64 = 64;
/// The first search's longest turn, in probe turns.
pub const PROBE_RATIO: u64 = 16;

/// When the probe starts and how the two searches share the time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    /// Decisions of the first search before the probe starts.
    pub after: u64,
    /// The probe's decisions in one turn.
    pub slice: u64,
    /// The first search's longest turn, in decisions.
    pub longest: u64,
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule { after: PROBE_AFTER, slice: PROBE_SLICE, longest: PROBE_SLICE * PROBE_RATIO }
    }
}

/// Search `problem` (a [`Problem::Cycle`]) under `rule`. Every answer is
/// checked by simulation before it is returned. With `stop`, the search
/// polls it every few hundred decisions and returns [`Error::Interrupted`].
pub fn search(problem: &Problem, rule: Rule, opts: &Options, stop: Option<&Stop>) -> Result<SpacetimeAnswer> {
    scheduled(problem, rule, opts, stop, Schedule::default())
}

fn scheduled(
    problem: &Problem,
    rule: Rule,
    opts: &Options,
    stop: Option<&Stop>,
    Schedule { after, slice, longest }: Schedule,
) -> Result<SpacetimeAnswer> {
    let start = Instant::now();
    let Cycle { dx, dy, .. } = problem.cycle()?;
    let first = order::first_value(opts.first);
    let mut main = Dfs::new(problem, rule, opts, first)?;
    let mut probe: Option<Dfs> = None;
    // Only finding one stationary pattern, with the first value left to `auto`.
    let probing = !opts.count && opts.first == FirstValue::Auto && (dx, dy) == (0, 0);
    let mut turn = after;
    let (end, by_probe) = loop {
        if let Some(end) = main.run(if probing { turn } else { u64::MAX }, stop)? {
            break (end, false);
        }
        if probe.as_ref().is_some_and(|p| met(&main, p)) {
            break (End::Exhausted, false);
        }
        turn = (2 * turn).min(longest);
        let p = match &mut probe {
            Some(p) => p,
            None => probe.insert(Dfs::new(problem, rule, opts, ALIVE + DEAD - first)?),
        };
        if let Some(end) = p.run(slice, stop)? {
            break (end, true);
        }
        if met(&main, p) {
            break (End::Exhausted, false);
        }
    };
    let both = [Some(&main), probe.as_ref()].into_iter().flatten();
    let (decisions, conflicts) = both.fold((0, 0), |(d, c), s| (d + s.decisions, c + s.world.conflicts));
    let solutions = if by_probe { probe.map(|p| p.solutions).unwrap_or_default() } else { main.solutions };
    let complete = end == End::Exhausted;
    Ok(SpacetimeAnswer {
        solutions,
        complete,
        decisions,
        conflicts,
        millis: start.elapsed().as_secs_f64() * 1e3,
    })
}

/// Have the first search and the probe between them visited the whole tree?
/// Both search the same tree (the same cell at the same depth after the same
/// values: the order is fixed and propagation is a function of the values),
/// the first in its order and the probe in the mirrored order. So the first
/// has visited every leaf before its path, the probe every leaf after its
/// own, and nothing is left once the paths cross: where they first differ,
/// each has already tried its first value and moved on to the other (there
/// the values differ exactly when both or neither moved on). Neither having
/// found an answer, there is none.
fn met(main: &Dfs, probe: &Dfs) -> bool {
    for (m, p) in main.frames.iter().zip(&probe.frames) {
        debug_assert_eq!(m.cell, p.cell, "the two searches share one tree");
        if m.flipped == p.flipped {
            return m.flipped;
        }
    }
    false
}
// ANCHOR_END: probe

/// [`search`] with another probe [`Schedule`]. Test hook (feature
/// `test-hooks`): tiny turns make the two searches meet at every depth.
#[cfg(any(test, feature = "test-hooks"))]
pub fn search_with_schedule(
    problem: &Problem,
    rule: Rule,
    opts: &Options,
    schedule: Schedule,
) -> Result<SpacetimeAnswer> {
    scheduled(problem, rule, opts, None, schedule)
}

/// How a [`Dfs::run`] ended, when it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// Found the one answer asked for, or the count's limit.
    Answered,
    /// The whole tree is visited.
    Exhausted,
}

/// One depth-first search over the box, which [`Dfs::run`] resumes for a
/// number of decisions at a time.
struct Dfs {
    world: World,
    /// The box's cells in the search order, every generation of a cell together.
    order: Vec<u32>,
    frames: Vec<Frame>,
    /// The search-order position of the next cell to look at.
    pos: usize,
    /// The value each decision tries first.
    first: u8,
    decisions: u64,
    solutions: Vec<Grid>,
    /// The root (fixed and known cells) propagates without a conflict.
    root_ok: bool,
    cycle: Cycle,
    rule: Rule,
    count: bool,
    limit: Option<u64>,
}

impl Dfs {
    fn new(problem: &Problem, rule: Rule, opts: &Options, first: u8) -> Result<Dfs> {
        let cycle @ Cycle { width: w, height: h, period: p, dx, dy, symmetry } = problem.cycle()?;
        let (mut world, fixed) = build(problem, rule, opts)?;
        let order: Vec<u32> = order::cells(opts.order, (w, h), (dx, dy), symmetry)
            .into_iter()
            .flat_map(|(x, y)| (0..p).map(move |t| (x, y, t)))
            .map(|(x, y, t)| world.at(x as i64, y as i64, t) as u32)
            .collect();
        let mut root_ok = !world.has_empty_group();
        for &(c, v) in &fixed {
            root_ok = root_ok
                && match world.state[c as usize] {
                    UNKNOWN => world.set(c, v),
                    s => s == v,
                };
        }
        root_ok = root_ok && world.check_all();
        Ok(Dfs {
            world,
            order,
            frames: Vec::new(),
            pos: 0,
            first,
            decisions: 0,
            solutions: Vec::new(),
            root_ok,
            cycle,
            rule,
            count: opts.count,
            limit: opts.limit,
        })
    }

    // ANCHOR: search
    /// Go on searching for at most `budget` more decisions: `None` when the
    /// budget ran out first (call again to resume).
    fn run(&mut self, budget: u64, stop: Option<&Stop>) -> Result<Option<End>> {
        if !self.root_ok {
            return Ok(Some(End::Exhausted));
        }
        let Cycle { width: w, height: h, period: p, dx, dy, symmetry } = self.cycle;
        let (world, order) = (&mut self.world, &self.order);
        let until = self.decisions.saturating_add(budget);
        loop {
            while self.pos < order.len() && world.state[order[self.pos] as usize] != UNKNOWN {
                self.pos += 1;
            }
            if self.pos < order.len() {
                if self.decisions >= until {
                    return Ok(None);
                }
                self.decisions += 1;
                if self.decisions & 255 == 0 && stop.is_some_and(|s| s.poll()) {
                    return Err(Error::Interrupted);
                }
                let cell = order[self.pos];
                self.frames.push(Frame { mark: world.mark(), cell, flipped: false, pos: self.pos });
                if world.set(cell, self.first) && world.propagate() {
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
                self.solutions.push(checked_cycle(g, p, (dx, dy), symmetry, self.rule, "spacetime")?);
                if !self.count || self.limit.is_some_and(|l| self.solutions.len() as u64 >= l) {
                    return Ok(Some(End::Answered));
                }
            }
            // Backtrack to the latest decision with a value left to try.
            loop {
                let Some(f) = self.frames.pop() else {
                    return Ok(Some(End::Exhausted));
                };
                world.undo_to(f.mark);
                if !f.flipped {
                    self.frames.push(Frame { flipped: true, ..f });
                    self.pos = f.pos;
                    if world.set(f.cell, ALIVE + DEAD - self.first) && world.propagate() {
                        break;
                    }
                }
            }
        }
    }
    // ANCHOR_END: search
}
