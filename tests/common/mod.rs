//! What the engine tests share: the slow twin on the plane, and the rules
//! they draw from.

use lifesearch::life::{Grid, Rule, Topology, naive};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// The live cells after `gens` naive steps on the plane, in input
/// coordinates (of whichever width the engine under test counts in).
#[allow(dead_code)] // the search tests share the module without it
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
#[allow(dead_code)]
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

/// A random small cycle problem: a box up to 5x5, a period up to 4, a move
/// that fits (else none), a symmetry the box allows (every one the CLI
/// offers, so a new one is tested the day it is added), under a few rules.
#[allow(dead_code)] // the engine tests share the module without it
pub fn small_cycle_problem() -> impl Strategy<Value = (lifesearch::search::Problem, Rule)> {
    use clap::ValueEnum;
    use lifesearch::search::{Cycle, Problem, Symmetry};
    let syms = Symmetry::value_variants();
    let rules = ["B3/S23", "B36/S23", "B3/S12", "B35/S236"];
    (1usize..=5, 1usize..=5, 1usize..=4, -2i64..=2, -2i64..=2, 0..syms.len(), 0..rules.len()).prop_map(
        move |(w, h, p, dx, dy, s, r)| {
            let mut symmetry = syms[s];
            if symmetry.needs_square() && w != h {
                symmetry = Symmetry::None;
            }
            let far = 2 * dx.abs().max(dy.abs()) as usize > p;
            let (dx, dy) = if far || dx.unsigned_abs() as usize >= w || dy.unsigned_abs() as usize >= h {
                (0, 0)
            } else {
                (dx, dy)
            };
            (
                Problem::Cycle(Cycle { width: w, height: h, period: p, dx, dy, symmetry }),
                rules[r].parse().unwrap(),
            )
        },
    )
}
