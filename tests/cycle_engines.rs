//! One interface for every cycle engine: each engine in the cycle registry
//! counts (or, for GRIDWALKER, finds) the still lifes, oscillators and
//! spaceships of tiny boxes as a brute-force twin does (every pattern of the
//! box tried), under several rules and symmetries; a toy engine joins the
//! registry with one line.

use lifesearch::base::verify::{check_cycle, has_symmetry};
use lifesearch::engine::{self, Counters, CycleEngine, CycleQuery, CycleVerdict};
use lifesearch::search::{Cycle, Encoding, Problem, Symmetry, spacetime};
use lifesearch::{Grid, Rule};
use std::time::Instant;

/// The slow obvious twin: try every pattern of the box.
struct Brute;

impl CycleEngine for Brute {
    fn name(&self) -> &'static str {
        "brute"
    }
    fn search(&self, q: &CycleQuery) -> lifesearch::Result<CycleVerdict> {
        let start = Instant::now();
        let Cycle { width: w, height: h, period, dx, dy, symmetry } = q.cycle;
        assert!(w * h <= 16, "brute force is for tiny boxes");
        let solutions: Vec<Grid> = (1u32..1 << (w * h))
            .map(|bits| Grid::from_cells(w, h, (0..w * h).map(|i| bits >> i & 1 == 1).collect()))
            .filter(|g| check_cycle(g, period, dx, dy, q.rule).is_ok() && has_symmetry(g, symmetry))
            .collect();
        Ok(CycleVerdict {
            solutions,
            generations: Vec::new(),
            complete: true,
            engine: self.name(),
            elapsed: start.elapsed(),
            counters: Counters::default(),
        })
    }
}

/// The tiny problems: boxes up to 4x3, periods 1 to 3, a few moves and symmetries.
fn problems() -> Vec<Cycle> {
    let mut out = Vec::new();
    for (width, height) in [(2, 2), (3, 2), (3, 3), (4, 3), (4, 4)] {
        for (period, dx, dy) in [(1, 0, 0), (2, 0, 0), (3, 0, 0), (2, 1, 0), (3, 0, 1)] {
            for symmetry in [Symmetry::None, Symmetry::MirrorLr, Symmetry::Rot180, Symmetry::Rot90] {
                if symmetry.needs_square() && width != height {
                    continue;
                }
                out.push(Cycle { width, height, period, dx, dy, symmetry });
            }
        }
    }
    out
}

#[test]
fn every_registered_cycle_engine_agrees_with_brute_force() {
    // Adding an engine: one impl (above) and one registry line (here).
    let mut registry = engine::cycle_registry();
    registry.push(("brute", || Box::new(Brute)));
    let counting = spacetime::Options { count: true, ..Default::default() };
    let probe = CycleQuery::new(problems()[0], Rule::CONWAY);
    let engines: Vec<_> = registry.iter().map(|(name, make)| (*name, make())).collect();
    let finders: Vec<_> = engines.iter().filter(|(_, e)| e.supports(&probe).is_ok()).collect();
    assert!(finders.len() >= 7, "auto, spacetime, three SAT backends, gridwalker, brute");
    let (mut some, mut none) = (0, 0);
    let rules = ["B3/S23", "B36/S23", "B2/S", "B3/S12"].map(|r| r.parse::<Rule>().unwrap());
    for rule in rules {
        for c in problems() {
            if Problem::Cycle(c).validate(Encoding::Window, rule).is_err() {
                continue; // a symmetry the motion rules out
            }
            let name = format!("{c:?} under {rule}");
            let truth = Brute.search(&CycleQuery::new(c, rule)).unwrap().solutions.len();
            if truth > 0 {
                some += 1
            } else {
                none += 1
            }
            for (engine, e) in &finders {
                // Counting where the engine counts, else finding one.
                let counted = CycleQuery::new(c, rule).options(counting.clone());
                let (q, counts) = match e.supports(&counted) {
                    Ok(()) => (counted, true),
                    Err(_) => (CycleQuery::new(c, rule), false),
                };
                if e.supports(&q).is_err() {
                    continue; // GRIDWALKER takes no symmetry
                }
                let v = e.search(&q).unwrap_or_else(|err| panic!("{engine} on {name}: {err}"));
                for g in &v.solutions {
                    assert!(check_cycle(g, c.period, c.dx, c.dy, rule).is_ok(), "{engine}: unchecked answer");
                    assert!(has_symmetry(g, c.symmetry), "{engine} on {name}: no symmetry");
                }
                if counts {
                    assert_eq!(v.solutions.len(), truth, "{engine} counting {name}");
                    assert!(v.complete, "{engine} on {name}");
                } else {
                    assert_eq!(v.solutions.is_empty(), truth == 0, "{engine} finding {name}");
                }
                if *engine != "auto" {
                    assert_eq!(v.engine, *engine);
                }
            }
        }
    }
    // Both answers occur, so the comparison can fail either way.
    assert!(some > 0 && none > 0, "{some} with answers, {none} without");
}

#[test]
fn unknown_cycle_engine_names_the_known_ones() {
    let err = engine::cycle_engine("nonsuch").err().expect("no such engine").to_string();
    assert!(err.contains("spacetime") && err.contains("auto"), "{err}");
    let err = engine::cycle_engine("automaton").err().expect("orphans only").to_string();
    assert!(err.contains("orphans only"), "{err}");
}

#[test]
fn a_raised_stop_flag_stops_the_cycle_engines() {
    let stop = lifesearch::Stop::default();
    stop.interrupt();
    // A box no engine settles at once (search-vs-peers: p15 in 9x9 with full symmetry).
    let c = Cycle { width: 9, height: 9, period: 15, dx: 0, dy: 0, symmetry: Symmetry::D8 };
    for name in ["auto", "spacetime", "cadical"] {
        let q = CycleQuery::new(c, Rule::CONWAY).stop(stop.clone());
        let r = engine::cycle_engine(name).unwrap().search(&q);
        assert!(matches!(r, Err(lifesearch::Error::Interrupted)), "{name}: {r:?}");
    }
}
