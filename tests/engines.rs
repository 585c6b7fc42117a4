//! One interface for every orphan engine: each engine in the registry agrees
//! with a brute-force twin (every parent window tried) under two rules, a toy
//! engine joins the registry with one line, and `orphan --solver auto` takes
//! any rule.

use lifesearch::base::verify::is_predecessor;
use lifesearch::engine::{self, Counters, EngineOptions, OrphanEngine, OrphanQuery, Verdict};
use lifesearch::{Cell, Grid, Rule, SpecGrid};
use rand::{Rng, SeedableRng};
use std::process::Command;
use std::time::Instant;

/// The slow obvious twin: try every (W+2) x (H+2) parent window.
struct Brute;

impl OrphanEngine for Brute {
    fn name(&self) -> &'static str {
        "brute"
    }
    fn decide(&self, q: &OrphanQuery) -> lifesearch::Result<Verdict> {
        let start = Instant::now();
        let t = q.searched();
        let (w, h) = (t.width() + 2, t.height() + 2);
        assert!(w * h <= 20, "brute force is for tiny targets");
        let parent = (0u32..1 << (w * h)).find_map(|bits| {
            let g = Grid::from_cells(w, h, (0..w * h).map(|i| bits >> i & 1 == 1).collect());
            is_predecessor(&g, &t, 1, q.rule).then_some(g)
        });
        let counters = Counters { nodes: Some(1), ..Counters::default() };
        Ok(Verdict::new(parent, self.name(), start.elapsed(), counters))
    }
}

fn random_target(rng: &mut impl Rng) -> SpecGrid {
    let (w, h) = if rng.random_bool(0.5) { (2, 2) } else { (3, 1) };
    let cells = (0..w * h)
        .map(|_| match rng.random_range(0..8) {
            0 => Cell::Unknown,
            1..=4 => Cell::Alive,
            _ => Cell::Dead,
        })
        .collect();
    SpecGrid::from_cells(w, h, cells).unwrap()
}

#[test]
fn every_registered_engine_agrees_with_brute_force() {
    // Adding an engine: one impl (above) and one registry line (here).
    let mut registry = engine::registry();
    registry.push(("brute", |_| Box::new(Brute)));
    let engines: Vec<_> = registry
        .iter()
        .map(|(name, make)| (*name, make(&EngineOptions::default())))
        .filter(|(_, e)| e.supports(&OrphanQuery::new(SpecGrid::new(2, 2, Cell::Dead))).is_ok())
        .collect();
    assert!(engines.len() >= 6, "auto, three SAT backends, gridwalker, automaton, brute");
    let mut rng = rand_pcg::Pcg64::seed_from_u64(23);
    let mut orphans = 0;
    // Tiny targets are never orphans under Life; under B/S (nothing lives on)
    // every live target cell makes one, under B/S23 (no births) some.
    let rules = ["B3/S23", "B36/S23", "B/S", "B/S23"].map(|r| r.parse::<Rule>().unwrap());
    for rule in rules {
        for i in 0..15 {
            let q = OrphanQuery::new(random_target(&mut rng)).rule(rule);
            let truth = Brute.decide(&q).unwrap().is_orphan();
            orphans += truth as usize;
            for (name, e) in &engines {
                let v = e.decide(&q).unwrap_or_else(|err| panic!("{name} on #{i} under {rule}: {err}"));
                assert_eq!(v.is_orphan(), truth, "{name} on #{i} under {rule}: {:?}", q.target.to_rows());
                if let Some(p) = &v.parent {
                    assert!(is_predecessor(p, &q.searched(), 1, rule), "{name}: unchecked parent");
                }
                if *name != "auto" {
                    assert_eq!(v.engine, *name);
                }
            }
        }
    }
    // Both answers occur, so the comparison can fail either way.
    assert!(orphans > 0 && orphans < 60, "{orphans} orphans of 60");
}

#[test]
fn unknown_engine_names_the_known_ones() {
    let err = engine::by_name("nonsuch").err().expect("no such engine").to_string();
    assert!(err.contains("gridwalker") && err.contains("auto"), "{err}");
}

#[test]
fn orphan_auto_takes_any_rule() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t.txt");
    // Compare auto with the automaton and CaDiCaL on two targets.
    for (i, rows) in ["**.\n.*.\n...\n", "*.*.*\n.*.*.\n*.*.*\n.*.*.\n*.*.*\n"].iter().enumerate() {
        std::fs::write(&f, rows).unwrap();
        let orphan = |solver: &str| {
            let o = Command::new(env!("CARGO_BIN_EXE_lifesearch"))
                .args(["orphan", f.to_str().unwrap(), "--solver", solver, "--rule", "B36/S23", "--json"])
                .output()
                .unwrap();
            assert!(o.status.success(), "{solver} #{i}: {}", String::from_utf8_lossy(&o.stderr));
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(v["solver"], solver);
            v["orphan"].as_bool().unwrap()
        };
        let auto = orphan("auto");
        assert_eq!(auto, orphan("automaton"), "#{i}");
        assert_eq!(auto, orphan("cadical"), "#{i}");
    }
}

#[test]
fn a_raised_stop_flag_stops_the_sat_engine_and_the_portfolio() {
    // A flag raised before the call: the SAT engine and the portfolio give up
    // at once (GRIDWALKER polls at search nodes only, so a target settled by
    // its first GridSolve may still be answered).
    let stop = lifesearch::Stop::default();
    stop.interrupt();
    let q = OrphanQuery::new(lifesearch::base::known::garden_of_eden()).stop(stop);
    for name in ["auto", "cadical"] {
        let r = engine::by_name(name).unwrap().decide(&q);
        assert!(matches!(r, Err(lifesearch::Error::Interrupted)), "{name}: {r:?}");
    }
}
