//! Translation (and phase) broken in the SAT encodings, against the space-time
//! engine (which breaks it the same way) and brute force: counting up to
//! translation gives the same answers in every engine and the brute-force
//! count; finding one answer with the placement broken gives the same
//! verdict as searching every placement.

mod common;

use lifesearch::cnf::{Outcome, SolverKind, new_solver};
use lifesearch::life::{Grid, Rule};
use lifesearch::search::spacetime::{Options, search};
use lifesearch::search::verify::{check_cycle, has_symmetry};
use lifesearch::search::{Cycle, Encoding, Placement, Problem, Symmetry, count, encode_with, solve};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn cycle(w: usize, h: usize, p: usize, dx: i64, dy: i64, symmetry: Symmetry) -> Problem {
    Problem::Cycle(Cycle { width: w, height: h, period: p, dx, dy, symmetry })
}

/// Every generation-0 answer CaDiCaL enumerates under `placement`.
fn sat_set(p: &Problem, e: Encoding, rule: Rule, placement: Placement) -> BTreeSet<Vec<String>> {
    let enc = encode_with(p, e, rule, placement).unwrap();
    let r = count(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut(), None).unwrap();
    assert!(r.complete);
    r.solutions.iter().map(|g| g.to_rows()).collect()
}

/// Every answer the space-time engine counts up to translation.
fn st_set(p: &Problem, rule: Rule) -> BTreeSet<Vec<String>> {
    let opts = Options { count: true, up_to_translation: true, ..Options::default() };
    let r = search(p, rule, &opts, None).unwrap();
    assert!(r.complete);
    r.solutions.iter().map(|g| g.to_rows()).collect()
}

fn sat_finds(p: &Problem, e: Encoding, rule: Rule, placement: Placement) -> bool {
    let enc = encode_with(p, e, rule, placement).unwrap();
    let a = solve(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut()).unwrap();
    assert_ne!(a.outcome, Outcome::Unknown);
    a.outcome == Outcome::Sat
}

/// The slow twin of one Life step in a box with dead surroundings (an answer
/// never leaves its box, so nothing outside is lost).
fn step(g: &Grid, rule: Rule) -> Grid {
    let (w, h) = (g.width() as i64, g.height() as i64);
    let alive = |x: i64, y: i64| x >= 0 && y >= 0 && x < w && y < h && g.get(x as usize, y as usize);
    let mut next = Grid::new(w as usize, h as usize);
    for y in 0..h {
        for x in 0..w {
            let n = (-1..=1).flat_map(|j| (-1..=1).map(move |i| (i, j))).filter(|&(i, j)| (i, j) != (0, 0));
            let n = n.filter(|&(i, j)| alive(x + i, y + j)).count() as u32;
            next.set(x as usize, y as usize, rule.next(alive(x, y), n));
        }
    }
    next
}

/// Brute force: every pattern of the box that is an answer and whose
/// generations 0..p-1 touch row 0 (unless the symmetry pins it vertically:
/// a mirror top-bottom or anything more) and column 0 (likewise).
fn brute_set(p: &Problem, rule: Rule) -> BTreeSet<Vec<String>> {
    let Cycle { width: w, height: h, period, dx, dy, symmetry } = p.cycle().unwrap();
    let rows_free = matches!(symmetry, Symmetry::None | Symmetry::MirrorLr);
    let cols_free = matches!(symmetry, Symmetry::None | Symmetry::MirrorUd);
    let mut out = BTreeSet::new();
    for m in 0u64..1 << (w * h) {
        let g = Grid::from_cells(w, h, (0..w * h).map(|i| m >> i & 1 == 1).collect());
        if check_cycle(&g, period, dx, dy, rule).is_err() || !has_symmetry(&g, symmetry) {
            continue;
        }
        let (mut top, mut left, mut cur) = (false, false, g.clone());
        for _ in 0..period {
            top |= (0..w).any(|x| cur.get(x, 0));
            left |= (0..h).any(|y| cur.get(0, y));
            cur = step(&cur, rule);
        }
        if (top || !rows_free) && (left || !cols_free) {
            out.insert(g.to_rows());
        }
    }
    out
}

/// Every box of at most 10 cells, periods 1..=3, every move that fits, with
/// and without a mirror: brute force, CaDiCaL with each encoding and the
/// space-time engine count the same answers up to translation.
#[test]
fn counts_up_to_translation_match_brute_force_in_every_engine() {
    let mut nonzero = 0;
    for (w, h, p) in (1..=4).flat_map(|w| (1..=4).flat_map(move |h| (1..=3).map(move |p| (w, h, p)))) {
        if w * h > 10 {
            continue;
        }
        for (dx, dy) in (-1i64..=1).flat_map(|dx| (-1i64..=1).map(move |dy| (dx, dy))) {
            if 2 * dx.abs().max(dy.abs()) as usize > p
                || dx.unsigned_abs() as usize >= w
                || dy.unsigned_abs() as usize >= h
            {
                continue;
            }
            for sym in [Symmetry::None, Symmetry::MirrorLr, Symmetry::MirrorUd] {
                let pr = cycle(w, h, p, dx, dy, sym);
                let want = brute_set(&pr, Rule::CONWAY);
                nonzero += usize::from(!want.is_empty());
                for e in [Encoding::Window, Encoding::Knuth] {
                    assert_eq!(
                        sat_set(&pr, e, Rule::CONWAY, Placement::UpToTranslation),
                        want,
                        "{pr:?} {e:?}"
                    );
                }
                assert_eq!(st_set(&pr, Rule::CONWAY), want, "{pr:?} spacetime");
            }
        }
    }
    // The loop must have met answers, or it proves nothing.
    assert!(nonzero >= 15, "{nonzero}");
}

/// The OEIS-checked counts count every placement; up to translation they
/// shrink, and translating each class back over the box gives them again.
#[test]
fn every_placement_is_a_translate_of_one_counted_up_to_translation() {
    for n in 1..=5 {
        let pr = cycle(n, n, 1, 0, 0, Symmetry::None);
        let every = sat_set(&pr, Encoding::Knuth, Rule::CONWAY, Placement::Every);
        let classes = sat_set(&pr, Encoding::Knuth, Rule::CONWAY, Placement::UpToTranslation);
        assert_eq!(classes, st_set(&pr, Rule::CONWAY), "{n}");
        let mut rebuilt = BTreeSet::new();
        for rows in &classes {
            let cells: Vec<(usize, usize)> = rows
                .iter()
                .enumerate()
                .flat_map(|(y, r)| r.bytes().enumerate().filter(|b| b.1 == b'*').map(move |(x, _)| (x, y)))
                .collect();
            let (mx, my) = cells.iter().fold((0, 0), |(a, b), &(x, y)| (a.max(x), b.max(y)));
            for (sx, sy) in (0..n - mx).flat_map(|sx| (0..n - my).map(move |sy| (sx, sy))) {
                let mut g = Grid::new(n, n);
                for &(x, y) in &cells {
                    g.set(x + sx, y + sy, true);
                }
                rebuilt.insert(g.to_rows());
            }
        }
        assert_eq!(rebuilt, every, "{n}x{n}");
    }
}

/// Every oscillator and ship box up to 5x5 and period 4 (at most 36 cells):
/// the formula for one answer (translation, phase and mirror broken) is
/// satisfiable exactly when the formula with every placement is, with both
/// encodings, and the space-time engine agrees.
#[test]
fn one_answer_formulas_keep_every_verdict() {
    let mut found = 0;
    for (w, h, p) in (1..=5).flat_map(|w| (1..=5).flat_map(move |h| (1..=4).map(move |p| (w, h, p)))) {
        for (dx, dy) in (-2i64..=2).flat_map(|dx| (-2i64..=2).map(move |dy| (dx, dy))) {
            if 2 * dx.abs().max(dy.abs()) as usize > p || w * h * p > 36 {
                continue;
            }
            if dx.unsigned_abs() as usize >= w || dy.unsigned_abs() as usize >= h {
                continue;
            }
            let mirror = if dx == 0 { Symmetry::MirrorLr } else { Symmetry::MirrorUd };
            for sym in [Symmetry::None, mirror] {
                let pr = cycle(w, h, p, dx, dy, sym);
                let want = sat_finds(&pr, Encoding::Window, Rule::CONWAY, Placement::Every);
                found += usize::from(want);
                for e in [Encoding::Window, Encoding::Knuth] {
                    assert_eq!(sat_finds(&pr, e, Rule::CONWAY, Placement::OneAnswer), want, "{pr:?} {e:?}");
                }
                let st = search(&pr, Rule::CONWAY, &Options::default(), None).unwrap();
                assert_eq!(!st.solutions.is_empty(), want, "{pr:?} spacetime");
            }
        }
    }
    assert!(found >= 30, "{found}");
}

#[test]
fn a_formula_for_one_answer_refuses_to_count() {
    let enc = encode_with(
        &cycle(4, 4, 1, 0, 0, Symmetry::None),
        Encoding::Knuth,
        Rule::CONWAY,
        Placement::OneAnswer,
    )
    .unwrap();
    let e = count(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut(), None).unwrap_err();
    assert!(e.to_string().contains("cannot count"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Counting up to translation: CaDiCaL and the space-time engine give the same answers.
    #[test]
    fn counts_up_to_translation_agree((p, rule) in common::small_cycle_problem()) {
        let Cycle { width, height, period, .. } = p.cycle().unwrap();
        prop_assume!(width * height * period <= 40);
        prop_assert_eq!(sat_set(&p, Encoding::Window, rule, Placement::UpToTranslation), st_set(&p, rule));
    }

    /// Finding: the one-answer formula keeps the verdict of the all-placements one.
    #[test]
    fn one_answer_verdicts_agree((p, rule) in common::small_cycle_problem()) {
        let every = sat_finds(&p, Encoding::Window, rule, Placement::Every);
        prop_assert_eq!(sat_finds(&p, Encoding::Window, rule, Placement::OneAnswer), every);
        let st = search(&p, rule, &Options::default(), None).unwrap();
        prop_assert_eq!(!st.solutions.is_empty(), every);
    }
}
