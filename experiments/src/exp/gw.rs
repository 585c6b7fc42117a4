//! Calling GRIDWALKER from the experiments: timing (lowest of N runs), peak
//! heap memory, and the thesis' patterns. The library's drivers do the
//! deciding and check every predecessor; this module only times them.

use crate::harness::best_of;
use anyhow::Result;
use lifesearch::alloc::{CountingAlloc, live_bytes, peak_bytes, reset_peak};
use lifesearch::gridwalker::session::Session;
use lifesearch::gridwalker::{Convention, Options, OrphanAnswer, Variant, decide_orphan};
use lifesearch::life::{Cell, Grid, Rule, SpecGrid};
/// The Figure 5.8 orphan (Hartman et al.'s 10x10 Garden of Eden; ERRATA.md).
use lifesearch::search::known::GARDEN_OF_EDEN_10X10;

// ANCHOR: peak_alloc
/// The library's counting allocator, so the peak memory of one in-process
/// solver call can be measured (Table 6.3).
#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Run `f` and return its result with the peak heap growth (bytes) during it,
/// on this thread.
pub fn peak_heap<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = live_bytes();
    reset_peak();
    let v = f();
    (v, (peak_bytes() - base).max(0) as usize)
}
// ANCHOR_END: peak_alloc

/// A GRIDWALKER run: its answer and the lowest time of the runs, in microseconds.
pub struct Timed {
    pub answer: OrphanAnswer,
    pub micros: f64,
}

impl Timed {
    pub fn orphan(&self) -> bool {
        self.answer.predecessor.is_none()
    }
    pub fn stat(&self, name: &str) -> Option<u64> {
        self.answer.stats.get(name)
    }
}

/// Decide `spec` with `variant` `runs` times and keep the fastest. The
/// library checks every predecessor by simulation before returning it.
pub fn decide(spec: &SpecGrid, variant: Variant, runs: usize) -> Result<Timed> {
    let opts = Options { variant, convention: Convention::ThesisCode };
    let (best, answer) = best_of(runs, || decide_orphan(spec, &opts));
    Ok(Timed { answer: answer?, micros: best.as_secs_f64() * 1e6 })
}

// ANCHOR: db_session
/// The library's [`Session`] (one slice database for a whole sequence of
/// questions, as the thesis ran its candidates), timed call by call.
pub struct DbSession(Session);

impl Default for DbSession {
    fn default() -> Self {
        DbSession(Session::new(Rule::CONWAY))
    }
}

impl DbSession {
    /// One timed call on the shared store; see [`Session::decide`] for the counters.
    pub fn decide(&mut self, spec: &SpecGrid) -> Result<Timed> {
        self.fastest(spec, 1)
    }

    /// The fastest of `runs` calls on the store as it stands.
    pub fn fastest(&mut self, spec: &SpecGrid, runs: usize) -> Result<Timed> {
        let (best, answer) = best_of(runs, || self.0.decide(spec));
        Ok(Timed { answer: answer?, micros: best.as_secs_f64() * 1e6 })
    }
}
// ANCHOR_END: db_session

/// The middle value (the upper one of an even count; NaN when empty).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() { f64::NAN } else { v[v.len() / 2] }
}

/// One pattern of Table 6.1 (or our stand-in for a lost one).
pub struct Pattern {
    pub id: &'static str,
    pub description: &'static str,
    /// True where the thesis' pattern is lost and this one only plays its part.
    pub stand_in: bool,
    /// The thesis' "GoE?" column for this row.
    pub thesis_orphan: bool,
    pub spec: SpecGrid,
}

/// Table 6.1's patterns for this run (the first two in the smoke test's tiny mode).
pub fn patterns(ctx: &crate::harness::Ctx) -> Vec<Pattern> {
    table_6_1_patterns().into_iter().take(ctx.mode.pick(2, 8, 8)).collect()
}

// ANCHOR: table_6_1_patterns
/// Table 6.1's patterns: #1, #3, #4 are the thesis' (REPRODUCTION-NOTES); #2 and
/// #5-#8 are lost, so seeded stand-ins in the same spirit take their places.
pub fn table_6_1_patterns() -> Vec<Pattern> {
    use rand::{Rng, SeedableRng};
    let base = Grid::from_rows(&GARDEN_OF_EDEN_10X10).expect("valid rows");
    let edit = |x, y| {
        let mut g = base.clone();
        g.set(x, y, true);
        SpecGrid::from(&g)
    };
    let mut rng = rand_pcg::Pcg64::seed_from_u64(61);
    // #2: 10% larger: one more column of random cells (an orphan inside stays an orphan).
    let mut wide = Grid::new(11, 10);
    for (x, y) in base.live_cells() {
        wide.set(x, y, true);
    }
    for y in 0..10 {
        wide.set(10, y, rng.random_bool(0.5));
    }
    // #5: some cells left open, which gives the search room to find a parent.
    let mut open = SpecGrid::from(&base);
    for c in open.cells_mut() {
        if rng.random_bool(0.2) {
            *c = Cell::Unknown;
        }
    }
    // #6-#8: the orphan embedded at a random place in a random field.
    let mut embedded = |side: usize| {
        let mut g = Grid::random(side, side, 0.5, &mut rng);
        let (ox, oy) = (rng.random_range(0..=side - 10), rng.random_range(0..=side - 10));
        for y in 0..10 {
            for x in 0..10 {
                g.set(ox + x, oy + y, base.get(x, y));
            }
        }
        SpecGrid::from(&g)
    };
    let (e6, e7, e8) = (embedded(11), embedded(12), embedded(12));
    // The thesis' own patterns; the others stand in for lost ones.
    const THESIS: [&str; 3] = ["#1", "#3", "#4"];
    let pattern = |id, description, thesis_orphan, spec| Pattern {
        id,
        description,
        stand_in: !THESIS.contains(&id),
        thesis_orphan,
        spec,
    };
    vec![
        pattern("#1", "Figure 5.8 orphan", true, SpecGrid::from(&base)),
        pattern("#2", "#1 plus a random column (11x10)", true, SpecGrid::from(&wide)),
        pattern("#3", "#1 with (4,4) alive", false, edit(4, 4)),
        pattern("#4", "#1 with (2,0) alive", false, edit(2, 0)),
        pattern("#5", "#1 with 20% of cells unknown", false, open),
        pattern("#6", "#1 inside an 11x11 random field", true, e6),
        pattern("#7", "#1 inside a 12x12 random field", true, e7),
        pattern("#8", "#1 inside another 12x12 random field", true, e8),
    ]
}
// ANCHOR_END: table_6_1_patterns

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_have_the_documented_shapes() {
        let p = table_6_1_patterns();
        assert_eq!(p.len(), 8);
        assert_eq!((p[0].spec.width(), p[0].spec.height()), (10, 10));
        assert_eq!((p[1].spec.width(), p[1].spec.height()), (11, 10));
        assert_eq!(p[2].spec.to_rows()[4], "*..**.****");
        assert_eq!(p[3].spec.to_rows()[0], ".*****.*..");
        assert!(p[4].spec.cells().contains(&Cell::Unknown));
    }

    #[test]
    fn db_session_agrees_with_decide_orphan_and_warms_up() {
        let pats = table_6_1_patterns();
        let spec = &pats[3].spec; // #4: a non-orphan found after 10 probes
        let fresh = decide(spec, Variant::Db, 1).unwrap();
        let mut s = DbSession::default();
        let first = s.decide(spec).unwrap();
        assert_eq!(first.orphan(), fresh.orphan());
        for name in ["probes", "ns_queried", "ew_queried", "ns_added", "ew_added"] {
            assert_eq!(first.stat(name), fresh.stat(name), "{name}");
        }
        assert_eq!(first.stat("store_size"), fresh.stat("slices_added"));
        let second = s.decide(spec).unwrap();
        assert_eq!(second.stat("ns_queried"), first.stat("ns_queried"), "lookups depend on the pattern only");
        assert_eq!(second.stat("ns_added"), Some(0), "a warm store adds nothing");
    }

    #[test]
    fn peak_heap_sees_an_allocation() {
        let (v, peak) = peak_heap(|| vec![0u8; 1 << 20]);
        assert_eq!(v.len(), 1 << 20);
        assert!(peak >= 1 << 20);
    }
}
