//! SAT-LIFE-GRID-CYCLE: the change file that turns SAT-LIFE into a search
//! for a period-r oscillator caged in an m x n grid. Only the starred
//! sections differ; the counters of sections 8-15 are reused unchanged.
//!
//! Knuth's x runs over the m rows and y over the n columns, both from 1.
//!
//! Book: Part I, SAT-LIFE-GRID-CYCLE (`book/src/knuth/sat-life-grid-cycle.md`).

use super::encoder::{Bounds, Encoder, Style, Variant};
use super::var::Var;
use super::{Listing, coord};
use crate::error::{Error, Result};

// ANCHOR: command_line
// ⟨Process the command line⟩
/// Section 3*: the period needs a time letter for each of 0..r-1.
pub const MAX_R: usize = 84;

/// The largest grid side we accept: C's arrays stopped at 50; the limit here
/// only keeps coordinates far from overflow.
pub const MAX_SIDE: usize = 1 << 16;

/// Check m, n and r as the command line gives them.
pub fn check_args(m: i64, n: i64, r: i64) -> Result<(usize, usize, usize)> {
    for (name, v) in [("m", m), ("n", n)] {
        if v < 0 || v > MAX_SIDE as i64 {
            return Err(Error::invalid(format!(
                "The grid size {name} should be between 0 and {MAX_SIDE} (not {v})!"
            )));
        }
    }
    if !(0..=MAX_R as i64).contains(&r) {
        return Err(Error::invalid(format!("The period should be between 0 and 84 (not {r})!")));
    }
    Ok((m as usize, n as usize, r as usize))
}
// ANCHOR_END: command_line

// ANCHOR: cage
// ⟨If cell (x, y) is obviously dead at time t + 1, continue⟩
/// The m x n cage. Section 5*'s `pp` is 1 exactly inside it, and section 7*
/// uses the same test.
#[derive(Debug, Clone, Copy)]
pub struct Cage {
    pub m: i32,
    pub n: i32,
    pub r: usize,
}

impl Cage {
    pub fn pp(&self, x: i32, y: i32) -> bool {
        x >= 1 && x <= self.m && y >= 1 && y <= self.n
    }
    /// Section 5*: fewer than three cells of the 3x3 block lie in the cage.
    pub fn obviously_dead(&self, x: i32, y: i32) -> bool {
        let block = (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (x + dx, y + dy)));
        block.filter(|&(i, j)| self.pp(i, j)).count() < 3
    }
    pub fn bounds(&self) -> Bounds {
        Bounds { xmin: 1, xmax: self.m, ymin: 1, ymax: self.n }
    }
}
// ANCHOR_END: cage

impl Variant for Cage {
    // ANCHOR: alive
    // ⟨Subroutines⟩
    /// Section 7*: alive only inside the cage.
    fn potentially_alive(&self, _b: &Bounds, x: i32, y: i32) -> bool {
        self.pp(x, y)
    }
    // ANCHOR_END: alive
    // ANCHOR: naming
    // ⟨Subroutines⟩
    /// Section 6*: time t + k wraps around to 0 after r - 1.
    fn plain_var(&self, x: i32, y: i32, tt: usize, k: u8) -> Var {
        if k == super::encoder::EXTRA {
            Var::extra(coord(x), tt, coord(y))
        } else {
            Var::cell(coord(x), (tt + k as usize) % self.r, coord(y))
        }
    }
    // ANCHOR_END: naming
}

// ANCHOR: main
/// Section 2*: the header, the not-all-dead clause, the r transitions
/// with the cage, and the clauses against smaller periods.
pub fn listing(m: i64, n: i64, r: i64) -> Result<Listing> {
    let (m, n, r) = check_args(m, n, r)?;
    let cage = Cage { m: m as i32, n: n as i32, r };
    let mut enc = Encoder::new(cage, cage.bounds());
    avoid_all_dead(&mut enc, m, n);
    for tt in 0..r {
        enc.tt = tt;
        for x in 0..=cage.m + 1 {
            for y in 0..=cage.n + 1 {
                if cage.obviously_dead(x, y) {
                    continue;
                }
                enc.a(x, y);
                enc.zprime(x, y);
                if !cage.pp(x, y) {
                    // keep the configuration caged
                    let z = Var::cell(coord(x), (tt + 1) % r, coord(y));
                    enc.emit(vec![z.negative()], Style::Bare);
                }
            }
        }
    }
    let all = || (1..=m as u32).flat_map(|x| (1..=n as u32).map(move |y| (x, y))).collect();
    rule_out_smaller_periods(&mut enc, r, all);
    let header = Some(format!("~ sat-life-grid-cycle {m} {n} {r}"));
    Ok(Listing { header, clauses: enc.out })
}
// ANCHOR_END: main

// ANCHOR: all_dead
// ⟨Avoid an all-dead grid⟩
/// Section 16*: some cell is alive at time 0.
fn avoid_all_dead<V: Variant>(enc: &mut Encoder<V>, m: usize, n: usize) {
    let cells = (1..=m).flat_map(|x| (1..=n).map(move |y| Var::cell(x as u32, 0, y as u32).positive()));
    enc.emit(cells.collect(), Style::Spaced);
}
// ANCHOR_END: all_dead

// ANCHOR: periods
// ⟨Rule out smaller periods⟩
/// Section 17*: for each proper divisor k of r, some cell of generation k
/// differs from generation 0. `D` = "differs at (x, y)" needs only the two
/// clauses that make D imply a difference; `cells` lists the (x, y) to use.
pub fn rule_out_smaller_periods<V: Variant>(
    enc: &mut Encoder<V>,
    r: usize,
    cells: impl Fn() -> Vec<(u32, u32)>,
) {
    for k in (1..r).filter(|&k| r.is_multiple_of(k)) {
        for (x, y) in cells() {
            let (z0, zk, d) = (Var::cell(x, 0, y), Var::cell(x, k, y), Var::diff(x, k, y));
            enc.emit(vec![z0.positive(), zk.positive(), d.negative()], Style::Bare);
            enc.emit(vec![z0.negative(), zk.negative(), d.negative()], Style::Bare);
        }
        let ds = cells().into_iter().map(|(x, y)| Var::diff(x, k, y).positive()).collect();
        enc.emit(ds, Style::Spaced);
    }
}
// ANCHOR_END: periods
