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
use lifesearch::search::{Boundary, Cycle, Encoding, Problem, count, encode, solve};

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
                Problem::Cycle(Cycle {
                    width: 4,
                    height: 4,
                    period: 4,
                    dx: 1,
                    dy: 1,
                    symmetry: Default::default(),
                }),
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
    // Every variant, so that a new one cannot be left out (robust, the default, once was).
    for &variant in <Variant as clap::ValueEnum>::value_variants() {
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

/// The hook is off again after a closure that panics inside it: the flag is
/// per thread and tests share threads, so a failing test must not spoil the
/// answers of the next one.
#[test]
fn the_hook_is_off_after_a_panic() {
    let t = target();
    let o = Options { variant: Variant::Robust, convention: Convention::ThesisCode };
    let hook = std::panic::catch_unwind(|| with_spoiled_answers(|| panic!("on purpose")));
    assert!(hook.is_err());
    assert!(decide_orphan(&t, &o).is_ok(), "the answers are still spoiled after the panic");
    refuses("gridwalker after a panic", || decide_orphan(&t, &o));
}

/// A 2x2 block: it has a grandparent (itself).
fn target_small() -> SpecGrid {
    SpecGrid::from(&Grid::from_rows(&["**", "**"]).unwrap())
}

mod cycle_check {
    //! [`check_cycle`] evolves an answer in a frame only as wide as the move
    //! (at least one cell). Its twin here evolves the same pattern in a frame
    //! wider than anything can reach in the period, and the two must agree on
    //! random boxes and on known ships and oscillators, which pass.
    use lifesearch::life::{Grid, Rule, Topology, naive};
    use lifesearch::search::verify::check_cycle;
    use proptest::prelude::*;

    /// The obvious check: evolve in a frame of `period + |dx| + |dy| + 2` cells.
    fn wide(g0: &Grid, period: usize, dx: i64, dy: i64, rule: Rule) -> bool {
        let (w, h) = (g0.width(), g0.height());
        let m = period + dx.unsigned_abs() as usize + dy.unsigned_abs() as usize + 2;
        let mut gens = vec![g0.padded(m)];
        for _ in 0..period {
            let next = naive::step(gens.last().unwrap(), rule, Topology::Bounded);
            gens.push(next);
        }
        let inside = |g: &Grid| g.live_cells().all(|(x, y)| x >= m && y >= m && x < m + w && y < m + h);
        let moved = |g: &Grid, sx: i64, sy: i64| {
            let s = &gens[0];
            (0..g.height()).all(|y| {
                (0..g.width())
                    .all(|x| g.get(x, y) == s.get_or_dead(x as isize - sx as isize, y as isize - sy as isize))
            })
        };
        let p = period as i64;
        g0.population() > 0
            && gens[..period].iter().all(inside)
            && moved(&gens[period], dx, dy)
            && (1..period).all(|d| {
                let d = d as i64;
                !(p % d == 0
                    && (dx * d) % p == 0
                    && (dy * d) % p == 0
                    && moved(&gens[d as usize], dx * d / p, dy * d / p))
            })
    }

    #[test]
    fn known_cycles_pass_both() {
        // (pattern, box, period, move): each placed at every offset in its box;
        // some placement must pass, and the two checks agree on all of them.
        type Case = (&'static [&'static str], (usize, usize), usize, i64, i64);
        let cases: [Case; 5] = [
            (&[".*.", "..*", "***"], (4, 4), 4, 1, 1),
            (&[".....", ".***.", "....."], (5, 3), 2, 0, 0),
            (&["**", "**"], (3, 3), 1, 0, 0),
            (&["*..*.", "....*", "*...*", ".****"], (7, 5), 4, 2, 0),
            (&["***", "*..", ".*."], (4, 4), 4, -1, -1),
        ];
        for (rows, (w, h), p, dx, dy) in cases {
            let pat = Grid::from_rows(rows).unwrap();
            let mut passed = 0;
            for oy in 0..=h - pat.height() {
                for ox in 0..=w - pat.width() {
                    let mut g = Grid::new(w, h);
                    for (x, y) in pat.live_cells() {
                        g.set(x + ox, y + oy, true);
                    }
                    let ok = wide(&g, p, dx, dy, Rule::CONWAY);
                    assert_eq!(
                        check_cycle(&g, p, dx, dy, Rule::CONWAY).is_ok(),
                        ok,
                        "{rows:?} at ({ox}, {oy})"
                    );
                    passed += usize::from(ok);
                }
            }
            assert!(passed > 0, "{rows:?} passes nowhere in its {w}x{h} box");
        }
    }

    #[test]
    fn every_small_box_agrees() {
        // Every pattern of a 3x3 and a 4x3 box, short periods, small moves: the
        // edge cases (a still life whose neighbour outside the box is born)
        // are all here, which random boxes rarely reach.
        for (w, h) in [(3, 3), (4, 3)] {
            for bits in 0u32..1 << (w * h) {
                let g = Grid::from_cells(w, h, (0..w * h).map(|i| bits >> i & 1 == 1).collect());
                for (p, dx, dy) in [(1, 0, 0), (2, 0, 0), (2, 1, 0), (4, 1, 1), (4, -1, 0)] {
                    assert_eq!(
                        check_cycle(&g, p, dx, dy, Rule::CONWAY).is_ok(),
                        wide(&g, p, dx, dy, Rule::CONWAY),
                        "{w}x{h} box, pattern {bits:#x}, period {p}, move ({dx}, {dy})"
                    );
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn tight_frame_agrees_with_a_wide_one(
            w in 1usize..7, h in 1usize..7, bits in any::<u64>(), dense in any::<bool>(),
            period in 1usize..6, dx in -3i64..4, dy in -3i64..4, highlife in any::<bool>(),
        ) {
            let mut r = bits;
            let cells = (0..w * h).map(|_| { r = r.rotate_left(7) ^ 0x9e37_79b9_7f4a_7c15; if dense { r & 1 == 1 } else { r & 3 == 0 } }).collect();
            let g = Grid::from_cells(w, h, cells);
            let rule = if highlife { "B36/S23".parse().unwrap() } else { Rule::CONWAY };
            prop_assert_eq!(check_cycle(&g, period, dx, dy, rule).is_ok(), wide(&g, period, dx, dy, rule));
        }
    }
}
