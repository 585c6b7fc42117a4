//! The inputs that several experiments share, in one place, so that no
//! experiment imports another: the Gray walks of Figure 6.3 and the
//! differences, and the mapping of Table 6.2's rows (the candidate ranking
//! itself is in [`crate::candidates`], the small patterns in `exp::gw`).

use crate::thesis::Table62;
use anyhow::{Result, bail};
use lifesearch::life::Grid;
use rand::Rng;

/// The side of the Gray-walk patterns, the thesis' 10x10.
pub const SIDE: usize = 10;

// ANCHOR: gray_patterns
/// `count` patterns in Gray-code order from a random start: step i flips the
/// cell numbered by the lowest set bit of i, so neighbours differ in one cell.
/// Patterns with under 40% or over 80% live cells are skipped.
pub fn gray_patterns(count: usize, rng: &mut impl Rng) -> Vec<Grid> {
    let n = SIDE * SIDE;
    let mut g = Grid::random(SIDE, SIDE, 0.6, rng);
    let mut out = Vec::with_capacity(count);
    let mut i = 0u64;
    while out.len() < count {
        let pop = g.population();
        if pop * 10 >= n * 4 && pop * 10 <= n * 8 {
            out.push(g.clone());
        }
        i += 1;
        let bit = (i.trailing_zeros() as usize) % n;
        let (x, y) = (bit % SIDE, bit / SIDE);
        g.set(x, y, !g.get(x, y));
    }
    out
}
// ANCHOR_END: gray_patterns

// ANCHOR: thesis_rows
/// The thesis' row for each of our bases (1-based, in generation order),
/// derived from the thesis' data and the construction alone, never from our
/// own verdicts or timings. The thesis' notes say its four non-orphans are
/// one pattern four times and that the table lists them first; its "GoE?"
/// column says which rows those are. Among our bases exactly one pattern
/// occurs that many times: its copies take the non-orphan rows, and the other
/// bases, in generation order, the orphan rows. A test checks the result
/// against the thesis' own timings (its rows with equal times must hold
/// identical patterns in ours, and no others).
pub fn thesis_rows(bases: &[Grid], thesis: &[Table62]) -> Result<Vec<usize>> {
    let plain: Vec<usize> = thesis.iter().filter(|r| !r.orphan()).map(|r| r.row).collect();
    let orphans: Vec<usize> = thesis.iter().filter(|r| r.orphan()).map(|r| r.row).collect();
    if bases.len() != thesis.len() {
        bail!("{} bases for the thesis' {} rows", bases.len(), thesis.len());
    }
    let copies = |i: usize| bases.iter().filter(|b| **b == bases[i]).count();
    let repeated: Vec<usize> = (0..bases.len()).filter(|&i| copies(i) == plain.len()).collect();
    if repeated.len() != plain.len() || repeated.iter().any(|&i| bases[i] != bases[repeated[0]]) {
        bail!(
            "no single pattern occurs {} times among the bases, as the thesis' non-orphans do",
            plain.len()
        );
    }
    let mut row = vec![0; bases.len()];
    for (&i, &r) in repeated.iter().zip(&plain) {
        row[i] = r;
    }
    let rest = (0..bases.len()).filter(|i| !repeated.contains(i));
    for (i, &r) in rest.zip(&orphans) {
        row[i] = r;
    }
    Ok(row)
}
// ANCHOR_END: thesis_rows
