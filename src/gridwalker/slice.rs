//! A slice: the set of 3x3 past constellations that a future cell still allows
//! (thesis Section 5.1). Bit `i` stands for constellation `i`, whose pixel `p`
//! is alive exactly when bit `p` of `i` is set; where pixel `p` sits in the
//! window is the business of the [`Convention`](super::Convention).
//!
//! Book: Part II, chapter 5, section 5.1 (`book/src/thesis/ch5.md`).

use crate::life::Rule;

// ANCHOR: slice
/// 512 bits, one per constellation, as eight 64-bit words. Pixels 0-5 pick
/// the bit inside a word, pixels 6-8 pick the word: that split is what makes
/// folding and expanding cheap word operations.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Slice(pub [u64; 8]);
// ANCHOR_END: slice

impl std::fmt::Debug for Slice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Slice(count {}: ", self.count())?;
        for w in self.0.iter().rev() {
            write!(f, "{w:016x}")?;
        }
        write!(f, ")")
    }
}

impl Slice {
    /// No constellation allowed: a contradiction.
    pub const EMPTY: Slice = Slice([0; 8]);
    /// Every constellation allowed: an unknown future cell.
    pub const FULL: Slice = Slice([!0; 8]);

    /// The slice holding constellation `c` only.
    #[inline]
    pub fn unit(c: u16) -> Slice {
        let mut s = Slice::EMPTY;
        s.0[(c >> 6) as usize & 7] = 1 << (c & 63);
        s
    }

    /// Every constellation `c` with `keep(c)`.
    pub fn from_fn(keep: impl Fn(u16) -> bool) -> Slice {
        let mut s = Slice::EMPTY;
        for c in 0..512u16 {
            if keep(c) {
                s.insert(c);
            }
        }
        s
    }

    /// [`Slice::for_future`] for a dead and a live future cell, remembered per
    /// thread for the last rule asked: a candidate stream builds a store for
    /// every target, and rebuilding 1,024 constellations each time was 6% of
    /// deciding a 10x10 candidate.
    pub fn for_rule(rule: Rule) -> (Slice, Slice) {
        thread_local! {
            static LAST: std::cell::Cell<Option<(Rule, Slice, Slice)>> = const { std::cell::Cell::new(None) };
        }
        LAST.with(|last| match last.get() {
            Some((r, dead, live)) if r == rule => (dead, live),
            _ => {
                let (dead, live) = (Slice::for_future(rule, false), Slice::for_future(rule, true));
                last.set(Some((rule, dead, live)));
                (dead, live)
            }
        })
    }

    // ANCHOR: rule_slices
    /// The constellations whose centre (pixel 4 in every convention) is
    /// `alive_next` one generation later under `rule`: 140 for a live and 372
    /// for a dead Conway cell.
    pub fn for_future(rule: Rule, alive_next: bool) -> Slice {
        Slice::from_fn(|c| {
            let centre = (c >> 4) & 1 == 1;
            let neighbours = c.count_ones() - centre as u32;
            rule.next(centre, neighbours) == alive_next
        })
    }
    // ANCHOR_END: rule_slices

    /// The constellations in which pixel `p` is alive (the "on mask" of Section 5.1).
    pub fn pixel_on(p: usize) -> Slice {
        Slice::from_fn(|c| (c >> p) & 1 == 1)
    }

    #[inline]
    pub fn contains(&self, c: u16) -> bool {
        (self.0[(c >> 6) as usize & 7] >> (c & 63)) & 1 == 1
    }

    #[inline]
    pub fn insert(&mut self, c: u16) {
        self.0[(c >> 6) as usize & 7] |= 1 << (c & 63);
    }

    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().fold(0, |a, w| a | w) == 0
    }

    #[inline]
    pub fn and(&self, o: &Slice) -> Slice {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a &= b;
        }
        r
    }

    #[inline]
    pub fn or(&self, o: &Slice) -> Slice {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a |= b;
        }
        r
    }

    #[inline]
    pub fn not(&self) -> Slice {
        Slice(self.0.map(|w| !w))
    }

    /// Is every constellation of `self` also in `o`?
    #[inline]
    pub fn is_subset(&self, o: &Slice) -> bool {
        self.0.iter().zip(o.0.iter()).fold(0, |a, (x, y)| a | (x & !y)) == 0
    }

    /// The constellations, ascending: the order in which a pivot is tried.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some((i as u32 * 64 + b) as u16)
            })
        })
    }

    /// The only constellation of a unit slice.
    pub fn single(&self) -> Option<u16> {
        if self.count() == 1 { self.iter().next() } else { None }
    }

    /// How many constellations have pixel `p` on, and how many off (Figure 5.10).
    pub fn split(&self, p: usize) -> (u32, u32) {
        let on = self.and(&Slice::pixel_on(p)).count();
        (on, self.count() - on)
    }

    /// A pixel every remaining constellation agrees on (Table 5.1's "stuck" pixel).
    pub fn forced(&self, p: usize) -> Option<bool> {
        match self.split(p) {
            (0, 0) => None,
            (0, _) => Some(false),
            (_, 0) => Some(true),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conway_counts_are_140_and_372() {
        assert_eq!(Slice::for_future(Rule::CONWAY, true).count(), 140);
        assert_eq!(Slice::for_future(Rule::CONWAY, false).count(), 372);
        let l = Slice::for_future(Rule::HILIFE, true);
        assert_eq!(l.or(&Slice::for_future(Rule::HILIFE, false)), Slice::FULL);
        assert!(l.and(&Slice::for_future(Rule::HILIFE, false)).is_empty());
    }

    #[test]
    fn iter_and_unit_agree() {
        for c in [0u16, 1, 63, 64, 200, 511] {
            let u = Slice::unit(c);
            assert_eq!(u.iter().collect::<Vec<_>>(), vec![c]);
            assert_eq!(u.single(), Some(c));
            assert!(u.contains(c));
        }
        assert_eq!(Slice::FULL.iter().count(), 512);
        assert_eq!(Slice::pixel_on(4).count(), 256);
        assert_eq!(Slice::unit(16).forced(4), Some(true));
    }
}
