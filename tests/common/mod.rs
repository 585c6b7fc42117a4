//! What the engine tests share: the slow twin on the plane, and the rules
//! they draw from.

use lifesearch::life::{Grid, Rule, Topology, naive};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The live cells after `gens` naive steps on the plane, in input
/// coordinates (of whichever width the engine under test counts in).
pub fn naive_plane<T: From<i64> + Ord>(g: &Grid, rule: Rule, gens: u64) -> BTreeSet<(T, T)> {
    let pad = gens as usize + 2;
    let mut b = g.padded(pad);
    for _ in 0..gens {
        b = naive::step(&b, rule, Topology::Bounded);
    }
    let shift = |v: usize| T::from(v as i64 - pad as i64);
    b.live_cells().map(|(x, y)| (shift(x), shift(y))).collect()
}

/// Named rules (Life, HighLife, B2/S, B34/S34, Day & Night) and any rule
/// without B0.
pub fn rules() -> impl Strategy<Value = Rule> {
    prop_oneof![
        Just(Rule::CONWAY),
        Just(Rule::HILIFE),
        Just("B2/S".parse::<Rule>().unwrap()),
        Just("B34/S34".parse::<Rule>().unwrap()),
        Just("B3678/S34678".parse::<Rule>().unwrap()),
        (0u16..256, 0u16..512).prop_map(|(b, s)| Rule { birth: b << 1, survival: s }),
    ]
}
