//! The rule table: for one cell's constraint (its 3x3 neighbourhood at
//! generation t and its state at t+1), what the known cells force, settled
//! by a single lookup.
//!
//! The key is (live neighbours, unknown neighbours, centre state, successor
//! state); which of the unknown neighbours are alive does not matter to a
//! Life-like (totalistic) rule, so 9 x 9 x 3 x 3 = 729 entries cover every
//! case. An entry is computed by trying every completion, so it is exact
//! for the centre and successor; for the neighbours it forces only "all
//! unknown neighbours alive" or "all dead", which is what one count can say.
//!
//! Book: Part II, chapter 6, "A space-time propagation engine" (`book/src/knuth/spacetime.md`).

use crate::error::{Error, Result};
use crate::life::Rule;

/// A cell's state in the search: dead, alive or not yet known.
pub const DEAD: u8 = 0;
pub const ALIVE: u8 = 1;
pub const UNKNOWN: u8 = 2;

// ANCHOR: actions
/// What a table entry says, as bits.
pub const CONFLICT: u8 = 1;
pub const FORCE_SUCC: u8 = 2;
pub const SUCC_ALIVE: u8 = 4;
pub const FORCE_CENTRE: u8 = 8;
pub const CENTRE_ALIVE: u8 = 16;
pub const FORCE_NBRS: u8 = 32;
pub const NBRS_ALIVE: u8 = 64;
// ANCHOR_END: actions

/// Added to the key of a cell that constrains nothing (a predecessor
/// search's cells outside the target): past every real key (they are below
/// 729) and a multiple of 9, so the centre and successor digits stay where
/// the checks read them, and the table says nothing there.
pub const INACTIVE: u16 = 81 * 13;

/// The precomputed table of one rule.
#[derive(Debug, Clone)]
pub struct RuleTable {
    /// 729 entries, padded to a power of two so that a masked key needs no
    /// bounds check; keys from [`INACTIVE`] up read zeros (nothing to say).
    entries: [u8; 2048],
}

/// The table's index of a constraint's situation.
#[inline]
pub fn key(alive: usize, unknown: usize, centre: u8, succ: u8) -> usize {
    ((alive * 9 + unknown) * 3 + centre as usize) * 3 + succ as usize
}

/// The same from a cell's neighbour byte, 9 x alive + unknown.
#[inline]
pub fn key_of(nbrs: u8, centre: u8, succ: u8) -> usize {
    (nbrs as usize * 3 + centre as usize) * 3 + succ as usize
}

impl RuleTable {
    /// [`RuleTable::new`], kept per thread for the last rule asked: a search
    /// that ends in microseconds should not spend them rebuilding the table.
    pub fn cached(rule: Rule) -> Result<RuleTable> {
        thread_local! {
            static LAST: std::cell::RefCell<Option<(Rule, RuleTable)>> = const { std::cell::RefCell::new(None) };
        }
        LAST.with_borrow_mut(|last| match last {
            Some((r, t)) if *r == rule => Ok(t.clone()),
            _ => {
                let t = RuleTable::new(rule)?;
                *last = Some((rule, t.clone()));
                Ok(t)
            }
        })
    }

    // ANCHOR: build
    /// Build the table by trying every completion of every situation.
    /// Rules with B0 are refused: there the empty plane is not stable and a
    /// caged pattern has no dead surroundings to lean on.
    pub fn new(rule: Rule) -> Result<RuleTable> {
        if rule.next(false, 0) {
            return Err(Error::invalid(format!(
                "rule {rule} has B0 (empty space comes alive), which the space-time engine cannot search"
            )));
        }
        let mut entries = [0u8; 2048];
        for alive in 0..=8usize {
            for unknown in 0..=8 - alive {
                // consistent[c][s]: the numbers k of unknown neighbours alive
                // (as bits) with which a centre c has successor s.
                let mut consistent = [[0u16; 2]; 2];
                for (c, by_succ) in consistent.iter_mut().enumerate() {
                    for k in 0..=unknown {
                        let s = rule.next(c == 1, (alive + k) as u32) as usize;
                        by_succ[s] |= 1 << k;
                    }
                }
                for centre in [DEAD, ALIVE, UNKNOWN] {
                    for succ in [DEAD, ALIVE, UNKNOWN] {
                        entries[key(alive, unknown, centre, succ)] =
                            Self::entry(&consistent, unknown, centre, succ);
                    }
                }
            }
        }
        Ok(RuleTable { entries })
    }

    /// One entry: which values each unknown part takes over the completions
    /// that agree with the known centre and successor.
    fn entry(consistent: &[[u16; 2]; 2], unknown: usize, centre: u8, succ: u8) -> u8 {
        let values = |v: u8| if v == UNKNOWN { 0..2 } else { v as usize..v as usize + 1 };
        let (mut succ_seen, mut centre_seen, mut ks) = ([false; 2], [false; 2], 0u16);
        for c in values(centre) {
            for s in values(succ) {
                if consistent[c][s] != 0 {
                    succ_seen[s] = true;
                    centre_seen[c] = true;
                    ks |= consistent[c][s];
                }
            }
        }
        if ks == 0 {
            return CONFLICT;
        }
        let (k_zero, k_full) = (ks & 1 != 0, ks >> unknown & 1 != 0);
        let k_between = ks & !(1 | 1 << unknown) != 0;
        let mut out = 0;
        if succ == UNKNOWN && succ_seen[0] != succ_seen[1] {
            out |= FORCE_SUCC | if succ_seen[1] { SUCC_ALIVE } else { 0 };
        }
        if centre == UNKNOWN && centre_seen[0] != centre_seen[1] {
            out |= FORCE_CENTRE | if centre_seen[1] { CENTRE_ALIVE } else { 0 };
        }
        if unknown > 0 && !k_between && k_zero != k_full {
            out |= FORCE_NBRS | if k_full { NBRS_ALIVE } else { 0 };
        }
        out
    }
    // ANCHOR_END: build

    #[inline]
    pub fn get(&self, key: usize) -> u8 {
        self.entries[key & 2047]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slow twin: every assignment of 8 neighbours, centre and successor
    /// that agrees with the known ones; the table's forcing must hold in all
    /// of them, and a conflict must mean there is none.
    #[test]
    fn table_agrees_with_brute_force() {
        for rule in [Rule::CONWAY, Rule::HILIFE, "B36/S125".parse().unwrap()] {
            let t = RuleTable::new(rule).unwrap();
            for alive in 0..=8usize {
                for unknown in 0..=8 - alive {
                    for centre in [DEAD, ALIVE, UNKNOWN] {
                        for succ in [DEAD, ALIVE, UNKNOWN] {
                            let e = t.get(key(alive, unknown, centre, succ));
                            let mut models = Vec::new();
                            for bits in 0u32..1 << unknown {
                                for c in [false, true] {
                                    if centre != UNKNOWN && (centre == ALIVE) != c {
                                        continue;
                                    }
                                    let n = (alive as u32) + bits.count_ones();
                                    let s = rule.next(c, n);
                                    if succ != UNKNOWN && (succ == ALIVE) != s {
                                        continue;
                                    }
                                    models.push((bits, c, s));
                                }
                            }
                            assert_eq!(e & CONFLICT != 0, models.is_empty());
                            for &(bits, c, s) in &models {
                                if e & FORCE_SUCC != 0 {
                                    assert_eq!(s, e & SUCC_ALIVE != 0);
                                }
                                if e & FORCE_CENTRE != 0 {
                                    assert_eq!(c, e & CENTRE_ALIVE != 0);
                                }
                                if e & FORCE_NBRS != 0 {
                                    let want = if e & NBRS_ALIVE != 0 { (1 << unknown) - 1 } else { 0 };
                                    assert_eq!(bits, want);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn b0_is_refused() {
        let err = RuleTable::new("B03/S23".parse().unwrap()).unwrap_err();
        assert!(err.to_string().contains("B0"), "{err}");
    }
}
