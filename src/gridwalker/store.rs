//! How a grid holds its slices. The plain store keeps the 64-byte slices in
//! the grid and confronts them directly; the database store (Section 6.2.4,
//! [`super::db`]) keeps 32-bit ids and memoises every confrontation. The solver
//! is written once against this trait.
//!
//! Book: Part II, chapter 5, section 5.2 (`book/src/thesis/ch5.md`).

use super::convention::Layout;
use super::slice::Slice;
use super::sliver::{
    Changed, Contradiction, expand_bottom, expand_column, expand_top, fold_bottom, fold_column, fold_top,
};
#[cfg(target_arch = "x86_64")]
use super::sliver::{expand_column_bmi2, expand_top_avx2, fold_bottom_avx2, fold_column_avx2, fold_top_avx2};
use crate::base::Counters;
use crate::life::{Cell, Rule};
use std::marker::PhantomData;

/// The result of confronting two stored slices (updated in place): what changed.
pub type Confronted = Result<Changed, Contradiction>;

pub trait SliceStore {
    type Id: Copy + Eq + std::fmt::Debug;
    /// The slice of a future cell: live, dead or unknown.
    fn initial(&mut self, cell: Cell) -> Self::Id;
    /// The unit slice of constellation `c`.
    fn unit(&mut self, c: u16) -> Self::Id;
    fn count(&self, id: Self::Id) -> u32;
    /// The slice's contents (a "slice query" in Table 6.5's terms).
    fn fetch(&mut self, id: Self::Id) -> Slice;
    /// The contents without counting it as a query (checks and reports).
    fn peek(&self, id: Self::Id) -> Slice;
    /// Confront a pair in place; `before(second, old)` sees each member just
    /// before it changes (the search's undo trail).
    fn confront_ew(
        &mut self,
        w: &mut Self::Id,
        e: &mut Self::Id,
        before: impl FnMut(bool, &Self::Id),
    ) -> Confronted;
    fn confront_ns(
        &mut self,
        n: &mut Self::Id,
        s: &mut Self::Id,
        before: impl FnMut(bool, &Self::Id),
    ) -> Confronted;
    /// Add the store's own counters to `c` (none, unless it keeps a database).
    fn count_into(&self, _c: &mut Counters) {}
}

// ANCHOR: held
/// A slice held by value with its four slivers: most confrontations late in
/// a solve change nothing, and with the slivers at hand that is one compare
/// (the two slivers are equal). The slivers are refolded as soon as the slice
/// changes, all but the one the confrontation just gave: computing them when
/// first needed instead cost a test on every use and was 12% slower on the
/// thesis' orphan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    slice: Slice,
    folds: [u64; 4],
}
// ANCHOR_END: held

// Which sliver: dropping the west column, the east column, the top row, the bottom row.
const WCOL: usize = 0;
const ECOL: usize = 1;
const TOP: usize = 2;
const BOTTOM: usize = 3;

impl Held {
    /// The constellations (read only: a change must refold the slivers).
    #[inline]
    pub fn slice(&self) -> &Slice {
        &self.slice
    }

    #[inline]
    fn new<L: Layout, const BMI2: bool>(slice: Slice) -> Held {
        let mut h = Held { slice, folds: [0; 4] };
        h.refold_but::<L, BMI2>(None);
        h
    }

    /// Fold the slice every way but `known` (constant where inlined, so the
    /// skipped fold costs nothing).
    #[inline(always)]
    fn refold_but<L: Layout, const BMI2: bool>(&mut self, known: Option<usize>) {
        if known != Some(WCOL) {
            self.folds[WCOL] = column::<BMI2>(&self.slice, L::WEST);
        }
        if known != Some(ECOL) {
            self.folds[ECOL] = column::<BMI2>(&self.slice, L::EAST);
        }
        if known != Some(TOP) {
            self.folds[TOP] = top::<BMI2>(&self.slice);
        }
        if known != Some(BOTTOM) {
            self.folds[BOTTOM] = bottom::<BMI2>(&self.slice);
        }
    }

    /// Cut the slice down to `mask`, after which its `which` sliver is `sliver`.
    #[inline(always)]
    fn cut<L: Layout, const BMI2: bool>(&mut self, which: usize, mask: Slice, sliver: u64) {
        self.slice = self.slice.and(&mask);
        self.folds[which] = sliver;
        self.refold_but::<L, BMI2>(Some(which));
    }
}

/// Fold a column, with AVX2 when the store was built for such a CPU.
#[inline(always)]
fn column<const BMI2: bool>(s: &Slice, b: usize) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: a `PlainStore<_, true>` is only made after detecting BMI2 and AVX2.
        return unsafe { fold_column_avx2(s, b) };
    }
    fold_column(s, b)
}

/// Fold the bottom row, with AVX2 when the store was built for such a CPU.
#[inline(always)]
fn bottom<const BMI2: bool>(s: &Slice) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: as in `column`.
        return unsafe { fold_bottom_avx2(s) };
    }
    fold_bottom(s)
}

/// Fold the top row, with AVX2 when the store was built for such a CPU.
#[inline(always)]
fn top<const BMI2: bool>(s: &Slice) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: as in `column`.
        return unsafe { fold_top_avx2(s) };
    }
    fold_top(s)
}

/// Expand the top row, with AVX2 when the store was built for such a CPU.
#[inline(always)]
fn untop<const BMI2: bool>(sliver: u64) -> Slice {
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: as in `column`.
        return unsafe { expand_top_avx2(sliver) };
    }
    expand_top(sliver)
}

/// Expand a column, with `pdep` when the store was built for a BMI2 CPU.
#[inline(always)]
fn uncolumn<const BMI2: bool>(sliver: u64, b: usize) -> Slice {
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: as in `column`.
        return unsafe { expand_column_bmi2(sliver, b) };
    }
    expand_column(sliver, b)
}

/// For each column (b = 0, 2) and sliver bit: every constellation whose
/// sliver is that bit, built at compile time. Cutting one sliver bit out of a
/// slice is then one AND-NOT instead of a whole expansion.
static COLUMN_BIT: [[Slice; 64]; 2] = column_bits();

const fn column_bits() -> [[Slice; 64]; 2] {
    let mut t = [[Slice::EMPTY; 64]; 2];
    let mut bit = 0;
    while bit < 64 {
        t[0][bit] = expand_column(1 << bit, 0);
        t[1][bit] = expand_column(1 << bit, 2);
        bit += 1;
    }
    t
}

/// Confront through cached slivers: `a` folds `fa`-wise, `b` folds `fb`-wise.
#[inline(always)]
fn confront_held<L: Layout, const BMI2: bool>(
    a: &mut Held,
    b: &mut Held,
    (fa, fb): (usize, usize),
    expand_a: impl Fn(u64, u64) -> Slice,
    expand_b: impl Fn(u64, u64) -> Slice,
    mut before: impl FnMut(bool, &Held),
) -> Confronted {
    let (sa, sb) = (a.folds[fa], b.folds[fb]);
    // Most confrontations late in a solve find the slivers equal: say so first.
    if sa == sb {
        return Ok(Changed::default());
    }
    let s = sa & sb;
    if s == 0 {
        return Err(Contradiction);
    }
    let ch = Changed { first: sa != s, second: sb != s };
    if ch.first {
        before(false, a);
        a.cut::<L, BMI2>(fa, expand_a(s, sa & !s), s);
    }
    if ch.second {
        before(true, b);
        b.cut::<L, BMI2>(fb, expand_b(s, sb & !s), s);
    }
    Ok(ch)
}

/// What a column cut keeps: when a single sliver bit goes, everything but
/// that bit's constellations (a table look-up); otherwise the expansion.
#[inline(always)]
fn column_keep<const BMI2: bool>(s: u64, removed: u64, b: usize) -> Slice {
    if removed & (removed - 1) == 0 {
        COLUMN_BIT[b / 2][removed.trailing_zeros() as usize].not()
    } else {
        uncolumn::<BMI2>(s, b)
    }
}

/// Slices held by value (with cached slivers). `BMI2`: fold and expand
/// columns with `pext`/`pdep` and rows with AVX2 compares and shuffles; only
/// [`PlainStore::detect`] sets it, after checking the CPU has both.
#[derive(Debug, Clone, Copy)]
pub struct PlainStore<L, const BMI2: bool = false> {
    dead: Slice,
    live: Slice,
    layout: PhantomData<L>,
}

impl<L: Layout> PlainStore<L, false> {
    pub fn new(rule: Rule) -> Self {
        let (dead, live) = Slice::for_rule(rule);
        PlainStore { dead, live, layout: PhantomData }
    }
}

impl<L: Layout> PlainStore<L, true> {
    /// A store using BMI2 and AVX2, if this CPU has them.
    pub fn detect(rule: Rule) -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("avx2") {
            let PlainStore { dead, live, layout } = PlainStore::<L, false>::new(rule);
            return Some(PlainStore { dead, live, layout });
        }
        let _ = rule;
        None
    }
}

impl<L: Layout, const BMI2: bool> SliceStore for PlainStore<L, BMI2> {
    type Id = Held;
    fn initial(&mut self, cell: Cell) -> Held {
        Held::new::<L, BMI2>(match cell {
            Cell::Dead => self.dead,
            Cell::Alive => self.live,
            Cell::Unknown => Slice::FULL,
        })
    }
    fn unit(&mut self, c: u16) -> Held {
        Held::new::<L, BMI2>(Slice::unit(c))
    }
    #[inline]
    fn count(&self, id: Held) -> u32 {
        id.slice.count()
    }
    fn fetch(&mut self, id: Held) -> Slice {
        id.slice
    }
    fn peek(&self, id: Held) -> Slice {
        id.slice
    }
    #[inline(always)]
    fn confront_ew(&mut self, w: &mut Held, e: &mut Held, before: impl FnMut(bool, &Held)) -> Confronted {
        confront_held::<L, BMI2>(
            w,
            e,
            (WCOL, ECOL),
            |s, removed| column_keep::<BMI2>(s, removed, L::WEST),
            |s, removed| column_keep::<BMI2>(s, removed, L::EAST),
            before,
        )
    }
    #[inline(always)]
    fn confront_ns(&mut self, n: &mut Held, s: &mut Held, before: impl FnMut(bool, &Held)) -> Confronted {
        confront_held::<L, BMI2>(
            n,
            s,
            (TOP, BOTTOM),
            |x, _| untop::<BMI2>(x),
            |x, _| expand_bottom(x),
            before,
        )
    }
}

// ANCHOR: folding_store
/// Slices held bare: every confrontation folds both members afresh, as the
/// thesis' program did. The same answers and counts as [`PlainStore`]; it
/// exists to measure what the cached slivers buy (chapter 6 explains two
/// differences from the thesis by that cost).
#[derive(Debug, Clone, Copy)]
pub struct FoldingStore<L> {
    dead: Slice,
    live: Slice,
    layout: PhantomData<L>,
}

impl<L: Layout> FoldingStore<L> {
    pub fn new(rule: Rule) -> Self {
        let (dead, live) = Slice::for_rule(rule);
        FoldingStore { dead, live, layout: PhantomData }
    }
}

/// Log the members a confrontation changed, with their values before it.
fn logged(ch: Changed, a: &Slice, b: &Slice, mut before: impl FnMut(bool, &Slice)) -> Changed {
    if ch.first {
        before(false, a);
    }
    if ch.second {
        before(true, b);
    }
    ch
}

impl<L: Layout> SliceStore for FoldingStore<L> {
    type Id = Slice;
    fn initial(&mut self, cell: Cell) -> Slice {
        match cell {
            Cell::Dead => self.dead,
            Cell::Alive => self.live,
            Cell::Unknown => Slice::FULL,
        }
    }
    fn unit(&mut self, c: u16) -> Slice {
        Slice::unit(c)
    }
    fn count(&self, id: Slice) -> u32 {
        id.count()
    }
    fn fetch(&mut self, id: Slice) -> Slice {
        id
    }
    fn peek(&self, id: Slice) -> Slice {
        id
    }
    fn confront_ew(&mut self, w: &mut Slice, e: &mut Slice, before: impl FnMut(bool, &Slice)) -> Confronted {
        let (ow, oe) = (*w, *e);
        Ok(logged(super::sliver::confront_ew::<L>(w, e)?, &ow, &oe, before))
    }
    fn confront_ns(&mut self, n: &mut Slice, s: &mut Slice, before: impl FnMut(bool, &Slice)) -> Confronted {
        let (on, os) = (*n, *s);
        Ok(logged(super::sliver::confront_ns(n, s)?, &on, &os, before))
    }
}
// ANCHOR_END: folding_store

#[cfg(test)]
mod column_bit_tests {
    use super::*;

    /// The shortcut's law: when folding a slice gives `sa` and the
    /// confrontation leaves `s` = `sa` without one bit, cutting that bit's
    /// constellations out equals ANDing with the expansion of `s`.
    #[test]
    fn a_single_bit_cut_equals_the_expansion_cut() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..2000 {
            let b = if round % 2 == 0 { 0 } else { 2 };
            // Sparse and dense slices alike.
            let slice = Slice(std::array::from_fn(|_| if round % 3 == 0 { next() & next() } else { next() }));
            let sa = fold_column(&slice, b);
            if sa == 0 {
                continue;
            }
            let removed = 1u64 << (next() % 64);
            let s = sa & !removed;
            if s == sa || s == 0 {
                // Nothing removed (no cut), or nothing left (a contradiction, no cut either).
                continue;
            }
            let keep = column_keep::<false>(s, sa & !s, b);
            assert_eq!(slice.and(&keep), slice.and(&expand_column(s, b)), "round {round}");
        }
    }
}
