//! `lifesearch search still-life|oscillator|spaceship`: find (or count)
//! patterns caged in a box, each checked by evolving it.

use crate::cli::orphan::{OrphanSolver, parse_orphan_solver};
use crate::cnf::{Outcome, new_solver};
use crate::gridwalker::stack;
use crate::life::Rule;
use crate::search::{Encoding, Problem, Symmetry, count, encode, solve};
use anyhow::{bail, ensure};

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
    /// How a Life step becomes clauses.
    #[arg(long, value_enum, default_value_t)]
    pub encoding: Encoding,
}

impl CycleArgs {
    /// The problem these arguments describe, or a one-line reason why not.
    pub fn problem(&self, kind: Kind) -> anyhow::Result<Problem> {
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
        let p = Problem::Cycle { width, height, period, dx, dy, symmetry: self.symmetry };
        p.validate(self.encoding, Rule::CONWAY)?;
        Ok(p)
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
    /// cadical (default), batsat, varisat; kissat, minisat, glucose with
    /// `extra-solvers`; gridwalker (its grid stacks; no --count, no --symmetry);
    /// or auto (GRIDWALKER and CaDiCaL racing; CaDiCaL alone for --count,
    /// --symmetry or another --encoding).
    #[arg(long, default_value = "cadical", value_parser = parse_orphan_solver)]
    pub solver: OrphanSolver,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let problem = a.cycle.problem(a.kind)?;
    ensure!(a.limit.is_none() || a.count, "--limit only makes sense with --count");
    let Problem::Cycle { width, height, period, dx, dy, symmetry } = problem else {
        unreachable!("cycles only")
    };
    let kind = match a.solver {
        OrphanSolver::Sat(kind) => kind,
        OrphanSolver::Gridwalker => {
            ensure!(!a.count, "--count needs a SAT solver (GRIDWALKER finds one pattern)");
            ensure!(symmetry == Symmetry::None, "--symmetry needs a SAT solver");
            return with_gridwalker(width, height, period, (dx, dy), a.json);
        }
        OrphanSolver::Automaton => {
            anyhow::bail!("the automaton decides orphans only; search with a SAT solver or gridwalker")
        }
        // Counting, symmetry and other encodings are CaDiCaL's alone.
        OrphanSolver::Auto
            if a.count || symmetry != Symmetry::None || a.cycle.encoding != Encoding::default() =>
        {
            crate::cnf::SolverKind::Cadical
        }
        OrphanSolver::Auto => return with_auto(width, height, period, (dx, dy), a.json),
    };
    let mut solver = new_solver(kind)?;
    let enc = encode(&problem, a.cycle.encoding, Rule::CONWAY)?;
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
        for row in g.to_rows() {
            println!("{row}");
        }
    } else {
        println!("none ({kind}, {:.1} ms)", ans.millis);
    }
    Ok(())
}

/// The portfolio: GRIDWALKER's grid stack and CaDiCaL racing.
fn with_auto(w: usize, h: usize, period: usize, shift: (i64, i64), json: bool) -> anyhow::Result<()> {
    let ans = crate::search::portfolio::caged_cycle_auto(w, h, period, shift)?;
    let stats = ans.stats.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(*v)));
    print_found("auto", ans.engine.name(), ans.found, ans.millis, stats.collect(), json);
    Ok(())
}

/// The same search with GRIDWALKER's circular grid stack (thesis Table 5.3).
fn with_gridwalker(w: usize, h: usize, period: usize, shift: (i64, i64), json: bool) -> anyhow::Result<()> {
    let t = std::time::Instant::now();
    // An answer was checked by simulation inside the stack search.
    let ans = stack::caged_cycle(w, h, period, shift, Rule::CONWAY)?;
    let millis = t.elapsed().as_secs_f64() * 1e3;
    let stats = ans.stats.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(*v)));
    print_found("gridwalker", "gridwalker", ans.start, millis, stats.collect(), json);
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
        for row in g.to_rows() {
            println!("{row}");
        }
    } else {
        println!("none ({engine}, {millis:.1} ms)");
    }
}
