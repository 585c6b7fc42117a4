//! The slice database of Section 6.2.4: grids hold 32-bit slice ids; a store
//! de-duplicates slice contents; two interaction maps (north-south and
//! east-west) remember the outcome of every confrontation of an id pair.
//! The thesis found it slower than computing; its value here is the counts of
//! Table 6.5, which measure how much work a search does.
//!
//! Book: Part II, chapter 6, section 6.2.4 (`book/src/thesis/ch6.md`).

use super::convention::Layout;
use super::slice::Slice;
use super::sliver::{Changed, Contradiction, confront_ew, confront_ns};
use super::store::{Confronted, SliceStore};
use crate::life::{Cell, Rule};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::marker::PhantomData;

/// The seeded ids: 0..511 are the unit slices (id = constellation).
pub const DEAD: u32 = 512;
pub const LIVE: u32 = 513;
pub const UNKNOWN: u32 = 514;
pub const EMPTY: u32 = 515;
pub const SEEDS: usize = 516;

/// A multiply-rotate hasher: the keys are ids and slice words, already well mixed.
#[derive(Default, Clone, Copy)]
pub struct QuickHasher(u64);

impl Hasher for QuickHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(b));
        }
    }
    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    #[inline]
    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}
type Quick = BuildHasherDefault<QuickHasher>;

// ANCHOR: interaction
/// A remembered confrontation: the resulting id pair, what changed, how often it was asked for.
#[derive(Debug, Clone, Copy)]
struct Interaction {
    first: u32,
    second: u32,
    changed: Changed,
    contradiction: bool,
    hits: u32,
}
// ANCHOR_END: interaction

/// Counters of Table 6.5.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DbCounters {
    pub slice_queries: u64,
    pub ns_added: u64,
    pub ns_queried: u64,
    pub ew_added: u64,
    pub ew_queried: u64,
    /// Computed interactions that ended in an empty sliver.
    pub contradictions: u64,
    /// Result slices looked up in the store (new or not).
    pub interned: u64,
    pub purges: u64,
}

// ANCHOR: db_store
pub struct DbStore<L> {
    slices: Vec<Slice>,
    counts: Vec<u32>,
    index: HashMap<Slice, u32, Quick>,
    ns: HashMap<(u32, u32), Interaction, Quick>,
    ew: HashMap<(u32, u32), Interaction, Quick>,
    /// Interactions kept per map before the least frequently used half is purged.
    pub capacity: usize,
    pub counters: DbCounters,
    layout: PhantomData<L>,
}
// ANCHOR_END: db_store

impl<L: Layout> DbStore<L> {
    /// A store seeded with the 516 fixed slices of `rule`.
    pub fn new(rule: Rule) -> Self {
        let mut db = DbStore {
            slices: Vec::new(),
            counts: Vec::new(),
            index: HashMap::default(),
            ns: HashMap::default(),
            ew: HashMap::default(),
            capacity: 1 << 24,
            counters: DbCounters::default(),
            layout: PhantomData,
        };
        let seeds = (0..512u16).map(Slice::unit).chain([
            Slice::for_future(rule, false),
            Slice::for_future(rule, true),
            Slice::FULL,
            Slice::EMPTY,
        ]);
        for s in seeds {
            // Ids are fixed even if a rule makes two seeds equal; the first one is indexed.
            let id = db.slices.len() as u32;
            db.index.entry(s).or_insert(id);
            db.slices.push(s);
            db.counts.push(s.count());
        }
        db
    }

    /// Slices in the store, the 516 seeds included (Table 6.5 column C).
    pub fn len(&self) -> usize {
        self.slices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slices.is_empty()
    }

    /// The id of a slice's contents, adding it if new.
    fn intern(&mut self, s: Slice) -> u32 {
        // Hashing the contents and probing the index both read the slice: Table
        // 6.5's column D counts "hash-keys of the slice data" as queries too.
        self.counters.slice_queries += 2;
        self.counters.interned += 1;
        let next = self.slices.len() as u32;
        let id = *self.index.entry(s).or_insert(next);
        if id == next {
            self.slices.push(s);
            self.counts.push(s.count());
        }
        id
    }

    // ANCHOR: db_confront
    /// Look the pair up in `map`; compute, intern and remember it on a miss.
    fn interact(
        &mut self,
        ns: bool,
        a: u32,
        b: u32,
        compute: impl Fn(&mut Slice, &mut Slice) -> Result<Changed, Contradiction>,
    ) -> Result<(u32, u32, Changed), Contradiction> {
        let map = if ns { &mut self.ns } else { &mut self.ew };
        if let Some(hit) = map.get_mut(&(a, b)) {
            hit.hits += 1;
            let hit = *hit;
            return if hit.contradiction {
                Err(Contradiction)
            } else {
                Ok((hit.first, hit.second, hit.changed))
            };
        }
        self.counters.slice_queries += 2;
        let (mut sa, mut sb) = (self.slices[a as usize], self.slices[b as usize]);
        let result = compute(&mut sa, &mut sb);
        let entry = match result {
            Err(Contradiction) => {
                self.counters.contradictions += 1;
                Interaction {
                    first: EMPTY,
                    second: EMPTY,
                    changed: Changed { first: true, second: true },
                    contradiction: true,
                    hits: 1,
                }
            }
            Ok(changed) => Interaction {
                first: if changed.first { self.intern(sa) } else { a },
                second: if changed.second { self.intern(sb) } else { b },
                changed,
                contradiction: false,
                hits: 1,
            },
        };
        let capacity = self.capacity;
        let map = if ns { &mut self.ns } else { &mut self.ew };
        if map.len() >= capacity {
            purge(map);
            self.counters.purges += 1;
        }
        map.insert((a, b), entry);
        if ns {
            self.counters.ns_added += 1;
        } else {
            self.counters.ew_added += 1;
        }
        result.map(|changed| (entry.first, entry.second, changed))
    }
    // ANCHOR_END: db_confront
}

/// LFU eviction: drop the entries asked for no more often than the median,
/// and halve the survivors' counts so old popularity fades.
fn purge(map: &mut HashMap<(u32, u32), Interaction, Quick>) {
    let mut hits: Vec<u32> = map.values().map(|e| e.hits).collect();
    if hits.is_empty() {
        return;
    }
    let mid = hits.len() / 2;
    let median = *hits.select_nth_unstable(mid).1;
    map.retain(|_, e| e.hits > median);
    if map.len() * 4 > hits.len() * 3 {
        // Almost everything is equally popular: clear it rather than purge a sliver.
        map.clear();
    }
    for e in map.values_mut() {
        e.hits /= 2;
    }
}

/// Store a confrontation's resulting ids, showing `before` each member that changes.
#[inline]
fn replace(x: &mut u32, y: &mut u32, a: u32, b: u32, ch: Changed, mut before: impl FnMut(bool, &u32)) {
    if ch.first {
        before(false, x);
    }
    if ch.second {
        before(true, y);
    }
    (*x, *y) = (a, b);
}

impl<L: Layout> SliceStore for DbStore<L> {
    type Id = u32;
    fn initial(&mut self, cell: Cell) -> u32 {
        match cell {
            Cell::Dead => DEAD,
            Cell::Alive => LIVE,
            Cell::Unknown => UNKNOWN,
        }
    }
    fn unit(&mut self, c: u16) -> u32 {
        // Forcing a pivot asks the store for a unit slice: Table 6.5's column E.
        self.counters.slice_queries += 1;
        c as u32
    }
    #[inline]
    fn count(&self, id: u32) -> u32 {
        self.counts[id as usize]
    }
    fn fetch(&mut self, id: u32) -> Slice {
        self.slices[id as usize]
    }
    fn peek(&self, id: u32) -> Slice {
        self.slices[id as usize]
    }
    fn confront_ew(&mut self, w: &mut u32, e: &mut u32, before: impl FnMut(bool, &u32)) -> Confronted {
        self.counters.ew_queried += 1;
        let (a, b, ch) = self.interact(false, *w, *e, confront_ew::<L>)?;
        replace(w, e, a, b, ch, before);
        Ok(ch)
    }
    fn confront_ns(&mut self, n: &mut u32, s: &mut u32, before: impl FnMut(bool, &u32)) -> Confronted {
        self.counters.ns_queried += 1;
        let (a, b, ch) = self.interact(true, *n, *s, confront_ns)?;
        replace(n, s, a, b, ch, before);
        Ok(ch)
    }
    fn stats(&self) -> Vec<(&'static str, u64)> {
        let c = self.counters;
        vec![
            ("slices_added", self.slices.len() as u64),
            ("slice_queries", c.slice_queries),
            ("ns_added", c.ns_added),
            ("ns_queried", c.ns_queried),
            ("ew_added", c.ew_added),
            ("ew_queried", c.ew_queried),
            ("contradictions", c.contradictions),
            ("interned", c.interned),
            ("purges", c.purges),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gridwalker::Variant;
    use crate::gridwalker::convention::ThesisCode;
    use crate::gridwalker::grid::Solver;
    use crate::gridwalker::solve::Start;
    use crate::gridwalker::store::PlainStore;
    use crate::life::SpecGrid;

    fn target() -> SpecGrid {
        // Table 6.1's #4 (a non-orphan found after 10 probes).
        crate::search::known::garden_of_eden_with_alive(2, 0)
    }

    #[test]
    fn seeds_have_fixed_ids() {
        let mut db = DbStore::<ThesisCode>::new(Rule::CONWAY);
        assert_eq!(db.len(), SEEDS);
        assert_eq!((db.count(DEAD), db.count(LIVE), db.count(UNKNOWN), db.count(EMPTY)), (372, 140, 512, 0));
        assert_eq!(db.fetch(77), Slice::unit(77));
        // Interning known contents returns the seed id and adds nothing.
        assert_eq!(db.intern(Slice::for_future(Rule::CONWAY, true)), LIVE);
        assert_eq!(db.len(), SEEDS);
    }

    #[test]
    fn database_and_plain_solves_agree_even_when_purging() {
        let t = target();
        let mut plain = Solver::<_, ThesisCode>::new(
            &t,
            Rule::CONWAY,
            Variant::Basic,
            PlainStore::<ThesisCode>::new(Rule::CONWAY),
        );
        let mut store = DbStore::<ThesisCode>::new(Rule::CONWAY);
        store.capacity = 64;
        let mut db = Solver::<_, ThesisCode>::new(&t, Rule::CONWAY, Variant::Db, store);
        assert!(plain.grid_solve(Start::Fresh).is_ok() && db.grid_solve(Start::Fresh).is_ok());
        assert_eq!(plain.counts(), db.counts());
        let (a, b) = (plain.unique_solution(0), db.unique_solution(0));
        assert!(a.is_some());
        assert_eq!(a, b);
        let mut same = db.stats.clone();
        same.peak_bytes = plain.stats.peak_bytes;
        assert_eq!(plain.stats, same);
        assert!(db.store.counters.purges > 0);
        assert!(db.store.ns.len() <= 64 && db.store.ew.len() <= 64);
    }
}
