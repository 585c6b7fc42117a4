//! `lifesearch evolve`: run a pattern forward and print where it ends up,
//! and (`--stats`, `--json`) how long it took.

use crate::formats::{self, Format, Pattern, macrocell, rle};
use crate::fsutil::atomic_write;
use crate::life::evolver::{self, Evolved, Job, Start};
use crate::life::hashlife::HashLife;
use crate::life::{self, Grid, Rule};
use anyhow::{Context, bail};
use std::path::PathBuf;
use std::time::Instant;

/// The `--algorithm` values: every engine of the registry, with its help line.
fn algorithms() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        evolver::registry()
            .into_iter()
            .map(|(name, help, _)| clap::builder::PossibleValue::new(name).help(help)),
    )
}

/// Where the final pattern goes: a format, or nowhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Output {
    Lif,
    Lif106,
    Cells,
    Rle,
    Txt,
    /// Golly's macrocell (any size, written from HashLife's tree directly).
    Mc,
    /// Print no pattern (with --stats or --json).
    None,
}

/// Arguments of `lifesearch evolve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pattern file (any format `convert` reads, Golly's `.mc` included).
    pub file: PathBuf,
    /// How many generations to run (any count up to 2^64 - 1; HashLife jumps there).
    #[arg(short, long)]
    pub generations: u64,
    /// Which engine evolves the pattern (all give identical results).
    #[arg(long, value_parser = algorithms(), default_value = "auto")]
    pub algorithm: String,
    /// The rule, as B3/S23 or WinLife's 23/3; default: the file's rule, else Conway's.
    #[arg(long)]
    pub rule: Option<Rule>,
    /// Run on a W x H torus (e.g. 200x200, WinLife's board); the input's top-left
    /// cell is torus cell (0, 0). Without it the plane is unbounded.
    #[arg(long, value_name = "WxH")]
    pub torus: Option<String>,
    /// Output format (`none`: no pattern).
    #[arg(long, value_enum, default_value = "txt")]
    pub to: Output,
    /// Write the pattern here (whole or not at all) instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Print generations, population, bounding box, engine, wall time and
    /// cell-generations per second on stderr.
    #[arg(long)]
    pub stats: bool,
    /// Print those statistics as JSON on stdout (the pattern then goes only to --output).
    #[arg(long)]
    pub json: bool,
    /// HashLife's memory cap in MiB: past it, unreachable nodes are collected.
    #[arg(long, default_value_t = 2048, value_name = "MIB")]
    pub memory: usize,
}

/// Parse `WxH` into positive sizes.
pub fn parse_size(s: &str) -> anyhow::Result<(usize, usize)> {
    let (w, h) =
        s.split_once(['x', 'X']).with_context(|| format!("size '{s}': expected WxH, e.g. 200x200"))?;
    let w: usize = w.trim().parse().with_context(|| format!("size '{s}': bad width"))?;
    let h: usize = h.trim().parse().with_context(|| format!("size '{s}': bad height"))?;
    if w == 0 || h == 0 {
        bail!("size '{s}': width and height must be at least 1");
    }
    if w > life::grid::MAX_SIDE || h > life::grid::MAX_SIDE {
        bail!("size '{s}': at most {} on a side", life::grid::MAX_SIDE);
    }
    Ok((w, h))
}

/// The bounding box of the final live cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct BoundingBox {
    pub x: i128,
    pub y: i128,
    pub width: u128,
    pub height: u128,
}

// ANCHOR: stats
/// What `--stats` and `--json` report. Cell-generations are the cells of
/// the board (torus) or of the final bounding box (plane) times the
/// generations: the work a dense engine would have done.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Stats {
    pub engine: &'static str,
    pub topology: &'static str,
    pub rule: String,
    pub generations: u64,
    pub population: u64,
    pub bounding_box: Option<BoundingBox>,
    /// Seconds spent evolving (not reading or writing).
    pub wall_seconds: f64,
    pub cell_generations_per_second: f64,
    /// HashLife's node count and collections, when it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hashlife: Option<life::hashlife::HashStats>,
}
// ANCHOR_END: stats

/// The input: a dense pattern, or a macrocell tree too large to need one.
enum Input {
    Dense(Pattern),
    Tree(Box<macrocell::Macrocell>),
}

/// The final state: a dense pattern, or HashLife's tree.
enum Final {
    Dense(Pattern),
    /// The tree, and the input's name, author and comments (its grid unused).
    Tree(Box<HashLife>, Pattern),
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let cap = a.memory.saturating_mul(1 << 20);
    let torus = a.torus.as_deref().map(parse_size).transpose()?;
    let engine = evolver::by_name(&a.algorithm)?;
    let input = read_input(&a, cap, torus.is_none() && engine.takes_trees())?;
    let file_rule = match &input {
        Input::Dense(p) => p.rule,
        Input::Tree(m) => m.rule,
    };
    let rule = a.rule.or(file_rule).unwrap_or(Rule::CONWAY);
    // A tree goes to the engines that take one as it is; everyone else gets cells.
    let (start, meta) = match input {
        Input::Tree(mut m) if torus.is_none() && engine.takes_trees() => {
            m.tree.set_generation(m.generation.unwrap_or(0));
            let meta = Pattern { comments: m.comments.clone(), ..Pattern::default() };
            (Start::Tree(Box::new(m.tree)), meta)
        }
        Input::Tree(m) => cells_of(tree_to_pattern(&m, &a)?, torus, &a)?,
        Input::Dense(p) => cells_of(p, torus, &a)?,
    };
    let job = Job { start, rule, torus: torus.is_some(), generations: a.generations, memory_cap: cap };
    let start = Instant::now();
    let run = engine.evolve(job).with_context(|| a.file.display().to_string())?;
    let wall = start.elapsed().as_secs_f64();
    for note in &run.notes {
        eprintln!("evolve: {note}");
    }
    let fin = match run.evolved {
        Evolved::Tree(t) => Final::Tree(t, Pattern { grid: Grid::new(0, 0), ..meta }),
        Evolved::Cells { grid, origin } => {
            Final::Dense(Pattern { grid, origin, rule: meta.rule.or(a.rule), ..meta })
        }
    };
    if a.stats || a.json {
        let s = stats(&fin, run.engine, rule, &a, torus, wall);
        if a.stats {
            eprintln!("{}", human(&s));
        }
        if a.json {
            println!("{}", serde_json::to_string_pretty(&s)?);
        }
    }
    write_output(&a, fin, rule, file_rule)
}

/// The start cells of a job: the pattern itself on the plane, or the torus
/// board with the pattern's top-left cell at (0, 0). Also the pattern's
/// name, rule and comments, for the output.
fn cells_of(mut p: Pattern, torus: Option<(usize, usize)>, a: &Args) -> anyhow::Result<(Start, Pattern)> {
    let grid = std::mem::replace(&mut p.grid, Grid::new(0, 0));
    let origin = p.origin;
    let Some((w, h)) = torus else {
        return Ok((Start::Cells { grid, origin }, p));
    };
    if grid.width() > w || grid.height() > h {
        bail!(
            "{}: pattern is {}x{}, larger than the {w}x{h} torus",
            a.file.display(),
            grid.width(),
            grid.height()
        );
    }
    let mut board = Grid::new(w, h);
    for (x, y) in grid.live_cells() {
        board.set(x, y, true);
    }
    Ok((Start::Cells { grid: board, origin }, p))
}

/// Read the file; a macrocell stays a tree until an engine needs it dense.
/// An RLE whose box is too large for a grid goes straight into a tree when
/// the engine takes one (`trees`).
fn read_input(a: &Args, cap: usize, trees: bool) -> anyhow::Result<Input> {
    let text = crate::fsutil::read_text(&a.file)?;
    let ext = a.file.extension().and_then(|e| e.to_str());
    let loc = crate::error::Location::file(&a.file);
    let format = formats::detect(&text, ext);
    if format == Format::Rle && rle::too_wide_for_a_grid(&text) {
        if !trees {
            bail!(
                "{}: the pattern's box is too large for a grid; HashLife reads it as a tree \
                 (--algorithm hashlife or auto, on the plane)",
                a.file.display()
            );
        }
        let mut w = formats::Warnings::default();
        let wide = rle::read_wide(&loc, &text, &mut w)?;
        for w in &w.0 {
            eprintln!("{w}");
        }
        let rule = a.rule.or(wide.rule).unwrap_or(Rule::CONWAY);
        let tree =
            HashLife::from_runs(&wide.runs, rule, cap).with_context(|| a.file.display().to_string())?;
        let m = macrocell::Macrocell { tree, rule: wide.rule, generation: None, comments: wide.comments };
        return Ok(Input::Tree(Box::new(m)));
    }
    if format == Format::Mc {
        let mut w = formats::Warnings::default();
        let m = macrocell::read_tree(&loc, &text, cap, &mut w)?;
        for w in &w.0 {
            eprintln!("{w}");
        }
        return Ok(Input::Tree(Box::new(m)));
    }
    Ok(Input::Dense(super::convert::read_with_warnings(&a.file)?))
}

fn tree_to_pattern(m: &macrocell::Macrocell, a: &Args) -> anyhow::Result<Pattern> {
    let (grid, origin) = m.tree.to_grid().with_context(|| a.file.display().to_string())?;
    Ok(Pattern { grid, origin, rule: m.rule, comments: m.comments.clone(), ..Pattern::default() })
}

fn stats(
    fin: &Final,
    engine: &'static str,
    rule: Rule,
    a: &Args,
    torus: Option<(usize, usize)>,
    wall: f64,
) -> Stats {
    let (population, bbox, hstats) = match fin {
        Final::Dense(p) => {
            let bb = p.grid.bounding_box().map(|(x, y, w, h)| BoundingBox {
                x: (p.origin.0 + x as i64) as i128,
                y: (p.origin.1 + y as i64) as i128,
                width: w as u128,
                height: h as u128,
            });
            (p.grid.population() as u64, bb, None)
        }
        Final::Tree(t, _) => {
            let bb = t.bounding_box().map(|(x, y, width, height)| BoundingBox { x, y, width, height });
            (t.population(), bb, Some(t.stats()))
        }
    };
    let cells = match (torus, bbox) {
        (Some((w, h)), _) => (w * h) as f64,
        (None, Some(b)) => b.width as f64 * b.height as f64,
        (None, None) => 0.0,
    };
    Stats {
        engine,
        topology: if torus.is_some() { "torus" } else { "plane" },
        rule: rule.to_string(),
        generations: a.generations,
        population,
        bounding_box: bbox,
        wall_seconds: wall,
        cell_generations_per_second: if wall > 0.0 { cells * a.generations as f64 / wall } else { 0.0 },
        hashlife: hstats,
    }
}

fn human(s: &Stats) -> String {
    let bb = match s.bounding_box {
        Some(b) => format!("{}x{} at ({}, {})", b.width, b.height, b.x, b.y),
        None => "empty".into(),
    };
    format!(
        "evolve: {} generations by {} on the {} in {:.6} s: population {}, box {bb}, {:.3e} cell-generations/s",
        s.generations, s.engine, s.topology, s.wall_seconds, s.population, s.cell_generations_per_second
    )
}

fn write_output(a: &Args, fin: Final, rule: Rule, file_rule: Option<Rule>) -> anyhow::Result<()> {
    let format = match a.to {
        Output::None => return Ok(()),
        Output::Lif => Format::Lif,
        Output::Lif106 => Format::Lif106,
        Output::Cells => Format::Cells,
        Output::Rle => Format::Rle,
        Output::Txt => Format::Txt,
        Output::Mc => Format::Mc,
    };
    if a.json && a.output.is_none() {
        return Ok(()); // stdout holds the JSON
    }
    let text = match fin {
        Final::Tree(mut t, meta) if format == Format::Mc => {
            t.shrink();
            macrocell::write_tree(&t, Some(rule), Some(t.generation()), &meta.comments)
        }
        Final::Tree(t, meta) => {
            let (grid, origin) = t.to_grid().context("the final pattern")?;
            let p = Pattern { grid, origin, rule: file_rule.or(a.rule), ..meta };
            super::convert::render(&p, format)?
        }
        Final::Dense(p) => super::convert::render(&p, format)?,
    };
    match &a.output {
        Some(out) => atomic_write(out, text.as_bytes())?,
        None => print!("{text}"),
    }
    Ok(())
}
