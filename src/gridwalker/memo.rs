//! Failed subproblems: the key of the grid's undecided slices, so that the
//! search can skip a subproblem that failed once (why that is sound: the book).
//!
//! Book: Part IV, "A GRIDWALKER that never loses badly", section "What fixes it"
//! (`book/src/beyond/robust.md`).

use super::convention::Layout;
use super::grid::Solver;
use super::store::SliceStore;

impl<S: SliceStore, L: Layout> Solver<S, L> {
    // ANCHOR: subproblem_key
    /// A 128-bit hash of the undecided slices and where they are. Two lanes
    /// of multiply-xorshift mixing: a collision would prune a live branch,
    /// and with 128 bits its chance over a search of 10^9 nodes is below 10^-20.
    pub(crate) fn subproblem_key(&self) -> u128 {
        let (mut a, mut b) = (0x243f_6a88_85a3_08d3u64, 0x1319_8a2e_0370_7344u64);
        for (i, &id) in self.cells.iter().enumerate() {
            if self.store.count(id) == 1 {
                continue;
            }
            let s = self.store.peek(id);
            a = mix(a ^ i as u64, 0x9e37_79b9_7f4a_7c15);
            b = mix(b ^ i as u64, 0xc2b2_ae3d_27d4_eb4f);
            for w in s.0 {
                a = mix(a ^ w, 0x9e37_79b9_7f4a_7c15);
                b = mix(b ^ w.rotate_left(29), 0xc2b2_ae3d_27d4_eb4f);
            }
        }
        (a as u128) << 64 | b as u128
    }
    // ANCHOR_END: subproblem_key
}

#[inline(always)]
fn mix(x: u64, k: u64) -> u64 {
    let x = x.wrapping_mul(k);
    x ^ (x >> 31)
}
