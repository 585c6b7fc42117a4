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
use crate::base::Counters;
use crate::life::{Cell, Rule};
use std::collections::HashMap;
use std::marker::PhantomData;

/// The seeded ids: 0..511 are the unit slices (id = constellation).
pub const DEAD: u32 = 512;
pub const LIVE: u32 = 513;
pub const UNKNOWN: u32 = 514;
pub const EMPTY: u32 = 515;
pub const SEEDS: usize = 516;

/// The interaction maps' hasher: the keys are pairs of small ids, for which
/// rustc's Fx hash (a multiply and a rotate per word) is ample and fast.
type Quick = rustc_hash::FxBuildHasher;

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

// ANCHOR: slice_index
// Column D of Table 6.5 ("slice queries") counts every read of a slice from
// the thesis' store. Besides the two members of every interaction computed and
// the unit slice of every pivot forcing, most of those reads are made by the
// store's de-duplication index: a Delphi `TDictionary` keyed by slice id whose
// comparer hashes and compares the slices' contents, so every hash is one read
// and every content comparison two. Its hash (below) is weak on slices: unit
// slices c and c + 37 collide, as do the empty and the full slice, so many
// probes meet an entry with an equal hash and compare contents. A duplicate
// is looked up twice (an add that fails, then a get), and each growth (at 75%
// load, doubling, from 4 slots) re-inserts every entry in slot order,
// comparing it with the equal-hash entries already placed. This index does
// the same and counts the same reads; it reproduces the thesis' column D for
// 9,307 of its first 10,000 raw rows (the others are off by a multiple of 4,
// which the order of two same-hash pairs of unit slices accounts for: see
// `book/src/thesis/ch6.md`).

/// The seed of the thesis' slice hash (its store's line size, 2^20 slices).
const HASH_SEED: u32 = 1 << 20;

/// A 32-bit FNV-1a-style hash of a slice's 64 bytes (Sanmayce's "Meiyan"
/// variant with a tail, as the thesis' store used), reduced to 31 bits as the
/// dictionary does.
fn slice_hash(s: &Slice) -> u32 {
    const PRIME: u32 = 16_777_619;
    let mut h = HASH_SEED.wrapping_add(2_166_136_261);
    let mut tail = h;
    for w in s.0 {
        h ^= (w as u32).rotate_left(5) ^ (w >> 32) as u32;
        tail ^= h;
        h = h.wrapping_mul(PRIME);
    }
    tail = tail.wrapping_mul(17).wrapping_add(0xE654_6B64);
    (h.wrapping_add(tail) ^ (h >> 16)) & 0x7FFF_FFFF
}

/// A slot's hash when it holds nothing (hashes have 31 bits).
const VACANT: u32 = u32::MAX;

/// Slice contents to ids: open addressing with linear probing over (hash,
/// id) slots, grown like the thesis' dictionary so its reads can be counted.
#[derive(Default)]
struct SliceIndex {
    slots: Vec<(u32, u32)>,
    len: usize,
    grow_at: usize,
}

impl SliceIndex {
    /// Probe for `s` (hash `h`): `Ok(slot)` if indexed, else `Err(vacant slot)`.
    /// Each entry met with an equal hash is compared by content: two reads.
    fn probe(&self, slices: &[Slice], h: u32, s: &Slice, reads: &mut u64) -> Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let (sh, id) = self.slots[i];
            if sh == VACANT {
                return Err(i);
            }
            if sh == h {
                *reads += 2;
                if slices[id as usize] == *s {
                    return Ok(i);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Double the slots (4 at first) and re-insert every entry in slot order.
    fn grow(&mut self, slices: &[Slice], reads: &mut u64) {
        let cap = if self.slots.is_empty() { 4 } else { 2 * self.slots.len() };
        let old = std::mem::replace(&mut self.slots, vec![(VACANT, 0); cap]);
        self.grow_at = cap / 2 + cap / 4;
        for (h, id) in old {
            if h != VACANT {
                let at = self.probe(slices, h, &slices[id as usize], reads).unwrap_err();
                self.slots[at] = (h, id);
            }
        }
    }

    /// The id of the contents of `slices[id]` (the newest slice): `id` itself
    /// if they are new (now indexed), else the id that already has them.
    fn intern(&mut self, slices: &[Slice], id: u32, reads: &mut u64) -> u32 {
        if self.len >= self.grow_at {
            self.grow(slices, reads);
        }
        let s = &slices[id as usize];
        let h = slice_hash(s);
        let before = *reads;
        match self.probe(slices, h, s, reads) {
            Ok(at) => {
                // The failed add and the get that follows it probe alike.
                *reads += *reads - before + 2;
                self.slots[at].1
            }
            Err(at) => {
                *reads += 1;
                self.slots[at] = (h, id);
                self.len += 1;
                id
            }
        }
    }
}
// ANCHOR_END: slice_index

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
    index: SliceIndex,
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
            index: SliceIndex::default(),
            ns: HashMap::default(),
            ew: HashMap::default(),
            // Above what the thesis' 125,000-candidate study put into its N-S
            // map (19.1 million interactions, none lost: its per-candidate
            // counts stay ours only while neither store purges). At 2^24 our
            // counts parted from the thesis' at the row where its total passed 2^24.
            capacity: 1 << 25,
            counters: DbCounters::default(),
            layout: PhantomData,
        };
        let (dead, live) = Slice::for_rule(rule);
        let seeds = (0..512u16).map(Slice::unit).chain([dead, live, Slice::FULL, Slice::EMPTY]);
        for s in seeds {
            // Ids are fixed even if a rule makes two seeds equal; the first one is indexed.
            let id = db.slices.len() as u32;
            db.slices.push(s);
            db.counts.push(s.count());
            // Seeding is not counted (the thesis' first run did not count it).
            db.index.intern(&db.slices, id, &mut 0);
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

    /// The id of a slice's contents, adding it if new. The index's reads of
    /// slices count as slice queries (see [`SliceIndex`]).
    fn intern(&mut self, s: Slice) -> u32 {
        self.counters.interned += 1;
        // Like the thesis' store, write the candidate at the next id and keep it only if new.
        let next = self.slices.len() as u32;
        self.slices.push(s);
        let id = self.index.intern(&self.slices, next, &mut self.counters.slice_queries);
        if id == next {
            self.counts.push(s.count());
        } else {
            self.slices.pop();
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
                // The thesis cut both members down to the empty sliver and
                // looked the (empty) results up in the store all the same.
                self.intern(Slice::EMPTY);
                self.intern(Slice::EMPTY);
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
    fn count_into(&self, out: &mut Counters) {
        let c = self.counters;
        out.slices_added = Some(self.slices.len() as u64);
        out.slice_queries = Some(c.slice_queries);
        out.ns_added = Some(c.ns_added);
        out.ns_queried = Some(c.ns_queried);
        out.ew_added = Some(c.ew_added);
        out.ew_queried = Some(c.ew_queried);
        out.contradictions = Some(c.contradictions);
        out.interned = Some(c.interned);
        out.purges = Some(c.purges);
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
        crate::base::known::garden_of_eden_with_alive(2, 0)
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
    fn the_index_reads_slices_as_the_thesis_store_did() {
        // The thesis' hash puts unit slices c and c + 37 together, and the empty with the full slice.
        assert_eq!(slice_hash(&Slice::unit(0)), slice_hash(&Slice::unit(37)));
        assert_eq!(slice_hash(&Slice::EMPTY), slice_hash(&Slice::FULL));
        let mut db = DbStore::<ThesisCode>::new(Rule::CONWAY);
        // Seeding is not counted.
        assert_eq!(db.counters.slice_queries, 0);
        // A duplicate is hashed and compared twice: 2 x (1 + 2) reads ...
        assert_eq!(db.intern(Slice::unit(0)), 0);
        assert_eq!(db.counters.slice_queries, 6);
        // ... 2 x (1 + 2 + 2) when an equal-hash entry comes first on its probe path.
        assert_eq!(db.intern(Slice::unit(37)), 37);
        assert_eq!(db.counters.slice_queries, 16);
        assert_eq!(db.intern(Slice::EMPTY), EMPTY);
        assert_eq!(db.counters.slice_queries, 26);
        // A new slice: one read to hash it (and two per equal-hash entry met).
        let s = Slice::unit(1).or(&Slice::unit(2));
        let met = db.slices.iter().filter(|x| slice_hash(x) == slice_hash(&s)).count() as u64;
        assert_eq!(db.intern(s), SEEDS as u32);
        assert_eq!(db.counters.slice_queries, 27 + 2 * met);
        assert_eq!(db.len(), SEEDS + 1);
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
        let (a, b) = (plain.unique_solution(0).unwrap(), db.unique_solution(0).unwrap());
        assert!(a.is_some());
        assert_eq!(a, b);
        let mut same = db.stats.clone();
        same.peak_bytes = plain.stats.peak_bytes;
        assert_eq!(plain.stats, same);
        assert!(db.store.counters.purges > 0);
        assert!(db.store.ns.len() <= 64 && db.store.ew.len() <= 64);
    }
}
