//! A set of up to 256 parent columns (or rows): one bit per possible column
//! of at most eight cells. Every state set of the automaton is built from these,
//! so that one transition is a handful of word operations instead of a loop
//! over columns.
//!
//! Book: Part IV, "An exhaustive orphan census" (`book/src/beyond/census.md`).

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign};

// ANCHOR: mask
/// 256 bits, bit `c` standing for the column (or row) whose cells are the bits of `c`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(align(32))]
pub struct Mask(pub [u64; 4]);
// ANCHOR_END: mask

/// The members of a bitset of any length, in increasing order: bit `b` of
/// word `i` stands for `64 i + b` (a [`Mask`] and the width search's larger
/// state sets alike).
pub fn ones(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(i, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                i * 64 + b
            })
        })
    })
}

impl Mask {
    pub const EMPTY: Mask = Mask([0; 4]);

    /// The first `n` values (0..n), for n <= 256.
    pub fn below(n: usize) -> Mask {
        let mut m = Mask::EMPTY;
        for (i, w) in m.0.iter_mut().enumerate() {
            let lo = i * 64;
            *w = if n >= lo + 64 {
                u64::MAX
            } else if n > lo {
                (1u64 << (n - lo)) - 1
            } else {
                0
            };
        }
        m
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }
    #[inline]
    pub fn contains(&self, c: usize) -> bool {
        (self.0[c >> 6] >> (c & 63)) & 1 == 1
    }
    #[inline]
    pub fn insert(&mut self, c: usize) {
        self.0[c >> 6] |= 1 << (c & 63);
    }
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// Do the two sets share a member?
    #[inline]
    pub fn meets(&self, other: &Mask) -> bool {
        ((self.0[0] & other.0[0])
            | (self.0[1] & other.0[1])
            | (self.0[2] & other.0[2])
            | (self.0[3] & other.0[3]))
            != 0
    }
    /// The members, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        ones(&self.0)
    }
    /// The smallest member.
    pub fn first(&self) -> Option<usize> {
        self.iter().next()
    }
}

impl BitAnd for Mask {
    type Output = Mask;
    #[inline]
    fn bitand(self, o: Mask) -> Mask {
        Mask([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2], self.0[3] & o.0[3]])
    }
}
impl BitOr for Mask {
    type Output = Mask;
    #[inline]
    fn bitor(self, o: Mask) -> Mask {
        Mask([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2], self.0[3] | o.0[3]])
    }
}
impl BitAndAssign for Mask {
    #[inline]
    fn bitand_assign(&mut self, o: Mask) {
        *self = *self & o;
    }
}
impl BitOrAssign for Mask {
    #[inline]
    fn bitor_assign(&mut self, o: Mask) {
        *self = *self | o;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_round_trip() {
        let mut m = Mask::EMPTY;
        for c in [0, 5, 63, 64, 130, 255] {
            m.insert(c);
        }
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![0, 5, 63, 64, 130, 255]);
        assert_eq!(m.count(), 6);
        assert!(m.contains(130) && !m.contains(131));
        assert_eq!(Mask::below(70).count(), 70);
        assert_eq!(Mask::below(256).count(), 256);
        assert!(Mask::below(0).is_empty());
        assert!(m.meets(&Mask::below(1)) && !m.meets(&Mask([0b10, 0, 0, 0])));
    }
}
