//! Variables, literals and clauses: the alphabet every encoding and solver shares.
//!
//! Book: Part II, chapter 4, section 4.3.1 (`book/src/thesis/ch4.md`).

use std::fmt;

// ANCHOR: lit
/// A propositional variable, numbered from 0 (DIMACS numbers it from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Var(pub u32);

/// A variable or its negation, packed as `2 * var + negated` so that a literal
/// and its complement differ only in the lowest bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lit(u32);

/// A disjunction of literals.
pub type Clause = Vec<Lit>;
// ANCHOR_END: lit

/// The largest variable index we hand out: DIMACS literals must fit an `i32`.
pub const MAX_VAR: u32 = (i32::MAX - 1) as u32;

impl Var {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// The positive literal.
    #[inline]
    pub fn pos(self) -> Lit {
        Lit::new(self, false)
    }
    /// The negative literal.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Lit {
        Lit::new(self, true)
    }
    /// The literal that is true when the variable has value `value`.
    #[inline]
    pub fn lit(self, value: bool) -> Lit {
        Lit::new(self, !value)
    }
    /// The DIMACS number, from 1.
    #[inline]
    pub fn dimacs(self) -> i32 {
        self.0 as i32 + 1
    }
}

impl Lit {
    #[inline]
    pub fn new(var: Var, negated: bool) -> Lit {
        Lit(var.0 << 1 | negated as u32)
    }
    #[inline]
    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }
    #[inline]
    pub fn is_neg(self) -> bool {
        self.0 & 1 == 1
    }
    /// The signed DIMACS integer: `-3` for the negation of variable 2 (0-based).
    #[inline]
    pub fn dimacs(self) -> i32 {
        let v = self.var().dimacs();
        if self.is_neg() { -v } else { v }
    }
    /// The literal of a nonzero DIMACS integer.
    #[inline]
    pub fn from_dimacs(d: i32) -> Lit {
        debug_assert!(d != 0 && d != i32::MIN);
        Lit::new(Var(d.unsigned_abs() - 1), d < 0)
    }
    /// Is the literal true under an assignment of its variable?
    #[inline]
    pub fn holds(self, value: bool) -> bool {
        value != self.is_neg()
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    #[inline]
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.dimacs())
    }
}

/// Does a total assignment (indexed by variable) satisfy every clause?
pub fn satisfies(clauses: &[Clause], model: &[bool]) -> bool {
    clauses.iter().all(|c| c.iter().any(|l| model.get(l.var().index()).is_some_and(|&v| l.holds(v))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimacs_round_trip_and_negation() {
        for d in [1, -1, 2, -7, 1000, -123456] {
            let l = Lit::from_dimacs(d);
            assert_eq!(l.dimacs(), d);
            assert_eq!((!l).dimacs(), -d);
            assert_eq!(!!l, l);
            assert_eq!(l.var().dimacs(), d.abs());
        }
        assert!(Var(3).pos().holds(true) && Var(3).neg().holds(false));
    }
}
