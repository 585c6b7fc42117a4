//! Every evolution engine, listed once. `evolve --algorithm NAME`, the
//! experiments and the tests look engines up here; adding an engine is one
//! [`Evolver`] impl and one line in [`registry`].
//!
//! Book: Part II, chapter 3, "HashLife, `auto`, and the peers" (`book/src/thesis/ch3.md`).

use super::auto::{self, Choice};
use super::hashlife::HashLife;
use super::{Algorithm, Grid, Rule, Topology, relay, tiles};
use crate::error::{Error, Result};

/// Where a run starts: live cells, or a quadtree (a macrocell file).
#[derive(Debug)]
pub enum Start {
    /// On the plane, `origin` is the grid's top-left cell; on a torus the grid
    /// is the whole board and `origin` is ignored.
    Cells {
        grid: Grid,
        origin: (i64, i64),
    },
    Tree(Box<HashLife>),
}

/// One run to do.
#[derive(Debug)]
pub struct Job {
    pub start: Start,
    pub rule: Rule,
    /// Whether the board is the start grid wrapped as a torus (else the plane).
    pub torus: bool,
    pub generations: u64,
    /// HashLife's memory cap in bytes (past it, unreachable nodes are collected).
    pub memory_cap: usize,
}

/// Where a run ends, in the same two forms as [`Start`].
#[derive(Debug)]
pub enum Evolved {
    Cells { grid: Grid, origin: (i64, i64) },
    Tree(Box<HashLife>),
}

/// A finished run: the pattern, the engine that ran it (auto names its pick),
/// and what the engine has to say about how it went.
#[derive(Debug)]
pub struct Run {
    pub evolved: Evolved,
    pub engine: &'static str,
    pub notes: Vec<String>,
}

// ANCHOR: evolver
/// An evolution engine. It refuses a job it cannot run with an error that
/// says why, before doing any work.
pub trait Evolver {
    /// Whether the engine runs on a quadtree as it is; the others get cells.
    fn takes_trees(&self) -> bool {
        false
    }
    fn evolve(&self, job: Job) -> Result<Run>;
}
// ANCHOR_END: evolver

/// A registry entry: the name, a line of help, and the engine.
pub type Entry = (&'static str, &'static str, &'static dyn Evolver);

// ANCHOR: registry
/// Every engine by name, `auto` first.
pub fn registry() -> Vec<Entry> {
    vec![
        (
            "auto",
            "Pick per workload and say why (short torus runs: LIFECUBE; long ones: tiles; very long plane runs: HashLife; else the relay)",
            &Auto,
        ),
        ("naive", "Count the eight neighbours of every cell", &Dense(Algorithm::Naive, "naive")),
        ("table", "Look up 4x4 tiles in a precomputed table", &Dense(Algorithm::Table, "table")),
        (
            "lifecube",
            "Bit-parallel adder network over 64-cell words",
            &Dense(Algorithm::Lifecube, "lifecube"),
        ),
        (
            "lifecube-parallel",
            "LIFECUBE on all cores",
            &Dense(Algorithm::LifecubeParallel, "lifecube-parallel"),
        ),
        ("hashlife", "Hashed quadtree with memoised power-of-two jumps (plane, no B0)", &Hash),
        ("tiles", "Linked 64x64 tiles that sleep while they repeat (plane without B0, or torus)", &Tiles),
        ("relay", "The tiles while the pattern is busy, HashLife once it settles (plane, no B0)", &Relay),
    ]
}
// ANCHOR_END: registry

/// The names of every engine, in registry order.
pub fn names() -> Vec<&'static str> {
    registry().into_iter().map(|e| e.0).collect()
}

/// The engine called `name`, or an error listing the known ones.
pub fn by_name(name: &str) -> Result<&'static dyn Evolver> {
    registry()
        .into_iter()
        .find(|e| e.0 == name)
        .map(|e| e.2)
        .ok_or_else(|| Error::invalid(format!("unknown algorithm '{name}' (known: {})", names().join(", "))))
}

/// The start as cells, for the engines that do not take trees.
fn cells(start: Start, engine: &str) -> Result<(Grid, (i64, i64))> {
    match start {
        Start::Cells { grid, origin } => Ok((grid, origin)),
        Start::Tree(_) => {
            Err(Error::invalid(format!("{engine} needs cells, not a quadtree: convert the tree first")))
        }
    }
}

fn plane_only(job: &Job, engine: &str) -> Result<()> {
    if job.torus {
        return Err(Error::invalid(format!(
            "{engine} runs on the unbounded plane only: drop --torus or pick another --algorithm"
        )));
    }
    Ok(())
}

/// Table 3.1's engines on a dense board (a torus), or on the plane (LIFECUBE's
/// block universe, or a dense grid widened as the pattern grows).
struct Dense(Algorithm, &'static str);

impl Evolver for Dense {
    fn evolve(&self, job: Job) -> Result<Run> {
        let (grid, origin) = cells(job.start, self.1)?;
        let evolved = if job.torus {
            let grid = super::evolve(&grid, job.rule, Topology::Torus, job.generations, self.0);
            Evolved::Cells { grid, origin }
        } else {
            let (grid, (dx, dy)) = super::evolve_unbounded(&grid, job.rule, job.generations, self.0);
            Evolved::Cells { grid, origin: (origin.0 + dx, origin.1 + dy) }
        };
        Ok(Run { evolved, engine: self.1, notes: Vec::new() })
    }
}

struct Hash;

impl Evolver for Hash {
    fn takes_trees(&self) -> bool {
        true
    }
    fn evolve(&self, job: Job) -> Result<Run> {
        plane_only(&job, "hashlife")?;
        let mut tree = match job.start {
            Start::Tree(mut t) => {
                t.set_rule(job.rule)?;
                t
            }
            Start::Cells { grid, origin } => {
                Box::new(HashLife::from_grid(&grid, origin, job.rule, job.memory_cap)?)
            }
        };
        tree.advance(job.generations);
        Ok(Run { evolved: Evolved::Tree(tree), engine: "hashlife", notes: Vec::new() })
    }
}

struct Tiles;

impl Evolver for Tiles {
    fn evolve(&self, job: Job) -> Result<Run> {
        let (grid, origin) = cells(job.start, "tiles")?;
        let evolved = if job.torus {
            Evolved::Cells { grid: tiles::evolve_torus(&grid, job.rule, job.generations), origin }
        } else {
            let (grid, (dx, dy)) = tiles::evolve_plane(&grid, job.rule, job.generations).ok_or_else(|| {
                Error::invalid(
                    "the tile engine refuses rules with B0 on the plane (the dead plane would flash): use --torus",
                )
            })?;
            Evolved::Cells { grid, origin: (origin.0 + dx, origin.1 + dy) }
        };
        Ok(Run { evolved, engine: "tiles", notes: Vec::new() })
    }
}

struct Relay;

impl Evolver for Relay {
    fn evolve(&self, job: Job) -> Result<Run> {
        plane_only(&job, "relay")?;
        let (grid, origin) = cells(job.start, "relay")?;
        let opts = relay::Options { memory_cap: job.memory_cap, ..relay::Options::default() };
        let run = match relay::evolve_plane(&grid, origin, job.rule, job.generations, opts)? {
            relay::Relayed::Tree { tree, handed_over } => Run {
                evolved: Evolved::Tree(tree),
                engine: "relay",
                notes: vec![format!("the relay handed over to HashLife at generation {handed_over}")],
            },
            relay::Relayed::Tiles(grid, origin) => {
                Run { evolved: Evolved::Cells { grid, origin }, engine: "relay", notes: Vec::new() }
            }
        };
        Ok(run)
    }
}

/// What auto sees of a job.
pub fn workload(job: &Job) -> auto::Workload {
    let (side, soup) = match &job.start {
        // Spread is counted only on the plane, the one place auto asks.
        Start::Cells { grid, .. } => {
            (Some(grid.width().max(grid.height()) as u64), !job.torus && auto::is_soup(grid))
        }
        Start::Tree(_) => (None, false),
    };
    auto::Workload { torus: job.torus, b0: job.rule.birth & 1 == 1, side, soup, generations: job.generations }
}

/// The engine auto picks for a job, and why.
pub fn pick(job: &Job) -> (&'static str, String) {
    let (choice, why) = auto::pick(workload(job));
    let name = match choice {
        Choice::Lifecube => "lifecube",
        Choice::Hashlife => "hashlife",
        Choice::Tiles => "tiles",
        Choice::Relay => "relay",
    };
    (name, why)
}

struct Auto;

impl Evolver for Auto {
    fn takes_trees(&self) -> bool {
        true
    }
    fn evolve(&self, job: Job) -> Result<Run> {
        let (name, why) = pick(&job);
        let engine = by_name(name)?;
        let job = match job.start {
            Start::Tree(t) if !engine.takes_trees() => {
                let (grid, origin) = t.to_grid()?;
                Job { start: Start::Cells { grid, origin }, ..job }
            }
            start => Job { start, ..job },
        };
        let mut run = engine.evolve(job)?;
        run.notes.insert(0, format!("auto picked {name} ({why})"));
        Ok(run)
    }
}
