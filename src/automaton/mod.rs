//! Beyond the thesis: a row automaton that decides narrow patterns in
//! milliseconds, and an exhaustive census of the orphans that fit in small
//! boxes, for any Life-like rule.
//!
//! A W x H target with every cell given is an *orphan* when no (W+2) x (H+2)
//! parent evolves into it, the cells around the target being unconstrained.
//!
//! Book: Part IV, "An exhaustive orphan census" (`book/src/beyond/census.md`)
//! and "Orphans of every width" (`book/src/beyond/width.md`).

pub mod census;
pub mod certificate;
pub mod checkpoint;
pub mod checksum;
pub mod family;
pub mod lookahead;
pub mod lookahead_check;
pub mod mask;
pub mod meet;
pub mod shard;
pub mod solve;
pub mod table;
pub mod width;

pub use census::{Census, CensusOptions, census};
pub use solve::{AutomatonAnswer, decide};
