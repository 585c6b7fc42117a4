//! Streams of candidates (the 125,000 of Figure 6.1): decide them in parallel.
//!
//! Book: Part II, chapter 5, section 5.4 (`book/src/thesis/ch5.md`).

use super::{Options, OrphanAnswer, decide_orphan};
use crate::life::SpecGrid;
use rayon::prelude::*;

// ANCHOR: decide_many
/// Decide every target on all cores; the answers come back in input order.
/// One failed question fails the whole call with its error: a batch never
/// quietly hands back fewer answers than it was asked for.
pub fn decide_many(targets: &[SpecGrid], options: &Options) -> crate::Result<Vec<OrphanAnswer>> {
    let tamper = crate::base::verify::tampering();
    targets
        .par_iter()
        .map(|t| crate::base::verify::with_tampering(tamper, || decide_orphan(t, options)))
        .collect()
}
// ANCHOR_END: decide_many
