//! GridWalker's verdict against an independent brute force on small targets,
//! for every variant and both conventions; every predecessor is checked by
//! evolving it with the reference stepper.

use lifesearch::gridwalker::{Convention, Options, Variant, decide_orphan, decide_orphan_rule};
use lifesearch::life::{Cell, Grid, Rule, SpecGrid, Topology, naive};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

/// Is there an (H+2)x(W+2) parent? Parent rows are chosen top to bottom; as
/// soon as three consecutive rows are fixed, the target row between them is checked.
fn brute_has_parent(t: &SpecGrid, rule: Rule) -> bool {
    let pw = t.width() + 2;
    let mut rows = vec![0u32; t.height() + 2];
    fn cell(rows: &[u32], x: usize, y: usize) -> u32 {
        (rows[y] >> x) & 1
    }
    fn row_ok(t: &SpecGrid, rule: Rule, rows: &[u32], y: usize) -> bool {
        (0..t.width()).all(|x| {
            let mut n = 0;
            for dy in 0..3 {
                for dx in 0..3 {
                    if (dx, dy) != (1, 1) {
                        n += cell(rows, x + dx, y + dy);
                    }
                }
            }
            let next = rule.next(cell(rows, x + 1, y + 1) == 1, n);
            match t.get(x, y) {
                Cell::Unknown => true,
                Cell::Alive => next,
                Cell::Dead => !next,
            }
        })
    }
    fn go(t: &SpecGrid, rule: Rule, rows: &mut Vec<u32>, r: usize, pw: usize) -> bool {
        if r == rows.len() {
            return true;
        }
        for v in 0..1u32 << pw {
            rows[r] = v;
            if (r < 2 || row_ok(t, rule, rows, r - 2)) && go(t, rule, rows, r + 1, pw) {
                return true;
            }
        }
        false
    }
    go(t, rule, &mut rows, 0, pw)
}

fn random_target(rng: &mut Pcg64, w: usize, h: usize) -> SpecGrid {
    let density = rng.random_range(0.2..0.8);
    let unknown = if rng.random_bool(0.5) { rng.random_range(0.0..0.3) } else { 0.0 };
    SpecGrid::random(w, h, density, unknown, rng)
}

fn check_predecessor(t: &SpecGrid, p: &Grid, rule: Rule) {
    assert_eq!((p.width(), p.height()), (t.width() + 2, t.height() + 2));
    let next = naive::step(p, rule, Topology::Bounded);
    let inner = next.crop(1, 1, t.width(), t.height());
    assert!(t.matches(&inner), "bad predecessor for {:?}", t.to_rows());
}

const VARIANTS: [Variant; 5] =
    [Variant::Basic, Variant::Single, Variant::NoRepeat, Variant::Track, Variant::Db];
const CONVENTIONS: [Convention; 2] = [Convention::ThesisCode, Convention::Figure52];

#[test]
fn verdicts_match_brute_force_on_small_targets() {
    // Conway has no orphans this small, so rules with small orphans test the refutations.
    let mut rng = Pcg64::seed_from_u64(6);
    for (rule, rounds) in [("B3/S23", 300), ("B2/S", 100), ("B36/S23", 60), ("B8/S", 100), ("B78/S8", 100)] {
        let rule: Rule = rule.parse().unwrap();
        let (mut orphans, mut total) = (0, 0);
        for round in 0..rounds {
            let (w, h) = match round % 4 {
                0 => (rng.random_range(1..=3), rng.random_range(1..=3)),
                1 => (2, 3),
                2 => (3, 2),
                _ => (3, 3),
            };
            let t = random_target(&mut rng, w, h);
            let expected = brute_has_parent(&t, rule);
            total += 1;
            orphans += !expected as u32;
            for variant in VARIANTS {
                for convention in CONVENTIONS {
                    let a = decide_orphan_rule(&t, &Options { variant, convention }, rule).unwrap();
                    assert_eq!(
                        a.predecessor.is_some(),
                        expected,
                        "{rule} {variant:?} {convention:?} {:?}",
                        t.to_rows()
                    );
                    if let Some(p) = &a.predecessor {
                        check_predecessor(&t, p, rule);
                    }
                }
            }
        }
        eprintln!("{rule}: {orphans} orphans of {total}");
        assert!(orphans < total);
        if rule.birth & 0x180 != 0 {
            // Births on 7 or 8 only: adjacent live cells are hard to explain.
            assert!(orphans > 5, "{rule}: {orphans} orphans of {total}");
        }
    }
}

#[test]
fn four_by_four_targets() {
    let mut rng = Pcg64::seed_from_u64(9);
    for rule in ["B3/S23", "B8/S"] {
        let rule: Rule = rule.parse().unwrap();
        for _ in 0..25 {
            let t = random_target(&mut rng, 4, 4);
            let expected = brute_has_parent(&t, rule);
            for variant in [Variant::Basic, Variant::Track, Variant::Db] {
                let a =
                    decide_orphan_rule(&t, &Options { variant, convention: Convention::ThesisCode }, rule)
                        .unwrap();
                assert_eq!(a.predecessor.is_some(), expected);
                if let Some(p) = &a.predecessor {
                    check_predecessor(&t, p, rule);
                }
            }
        }
    }
}

#[test]
fn empty_and_all_unknown_targets_have_parents() {
    for (w, h) in [(0, 0), (3, 0), (1, 1), (4, 2)] {
        let t = SpecGrid::new(w, h, Cell::Unknown);
        let a = decide_orphan(&t, &Options::default()).unwrap();
        check_predecessor(&t, a.predecessor.as_ref().unwrap(), Rule::CONWAY);
    }
}

#[test]
fn batch_answers_equal_one_by_one() {
    use lifesearch::gridwalker::batch::decide_many;
    let mut rng = Pcg64::seed_from_u64(12);
    let targets: Vec<SpecGrid> = (0..40).map(|_| random_target(&mut rng, 3, 3)).collect();
    for variant in [Variant::Basic, Variant::Db] {
        let o = Options { variant, convention: Convention::ThesisCode };
        let many = decide_many(&targets, &o).unwrap();
        assert_eq!(many.len(), targets.len());
        for (t, a) in targets.iter().zip(many) {
            let b = decide_orphan(t, &o).unwrap();
            assert_eq!(a.predecessor, b.predecessor);
            assert_eq!(a.stats, b.stats);
        }
    }
}

/// `robust` passes the rows whose pairs it knows to be consistent. The
/// claim is that this changes nothing but the count of confrontations: the
/// same verdict, nodes, sweeps and changes as sweeping every row, and each
/// pair passed is one that the full sweeps confronted to no effect.
#[test]
fn passing_consistent_rows_changes_only_the_confrontations() {
    use lifesearch::gridwalker::solve::with_every_row_swept;
    let mut rng = Pcg64::seed_from_u64(75);
    let o = Options { variant: Variant::Robust, convention: Convention::ThesisCode };
    let mut passed = 0;
    for i in 0..120 {
        let (w, h) = (rng.random_range(3..14), rng.random_range(3..14));
        let rule: Rule = if i % 4 == 3 { "B36/S23".parse().unwrap() } else { Rule::CONWAY };
        let t = random_target(&mut rng, w, h);
        let fast = decide_orphan_rule(&t, &o, rule).unwrap();
        let full = with_every_row_swept(|| decide_orphan_rule(&t, &o, rule).unwrap());
        assert_eq!(fast.predecessor, full.predecessor, "{w}x{h} {rule}");
        let (f, s) = (&fast.stats, &full.stats);
        for name in ["nodes", "probes", "sweeps", "changes", "restarts", "memo_hits", "max_depth"] {
            assert_eq!(f.get(name), s.get(name), "{name}, {w}x{h} {rule}");
        }
        assert_eq!(s.skipped, Some(0));
        assert_eq!(
            f.confrontations.unwrap() + f.skipped.unwrap(),
            s.confrontations.unwrap(),
            "{w}x{h} {rule}"
        );
        passed += f.skipped.unwrap();
    }
    assert!(passed > 0, "no row was ever passed");
}
