//! Every "orphan" verdict GRIDWALKER gives on a small target is checked
//! against a SAT solver: random targets of at most 8x8 cells, all of them
//! known, and every target one cell away from each (a single-cell flip), under
//! Conway's rule and rules whose orphans are small enough to turn up here.
//! A "has a parent" verdict is checked by the library itself (the parent is
//! evolved before it is returned); here both verdicts must also agree with
//! CaDiCaL's.

use lifesearch::cnf::{Outcome, SolverKind, new_solver};
use lifesearch::gridwalker::{Convention, Options, Variant, decide_orphan_rule};
use lifesearch::life::{Cell, Rule, SpecGrid};
use lifesearch::search::encode::effective_target;
use lifesearch::search::{Boundary, Encoding, Problem, encode, solve};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use std::cell::Cell as Counter;

/// Conway, HighLife, and three rules with many small orphans.
fn rules() -> Vec<Rule> {
    ["B3/S23", "B36/S23", "B2/S", "B45/S3", "B34/S34"].iter().map(|r| r.parse().unwrap()).collect()
}

fn sat_has_parent(t: &SpecGrid, boundary: Boundary, rule: Rule) -> bool {
    let enc = encode(&Problem::orphan(t.clone(), boundary), Encoding::Window, rule).unwrap();
    let mut s = new_solver(SolverKind::Cadical).unwrap();
    match solve(&enc, s.as_mut()).unwrap().outcome {
        Outcome::Sat => true,
        Outcome::Unsat => false,
        Outcome::Unknown => panic!("CaDiCaL gave up"),
    }
}

/// GRIDWALKER's verdict, every variant agreeing, against CaDiCaL's.
fn agree(t: &SpecGrid, boundary: Boundary, rule: Rule) -> Result<bool, String> {
    let sat = sat_has_parent(t, boundary, rule);
    let searched = effective_target(t, boundary);
    // Every variant there is: a new one is checked without being listed here.
    for &variant in <Variant as clap::ValueEnum>::value_variants() {
        let gw =
            decide_orphan_rule(&searched, &Options { variant, convention: Convention::ThesisCode }, rule)
                .map_err(|e| format!("{variant:?}: {e}"))?;
        if gw.predecessor.is_some() != sat {
            return Err(format!(
                "{variant:?} under {rule} ({boundary:?}) says {}, CaDiCaL says {}: {:?}",
                if gw.predecessor.is_some() { "has a parent" } else { "orphan" },
                if sat { "has a parent" } else { "orphan" },
                t.to_rows()
            ));
        }
    }
    Ok(sat)
}

/// A target as (rule, boundary, width, height, cells).
fn target() -> impl Strategy<Value = (usize, bool, SpecGrid)> {
    (0..5usize, any::<bool>(), 1..=8usize, 1..=8usize, 0..=100u32).prop_flat_map(
        |(r, dead, w, h, density)| {
            proptest::collection::vec((0..100u32).prop_map(move |x| x < density), w * h).prop_map(
                move |cells| {
                    let mut t = SpecGrid::new(w, h, Cell::Dead);
                    for (i, &alive) in cells.iter().enumerate() {
                        t.set(i % w, i / w, if alive { Cell::Alive } else { Cell::Dead });
                    }
                    (r, dead, t)
                },
            )
        },
    )
}

#[test]
fn orphan_verdicts_on_small_targets_and_their_flips_agree_with_sat() {
    let (orphans, parents) = (Counter::new(0u32), Counter::new(0u32));
    let config = Config { cases: 48, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let rules = rules();
    let result = runner.run(&target(), |(r, dead, t)| {
        let (rule, boundary) = (rules[r], if dead { Boundary::Dead } else { Boundary::Free });
        let check = |t: &SpecGrid| -> Result<(), TestCaseError> {
            let has = agree(t, boundary, rule).map_err(TestCaseError::fail)?;
            let c = if has { &parents } else { &orphans };
            c.set(c.get() + 1);
            Ok(())
        };
        check(&t)?;
        for i in 0..t.cells().len() {
            let mut f = t.clone();
            f.cells_mut()[i] = if f.cells()[i] == Cell::Alive { Cell::Dead } else { Cell::Alive };
            check(&f)?;
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    eprintln!("{} orphans, {} with a parent", orphans.get(), parents.get());
    // The test means something only if both verdicts came up often.
    assert!(orphans.get() >= 50 && parents.get() >= 50, "{} / {}", orphans.get(), parents.get());
}
