//! `lifesearch search still-life|oscillator|spaceship`: find (or count)
//! patterns caged in a box, each checked by evolving it.

use crate::cli::orphan::{OrphanSolver, parse_orphan_solver};
use crate::cnf::{Outcome, new_solver};
use crate::gridwalker::stack;
use crate::life::Rule;
use crate::search::portfolio::{CycleAnswer, Engine, caged_cycle_race, sat_encoding};
use crate::search::spacetime::{self, FirstValue, SearchOrder};
use crate::search::{Cycle, Encoding, Placement, Problem, Symmetry, count, encode_with, solve};
use anyhow::{bail, ensure};
use std::path::PathBuf;

/// A solver of `search`: one of `orphan`'s, or the space-time engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchSolver {
    Spacetime,
    Other(OrphanSolver),
}

/// Parse a search solver's name.
pub fn parse_search_solver(s: &str) -> Result<SearchSolver, String> {
    if s == "spacetime" {
        return Ok(SearchSolver::Spacetime);
    }
    parse_orphan_solver(s).map(SearchSolver::Other).map_err(|e| e.replace("(known: ", "(known: spacetime, "))
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
    pub solver: SearchSolver,
    /// The Life-like rule (B0 rules are refused).
    #[arg(long, default_value = "B3/S23")]
    pub rule: Rule,
    /// How the space-time engine sweeps the box.
    #[arg(long, value_enum, default_value_t)]
    pub order: SearchOrder,
    /// Which value the space-time engine tries first at a decision (auto:
    /// alive for spaceships, dead for still lifes and oscillators).
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
    let problem = Problem::Cycle(cycle);
    let Cycle { width, height, period, dx, dy, symmetry } = cycle;
    let st_only = a.max_population.is_some()
        || a.known.is_some()
        || a.order != SearchOrder::Auto
        || a.first != FirstValue::Auto;
    let kind = match a.solver {
        SearchSolver::Other(OrphanSolver::Sat(kind)) if !st_only => kind,
        SearchSolver::Other(OrphanSolver::Gridwalker) if !st_only => {
            ensure!(!a.count, "--count needs a SAT solver (GRIDWALKER finds one pattern)");
            ensure!(symmetry == Symmetry::None, "--symmetry needs a SAT solver");
            return with_gridwalker(width, height, period, (dx, dy), a.rule, a.json, a.to);
        }
        SearchSolver::Other(OrphanSolver::Automaton) => {
            anyhow::bail!("the automaton decides orphans only; search with a SAT solver or gridwalker")
        }
        SearchSolver::Other(OrphanSolver::Sat(_) | OrphanSolver::Gridwalker) => {
            bail!("--max-population, --known, --order and --first need --solver spacetime or auto")
        }
        // Another encoding is asked of the SAT solver: CaDiCaL alone.
        SearchSolver::Other(OrphanSolver::Auto)
            if a.cycle.encoding.is_some_and(|e| e != sat_encoding(&problem, a.rule)) =>
        {
            crate::cnf::SolverKind::Cadical
        }
        SearchSolver::Other(OrphanSolver::Auto) | SearchSolver::Spacetime => {
            return with_spacetime(&a, &problem);
        }
    };
    let mut solver = new_solver(kind)?;
    // Finding one answer, the formula admits one placement and phase (as the
    // space-time engine does); counting, every placement unless asked otherwise.
    let placement = match (a.count, a.up_to_translation) {
        (false, _) => Placement::OneAnswer,
        (true, true) => Placement::UpToTranslation,
        (true, false) => Placement::Every,
    };
    let enc = encode_with(&problem, a.cycle.search_encoding(&problem, a.rule), a.rule, placement)?;
    if a.count {
        // Every solution was checked by simulation inside `count`.
        let r = count(&enc, solver.as_mut(), a.limit)?;
        if a.json {
            let v = serde_json::json!({
                "count": r.count,
                "complete": r.complete,
                "solver": kind.name(),
            "engine": kind.name(),
                "millis": r.millis,
                "stats": r.stats,
            });
            println!("{v}");
        } else {
            println!(
                "{}{} solutions ({}, {:.1} ms)",
                r.count,
                if r.complete { "" } else { "+" },
                kind,
                r.millis
            );
        }
        return Ok(());
    }
    // An answer was checked by simulation inside `solve`.
    let ans = solve(&enc, solver.as_mut())?;
    if ans.outcome == Outcome::Unknown {
        bail!("{kind} gave up without an answer");
    }
    let found = ans.outcome == Outcome::Sat;
    if a.json {
        let v = serde_json::json!({
            "found": found,
            "pattern": ans.generations.first().map(|g| g.to_rows()),
            "generations": ans.generations.iter().map(|g| g.to_rows()).collect::<Vec<_>>(),
            "solver": kind.name(),
            "engine": kind.name(),
            "millis": ans.millis,
            "stats": ans.stats,
        });
        println!("{v}");
    } else if let Some(g) = ans.generations.first() {
        println!("found ({kind}, {:.1} ms):", ans.millis);
        print_grid(g, a.rule, a.to);
    } else {
        println!("none ({kind}, {:.1} ms)", ans.millis);
    }
    Ok(())
}

/// The space-time engine alone, or racing CaDiCaL (`auto`).
fn with_spacetime(a: &Args, problem: &Problem) -> anyhow::Result<()> {
    let known = a.known.as_deref().map(crate::formats::target::read_target).transpose()?;
    let opts = spacetime::Options {
        order: a.order,
        first: a.first,
        max_population: a.max_population,
        known,
        count: a.count,
        limit: a.limit,
        up_to_translation: a.up_to_translation,
        undo: Default::default(),
    };
    // Every answer was checked by simulation inside the engine that found it.
    let ans = if a.solver == SearchSolver::Spacetime {
        let r = spacetime::search(problem, a.rule, &opts, None)?;
        let stats = r.stats();
        CycleAnswer {
            solutions: r.solutions,
            complete: r.complete,
            engine: Engine::Spacetime,
            millis: r.millis,
            stats,
        }
    } else {
        caged_cycle_race(problem, a.rule, &opts)?
    };
    let solver = if a.solver == SearchSolver::Spacetime { "spacetime" } else { "auto" };
    let stats = ans.stats.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(*v))).collect();
    if a.count {
        let n = ans.solutions.len();
        if a.json {
            let v = serde_json::json!({
                "count": n,
                "complete": ans.complete,
                "solver": solver,
                "engine": ans.engine.name(),
                "millis": ans.millis,
                "stats": serde_json::Value::Object(stats),
            });
            println!("{v}");
        } else {
            let plus = if ans.complete { "" } else { "+" };
            println!("{n}{plus} solutions ({}, {:.1} ms)", ans.engine.name(), ans.millis);
        }
        return Ok(());
    }
    let found = ans.solutions.into_iter().next();
    print_found(solver, ans.engine.name(), found, ans.millis, stats, a.json, (a.rule, a.to));
    Ok(())
}

/// The same search with GRIDWALKER's circular grid stack (thesis Table 5.3).
fn with_gridwalker(
    w: usize,
    h: usize,
    period: usize,
    shift: (i64, i64),
    rule: Rule,
    json: bool,
    to: OutputFormat,
) -> anyhow::Result<()> {
    let t = std::time::Instant::now();
    // An answer was checked by simulation inside the stack search.
    let ans = stack::caged_cycle(w, h, period, shift, rule)?;
    let millis = t.elapsed().as_secs_f64() * 1e3;
    let stats = ans.stats.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(*v)));
    print_found("gridwalker", "gridwalker", ans.start, millis, stats.collect(), json, (rule, to));
    Ok(())
}

/// Print a search's answer (JSON or rows).
fn print_found(
    solver: &str,
    engine: &str,
    found: Option<crate::life::Grid>,
    millis: f64,
    stats: serde_json::Map<String, serde_json::Value>,
    json: bool,
    (rule, to): (Rule, OutputFormat),
) {
    if json {
        let v = serde_json::json!({
            "found": found.is_some(),
            "pattern": found.as_ref().map(|g| g.to_rows()),
            "solver": solver,
            "engine": engine,
            "millis": millis,
            "stats": stats,
        });
        println!("{v}");
    } else if let Some(g) = found {
        println!("found ({engine}, {millis:.1} ms):");
        print_grid(&g, rule, to);
    } else {
        println!("none ({engine}, {millis:.1} ms)");
    }
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
