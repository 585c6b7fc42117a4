//! Round trips: every writer's output, read back, is the pattern it was given,
//! up to what the format can hold (its `holds_*` flags). The model of what
//! survives a format is `kept_by` below; chains of conversions must agree with
//! applying the model once per format.

use lifesearch::error::Location;
use lifesearch::formats::{self, Format, Pattern};
use lifesearch::life::{Grid, Rule};
use proptest::prelude::*;
use rand::SeedableRng;

/// What a pattern looks like after a trip through `f`, by the format's table.
fn kept_by(p: &Pattern, f: Format) -> Pattern {
    let mut q = if f.holds_margin() { p.clone() } else { p.trimmed() };
    if !f.holds_origin() {
        q.origin = (0, 0);
    }
    if !f.holds_rule() {
        q.rule = None;
    }
    if !f.holds_text() {
        (q.name, q.author, q.comments) = (None, None, Vec::new());
    }
    q
}

fn extension(f: Format) -> &'static str {
    match f {
        Format::Lif => "lif",
        Format::Lif106 => "lif",
        Format::Cells => "cells",
        Format::Rle => "rle",
        Format::Txt => "txt",
        Format::Mc => "mc",
    }
}

/// Write `p` as `f` and read it back (detecting the format from content and extension).
fn trip(p: &Pattern, f: Format) -> Pattern {
    let text = formats::write_pattern(p, f).unwrap();
    let loaded = formats::parse(&Location::new("test", None), &text, Some(extension(f)))
        .unwrap_or_else(|e| panic!("{f:?} output does not read back: {e}\n{text}"));
    // An all-dead plaintext rectangle is indistinguishable from Knuth's rows.
    if !(f == Format::Cells && p.grid.population() == 0) {
        assert_eq!(loaded.format, f, "detected as the wrong format:\n{text}");
    }
    assert!(loaded.warnings.is_empty(), "warnings reading our own {f:?}: {:?}", loaded.warnings);
    loaded.pattern
}

fn text_strategy() -> impl Strategy<Value = (Option<String>, Option<String>, Vec<String>)> {
    let line = "[a-z0-9][a-z0-9 ,.()-]{0,38}[a-z0-9.]";
    (
        proptest::option::of(line),
        proptest::option::of(line),
        proptest::collection::vec(prop_oneof![Just(String::new()), line.prop_map(String::from)], 0..8),
    )
}

fn rule_strategy() -> impl Strategy<Value = Option<Rule>> {
    proptest::option::of(prop_oneof![
        Just(Rule::CONWAY),
        Just(Rule::HILIFE),
        (0u16..512, 0u16..512).prop_map(|(b, s)| Rule { birth: b, survival: s }),
    ])
}

/// Random patterns up to 300x300 (mostly small), anywhere in the plane.
fn pattern_strategy() -> impl Strategy<Value = Pattern> {
    let size = prop_oneof![3 => 1usize..24, 1 => 1usize..=300];
    (
        size.clone(),
        size,
        0.0f64..=1.0,
        any::<u64>(),
        (-5000i64..5000, -5000i64..5000),
        rule_strategy(),
        text_strategy(),
        0u8..10,
    )
        .prop_map(|(w, h, density, seed, origin, rule, (name, author, comments), empty)| {
            let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
            let grid = if empty == 0 { Grid::new(0, 0) } else { Grid::random(w, h, density, &mut rng) };
            Pattern { grid, origin, rule, name, author, comments }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn every_writer_reader_pair_round_trips(p in pattern_strategy()) {
        for f in Format::ALL {
            if f == Format::Txt && p.grid.width() == 0 {
                continue; // Knuth's rows have no way to say "nothing"
            }
            prop_assert_eq!(trip(&p, f), kept_by(&p, f), "format {:?}", f);
        }
    }

    #[test]
    fn conversions_agree_with_the_model(p in pattern_strategy(), a in 0usize..5, b in 0usize..5, c in 0usize..5) {
        let (mut got, mut want) = (p.clone(), p.clone());
        for f in [Format::ALL[a], Format::ALL[b], Format::ALL[c]] {
            if f == Format::Txt && want.grid.width() == 0 {
                continue;
            }
            got = trip(&got, f);
            want = kept_by(&want, f);
            prop_assert_eq!(&got, &want, "after {:?}", f);
        }
        // Whatever the route, the live cells relative to each other survive.
        let shape = |q: &Pattern| q.trimmed().grid;
        prop_assert_eq!(shape(&got), shape(&p));
    }

    #[test]
    fn rule_survives_formats_that_hold_one(p in pattern_strategy()) {
        for (a, b) in [(Format::Lif, Format::Rle), (Format::Rle, Format::Lif)] {
            let q = trip(&trip(&p, a), b);
            prop_assert_eq!(q.rule, p.rule);
            prop_assert_eq!(q.live_set(), p.live_set());
        }
    }
}

#[test]
fn life_105_rows_stay_within_80_columns_and_descriptions_within_limits() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
    let long = "word ".repeat(40);
    let p = Pattern {
        grid: Grid::random(300, 40, 0.3, &mut rng),
        origin: (-150, -20),
        comments: vec![long.clone(); 30],
        ..Pattern::default()
    };
    let w = formats::write(&p, Format::Lif).unwrap();
    assert_eq!(w.warnings.len(), 2, "{:?}", w.warnings); // wrapped, and dropped
    let lines: Vec<&str> = w.text.split("\r\n").collect();
    assert!(w.text.ends_with("\r\n") && !w.text.replace("\r\n", "").contains('\n'));
    assert!(lines.iter().filter(|l| l.starts_with("#D")).count() <= 22);
    assert!(lines.iter().filter(|l| l.starts_with("#D")).all(|l| l.len() <= 3 + 78));
    assert!(lines.iter().filter(|l| !l.starts_with('#')).all(|l| l.len() <= 80));
    assert!(lines.iter().filter(|l| l.starts_with("#P")).count() >= 4);
    let back = formats::parse(&Location::new("t", None), &w.text, None).unwrap();
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    assert_eq!(back.pattern.live_set(), p.live_set());
}

#[test]
fn rle_lines_are_at_most_70_characters() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
    let p = Pattern { grid: Grid::random(300, 300, 0.5, &mut rng), ..Pattern::default() };
    let text = formats::write_pattern(&p, Format::Rle).unwrap();
    assert!(text.lines().all(|l| l.len() <= 70));
    assert!(text.trim_end().ends_with('!'));
}
