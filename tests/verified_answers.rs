//! A wrong answer never leaves the library. Through the test hook
//! `verify::with_spoiled_answers`, every answer is spoiled (one cell flipped
//! so that it is certainly wrong) just before the library checks it; each
//! solver front end must then return an error, not a result. The same calls
//! without the hook must succeed, so the test can fail both ways.

use lifesearch::cnf::{SolverKind, new_solver};
use lifesearch::gridwalker::batch::decide_many;
use lifesearch::gridwalker::session::Session;
use lifesearch::gridwalker::{Convention, Options, Variant, decide_orphan, stack};
use lifesearch::life::{Grid, Rule, SpecGrid, Topology, naive};
use lifesearch::search::incremental::PredecessorStream;
use lifesearch::search::verify::with_spoiled_answers;
use lifesearch::search::{Boundary, Encoding, Problem, count, encode, solve};

/// A target with a parent: the inside of one step of a small random-looking parent.
fn target() -> SpecGrid {
    let parent = Grid::from_rows(&["......", ".**.*.", "..***.", ".*..*.", ".**...", "......"]).unwrap();
    let next = naive::step(&parent, Rule::CONWAY, Topology::Bounded);
    SpecGrid::from(&next.crop(1, 1, 4, 4))
}

/// `f` succeeds as it is, and fails with the hook on, naming `who`'s wrong answer.
fn refuses<T>(who: &str, f: impl Fn() -> lifesearch::Result<T>) {
    assert!(f().is_ok(), "{who}: fails even without the hook");
    match with_spoiled_answers(&f) {
        Ok(_) => panic!("{who}: a spoiled answer was returned as a result"),
        Err(e) => assert!(e.to_string().contains("a bug"), "{who}: {e}"),
    }
}

#[test]
fn sat_front_ends_refuse_wrong_answers() {
    let t = target();
    for kind in SolverKind::available_kinds() {
        for encoding in [Encoding::Window, Encoding::Knuth] {
            for boundary in [Boundary::Free, Boundary::Dead] {
                let problem = Problem::orphan(t.clone(), boundary);
                let who = format!("{kind} {encoding:?} orphan {boundary:?}");
                // Dead surroundings may make this target an orphan: then there is nothing to spoil.
                let enc = encode(&problem, encoding, Rule::CONWAY).unwrap();
                if solve(&enc, new_solver(kind).unwrap().as_mut()).unwrap().generations.is_empty() {
                    continue;
                }
                refuses(&who, || solve(&enc, new_solver(kind).unwrap().as_mut()));
            }
            for problem in [
                Problem::still_life(4, 4),
                Problem::oscillator(3, 3, 2),
                Problem::Cycle { width: 4, height: 4, period: 4, dx: 1, dy: 1, symmetry: Default::default() },
            ] {
                let enc = encode(&problem, encoding, Rule::CONWAY).unwrap();
                let plain = solve(&enc, new_solver(kind).unwrap().as_mut()).unwrap();
                assert!(!plain.generations.is_empty(), "{kind} {problem:?} has an answer to spoil");
                refuses(&format!("{kind} {encoding:?} {problem:?}"), || {
                    solve(&enc, new_solver(kind).unwrap().as_mut())
                });
                if new_solver(kind).unwrap().is_incremental() {
                    refuses(&format!("{kind} count {problem:?}"), || {
                        count(&enc, new_solver(kind).unwrap().as_mut(), Some(3))
                    });
                }
            }
        }
        if new_solver(kind).unwrap().is_incremental() {
            refuses(&format!("{kind} stream"), || {
                let mut s = PredecessorStream::new(4, 4, kind)?;
                s.solve(&t)
            });
        }
    }
}

#[test]
fn gridwalker_front_ends_refuse_wrong_answers() {
    let t = target();
    for variant in [Variant::Basic, Variant::Single, Variant::NoRepeat, Variant::Track, Variant::Db] {
        for convention in [Convention::ThesisCode, Convention::Figure52] {
            let o = Options { variant, convention };
            refuses(&format!("gridwalker {variant:?} {convention:?}"), || decide_orphan(&t, &o));
            // A batch fails as a whole when one of its questions does.
            let many = vec![t.clone(); 6];
            refuses(&format!("batch {variant:?}"), || decide_many(&many, &o));
        }
    }
    refuses("session", || {
        Session::<lifesearch::gridwalker::convention::ThesisCode>::new(Rule::CONWAY).decide(&t)
    });
    refuses("stack predecessor", || stack::predecessor(&t, 1, Rule::CONWAY));
    refuses("stack predecessor, two steps", || stack::predecessor(&target_small(), 2, Rule::CONWAY));
    refuses("stack caged cycle", || stack::caged_cycle(3, 3, 2, (0, 0), Rule::CONWAY));
    refuses("stack cycle", || stack::cycle(3, 3, 4, (1, 1), Rule::CONWAY));
}

/// A 2x2 block: it has a grandparent (itself).
fn target_small() -> SpecGrid {
    SpecGrid::from(&Grid::from_rows(&["**", "**"]).unwrap())
}
