//! SAT-LIFE-GRIDQUAD-CYCLE: like [`super::grid_cycle()`], for patterns that are
//! symmetric under both the horizontal and the vertical mirror. Only the
//! cells with 2x <= m + 1 and 2y <= n + 1 get variables; a literal of any
//! other cell is renamed to its mirror image when it is written.
//!
//! Book: Part I, SAT-LIFE-GRIDQUAD-CYCLE (`book/src/knuth/sat-life-gridquad-cycle.md`).

use super::Listing;
use super::encoder::{Bounds, Encoder, NEXT, Variant};
use super::grid_cycle::{Cage, check_args, rule_out_smaller_periods};
use super::var::Var;
use crate::error::Result;

// ANCHOR: quad
// ⟨Subroutines⟩
/// The cage with its two mirrors.
#[derive(Debug, Clone, Copy)]
struct Quad(Cage);

impl Quad {
    /// The representative of row x (and, with n, of column y): rows beyond
    /// the middle are reflected.
    fn reflect(v: i32, size: i32) -> i32 {
        if v + v > size + 1 { size + 1 - v } else { v }
    }
}

impl Variant for Quad {
    fn potentially_alive(&self, b: &Bounds, x: i32, y: i32) -> bool {
        self.0.potentially_alive(b, x, y)
    }
    /// Section 6*: plain literals (the extra variable too) are reflected
    /// into the quarter; counter variables keep their names.
    fn plain_var(&self, x: i32, y: i32, tt: usize, k: u8) -> Var {
        let (x, y) = (Quad::reflect(x, self.0.m), Quad::reflect(y, self.0.n));
        self.0.plain_var(x, y, tt, k)
    }
}
// ANCHOR_END: quad

/// The cell of the quarter whose variables stand for Knuth's cell (x, y) of
/// an m x n grid: read a gridquad model back with this.
pub fn quarter_cell(m: usize, n: usize, x: u32, y: u32) -> (u32, u32) {
    (Quad::reflect(x as i32, m as i32) as u32, Quad::reflect(y as i32, n as i32) as u32)
}

// ANCHOR: main
/// Section 2*: the header, the r transitions of the quarter with its cage,
/// and the clauses against smaller periods (which also forbid the empty grid
/// when r > 1).
pub fn listing(m: i64, n: i64, r: i64) -> Result<Listing> {
    let (m, n, r) = check_args(m, n, r)?;
    let cage = Cage { m: m as i32, n: n as i32, r };
    let mut enc = Encoder::new(Quad(cage), cage.bounds());
    for tt in 0..r {
        enc.tt = tt;
        for x in (0..).take_while(|&x| x + x <= cage.m + 1) {
            for y in (0..).take_while(|&y| y + y <= cage.n + 1) {
                if cage.obviously_dead(x, y) {
                    continue;
                }
                enc.a(x, y);
                enc.zprime(x, y);
                if !cage.pp(x, y) {
                    // keep the configuration caged, through outclause this time
                    enc.applit(x, y, true, NEXT);
                    enc.outclause();
                }
            }
        }
    }
    let quarter = || {
        let xs = (1..).take_while(|&x: &u32| (x + x) as usize <= m + 1);
        xs.flat_map(|x| (1..).take_while(|&y: &u32| (y + y) as usize <= n + 1).map(move |y| (x, y))).collect()
    };
    rule_out_smaller_periods(&mut enc, r, quarter);
    let header = Some(format!("~ sat-life-gridquad-cycle {m} {n} {r}"));
    Ok(Listing { header, clauses: enc.out })
}
// ANCHOR_END: main
