//! Between generations (thesis Listings 5.1, 5.3, 5.4 and Table 5.3): a stack
//! of grids, one per generation, whose slices are tied together through
//! *cores*, the states of single cells. A slice's constellations decide its
//! own cell's next state (slice -> future core) and each of its nine pixels is
//! a cell of the generation before (core -> past slices). Linear stacks find
//! predecessors t generations back; circular ones find oscillators, and with a
//! translation where the circle closes, spaceships.
//!
//! This engine is written for clarity, not speed: every propagation round
//! confronts all neighbour pairs and visits every core. Each answer is checked
//! by evolving it.
//!
//! Book: Part II, chapter 5, section 5.2 (`book/src/thesis/ch5.md`).

use super::convention::{Layout, ThesisCode};
use super::slice::Slice;
use super::sliver::{Contradiction, confront_ew, confront_ns};
use crate::base::verify::{checked_cycle, checked_parent};
use crate::base::{Counters, Symmetry};
use crate::life::{Cell, Grid, Rule, SpecGrid, Topology, naive};
use crate::stop::Stop;
use std::collections::HashMap;

type L = ThesisCode;

/// A cell at generation `g`, in the stack's coordinates.
type Pos = (usize, i64, i64);

#[derive(Debug, Clone, Default)]
struct Core {
    /// The slice whose future this cell is, if it has one.
    own: Option<usize>,
    /// The slices that see this cell as a pixel, and which pixel.
    cover: Vec<(usize, usize)>,
    pos: (usize, i64, i64),
}

// ANCHOR: stack
/// Grids of slices for several generations, tied by cores.
struct Stack {
    slices: Vec<Slice>,
    /// Which states each core still allows: bit 0 dead, bit 1 alive.
    allowed: Vec<u8>,
    cores: Vec<Core>,
    ew: Vec<(usize, usize)>,
    ns: Vec<(usize, usize)>,
    live: Slice,
    dead: Slice,
    pixel_on: [Slice; 9],
    /// Neighbouring slices whose two future cells are both pixels of some
    /// later slices (Listing 5.3).
    pairs: Vec<Pair>,
    nodes: u64,
    /// Raised by another thread (a portfolio's faster engine): give up.
    stop: Option<Stop>,
}
// ANCHOR_END: stack

/// Two orthogonal neighbours `a` (west or north) and `b` in one generation,
/// and the slices of the next generation that see both their cells, with the
/// pixels at which they do.
#[derive(Debug, Clone)]
struct Pair {
    a: usize,
    b: usize,
    ew: bool,
    covers: Vec<(usize, usize, usize)>,
}

/// Listing 5.3's threshold: a pair's future cores are computed when the product
/// of its two slices' counts is below this.
const FUTURE_CORE_PRODUCT: u32 = 16;

/// How a stack is laid out: which slices exist and what their cells must become,
/// and which cell a pixel refers to.
trait Shape {
    /// Generations that carry slices, and each one's rectangle (x0, y0, w, h).
    fn slice_regions(&self) -> Vec<(usize, (i64, i64, usize, usize))>;
    /// The future this slice's cell must have (live, dead or free).
    fn future(&self, p: Pos) -> Cell;
    /// The canonical cell a position stands for, or `None` if it is forced dead.
    fn canon(&self, p: Pos) -> Option<Pos>;
}

impl Stack {
    fn build(shape: &impl Shape, rule: Rule) -> Stack {
        let (dead, live) = Slice::for_rule(rule);
        let pixel_on = std::array::from_fn(Slice::pixel_on);
        let mut st = Stack {
            slices: Vec::new(),
            allowed: Vec::new(),
            cores: Vec::new(),
            ew: Vec::new(),
            ns: Vec::new(),
            live,
            dead,
            pixel_on,
            pairs: Vec::new(),
            nodes: 0,
            stop: None,
        };
        let mut own_core: Vec<Option<usize>> = Vec::new();
        let mut core_of: HashMap<Pos, usize> = HashMap::new();
        let mut slice_at: HashMap<Pos, usize> = HashMap::new();
        let mut core = |st: &mut Stack, p: Pos| -> usize {
            *core_of.entry(p).or_insert_with(|| {
                st.cores.push(Core { pos: p, ..Core::default() });
                st.allowed.push(3);
                st.cores.len() - 1
            })
        };
        for (g, (x0, y0, w, h)) in shape.slice_regions() {
            for y in y0..y0 + h as i64 {
                for x in x0..x0 + w as i64 {
                    let s = st.slices.len();
                    st.slices.push(match shape.future((g, x, y)) {
                        Cell::Alive => live,
                        Cell::Dead => dead,
                        Cell::Unknown => Slice::FULL,
                    });
                    slice_at.insert((g, x, y), s);
                    own_core.push(shape.canon((g, x, y)).map(|p| core(&mut st, p)));
                    if let Some(c) = own_core[s] {
                        st.cores[c].own = Some(s);
                    } else {
                        st.slices[s] = st.slices[s].and(&dead);
                    }
                    for r in 0..3 {
                        for col in 0..3 {
                            let pixel = L::CONVENTION.pixel(r, col);
                            match shape.canon((g - 1, x + col as i64 - 1, y + r as i64 - 1)) {
                                Some(p) => {
                                    let c = core(&mut st, p);
                                    st.cores[c].cover.push((s, pixel));
                                }
                                None => st.slices[s] = st.slices[s].and(&pixel_on[pixel].not()),
                            }
                        }
                    }
                }
            }
        }
        for (&(g, x, y), &s) in &slice_at {
            if let Some(&e) = slice_at.get(&(g, x + 1, y)) {
                st.ew.push((s, e));
            }
            if let Some(&so) = slice_at.get(&(g, x, y + 1)) {
                st.ns.push((s, so));
            }
        }
        st.ew.sort_unstable();
        st.ns.sort_unstable();
        let neighbours = st.ew.iter().map(|&p| (p, true)).chain(st.ns.iter().map(|&p| (p, false)));
        for ((a, b), ew) in neighbours.collect::<Vec<_>>() {
            let (Some(ca), Some(cb)) = (own_core[a], own_core[b]) else { continue };
            let covers: Vec<(usize, usize, usize)> = st.cores[ca]
                .cover
                .iter()
                .flat_map(|&(t, pa)| {
                    st.cores[cb].cover.iter().filter(move |&&(u, _)| u == t).map(move |&(_, pb)| (t, pa, pb))
                })
                .collect();
            if !covers.is_empty() {
                st.pairs.push(Pair { a, b, ew, covers });
            }
        }
        st
    }

    // ANCHOR: propagate
    /// Confront neighbours within each generation and push core states both
    /// ways until nothing changes.
    fn propagate(&mut self) -> Result<(), Contradiction> {
        loop {
            let mut changed = false;
            for k in 0..self.ew.len() {
                let (a, b) = self.ew[k];
                let (mut x, mut y) = (self.slices[a], self.slices[b]);
                let ch = confront_ew::<L>(&mut x, &mut y)?;
                (self.slices[a], self.slices[b]) = (x, y);
                changed |= ch.first | ch.second;
            }
            for k in 0..self.ns.len() {
                let (a, b) = self.ns[k];
                let (mut x, mut y) = (self.slices[a], self.slices[b]);
                let ch = confront_ns(&mut x, &mut y)?;
                (self.slices[a], self.slices[b]) = (x, y);
                changed |= ch.first | ch.second;
            }
            for c in 0..self.cores.len() {
                changed |= self.settle_core(c)?;
            }
            for k in 0..self.pairs.len() {
                changed |= self.future_cores(k)?;
            }
            if !changed {
                return Ok(());
            }
        }
    }

    // ANCHOR: future_cores
    /// Listing 5.3: when two neighbours allow few constellations between them,
    /// list the pairs of futures their compatible constellations give. The
    /// cells' one-by-one states are already known to the cores; what a pair
    /// adds is a joint constraint (say "not both alive"), cut from every later
    /// slice that sees both cells.
    fn future_cores(&mut self, k: usize) -> Result<bool, Contradiction> {
        let Pair { a, b, ew, .. } = self.pairs[k];
        let (sa, sb) = (self.slices[a], self.slices[b]);
        let (na, nb) = (sa.count(), sb.count());
        // With a unit on either side the joint futures are the product of the
        // single ones (the slivers have already matched the two up).
        if na < 2 || nb < 2 || na * nb >= FUTURE_CORE_PRODUCT {
            return Ok(false);
        }
        // The overlap of the two 3x3 squares: columns 1-2 of a on columns 0-1
        // of b (or rows, north over south).
        let at = |c: u16, r: usize, col: usize| {
            let (r, col) = if ew { (r, col) } else { (col, r) };
            c >> L::CONVENTION.pixel(r, col) & 1
        };
        let overlap = |c: u16, shift: usize| {
            (0..3).fold(0, |acc, r| acc << 2 | at(c, r, shift) << 1 | at(c, r, shift + 1))
        };
        // Bit 2 x + y: the futures (x of a's cell, y of b's) some pair gives.
        let mut futures = 0u8;
        for i in sa.iter() {
            let (key, x) = (overlap(i, 1), self.live.contains(i) as u8);
            for j in sb.iter().filter(|&j| overlap(j, 0) == key) {
                futures |= 1 << (2 * x + self.live.contains(j) as u8);
            }
        }
        if futures == 0b1111 {
            return Ok(false);
        }
        let mut changed = false;
        for ci in 0..self.pairs[k].covers.len() {
            let (t, pa, pb) = self.pairs[k].covers[ci];
            let side = |p: usize, on: bool| if on { self.pixel_on[p] } else { self.pixel_on[p].not() };
            let keep = (0..4)
                .filter(|f| futures >> f & 1 == 1)
                .fold(Slice::EMPTY, |m, f| m.or(&side(pa, f >= 2).and(&side(pb, f & 1 == 1))));
            let n = self.slices[t].and(&keep);
            if n.is_empty() {
                return Err(Contradiction);
            }
            changed |= n != self.slices[t];
            self.slices[t] = n;
        }
        Ok(changed)
    }
    // ANCHOR_END: future_cores

    /// Slice -> core (its outcomes), pixels -> core, then core -> slices.
    fn settle_core(&mut self, c: usize) -> Result<bool, Contradiction> {
        let mut allowed = self.allowed[c];
        if let Some(o) = self.cores[c].own {
            let s = &self.slices[o];
            allowed &= (!s.and(&self.dead).is_empty() as u8) | (!s.and(&self.live).is_empty() as u8) << 1;
        }
        for &(s, p) in &self.cores[c].cover {
            let on = self.slices[s].and(&self.pixel_on[p]).count();
            let can_live = on > 0;
            let can_die = self.slices[s].count() > on;
            allowed &= (can_die as u8) | (can_live as u8) << 1;
        }
        if allowed == 0 {
            return Err(Contradiction);
        }
        let mut changed = allowed != self.allowed[c];
        self.allowed[c] = allowed;
        if allowed != 3 {
            let alive = allowed == 2;
            let mut cut = |s: usize, mask: Slice| -> Result<(), Contradiction> {
                let n = self.slices[s].and(&mask);
                if n.is_empty() {
                    return Err(Contradiction);
                }
                changed |= n != self.slices[s];
                self.slices[s] = n;
                Ok(())
            };
            if let Some(o) = self.cores[c].own {
                cut(o, if alive { self.live } else { self.dead })?;
            }
            for k in 0..self.cores[c].cover.len() {
                let (s, p) = self.cores[c].cover[k];
                let m = if alive { self.pixel_on[p] } else { self.pixel_on[p].not() };
                cut(s, m)?;
            }
        }
        Ok(changed)
    }
    // ANCHOR_END: propagate

    /// The state of every core, once all slices are units.
    fn states(&self) -> HashMap<Pos, bool> {
        self.cores.iter().zip(&self.allowed).map(|(c, &a)| (c.pos, a == 2)).collect()
    }

    // ANCHOR: stack_search
    /// Force the smallest undecided slice to each constellation in turn;
    /// `accept` checks a complete assignment.
    fn search(&mut self, accept: &mut impl FnMut(&HashMap<Pos, bool>) -> bool) -> bool {
        self.nodes += 1;
        if self.stop.as_ref().is_some_and(Stop::poll) || self.propagate().is_err() {
            return false;
        }
        let pivot = (0..self.slices.len())
            .filter(|&s| self.slices[s].count() > 1)
            .min_by_key(|&s| self.slices[s].count());
        let Some(pivot) = pivot else {
            // Every slice is a unit; cores with no slice on either side are free: take them dead.
            let undecided: Vec<usize> = (0..self.cores.len()).filter(|&c| self.allowed[c] == 3).collect();
            for c in undecided {
                self.allowed[c] = 1;
            }
            return accept(&self.states());
        };
        let saved = (self.slices.clone(), self.allowed.clone());
        for c in saved.0[pivot].iter() {
            self.slices[pivot] = Slice::unit(c);
            if self.search(accept) {
                return true;
            }
            (self.slices, self.allowed) = (saved.0.clone(), saved.1.clone());
        }
        false
    }
    // ANCHOR_END: stack_search
}

/// Predecessor t generations back: generation t is the target, generation k
/// covers the target's rectangle grown by t - k cells on every side.
struct Linear<'a> {
    target: &'a SpecGrid,
    t: usize,
}

impl Shape for Linear<'_> {
    fn slice_regions(&self) -> Vec<(usize, (i64, i64, usize, usize))> {
        (1..=self.t)
            .map(|g| {
                let m = (self.t - g) as i64;
                (g, (-m, -m, self.target.width() + 2 * m as usize, self.target.height() + 2 * m as usize))
            })
            .collect()
    }
    fn future(&self, (g, x, y): Pos) -> Cell {
        if g == self.t { self.target.get(x as usize, y as usize) } else { Cell::Unknown }
    }
    fn canon(&self, p: Pos) -> Option<Pos> {
        Some(p)
    }
}

/// Oscillators and spaceships: generation 0 lives in the box; after `period`
/// generations it returns moved by `shift`; in between it stays inside the
/// rectangle covering both boxes, or, `caged` (as the SAT encodings ask),
/// inside the box itself.
struct Circular {
    w: usize,
    h: usize,
    period: usize,
    shift: (i64, i64),
    caged: bool,
}

impl Circular {
    /// The rectangle generation `g` may live in.
    fn room(&self, g: usize) -> (i64, i64, i64, i64) {
        let (dx, dy) = self.shift;
        if g == 0 || (self.caged && g < self.period) {
            (0, 0, self.w as i64, self.h as i64)
        } else {
            (dx.min(0), dy.min(0), self.w as i64 + dx.max(0), self.h as i64 + dy.max(0))
        }
    }
}

impl Shape for Circular {
    fn slice_regions(&self) -> Vec<(usize, (i64, i64, usize, usize))> {
        (1..=self.period)
            .map(|g| {
                let (x0, y0, x1, y1) = self.room(g);
                (g, (x0 - 1, y0 - 1, (x1 - x0 + 2) as usize, (y1 - y0 + 2) as usize))
            })
            .collect()
    }
    fn future(&self, p: Pos) -> Cell {
        if self.canon(p).is_some() { Cell::Unknown } else { Cell::Dead }
    }
    fn canon(&self, (g, x, y): Pos) -> Option<Pos> {
        if g == self.period {
            return self.canon((0, x - self.shift.0, y - self.shift.1));
        }
        let (x0, y0, x1, y1) = self.room(g);
        (x >= x0 && x < x1 && y >= y0 && y < y1).then_some((g, x, y))
    }
}

/// What a stack search found, if anything, and what it cost (whether or not
/// it found something).
#[derive(Debug, Clone)]
pub struct StackSearch {
    /// Generation 0 of the answer (for a predecessor: the (H+2t)x(W+2t)
    /// window; for an oscillator or spaceship: the box), `None` if none exists.
    pub start: Option<Grid>,
    pub stats: Counters,
}

/// A stack search's one counter.
fn nodes_counted(nodes: u64) -> Counters {
    Counters { nodes: Some(nodes), ..Counters::default() }
}

// ANCHOR: stack_api
/// A pattern whose `generations`-th successor matches `target` on its known
/// cells, or `None` if there is none (complete). The answer is the
/// (W+2t)x(H+2t) window; evolving it t times gives the target in its centre.
pub fn predecessor(target: &SpecGrid, generations: usize, rule: Rule) -> crate::Result<StackSearch> {
    let (w, h, t) = (target.width(), target.height(), generations);
    if t == 0 {
        let mut g = Grid::new(w, h);
        for y in 0..h {
            for x in 0..w {
                g.set(x, y, target.get(x, y) == Cell::Alive);
            }
        }
        return Ok(StackSearch { start: Some(g), stats: nodes_counted(0) });
    }
    let mut stack = Stack::build(&Linear { target, t }, rule);
    let mut start = None;
    stack.search(&mut |states| {
        let mut g = Grid::new(w + 2 * t, h + 2 * t);
        for (&(generation, x, y), &alive) in states {
            if generation == 0 && alive {
                g.set((x + t as i64) as usize, (y + t as i64) as usize, true);
            }
        }
        let mut next = g.clone();
        for _ in 0..t {
            next = naive::step(&next, rule, Topology::Bounded);
        }
        let ok = target.matches(&next.crop(t, t, w, h));
        if ok {
            start = Some(g);
        }
        ok
    });
    let start = match start {
        Some(g) => Some(checked_parent(g, target, t, rule, "gridwalker")?),
        None => None,
    };
    Ok(StackSearch { start, stats: nodes_counted(stack.nodes) })
}

/// An oscillator of exactly `period` living in a `w` x `h` box (`shift` (0, 0)),
/// or a spaceship moving by `shift` every `period` generations. Tries each
/// cell of the box, in row-major order, as the first live cell.
pub fn cycle(w: usize, h: usize, period: usize, shift: (i64, i64), rule: Rule) -> crate::Result<StackSearch> {
    cycle_where(w, h, period, shift, rule, |_| true)
}

/// [`cycle`] with every generation before the last kept inside the box, the
/// question the SAT encodings and `lifesearch search` ask.
pub fn caged_cycle(
    w: usize,
    h: usize,
    period: usize,
    shift: (i64, i64),
    rule: Rule,
) -> crate::Result<StackSearch> {
    cycle_in(Circular { w, h, period, shift, caged: true }, rule, |_| true, None)
}

/// [`caged_cycle`] that gives up with [`crate::Error::Interrupted`] once `stop` is raised.
pub fn caged_cycle_stoppable(
    w: usize,
    h: usize,
    period: usize,
    shift: (i64, i64),
    rule: Rule,
    stop: &Stop,
) -> crate::Result<StackSearch> {
    cycle_in(Circular { w, h, period, shift, caged: true }, rule, |_| true, Some(stop))
}

/// [`cycle`], accepting only solutions `wanted` likes (the search goes on past the others).
pub fn cycle_where(
    w: usize,
    h: usize,
    period: usize,
    shift: (i64, i64),
    rule: Rule,
    wanted: impl FnMut(&Grid) -> bool,
) -> crate::Result<StackSearch> {
    cycle_in(Circular { w, h, period, shift, caged: false }, rule, wanted, None)
}

fn cycle_in(
    shape: Circular,
    rule: Rule,
    mut wanted: impl FnMut(&Grid) -> bool,
    stop: Option<&Stop>,
) -> crate::Result<StackSearch> {
    let Circular { w, h, period, shift, caged } = shape;
    if period == 0 || w == 0 || h == 0 {
        return Ok(StackSearch { start: None, stats: nodes_counted(0) });
    }
    let mut base = Stack::build(&shape, rule);
    base.stop = stop.cloned();
    let core_at: HashMap<Pos, usize> = base.cores.iter().enumerate().map(|(i, c)| (c.pos, i)).collect();
    let mut nodes = 0;
    for first in 0..w * h {
        let mut stack =
            Stack { slices: base.slices.clone(), allowed: base.allowed.clone(), ..clone_shape(&base) };
        for k in 0..=first {
            let c = core_at[&(0, (k % w) as i64, (k / w) as i64)];
            stack.allowed[c] = if k == first { 2 } else { 1 };
        }
        let mut start = None;
        let found = stack.search(&mut |states| {
            let mut g = Grid::new(w, h);
            for (&(generation, x, y), &alive) in states {
                if generation == 0 && alive {
                    g.set(x as usize, y as usize, true);
                }
            }
            let ok = is_cycle(&g, period, shift, rule) && wanted(&g);
            if ok {
                start = Some(g);
            }
            ok
        });
        nodes += stack.nodes;
        if stop.is_some_and(Stop::is_set) {
            return Err(crate::Error::Interrupted);
        }
        if found && let Some(g) = start {
            let g = checked_found_cycle(g, period, shift, caged, rule)?;
            return Ok(StackSearch { start: Some(g), stats: nodes_counted(nodes) });
        }
    }
    Ok(StackSearch { start: None, stats: nodes_counted(nodes) })
}
// ANCHOR_END: stack_api

/// A cycle the stack found, checked by simulation before it leaves: a caged
/// one with [`checked_cycle`] (every generation inside the box, as the SAT
/// encodings ask); an uncaged one by [`is_cycle`] in the plane.
fn checked_found_cycle(
    g: Grid,
    period: usize,
    shift: (i64, i64),
    caged: bool,
    rule: Rule,
) -> crate::Result<Grid> {
    if caged {
        return checked_cycle(g, period, shift, Symmetry::None, rule, "gridwalker");
    }
    let mut g = g;
    crate::base::verify::spoil_if_tampering(&mut g, |g| is_cycle(g, period, shift, rule));
    if !is_cycle(&g, period, shift, rule) {
        return Err(crate::Error::invalid(format!(
            "gridwalker: its answer is no period-{period} cycle moving by {shift:?} (a bug; the answer was withheld)"
        )));
    }
    Ok(g)
}

fn clone_shape(s: &Stack) -> Stack {
    Stack {
        slices: Vec::new(),
        allowed: Vec::new(),
        cores: s.cores.clone(),
        ew: s.ew.clone(),
        ns: s.ns.clone(),
        live: s.live,
        dead: s.dead,
        pixel_on: s.pixel_on,
        pairs: s.pairs.clone(),
        nodes: 0,
        stop: s.stop.clone(),
    }
}

/// Does `g` (alone in the plane) return to itself moved by `shift` after
/// exactly `period` generations, and not earlier (not earlier moved by any shift)?
pub fn is_cycle(g: &Grid, period: usize, shift: (i64, i64), rule: Rule) -> bool {
    let Some((bx, by, bw, bh)) = g.bounding_box() else { return false };
    let start = g.crop(bx, by, bw, bh);
    let (mut cur, mut off) = (start.clone(), (0i64, 0i64));
    for k in 1..=period {
        let (n, (dx, dy)) = crate::life::step_unbounded(&cur, rule, crate::life::Algorithm::Naive);
        cur = n;
        off = (off.0 + dx, off.1 + dy);
        if cur.width() == 0 {
            return false;
        }
        if cur == start {
            return k == period && off == shift;
        }
    }
    false
}
