//! The orphan zoo (`data/zoo/`): a seeded, varied corpus of orphan questions
//! for judging every engine on patterns nobody tuned it to. Published
//! Gardens of Eden (`data/zoo/literature/`, with provenance) are taken as
//! they are, turned or mirrored, embedded in random fields of known cells,
//! flipped in one cell, and blurred with `?` cells; beside them stand
//! patterns that do have a parent (random soups stepped once) and uniformly
//! random ones. `experiments zoo DIR --seed S` writes one file per pattern and
//! `zoo.csv`; every verdict there is established by two independent solvers
//! (CaDiCaL and GRIDWALKER, the column automaton too where it applies) that
//! must agree, and every parent they return has been checked by simulation.
//! Another seed gives a held-out corpus of the same kinds.

use anyhow::{Context, Result, bail, ensure};
use lifesearch::OrphanQuery;
use lifesearch::formats::{Pattern, rle, target::read_target};
use lifesearch::life::{Cell, Grid, Rule, SpecGrid, Topology, naive};
use lifesearch::search::verify::known_cells;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The corpus committed in `data/zoo` was made with this seed.
pub const SEED: u64 = 17;

/// One line of `zoo.csv`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    pub name: String,
    /// literature, transformed, embedded, flip, soup, random, unknown.
    pub kind: String,
    /// The file, relative to the zoo's folder.
    pub file: String,
    /// Where the cells came from.
    pub source: String,
    pub width: usize,
    pub height: usize,
    pub live: usize,
    pub unknown: usize,
    /// `orphan` or `predecessor`.
    pub verdict: String,
    /// The solvers that agreed on the verdict.
    pub checked_by: String,
}

/// A pattern of the zoo before its verdict is known.
struct Draft {
    name: String,
    kind: &'static str,
    source: String,
    target: SpecGrid,
}

fn draft(name: String, kind: &'static str, source: String, target: SpecGrid) -> Draft {
    Draft { name, kind, source, target }
}

/// The `i`th draft of a generated kind, named by its prefix, number and size.
fn numbered(prefix: &str, i: usize, kind: &'static str, source: String, target: SpecGrid) -> Draft {
    draft(format!("{prefix}-{i:02}-{}x{}", target.width(), target.height()), kind, source, target)
}

// ANCHOR: symmetries
/// The eight symmetries of the square, as names and maps of a cell (x, y) of
/// a w x h box to its place in the turned box.
const SYMMETRIES: [&str; 8] =
    ["id", "rot90", "rot180", "rot270", "flip-x", "flip-y", "transpose", "antitranspose"];

/// `t` under symmetry `k` (an index into [`SYMMETRIES`]).
pub fn transformed(t: &SpecGrid, k: usize) -> SpecGrid {
    let (w, h) = (t.width(), t.height());
    let turns = matches!(k, 1 | 3 | 6 | 7);
    let (nw, nh) = if turns { (h, w) } else { (w, h) };
    let mut out = SpecGrid::new(nw, nh, Cell::Dead);
    for y in 0..h {
        for x in 0..w {
            let (nx, ny) = match k {
                0 => (x, y),
                1 => (h - 1 - y, x),
                2 => (w - 1 - x, h - 1 - y),
                3 => (y, w - 1 - x),
                4 => (w - 1 - x, y),
                5 => (x, h - 1 - y),
                6 => (y, x),
                _ => (h - 1 - y, w - 1 - x),
            };
            out.set(nx, ny, t.get(x, y));
        }
    }
    out
}
// ANCHOR_END: symmetries

/// The published orphans, by file stem, in name order.
fn literature(root: &Path) -> Result<Vec<(String, SpecGrid)>> {
    let dir = root.join("literature");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("{}: cannot list", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    files.retain(|p| p.extension().is_some_and(|e| e == "rle" || e == "txt"));
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
            Ok((stem, read_target(&p)?))
        })
        .collect()
}

// ANCHOR: zoo_kinds
/// The drafts of a zoo: each kind drawn from `rng`, sizes and densities varied.
fn drafts(lit: &[(String, SpecGrid)], rng: &mut impl Rng) -> Vec<Draft> {
    let mut out = Vec::new();
    // Fully known orphans to derive from (the 89-cell one has `?` cells).
    let orphans: Vec<&(String, SpecGrid)> = lit.iter().filter(|(_, t)| t.count(Cell::Unknown) == 0).collect();
    let pick_turned = |rng: &mut dyn rand::RngCore| {
        let (stem, t) = orphans.choose(rng).expect("literature orphans");
        let k = rng.random_range(0..8);
        (transformed(t, k), format!("{} of {stem}", SYMMETRIES[k]))
    };
    for (stem, t) in lit {
        out.push(draft(format!("lit-{stem}"), "literature", stem.clone(), t.clone()));
    }
    for (stem, t) in
        lit.iter().filter(|(s, t)| !s.starts_with("beluchenko2009") && t.count(Cell::Unknown) == 0)
    {
        let k = rng.random_range(1..8);
        let (name, src) = (format!("sym-{stem}-{}", SYMMETRIES[k]), format!("{} of {stem}", SYMMETRIES[k]));
        out.push(draft(name, "transformed", src, transformed(t, k)));
    }
    for i in 0..10 {
        let (t, src) = pick_turned(rng);
        let (mx, my) = (rng.random_range(2..=16), rng.random_range(2..=16));
        let d = *[0.2, 0.35, 0.5].choose(rng).expect("densities");
        let mut field = SpecGrid::random(t.width() + mx, t.height() + my, d, 0.0, rng);
        let (ox, oy) = (rng.random_range(0..=mx), rng.random_range(0..=my));
        for y in 0..t.height() {
            for x in 0..t.width() {
                field.set(ox + x, oy + y, t.get(x, y));
            }
        }
        let src = format!("{src}, at ({ox},{oy}) in a random field of density {d}");
        out.push(numbered("emb", i, "embedded", src, field));
    }
    for i in 0..8 {
        let (mut t, src) = pick_turned(rng);
        let (x, y) = (rng.random_range(0..t.width()), rng.random_range(0..t.height()));
        let c = if t.get(x, y) == Cell::Alive { Cell::Dead } else { Cell::Alive };
        t.set(x, y, c);
        out.push(draft(format!("flip-{i:02}"), "flip", format!("{src}, cell ({x},{y}) flipped"), t));
    }
    for i in 0..12 {
        let (t, src) = soup_child(rng);
        out.push(numbered("soup", i, "soup", src, t));
    }
    for i in 0..5 {
        let (t, src) = random_square(rng, 5..=11);
        out.push(numbered("rand", i, "random", src, t));
    }
    for i in 0..7 {
        let f = *[0.05, 0.1, 0.2, 0.3, 0.5].choose(rng).expect("fractions");
        let (mut t, src) = match i % 3 {
            0 => soup_child(rng),
            1 => pick_turned(rng),
            _ => random_square(rng, 9..=14),
        };
        for c in t.cells_mut().iter_mut() {
            if rng.random_bool(f) {
                *c = Cell::Unknown;
            }
        }
        let src = format!("{src}, each cell made ? with probability {f}");
        out.push(numbered("unk", i, "unknown", src, t));
    }
    out
}

/// A square of uniformly random cells, its side drawn from `sides`.
fn random_square(rng: &mut impl Rng, sides: std::ops::RangeInclusive<usize>) -> (SpecGrid, String) {
    let s = rng.random_range(sides);
    (SpecGrid::random(s, s, 0.5, 0.0, rng), "uniformly random cells, density 0.5".into())
}

/// A random soup, stepped once and cut to its inside: it has a parent.
/// Boxes from 7 to 64 cells a side, at most 8 times as long as high.
fn soup_child(rng: &mut impl Rng) -> (SpecGrid, String) {
    let (w, h) = loop {
        let (w, h) = (rng.random_range(7..=64), rng.random_range(7..=64));
        if w.max(h) <= 8 * w.min(h) && w * h <= 2500 {
            break (w, h);
        }
    };
    let d = *[0.15, 0.25, 0.35, 0.5, 0.65].choose(rng).expect("densities");
    let parent = Grid::random(w + 2, h + 2, d, rng);
    let child = naive::step(&parent, Rule::CONWAY, Topology::Bounded).crop(1, 1, w, h);
    (SpecGrid::from(&child), format!("a random {}x{} soup of density {d}, stepped once", w + 2, h + 2))
}
// ANCHOR_END: zoo_kinds

// ANCHOR: zoo_verdict
/// The verdict on `t` from CaDiCaL and from GRIDWALKER (and the automaton
/// where one side is at most six cells: where it `supports` the query),
/// which must all agree. Each engine checks a parent it returns by evolving it.
pub fn verdict(t: &SpecGrid) -> Result<(bool, Vec<&'static str>)> {
    let q = OrphanQuery::new(t.clone());
    let mut answers = Vec::new();
    for name in ["cadical", "gridwalker", "automaton"] {
        let e = lifesearch::engine::by_name(name)?;
        if e.supports(&q).is_ok() {
            answers.push((name, e.decide(&q)?.is_orphan()));
        }
    }
    let orphan = answers[0].1;
    if let Some((name, _)) = answers.iter().find(|a| a.1 != orphan) {
        bail!("CaDiCaL and {name} disagree");
    }
    Ok((orphan, answers.into_iter().map(|a| a.0).collect()))
}
// ANCHOR_END: zoo_verdict

/// A pattern file's extension and text: RLE when every cell is known, rows
/// of `.`, `*`, `?` otherwise (RLE has no unknown cells); comments say where
/// it came from.
fn pattern_file(d: &Draft) -> (&'static str, String) {
    let comment = format!("{}: {} (lifesearch orphan zoo)", d.name, d.source);
    if d.target.count(Cell::Unknown) == 0 {
        let grid = known_cells(&d.target);
        let p = Pattern { grid, name: Some(d.name.clone()), comments: vec![comment], ..Default::default() };
        ("rle", rle::write(&p))
    } else {
        ("txt", format!("# {comment}\n{}\n", d.target.to_rows().join("\n")))
    }
}

/// Generate a zoo from the literature in `lit_root` into `out` with `seed`,
/// counting the patterns decided on `bar`.
pub fn generate(lit_root: &Path, out: &Path, seed: u64, bar: &indicatif::ProgressBar) -> Result<Vec<Entry>> {
    let lit = literature(lit_root)?;
    ensure!(!lit.is_empty(), "{}: no literature patterns", lit_root.join("literature").display());
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let drafts = drafts(&lit, &mut rng);
    std::fs::create_dir_all(out.join("patterns"))?;
    bar.set_length(drafts.len() as u64);
    let mut entries = Vec::new();
    for d in &drafts {
        let (orphan, by) = verdict(&d.target).with_context(|| format!("zoo pattern {}", d.name))?;
        bar.inc(1);
        let (ext, text) = pattern_file(d);
        let file = if d.kind == "literature" {
            format!("literature/{}.{ext}", d.name.trim_start_matches("lit-"))
        } else {
            let f = format!("patterns/{}.{ext}", d.name);
            lifesearch::atomic_write(&out.join(&f), text.as_bytes())?;
            f
        };
        entries.push(Entry {
            name: d.name.clone(),
            kind: d.kind.into(),
            file,
            source: d.source.clone(),
            width: d.target.width(),
            height: d.target.height(),
            live: d.target.count(Cell::Alive),
            unknown: d.target.count(Cell::Unknown),
            verdict: if orphan { "orphan" } else { "predecessor" }.into(),
            checked_by: by.join("+"),
        });
    }
    bar.finish_and_clear();
    if lit_root != out {
        // A held-out zoo elsewhere takes the literature along.
        std::fs::create_dir_all(out.join("literature"))?;
        for e in entries.iter().filter(|e| e.kind == "literature") {
            std::fs::copy(lit_root.join(&e.file), out.join(&e.file))?;
        }
    }
    crate::harness::write_csv(&out.join("zoo.csv"), &entries)?;
    Ok(entries)
}

/// The lines of a zoo's `zoo.csv`, without reading the pattern files.
pub fn entries(dir: &Path) -> Result<Vec<Entry>> {
    crate::harness::read_csv(&dir.join("zoo.csv"))
}

/// Read a zoo: its entries with their targets, each file checked against
/// its line in `zoo.csv` (size, live and unknown cells).
pub fn read(dir: &Path) -> Result<Vec<(Entry, SpecGrid)>> {
    let entries = entries(dir)?;
    let mut out = Vec::new();
    for (i, e) in entries.into_iter().enumerate() {
        let t = read_target(&dir.join(&e.file))?;
        let says = (e.width, e.height, e.live, e.unknown);
        let holds = (t.width(), t.height(), t.count(Cell::Alive), t.count(Cell::Unknown));
        ensure!(
            says == holds,
            "{}: line {} ({}) says {says:?}, the file holds {holds:?} (width, height, live, unknown cells)",
            dir.join("zoo.csv").display(),
            i + 2,
            e.name,
        );
        ensure!(e.verdict == "orphan" || e.verdict == "predecessor", "{}: verdict '{}'", e.name, e.verdict);
        out.push((e, t));
    }
    Ok(out)
}

/// The committed zoo's folder.
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/zoo")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> SpecGrid {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
        SpecGrid::random(5, 3, 0.5, 0.2, &mut rng)
    }

    #[test]
    fn the_symmetries_are_the_eight_of_the_square() {
        let t = example();
        let all: Vec<SpecGrid> = (0..8).map(|k| transformed(&t, k)).collect();
        assert_eq!(all[0], t);
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a, b, "an asymmetric pattern has eight distinct images");
            }
        }
        // rot90 four times, each mirror twice, give the pattern back.
        assert_eq!((0..4).fold(t.clone(), |r, _| transformed(&r, 1)), t);
        for k in 4..8 {
            assert_eq!(transformed(&transformed(&t, k), k), t);
        }
        assert_eq!(transformed(&transformed(&t, 1), 3), t);
        assert_eq!(transformed(&transformed(&t, 1), 1), transformed(&t, 2));
    }

    #[test]
    fn the_committed_zoo_is_what_its_seed_makes() {
        let dir = default_dir();
        let zoo = read(&dir).unwrap();
        assert!(zoo.len() >= 40, "{} patterns", zoo.len());
        let lit = literature(&dir).unwrap();
        let mut rng = rand_pcg::Pcg64::seed_from_u64(SEED);
        let drafts = drafts(&lit, &mut rng);
        assert_eq!(drafts.len(), zoo.len());
        for (d, (e, t)) in drafts.iter().zip(&zoo) {
            assert_eq!((d.name.as_str(), d.kind), (e.name.as_str(), e.kind.as_str()));
            assert_eq!(&d.target, t, "{}: the file differs from what the generator makes", e.name);
            assert!(e.checked_by.starts_with("cadical+gridwalker"), "{}: {}", e.name, e.checked_by);
        }
        for kind in ["literature", "transformed", "embedded", "flip", "soup", "random", "unknown"] {
            assert!(zoo.iter().any(|(e, _)| e.kind == kind), "no {kind} pattern");
        }
        assert!(
            zoo.iter().any(|(e, _)| e.verdict == "orphan")
                && zoo.iter().any(|(e, _)| e.verdict == "predecessor")
        );
    }

    #[test]
    fn every_literature_pattern_has_its_provenance() {
        let dir = default_dir();
        let sources = std::fs::read_to_string(dir.join("literature/SOURCES.md")).unwrap();
        for (stem, _) in literature(&dir).unwrap() {
            assert!(sources.contains(&stem), "{stem} is not in literature/SOURCES.md");
        }
    }

    #[test]
    fn a_soup_child_has_a_parent_and_verdicts_agree() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
        let (t, _) = soup_child(&mut rng);
        let (orphan, by) = verdict(&t).unwrap();
        assert!(!orphan);
        assert!(by.contains(&"cadical") && by.contains(&"gridwalker"));
        // A published orphan stays one under every symmetry.
        let lit = literature(&default_dir()).unwrap();
        let (_, goe) = lit.iter().find(|(s, _)| s.starts_with("goe6")).unwrap();
        for k in [0, 1, 4] {
            assert!(verdict(&transformed(goe, k)).unwrap().0);
        }
    }
}
