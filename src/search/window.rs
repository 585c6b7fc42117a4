//! The direct "window" encoding of one Life step: for a cell whose next state
//! is `target`, forbid every assignment of its 3x3 parent window that gives
//! the other state. A known live cell forbids the 372 windows that leave it
//! dead, a known dead cell the 140 windows that make it live; an unknown
//! target (a literal) gets all 512, each with the target literal added. No
//! auxiliary variables, and any Life-like rule works.
//!
//! Book: Part II, chapter 4, section 4.3.1 (`book/src/thesis/ch4.md`).

use crate::cnf::{Clause, Lit};
use crate::life::Rule;

// ANCHOR: term
/// A cell's value in an encoding: a constant (dead outside a cage) or a literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Term {
    Const(bool),
    Lit(Lit),
}
// ANCHOR_END: term

/// The window's bit `i` is cell `i` of the 3x3 block, row-major, centre = bit 4.
#[inline]
pub fn window_next(rule: Rule, window: u16) -> bool {
    let centre = window >> 4 & 1 == 1;
    let neighbours = (window & !(1 << 4)).count_ones();
    rule.next(centre, neighbours)
}

// ANCHOR: window_clauses
/// The clauses saying "the cell whose 3x3 parent window is `window` (row-major)
/// becomes `target`". Constants are folded in: a window that disagrees with a
/// constant cell needs no clause, and agreeing constants drop out.
pub fn window_clauses(rule: Rule, window: &[Term; 9], target: Term, out: &mut Vec<Clause>) {
    'windows: for w in 0u16..512 {
        let next = window_next(rule, w);
        let mut clause = Vec::with_capacity(10);
        match target {
            Term::Const(t) if t == next => continue, // this window is allowed
            Term::Const(_) => {}
            Term::Lit(t) => clause.push(if next { t } else { !t }),
        }
        for (i, cell) in window.iter().enumerate() {
            let bit = w >> i & 1 == 1;
            match *cell {
                Term::Const(c) if c != bit => continue 'windows, // cannot happen
                Term::Const(_) => {}
                // "not this window": the cell differs from the window's bit.
                Term::Lit(l) => clause.push(if bit { !l } else { l }),
            }
        }
        out.push(clause);
    }
}
// ANCHOR_END: window_clauses

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::Var;

    #[test]
    fn clause_counts_140_372_512() {
        let window: [Term; 9] = std::array::from_fn(|i| Term::Lit(Var(i as u32).pos()));
        for (target, n) in
            [(Term::Const(true), 372), (Term::Const(false), 140), (Term::Lit(Var(9).pos()), 512)]
        {
            let mut out = Vec::new();
            window_clauses(Rule::CONWAY, &window, target, &mut out);
            assert_eq!(out.len(), n);
        }
    }

    /// The clauses hold exactly for the windows whose successor matches.
    #[test]
    fn clauses_agree_with_the_rule() {
        let window: [Term; 9] = std::array::from_fn(|i| Term::Lit(Var(i as u32).pos()));
        for rule in [Rule::CONWAY, Rule::HILIFE] {
            let mut out = Vec::new();
            window_clauses(rule, &window, Term::Lit(Var(9).pos()), &mut out);
            for w in 0u16..512 {
                for t in [false, true] {
                    let model: Vec<bool> = (0..9).map(|i| w >> i & 1 == 1).chain([t]).collect();
                    let ok = crate::cnf::lit::satisfies(&out, &model);
                    assert_eq!(ok, window_next(rule, w) == t, "w={w} t={t}");
                }
            }
        }
    }
}
