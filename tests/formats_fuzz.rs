//! Fuzzing the readers with proptest (cargo-fuzz needs a nightly compiler):
//! arbitrary bytes, soups of the formats' own tokens, and valid files with
//! random damage go through every reader. No input may panic, and whatever a
//! reader accepts must survive every writer and reader after it.
//!
//! The default tests run a few hundred inputs each. The `#[ignore]`d
//! `fuzz_long` runs for `FUZZ_SECONDS` (default 60) and prints how many inputs
//! it tried:
//!
//! ```text
//! FUZZ_SECONDS=600 nice cargo test --test formats_fuzz -- --ignored --nocapture
//! ```

use lifesearch::error::Location;
use lifesearch::formats::{self, Format, Pattern};
use lifesearch::life::{Grid, Rule};
use lifesearch::text_from_bytes;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use rand::SeedableRng;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

static PARSES: AtomicU64 = AtomicU64::new(0);
static ACCEPTED: AtomicU64 = AtomicU64::new(0);

/// What survives a trip through `f` (cells, origin, rule; text is not compared
/// here because arbitrary comments are wrapped and cleaned by the writers).
fn kept_by(p: &Pattern, f: Format) -> (Grid, (i64, i64), Option<Rule>) {
    let q = if f.holds_margin() { p.clone() } else { p.trimmed() };
    let origin = if f.holds_origin() { q.origin } else { (0, 0) };
    (q.grid, origin, if f.holds_rule() { q.rule } else { None })
}

/// Feed `bytes` to every reader; whatever is accepted goes through every writer.
fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    let Ok(text) = text_from_bytes("fuzz", bytes.to_vec()) else {
        return Ok(());
    };
    let loc = Location::new("fuzz", None);
    let mut accepted = Vec::new();
    for ext in [None, Some("lif"), Some("life"), Some("rle"), Some("cells"), Some("txt")] {
        PARSES.fetch_add(1, Ordering::Relaxed);
        if let Ok(l) = formats::parse(&loc, &text, ext) {
            accepted.push(l.pattern);
        }
    }
    for f in Format::ALL {
        PARSES.fetch_add(1, Ordering::Relaxed);
        if let Ok(l) = formats::parse_as(&loc, &text, f, None) {
            prop_assert_eq!(l.format, f);
            accepted.push(l.pattern);
        }
    }
    ACCEPTED.fetch_add(accepted.len() as u64, Ordering::Relaxed);
    for p in accepted {
        if p.grid.width() * p.grid.height() > 1 << 20 {
            continue; // accepted, but too slow to write five times per input
        }
        for f in Format::ALL {
            if f == Format::Txt && p.grid.width() == 0 {
                continue;
            }
            let out = formats::write_pattern(&p, f).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let back = formats::parse_as(&loc, &out, f, None)
                .map_err(|e| TestCaseError::fail(format!("{f:?} output rejected: {e}\n{out}")))?;
            let got = (back.pattern.grid.clone(), back.pattern.origin, back.pattern.rule);
            prop_assert_eq!(got, kept_by(&p, f), "{:?}:\n{}", f, out);
        }
    }
    Ok(())
}

/// Pieces of the formats' syntax, and some troublemakers.
const TOKENS: &[&str] = &[
    "#Life 1.05",
    "#Life 1.06",
    "#Life 1.02",
    "#Life 9.99",
    "#D ",
    "#C ",
    "#N",
    "#O ",
    "#R ",
    "#P ",
    "#CXRLE Pos=",
    "x = ",
    "y = ",
    ", rule = ",
    "x=",
    ",",
    "B3/S23",
    "23/3",
    "125/36",
    ":T20,20",
    "Life",
    "9",
    "-",
    "0",
    "1",
    "3",
    "12",
    "65536",
    "99999",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    " ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "*",
    ".",
    "**..**",
    "O",
    "o",
    "b",
    "$",
    "!",
    "?",
    "Name:",
    "Author:",
    "é",
    "\u{0}",
];

fn token_soup() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(proptest::sample::select(TOKENS), 0..60).prop_map(|t| t.concat().into_bytes())
}

/// A valid file of a random small pattern in a random format.
fn valid_file() -> impl Strategy<Value = Vec<u8>> {
    (1usize..30, 1usize..12, 0.0f64..1.0, any::<u64>(), -100i64..100, -100i64..100, 0usize..5, any::<bool>())
        .prop_map(|(w, h, density, seed, ox, oy, f, rule)| {
            let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
            let p = Pattern {
                grid: Grid::random(w, h, density, &mut rng),
                origin: (ox, oy),
                rule: rule.then_some(Rule::HILIFE),
                name: Some("fuzz".into()),
                comments: vec!["a comment".into()],
                ..Pattern::default()
            };
            formats::write_pattern(&p, Format::ALL[f]).unwrap().into_bytes()
        })
}

#[derive(Debug, Clone)]
enum Damage {
    Flip(usize, u8),
    Delete(usize, usize),
    Duplicate(usize, usize),
    Insert(usize, &'static str),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Damage::Flip(i, b)),
        (any::<usize>(), 1usize..20).prop_map(|(i, n)| Damage::Delete(i, n)),
        (any::<usize>(), 1usize..40).prop_map(|(i, n)| Damage::Duplicate(i, n)),
        (any::<usize>(), proptest::sample::select(TOKENS)).prop_map(|(i, t)| Damage::Insert(i, t)),
    ]
}

fn damaged_file() -> impl Strategy<Value = Vec<u8>> {
    (valid_file(), proptest::collection::vec(damage(), 1..6)).prop_map(|(mut bytes, damage)| {
        for d in damage {
            let at = |i: usize, len: usize| if len == 0 { 0 } else { i % len };
            match d {
                Damage::Flip(i, b) if !bytes.is_empty() => {
                    let i = at(i, bytes.len());
                    bytes[i] = b;
                }
                Damage::Flip(..) => {}
                Damage::Delete(i, n) => {
                    let i = at(i, bytes.len());
                    let end = (i + n).min(bytes.len());
                    bytes.drain(i..end);
                }
                Damage::Duplicate(i, n) => {
                    let i = at(i, bytes.len());
                    let end = (i + n).min(bytes.len());
                    let copy = bytes[i..end].to_vec();
                    bytes.splice(i..i, copy);
                }
                Damage::Insert(i, t) => {
                    let i = at(i, bytes.len() + 1);
                    bytes.splice(i..i, t.bytes());
                }
            }
        }
        bytes
    })
}

fn inputs() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![proptest::collection::vec(any::<u8>(), 0..400), token_soup(), damaged_file(),]
}

fn runner(cases: u32, seed: u64) -> TestRunner {
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &key))
}

#[test]
fn arbitrary_bytes_never_panic() {
    runner(300, 1).run(&proptest::collection::vec(any::<u8>(), 0..400), |b| check(&b)).unwrap();
}

#[test]
fn token_soups_never_panic() {
    runner(600, 2).run(&token_soup(), |b| check(&b)).unwrap();
}

#[test]
fn damaged_valid_files_never_panic() {
    runner(600, 3).run(&damaged_file(), |b| check(&b)).unwrap();
}

/// The long run: all three kinds of input, batch after batch with fresh
/// seeds, until `FUZZ_SECONDS` have passed.
#[test]
#[ignore]
fn fuzz_long() {
    let seconds: u64 = std::env::var("FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
    let start = Instant::now();
    let (mut inputs_run, mut batch) = (0u64, 0u64);
    while start.elapsed() < Duration::from_secs(seconds) {
        batch += 1;
        runner(2000, 1000 + batch).run(&inputs(), |b| check(&b)).unwrap();
        inputs_run += 2000;
    }
    eprintln!(
        "fuzz_long: {inputs_run} inputs, {} parses, {} accepted parses, {:.0} s, no panics",
        PARSES.load(Ordering::Relaxed),
        ACCEPTED.load(Ordering::Relaxed),
        start.elapsed().as_secs_f64()
    );
}
