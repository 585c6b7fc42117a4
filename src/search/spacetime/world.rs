//! The space-time box: every cell (x, y, t) of the cage and its ring, with
//! its three-valued state, the links that propagation follows, and the
//! trail that undoes it.
//!
//! Cells live in one flat array, generation by generation, each plane
//! padded by two dead cells on every side so that a neighbour index never
//! falls off. Cells of the box are variables; the padding is dead for good.
//! A *constraint* sits at every cell of the box and its one-cell ring: its
//! eight neighbours and itself at t decide its successor, the same place at
//! t+1, or for the last generation generation 0 at the place moved back by
//! (dx, dy) (dead when that falls outside the box).
//!
//! Book: Part II, chapter 6, "A space-time propagation engine" (`book/src/knuth/spacetime.md`).

use super::table::{self, ALIVE, DEAD, RuleTable, UNKNOWN};

/// No cell (an absent predecessor link).
pub const NONE: u32 = u32::MAX;

/// Worlds whose changing state (cells, keys, group counters) fits in this
/// many bytes undo by copying it back (see [`World::mark`]).
pub const COPY_UNDO_BYTES: usize = 1536;

/// How the search returns to its latest decision after a conflict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Undo {
    /// Copy in small worlds, the trail in large ones (see [`COPY_UNDO_BYTES`]).
    #[default]
    Auto,
    /// Undo the trail cell by cell.
    Trail,
    /// Copy the state saved at the decision back.
    Copy,
}

/// The copies of a world's changing state, one per open decision, stacked
/// in one array per field (a search of a small box opens and closes
/// decisions millions of times; nothing is allocated after the first few).
#[derive(Default)]
struct Saved {
    /// (trail mark, population) of each copy.
    marks: Vec<(usize, usize)>,
    state: Vec<u8>,
    key: Vec<u16>,
    open: Vec<u32>,
}

/// A list per cell, stored as one array of every list and where each one
/// starts: a world has a few lists per cell, and a search of a small box
/// spends more time allocating a vector per cell than searching.
#[derive(Default)]
struct Lists<T> {
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy> Lists<T> {
    // ANCHOR: lists
    /// The lists of `n` cells from (cell, item) pairs, each list in the
    /// order given: a counting sort (count, then place each item at its
    /// cell's next free slot): sorting the pairs showed as a sixth of a small
    /// box's search in a profile, and this made such searches 4-9% faster.
    fn new(n: usize, pairs: Vec<(u32, T)>) -> Lists<T> {
        let mut start = vec![0u32; n + 1];
        for &(c, _) in &pairs {
            start[c as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        // Every slot is written below; the pairs' own items fill it first.
        let mut items: Vec<T> = pairs.iter().map(|&(_, t)| t).collect();
        for &(c, t) in &pairs {
            let slot = &mut next[c as usize];
            items[*slot as usize] = t;
            *slot += 1;
        }
        Lists { start, items }
    }
    // ANCHOR_END: lists

    /// The same, each cell's list without repeats (the first of equal items kept).
    fn distinct(n: usize, pairs: Vec<(u32, T)>) -> Lists<T>
    where
        T: PartialEq,
    {
        let Lists { mut start, mut items } = Lists::new(n, pairs);
        // Compact in place: the write index never passes the read index, and
        // each cell's old end is read before its new end overwrites it.
        let mut write = 0;
        let mut read = 0;
        for c in 0..n {
            let (run, end) = (write, start[c + 1] as usize);
            while read < end {
                let t = items[read];
                if !items[run..write].contains(&t) {
                    items[write] = t;
                    write += 1;
                }
                read += 1;
            }
            start[c + 1] = write as u32;
        }
        items.truncate(write);
        Lists { start, items }
    }

    /// Where the list of cell `c` lies in `items`.
    #[inline(always)]
    fn range(&self, c: usize) -> std::ops::Range<usize> {
        self.start[c] as usize..self.start[c + 1] as usize
    }

    #[inline(always)]
    fn of(&self, c: usize) -> &[T] {
        // SAFETY: `new` makes `start` non-decreasing and ending at `items.len()`.
        unsafe { self.items.get_unchecked(self.range(c)) }
    }
}

// ANCHOR: world
/// The search state of one problem.
pub struct World {
    pub w: usize,
    pub h: usize,
    pub period: usize,
    /// Padded plane width and size.
    pw: usize,
    plane: usize,
    /// The eight neighbour offsets in a plane.
    offsets: [isize; 8],
    pub state: Vec<u8>,
    /// Per constraint, its rule table key ([`table::key_of`]: live and
    /// unknown neighbours, centre state, successor state), kept up to date
    /// by [`World::set`] and [`World::undo_to`], so a check reads one
    /// number, not ten cells.
    key: Vec<u16>,
    /// Successor of each constraint's centre (the last index is a permanently dead cell).
    succ: Vec<u32>,
    /// The constraint whose successor a box cell is, if any.
    pred: Vec<u32>,
    is_centre: Vec<bool>,
    /// Cells that must equal this one (symmetry by identification).
    twins: Lists<u32>,
    /// (group, partner): the group is violated once every pair is known equal.
    links: Lists<(u32, u32)>,
    /// What [`World::identify`] and [`World::add_group`] said, until
    /// [`World::finish`] lays the lists out.
    twin_pairs: Vec<(u32, u32)>,
    link_pairs: Vec<(u32, (u32, u32))>,
    /// Per group, how many of its pairs are not yet known to be equal.
    open: Vec<u32>,
    /// Live cells of generation 0 and the most allowed.
    pub population: usize,
    pub max_population: usize,
    pub trail: Vec<u32>,
    /// Copies of the changing state, one per open decision, when the world
    /// is small enough ([`COPY_UNDO_BYTES`]) that copying it back beats
    /// undoing the trail cell by cell; `depth` of them are in use.
    saved: Saved,
    copy_undo: bool,
    /// Trail entries before this one have been propagated.
    head: usize,
    table: RuleTable,
    pub conflicts: u64,
}
// ANCHOR_END: world

/// The eight neighbour offsets in a padded plane of width `pw`.
fn neighbour_offsets(pw: usize) -> [isize; 8] {
    let pw = pw as isize;
    [-pw - 1, -pw, -pw + 1, -1, 1, pw - 1, pw, pw + 1]
}

impl World {
    /// An empty box of unknown cells, constraints and links laid out.
    pub fn new(w: usize, h: usize, period: usize, (dx, dy): (i64, i64), table: RuleTable) -> World {
        let (pw, ph) = (w + 4, h + 4);
        let plane = pw * ph;
        let n = plane * period + 1;
        let dead_cell = (n - 1) as u32;
        let mut world = World {
            w,
            h,
            period,
            pw,
            plane,
            offsets: neighbour_offsets(pw),
            state: vec![DEAD; n],
            key: vec![0; n],
            succ: vec![dead_cell; n],
            pred: vec![NONE; n],
            is_centre: vec![false; n],
            twins: Lists::default(),
            links: Lists::default(),
            twin_pairs: Vec::new(),
            link_pairs: Vec::new(),
            open: Vec::new(),
            population: 0,
            max_population: usize::MAX,
            trail: Vec::new(),
            saved: Saved::default(),
            copy_undo: false,
            head: 0,
            table,
            conflicts: 0,
        };
        for t in 0..period {
            for y in -1..=h as i64 {
                for x in -1..=w as i64 {
                    let c = world.at(x, y, t);
                    world.is_centre[c] = true;
                    if x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h {
                        world.state[c] = UNKNOWN;
                    }
                    let s = if t + 1 < period {
                        Some(world.at(x, y, t + 1))
                    } else {
                        let (u, v) = (x - dx, y - dy);
                        (u >= 0 && v >= 0 && (u as usize) < w && (v as usize) < h).then(|| world.at(u, v, 0))
                    };
                    if let Some(s) = s {
                        world.succ[c] = s as u32;
                        world.pred[s] = c as u32;
                    }
                }
            }
        }
        for c in 0..n - 1 {
            if world.is_centre[c] {
                let unknown =
                    world.offsets.iter().filter(|&&o| world.state[(c as isize + o) as usize] == UNKNOWN);
                let (centre, succ) = (world.state[c], world.state[world.succ[c] as usize]);
                world.key[c] = table::key_of(unknown.count() as u8, centre, succ) as u16;
            }
        }
        world
    }

    // ANCHOR: predecessor_world
    /// The world of a predecessor search: generation 0 is the unknown
    /// (W+2) x (H+2) parent, generation 1 the target at one cell in from the
    /// parent's edge. Only the target's known cells constrain (their key
    /// is live); the parent's edge and a `?` cell of the target constrain
    /// nothing, so their keys sit at [`table::INACTIVE`]. Generation 1 is
    /// never set, so there is no wrap and no predecessor link to follow.
    pub fn predecessor(target: &crate::life::SpecGrid, table: RuleTable) -> World {
        use crate::life::Cell;
        let (w, h) = (target.width() + 2, target.height() + 2);
        let mut world = World::new(w, h, 2, (0, 0), table);
        world.pred.fill(NONE);
        let dead = world.dead_cell();
        for y in -1..=h as i64 {
            for x in -1..=w as i64 {
                let (c, s) = (world.at(x, y, 0), world.at(x, y, 1));
                let inside = x >= 1 && y >= 1 && x <= target.width() as i64 && y <= target.height() as i64;
                let known = match inside.then(|| target.get(x as usize - 1, y as usize - 1)) {
                    Some(Cell::Alive) => Some(ALIVE),
                    Some(Cell::Dead) => Some(DEAD),
                    _ => None,
                };
                world.state[s] = known.unwrap_or(DEAD);
                world.is_centre[s] = false;
                match known {
                    Some(_) => world.succ[c] = s as u32,
                    None => world.succ[c] = dead,
                }
                let unknown =
                    world.offsets.iter().filter(|&&o| world.state[(c as isize + o) as usize] == UNKNOWN);
                let key =
                    table::key_of(unknown.count() as u8, world.state[c], world.state[world.succ[c] as usize]);
                world.key[c] = key as u16 + if known.is_some() { 0 } else { table::INACTIVE };
            }
        }
        world
    }
    // ANCHOR_END: predecessor_world

    /// Generation-0 box cells that are dead because their predecessor
    /// place at the last generation is beyond the cage's ring.
    pub fn fixed_dead(&self, (dx, dy): (i64, i64)) -> Vec<u32> {
        let mut out = Vec::new();
        for y in 0..self.h as i64 {
            for x in 0..self.w as i64 {
                let (u, v) = (x + dx, y + dy);
                if u < -1 || v < -1 || u > self.w as i64 || v > self.h as i64 {
                    out.push(self.at(x, y, 0) as u32);
                }
            }
        }
        out
    }

    /// The index of cell (x, y) of generation t (x, y from -2 to the side + 1).
    #[inline]
    pub fn at(&self, x: i64, y: i64, t: usize) -> usize {
        t * self.plane + (y + 2) as usize * self.pw + (x + 2) as usize
    }

    /// The permanently dead cell.
    pub fn dead_cell(&self) -> u32 {
        (self.state.len() - 1) as u32
    }

    /// Make `a` and `b` the same cell in every answer.
    pub fn identify(&mut self, a: u32, b: u32) {
        if a != b {
            self.twin_pairs.extend([(a, b), (b, a)]);
        }
    }

    /// A new group of pairs, at least one of which must differ.
    pub fn add_group(&mut self, pairs: &[(u32, u32)]) {
        let g = self.open.len() as u32;
        let mut open = 0;
        for &(a, b) in pairs {
            if a == b {
                continue;
            }
            open += 1;
            self.link_pairs.extend([(a, (g, b)), (b, (g, a))]);
        }
        self.open.push(open);
    }

    /// Is some group already closed (all its pairs equal before anything is set)?
    pub fn has_empty_group(&self) -> bool {
        self.open.contains(&0)
    }

    // ANCHOR: set
    /// Give the unknown cell `c` its value; false on a conflict (the cell is
    /// on the trail either way, so undoing is uniform).
    #[inline]
    pub fn set(&mut self, c: u32, v: u8) -> bool {
        let ci = c as usize;
        debug_assert_eq!(self.state[ci], UNKNOWN);
        self.state[ci] = v;
        self.trail.push(c);
        self.shift_keys(ci, v, false);
        let mut ok = true;
        if v == ALIVE && ci < self.plane {
            self.population += 1;
            ok &= self.population <= self.max_population;
        }
        for &(g, p) in self.links.of(ci) {
            if self.state[p as usize] == v {
                self.open[g as usize] -= 1;
                ok &= self.open[g as usize] != 0;
            }
        }
        ok
    }

    /// Finish the world once its cells, twins and groups are named: lay out
    /// the twins (each cell's once, in the order named) and the groups'
    /// links, and choose how conflicts are undone (the size of a copy is
    /// now fixed).
    pub fn finish(&mut self, undo: Undo) {
        let n = self.state.len();
        self.twins = Lists::distinct(n, std::mem::take(&mut self.twin_pairs));
        self.links = Lists::new(n, std::mem::take(&mut self.link_pairs));
        let bytes = self.state.len() * 3 + self.open.len() * 4;
        self.copy_undo = match undo {
            Undo::Auto => bytes <= COPY_UNDO_BYTES,
            Undo::Trail => false,
            Undo::Copy => true,
        };
    }

    /// Open a decision: the trail length to come back to. In a small world
    /// the state, the keys and the group counters are copied as well, and
    /// [`World::undo_to`] copies them back: a conflict in a 5x5 box undoes
    /// dozens of cells, each touching ten keys, where a copy is a few
    /// hundred bytes.
    pub fn mark(&mut self) -> usize {
        let mark = self.trail.len();
        if self.copy_undo {
            let s = &mut self.saved;
            s.marks.push((mark, self.population));
            s.state.extend_from_slice(&self.state);
            s.key.extend_from_slice(&self.key);
            s.open.extend_from_slice(&self.open);
        }
        mark
    }

    /// Undo the trail back to `mark` entries (a value [`World::mark`] returned).
    pub fn undo_to(&mut self, mark: usize) {
        if self.copy_undo {
            return self.restore(mark);
        }
        while self.trail.len() > mark {
            let c = self.trail.pop().expect("longer than mark") as usize;
            let v = self.state[c];
            for &(g, p) in self.links.of(c) {
                if self.state[p as usize] == v {
                    self.open[g as usize] += 1;
                }
            }
            if v == ALIVE && c < self.plane {
                self.population -= 1;
            }
            self.shift_keys(c, v, true);
            self.state[c] = UNKNOWN;
        }
        self.head = self.head.min(mark);
    }
    // ANCHOR_END: set

    /// Undo by copying back the state saved at `mark` (kept out of
    /// [`World::undo_to`]'s loop, which is the hot one in large worlds).
    #[inline(never)]
    fn restore(&mut self, mark: usize) {
        let s = &mut self.saved;
        while s.marks.last().is_some_and(|&(m, _)| m > mark) {
            s.marks.pop();
        }
        let depth = s.marks.len();
        let &(m, population) = s.marks.last().expect("undo_to: no open decision");
        assert_eq!(m, mark, "undo_to: not a mark");
        let (n, g) = (self.state.len(), self.open.len());
        s.state.truncate(depth * n);
        s.key.truncate(depth * n);
        s.open.truncate(depth * g);
        self.state.copy_from_slice(&s.state[(depth - 1) * n..]);
        self.key.copy_from_slice(&s.key[(depth - 1) * n..]);
        self.open.copy_from_slice(&s.open[(depth - 1) * g..]);
        self.population = population;
        self.trail.truncate(mark);
        self.head = self.head.min(mark);
    }

    // ANCHOR: shift_keys
    /// Cell `c` goes from unknown to `v` (or back, `undo`): its neighbours
    /// have one unknown neighbour fewer (and one more alive if `v` is), its
    /// own centre state changes, and so does its predecessor's successor.
    #[inline(always)]
    fn shift_keys(&mut self, c: usize, v: u8, undo: bool) {
        let nbr =
            if v == ALIVE { table::key_of(8, 0, 0) } else { table::key_of(1, 0, 0).wrapping_neg() } as u16;
        let own = (3 * (v as usize)).wrapping_sub(3 * UNKNOWN as usize) as u16;
        let succ = (v as usize).wrapping_sub(UNKNOWN as usize) as u16;
        let sign = |d: u16| if undo { d.wrapping_neg() } else { d };
        let nbr = sign(nbr);
        // The hottest loop of the search: its bounds checks cost a fifth.
        assert!(c > self.pw && c + self.pw + 1 < self.key.len());
        for o in self.offsets {
            let n = (c as isize + o) as usize;
            // SAFETY: the offsets reach one row and one column from `c`,
            // which the assert above keeps inside `key`.
            unsafe {
                let k = self.key.get_unchecked_mut(n);
                *k = k.wrapping_add(nbr);
            }
        }
        self.key[c] = self.key[c].wrapping_add(sign(own));
        let p = self.pred[c];
        if p != NONE {
            self.key[p as usize] = self.key[p as usize].wrapping_add(sign(succ));
        }
    }
    // ANCHOR_END: shift_keys

    // ANCHOR: check
    /// Look the constraint at `k` up in the rule table and apply what it
    /// forces. Most lookups force nothing, so that test is inlined into
    /// [`World::propagate`] and the rest is not.
    #[inline(always)]
    fn check(&mut self, k: usize) -> bool {
        debug_assert_eq!(
            self.key[k] as usize % 9,
            table::key_of(0, self.state[k], self.state[self.succ[k] as usize]),
            "cell {k}"
        );
        let act = self.table.get(self.key[k] as usize);
        act == 0 || self.apply(k, act)
    }

    /// Apply a table entry that says something.
    #[inline(never)]
    fn apply(&mut self, k: usize, act: u8) -> bool {
        let s = self.succ[k];
        if act & table::CONFLICT != 0 {
            return false;
        }
        let value = |bit| if act & bit != 0 { ALIVE } else { DEAD };
        if act & table::FORCE_SUCC != 0 && !self.set(s, value(table::SUCC_ALIVE)) {
            return false;
        }
        if act & table::FORCE_CENTRE != 0 && !self.set(k as u32, value(table::CENTRE_ALIVE)) {
            return false;
        }
        if act & table::FORCE_NBRS != 0 {
            let v = value(table::NBRS_ALIVE);
            for o in self.offsets {
                let n = (k as isize + o) as usize;
                if self.state[n] == UNKNOWN && !self.set(n as u32, v) {
                    return false;
                }
            }
        }
        true
    }
    // ANCHOR_END: check

    /// Check every constraint once (at the root).
    pub fn check_all(&mut self) -> bool {
        for k in 0..self.state.len() {
            if self.is_centre[k] && !self.check(k) {
                return false;
            }
        }
        self.propagate()
    }

    // ANCHOR: propagate
    /// Follow every cell set since the last call: its twins, then the
    /// constraints it takes part in (its own, its eight neighbours', and the
    /// one whose successor it is), until nothing more is forced or a conflict.
    pub fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let c = self.trail[self.head] as usize;
            self.head += 1;
            let v = self.state[c];
            for i in self.twins.range(c) {
                let t = self.twins.items[i];
                let s = self.state[t as usize];
                if (s == UNKNOWN && !self.set(t, v)) || (s != UNKNOWN && s != v) {
                    return self.conflict();
                }
            }
            if !self.check(c) {
                return self.conflict();
            }
            // A set cell is in the box, so its neighbours are constraints.
            for o in self.offsets {
                let k = (c as isize + o) as usize;
                debug_assert!(self.is_centre[k]);
                if !self.check(k) {
                    return self.conflict();
                }
            }
            let p = self.pred[c];
            if p != NONE && !self.check(p as usize) {
                return self.conflict();
            }
        }
        true
    }
    // ANCHOR_END: propagate

    fn conflict(&mut self) -> bool {
        self.conflicts += 1;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::Lists;
    use proptest::prelude::*;

    proptest! {
        /// The slow twin: each cell's items filtered from the pairs in order,
        /// repeats dropped by a linear scan.
        #[test]
        fn lists_match_filtering_the_pairs(n in 1usize..12, raw in proptest::collection::vec((0u32..12, 0u8..6), 0..60)) {
            let pairs: Vec<(u32, u8)> = raw.into_iter().map(|(c, t)| (c % n as u32, t)).collect();
            let all = Lists::new(n, pairs.clone());
            let distinct = Lists::distinct(n, pairs.clone());
            prop_assert_eq!(all.start.len(), n + 1);
            prop_assert_eq!(distinct.start.len(), n + 1);
            for c in 0..n {
                let given: Vec<u8> = pairs.iter().filter(|p| p.0 as usize == c).map(|p| p.1).collect();
                let mut once = Vec::new();
                for &t in &given {
                    if !once.contains(&t) {
                        once.push(t);
                    }
                }
                prop_assert_eq!(all.of(c), &given[..]);
                prop_assert_eq!(distinct.of(c), &once[..]);
            }
            prop_assert_eq!(*distinct.start.last().unwrap() as usize, distinct.items.len());
        }
    }
}
