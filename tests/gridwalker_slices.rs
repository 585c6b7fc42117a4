//! Slices and slivers against brute-force set operations: a slice as a
//! `BTreeSet` of constellations, an overlap as the tuple of the six shared
//! cells' states read off the window by (row, column) — no pixel numbering,
//! no bit tricks.

use lifesearch::gridwalker::Convention;
use lifesearch::gridwalker::convention::{Figure52, Layout, ThesisCode};
use lifesearch::gridwalker::slice::Slice;
use lifesearch::gridwalker::sliver::{
    confront_ew, confront_ns, expand_bottom, expand_column, expand_top, fold_bottom, fold_column, fold_top,
};
use lifesearch::life::Rule;
use proptest::prelude::*;
use std::collections::BTreeSet;

type Set = BTreeSet<u16>;
/// Window cells (row, col) of the shared part, in each member's coordinates.
type Cells = Vec<(usize, usize)>;

fn to_set(s: &Slice) -> Set {
    (0..512u16).filter(|&c| s.contains(c)).collect()
}

fn from_set(s: &Set) -> Slice {
    let mut r = Slice::EMPTY;
    for &c in s {
        r.insert(c);
    }
    r
}

/// The states of the window cells at `cells` (row, col), as a bit string.
fn project(conv: Convention, c: u16, cells: &[(usize, usize)]) -> u8 {
    cells.iter().enumerate().fold(0, |a, (k, &(r, col))| a | ((conv.alive(c, r, col) as u8) << k))
}

/// The six shared cells of an east-west pair, in the west member's coordinates
/// and in the east member's (one column to the left).
fn ew_cells() -> (Cells, Cells) {
    let w = (0..3).flat_map(|r| (1..3).map(move |c| (r, c))).collect::<Vec<_>>();
    let e = w.iter().map(|&(r, c)| (r, c - 1)).collect();
    (w, e)
}

fn ns_cells() -> (Cells, Cells) {
    let n = (1..3).flat_map(|r| (0..3).map(move |c| (r, c))).collect::<Vec<_>>();
    let s = n.iter().map(|&(r, c)| (r - 1, c)).collect();
    (n, s)
}

/// Brute-force confrontation: keep the constellations whose projection both sides allow.
fn brute_confront(conv: Convention, a: &Set, b: &Set, (ca, cb): (Cells, Cells)) -> Option<(Set, Set)> {
    let pa: BTreeSet<u8> = a.iter().map(|&c| project(conv, c, &ca)).collect();
    let pb: BTreeSet<u8> = b.iter().map(|&c| project(conv, c, &cb)).collect();
    let both: BTreeSet<u8> = pa.intersection(&pb).copied().collect();
    if both.is_empty() {
        return None;
    }
    let keep = |s: &Set, cells: &[(usize, usize)]| -> Set {
        s.iter().copied().filter(|&c| both.contains(&project(conv, c, cells))).collect()
    };
    Some((keep(a, &ca), keep(b, &cb)))
}

/// Random slices from dense to very sparse (AND of several random words).
fn slice() -> impl Strategy<Value = Slice> {
    (prop::array::uniform8(any::<u64>()), prop::array::uniform8(any::<u64>()), 0..6u32, any::<u16>())
        .prop_map(|(a, b, sparsity, extra)| {
            let mut s = Slice(a);
            for k in 0..sparsity {
                let m = Slice(b.map(|w| w.rotate_left(7 * k + 3)));
                s = s.and(&m);
            }
            s.insert(extra % 512);
            s
        })
}

fn check_layout<L: Layout>(a: Slice, b: Slice) -> Result<(), TestCaseError> {
    let conv = L::CONVENTION;
    let (sa, sb) = (to_set(&a), to_set(&b));
    // East-west.
    let (mut w, mut e) = (a, b);
    let got = confront_ew::<L>(&mut w, &mut e);
    match brute_confront(conv, &sa, &sb, ew_cells()) {
        None => prop_assert!(got.is_err()),
        Some((bw, be)) => {
            let ch = got.unwrap();
            prop_assert_eq!(to_set(&w), bw.clone());
            prop_assert_eq!(to_set(&e), be.clone());
            prop_assert_eq!(ch.first, bw != sa);
            prop_assert_eq!(ch.second, be != sb);
            // Confronting never adds constellations.
            prop_assert!(w.is_subset(&a) && e.is_subset(&b));
        }
    }
    // North-south.
    let (mut n, mut s) = (a, b);
    let got = confront_ns(&mut n, &mut s);
    match brute_confront(conv, &sa, &sb, ns_cells()) {
        None => prop_assert!(got.is_err()),
        Some((bn, bs)) => {
            let ch = got.unwrap();
            prop_assert_eq!(to_set(&n), bn.clone());
            prop_assert_eq!(to_set(&s), bs.clone());
            prop_assert_eq!(ch.first, bn != sa);
            prop_assert_eq!(ch.second, bs != sb);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn confrontations_match_brute_force(a in slice(), b in slice()) {
        check_layout::<ThesisCode>(a, b)?;
        check_layout::<Figure52>(a, b)?;
    }

    #[test]
    fn fold_expand_laws(a in slice(), x in any::<u64>()) {
        for b in [0, 2] {
            // Expanding a fold covers the slice; folding an expansion gives the sliver back.
            prop_assert!(a.is_subset(&expand_column(fold_column(&a, b), b)));
            prop_assert_eq!(fold_column(&expand_column(x, b), b), x);
            prop_assert_eq!(expand_column(x, b).count(), 8 * x.count_ones());
        }
        prop_assert!(a.is_subset(&expand_top(fold_top(&a))));
        prop_assert!(a.is_subset(&expand_bottom(fold_bottom(&a))));
        prop_assert_eq!(fold_top(&expand_top(x)), x);
        prop_assert_eq!(fold_bottom(&expand_bottom(x)), x);
        prop_assert_eq!(expand_top(x).count(), 8 * x.count_ones());
    }

    #[test]
    fn bmi2_columns_match_portable(a in slice(), x in any::<u64>()) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            use lifesearch::gridwalker::sliver::{expand_column_bmi2, fold_column_bmi2};
            for b in [0, 2] {
                // SAFETY: BMI2 was detected.
                unsafe {
                    prop_assert_eq!(fold_column_bmi2(&a, b), fold_column(&a, b));
                    prop_assert_eq!(expand_column_bmi2(x, b), expand_column(x, b));
                }
            }
        }
        let _ = (a, x);
    }

    #[test]
    fn set_operations_match(a in slice(), b in slice()) {
        let (sa, sb) = (to_set(&a), to_set(&b));
        prop_assert_eq!(to_set(&a.and(&b)), sa.intersection(&sb).copied().collect::<Set>());
        prop_assert_eq!(to_set(&a.or(&b)), sa.union(&sb).copied().collect::<Set>());
        prop_assert_eq!(a.count() as usize, sa.len());
        prop_assert_eq!(a.iter().collect::<Set>(), sa.clone());
        prop_assert_eq!(from_set(&sa), a);
        prop_assert_eq!(a.is_subset(&b), sa.is_subset(&sb));
        for p in 0..9 {
            let on = sa.iter().filter(|&&c| (c >> p) & 1 == 1).count() as u32;
            prop_assert_eq!(a.split(p), (on, sa.len() as u32 - on));
        }
    }

    #[test]
    fn sliver_numbering_is_shared(c in 0..512u16, d in 0..512u16) {
        // Two unit slices agree on an overlap exactly when the shared cells agree.
        for conv in [Convention::ThesisCode, Convention::Figure52] {
            let (w, e) = ew_cells();
            let (a, b) = (Slice::unit(c), Slice::unit(d));
            let agree = project(conv, c, &w) == project(conv, d, &e);
            let folded = match conv {
                Convention::ThesisCode => fold_column(&a, ThesisCode::WEST) == fold_column(&b, ThesisCode::EAST),
                Convention::Figure52 => fold_column(&a, Figure52::WEST) == fold_column(&b, Figure52::EAST),
            };
            prop_assert_eq!(agree, folded);
            let (n, s) = ns_cells();
            prop_assert_eq!(project(conv, c, &n) == project(conv, d, &s), fold_top(&a) == fold_bottom(&b));
        }
    }
}

/// Live and dead slices for many rules: brute-force neighbour counts.
#[test]
fn rule_slices_partition_all_constellations() {
    for rule in ["B3/S23", "B36/S23", "B2/S", "B1357/S1357", "B/S012345678"] {
        let rule: Rule = rule.parse().unwrap();
        let live = to_set(&Slice::for_future(rule, true));
        for conv in [Convention::ThesisCode, Convention::Figure52] {
            for c in 0..512u16 {
                let centre = conv.alive(c, 1, 1);
                let n = (0..3)
                    .flat_map(|r| (0..3).map(move |col| (r, col)))
                    .filter(|&(r, col)| (r, col) != (1, 1) && conv.alive(c, r, col))
                    .count() as u32;
                assert_eq!(live.contains(&c), rule.next(centre, n));
            }
        }
        assert_eq!(Slice::for_future(rule, false), Slice::from_fn(|c| !live.contains(&c)));
    }
    assert_eq!(Slice::for_future(Rule::CONWAY, true).count(), 140);
}
