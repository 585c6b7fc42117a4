//! `lifesearch search still-life|oscillator|spaceship`: find (or count)
//! patterns caged in a box, each checked by evolving it.

use crate::engine::{self, CycleQuery};
use crate::life::Rule;
use crate::search::sat::sat_encoding;
use crate::search::spacetime::{self, FirstValue, SearchOrder};
use crate::search::{Cycle, Encoding, Problem, Symmetry};
use anyhow::{bail, ensure};
use std::path::PathBuf;

/// Parse a search solver's name: one of [`engine::cycle_names`].
pub fn parse_search_solver(s: &str) -> Result<String, String> {
    engine::cycle_engine(s).map(|_| s.to_string()).map_err(|e| e.to_string())
}

/// How answers are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum OutputFormat {
    /// Rows of `.` and `*`.
    #[default]
    Rows,
    /// RLE with the rule in its header.
    Rle,
}

/// What to look for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    StillLife,
    Oscillator,
    Spaceship,
}

/// The box and cycle of a search (shared with `lifesearch cnf`).
#[derive(Debug, Clone, clap::Args)]
pub struct CycleArgs {
    /// Box width.
    #[arg(long)]
    pub width: Option<usize>,
    /// Box height.
    #[arg(long)]
    pub height: Option<usize>,
    /// Exact period (oscillators, spaceships).
    #[arg(long)]
    pub period: Option<usize>,
    /// Horizontal move per period (spaceships; positive: to the right).
    #[arg(long, allow_hyphen_values = true)]
    pub dx: Option<i64>,
    /// Vertical move per period (spaceships; positive: down).
    #[arg(long, allow_hyphen_values = true)]
    pub dy: Option<i64>,
    /// Symmetry imposed on the pattern.
    #[arg(long, value_enum, default_value_t)]
    pub symmetry: Symmetry,
    /// How a Life step becomes clauses [default for `search`: knuth where
    /// it applies (Conway's rule, at most 83 generations), else window; for
    /// `cnf`: window].
    #[arg(long, value_enum)]
    pub encoding: Option<Encoding>,
}

impl CycleArgs {
    /// The problem these arguments describe, or a one-line reason why not.
    pub fn problem(&self, kind: Kind) -> anyhow::Result<Problem> {
        Ok(Problem::Cycle(self.cycle(kind, Rule::CONWAY)?))
    }

    /// The cycle these arguments describe under `rule`, checked as a problem.
    pub fn cycle(&self, kind: Kind, rule: Rule) -> anyhow::Result<Cycle> {
        let (Some(width), Some(height)) = (self.width, self.height) else {
            bail!("--width and --height are required");
        };
        let (dx, dy) = (self.dx.unwrap_or(0), self.dy.unwrap_or(0));
        let period = match kind {
            Kind::StillLife => {
                ensure!(self.period.unwrap_or(1) == 1, "a still life has period 1");
                ensure!(dx == 0 && dy == 0, "a still life does not move");
                1
            }
            Kind::Oscillator => {
                ensure!(dx == 0 && dy == 0, "an oscillator does not move (use spaceship)");
                self.period.ok_or_else(|| anyhow::anyhow!("an oscillator search needs --period"))?
            }
            Kind::Spaceship => {
                ensure!(dx != 0 || dy != 0, "a spaceship needs --dx or --dy");
                self.period.ok_or_else(|| anyhow::anyhow!("a spaceship search needs --period"))?
            }
        };
        let c = Cycle { width, height, period, dx, dy, symmetry: self.symmetry };
        let p = Problem::Cycle(c);
        p.validate(self.search_encoding(&p, rule), rule)?;
        Ok(c)
    }

    /// The encoding `search`'s SAT solvers use: the one named, else the
    /// faster where it applies ([`sat_encoding`]).
    pub fn search_encoding(&self, problem: &Problem, rule: Rule) -> Encoding {
        self.encoding.unwrap_or_else(|| sat_encoding(problem, rule))
    }
}

/// Arguments of `lifesearch search`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// still-life, oscillator or spaceship.
    #[arg(value_enum)]
    pub kind: Kind,
    #[command(flatten)]
    pub cycle: CycleArgs,
    /// Count all solutions (distinct generation-0 patterns) instead of finding one.
    #[arg(long)]
    pub count: bool,
    /// Stop counting after this many.
    #[arg(long)]
    pub limit: Option<u64>,
    /// With --count: count each pattern once up to translation in the box
    /// (some generation touches the first row and some the first column,
    /// unless a symmetry pins it), instead of every placement.
    #[arg(long)]
    pub up_to_translation: bool,
    /// auto (default: the space-time engine, racing CaDiCaL with Knuth's
    /// encoding on a second thread after 5 ms; the JSON's `engine`
    /// says which answered), spacetime (the space-time propagation engine), cadical,
    /// batsat, varisat; kissat, minisat, glucose with `extra-solvers`;
    /// gridwalker (its grid stacks; no --count, no --symmetry).
    #[arg(long, default_value = "auto", value_parser = parse_search_solver)]
    pub solver: String,
    /// The Life-like rule (B0 rules are refused).
    #[arg(long, default_value = "B3/S23")]
    pub rule: Rule,
    /// How the space-time engine sweeps the box.
    #[arg(long, value_enum, default_value_t)]
    pub order: SearchOrder,
    /// Which value the space-time engine tries first at a decision (auto:
    /// alive, with a probe trying dead for still lifes and oscillators).
    #[arg(long, value_enum, default_value_t)]
    pub first: FirstValue,
    /// At most this many live cells in generation 0 (space-time engine).
    #[arg(long)]
    pub max_population: Option<usize>,
    /// Known cells of generation 0: rows of `.`, `*` and `?` the box's size (space-time engine).
    #[arg(long)]
    pub known: Option<PathBuf>,
    /// Print the answer as rows (default) or RLE with the rule in the header.
    #[arg(long, value_enum, default_value_t)]
    pub to: OutputFormat,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let cycle = a.cycle.cycle(a.kind, a.rule)?;
    ensure!(a.limit.is_none() || a.count, "--limit only makes sense with --count");
    ensure!(!a.up_to_translation || a.count, "--up-to-translation only makes sense with --count");
    let known = a.known.as_deref().map(crate::formats::target::read_target).transpose()?;
    let options = spacetime::Options {
        order: a.order,
        first: a.first,
        max_population: a.max_population,
        known,
        count: a.count,
        limit: a.limit,
        up_to_translation: a.up_to_translation,
        undo: Default::default(),
    };
    let query = CycleQuery::new(cycle, a.rule).options(options).encoding(a.cycle.encoding);
    let engine = engine::cycle_engine(&a.solver)?;
    engine.supports(&query)?;
    // Every answer was checked by simulation inside the engine that found it.
    let v = engine.search(&query)?;
    let millis = v.elapsed.as_secs_f64() * 1e3;
    let stats = serde_json::to_value(&v.counters)?;
    if a.count {
        let n = v.solutions.len();
        if a.json {
            let j = serde_json::json!({
                "count": n,
                "complete": v.complete,
                "solver": a.solver,
                "engine": v.engine,
                "millis": millis,
                "stats": stats,
            });
            println!("{j}");
        } else {
            let plus = if v.complete { "" } else { "+" };
            println!("{n}{plus} solutions ({}, {millis:.1} ms)", v.engine);
        }
        return Ok(());
    }
    let found = v.solutions.first();
    if a.json {
        let mut j = serde_json::json!({
            "found": found.is_some(),
            "pattern": found.map(|g| g.to_rows()),
            "solver": a.solver,
            "engine": v.engine,
            "millis": millis,
            "stats": stats,
        });
        if !v.generations.is_empty() {
            j["generations"] = v.generations.iter().map(|g| g.to_rows()).collect::<Vec<_>>().into();
        }
        println!("{j}");
    } else if let Some(g) = found {
        println!("found ({}, {millis:.1} ms):", v.engine);
        print_grid(g, a.rule, a.to);
    } else {
        println!("none ({}, {millis:.1} ms)", v.engine);
    }
    Ok(())
}

/// An answer as rows or as RLE (with the rule in the header).
fn print_grid(g: &crate::life::Grid, rule: Rule, to: OutputFormat) {
    match to {
        OutputFormat::Rows => {
            for row in g.to_rows() {
                println!("{row}");
            }
        }
        OutputFormat::Rle => {
            let p = crate::formats::Pattern { grid: g.clone(), rule: Some(rule), ..Default::default() };
            print!("{}", crate::formats::rle::write(&p));
        }
    }
}
