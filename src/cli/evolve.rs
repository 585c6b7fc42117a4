//! `lifesearch evolve`: run a pattern forward and print where it ends up,
//! and (`--stats`, `--json`) how long it took.

use crate::formats::{self, Format, Pattern, macrocell};
use crate::fsutil::atomic_write;
use crate::life::auto::{self, Choice, Workload};
use crate::life::hashlife::HashLife;
use crate::life::relay;
use crate::life::{self, Algorithm, Grid, Rule, Topology, tiles};
use anyhow::{Context, bail};
use std::path::PathBuf;
use std::time::Instant;

/// The engines `evolve` offers: Table 3.1's, HashLife, and auto.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engine {
    /// Pick per workload (short torus runs: LIFECUBE; long ones: tiles; very long runs on the plane: HashLife; else the relay).
    Auto,
    /// Count the eight neighbours of every cell.
    Naive,
    /// Look up 4x4 tiles in a precomputed table.
    Table,
    /// Bit-parallel adder network over 64-cell words.
    Lifecube,
    /// LIFECUBE on all cores.
    LifecubeParallel,
    /// Hashed quadtree with memoised power-of-two jumps (plane only, no B0 rules).
    Hashlife,
    /// Linked 64-cell tiles that sleep while they repeat with period 1 or 2
    /// (plane without B0, or torus).
    Tiles,
    /// The tiles while the pattern is busy, HashLife once it settles (plane, no B0).
    Relay,
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
    #[arg(long, value_enum, default_value = "auto")]
    pub algorithm: Engine,
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
    pub engine: Engine,
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
    let input = read_input(&a, cap)?;
    let file_rule = match &input {
        Input::Dense(p) => p.rule,
        Input::Tree(m) => m.rule,
    };
    let rule = a.rule.or(file_rule).unwrap_or(Rule::CONWAY);
    let torus = a.torus.as_deref().map(parse_size).transpose()?;
    let engine = match a.algorithm {
        Engine::Auto => {
            let side = match &input {
                Input::Dense(p) => Some(p.grid.width().max(p.grid.height()) as u64),
                Input::Tree(_) => None,
            };
            let w = Workload {
                torus: torus.is_some(),
                b0: rule.birth & 1 == 1,
                side,
                generations: a.generations,
            };
            let (choice, why) = auto::pick(w);
            let engine = match choice {
                Choice::Lifecube => Engine::Lifecube,
                Choice::Hashlife => Engine::Hashlife,
                Choice::Tiles => Engine::Tiles,
                Choice::Relay => Engine::Relay,
            };
            eprintln!("evolve: auto picked {} ({why})", engine_name(engine));
            engine
        }
        e => e,
    };
    if engine == Engine::Tiles && torus.is_none() && rule.birth & 1 == 1 {
        bail!("the tile engine refuses rules with B0 on the plane (the dead plane would flash): use --torus");
    }
    if matches!(engine, Engine::Hashlife | Engine::Relay) && torus.is_some() {
        bail!(
            "{} runs on the unbounded plane only: drop --torus or pick another --algorithm",
            engine_name(engine)
        );
    }
    let input = match (input, engine) {
        (Input::Tree(m), Engine::Hashlife) => Input::Tree(m),
        (Input::Tree(m), _) => Input::Dense(tree_to_pattern(&m, &a)?),
        (d, _) => d,
    };
    let start = Instant::now();
    let fin = match (input, torus) {
        (Input::Tree(mut m), _) => {
            m.tree.set_rule(rule).with_context(|| a.file.display().to_string())?;
            m.tree.set_generation(m.generation.unwrap_or(0));
            m.tree.advance(a.generations);
            let meta = Pattern { comments: m.comments.clone(), ..Pattern::default() };
            Final::Tree(Box::new(m.tree), meta)
        }
        (Input::Dense(p), Some((w, h))) => {
            if p.grid.width() > w || p.grid.height() > h {
                bail!(
                    "{}: pattern is {}x{}, larger than the {w}x{h} torus",
                    a.file.display(),
                    p.grid.width(),
                    p.grid.height()
                );
            }
            let mut g = Grid::new(w, h);
            for (x, y) in p.grid.live_cells() {
                g.set(x, y, true);
            }
            let g = if engine == Engine::Tiles {
                tiles::evolve_torus(&g, rule, a.generations)
            } else {
                life::evolve(&g, rule, Topology::Torus, a.generations, dense_algorithm(engine))
            };
            Final::Dense(Pattern { grid: g, rule: p.rule.or(a.rule), ..p })
        }
        (Input::Dense(p), None) if engine == Engine::Hashlife => {
            let mut t = HashLife::from_grid(&p.grid, p.origin, rule, cap)?;
            t.advance(a.generations);
            Final::Tree(Box::new(t), Pattern { grid: Grid::new(0, 0), ..p })
        }
        (Input::Dense(p), None) if engine == Engine::Relay => {
            let opts = relay::Options { memory_cap: cap, ..relay::Options::default() };
            match relay::evolve_plane(&p.grid, p.origin, rule, a.generations, opts)
                .with_context(|| a.file.display().to_string())?
            {
                relay::Relayed::Tree { tree, handed_over } => {
                    if a.stats {
                        eprintln!("evolve: the relay handed over to HashLife at generation {handed_over}");
                    }
                    Final::Tree(tree, Pattern { grid: Grid::new(0, 0), ..p })
                }
                relay::Relayed::Tiles(grid, origin) => {
                    Final::Dense(Pattern { grid, origin, rule: p.rule.or(a.rule), ..p })
                }
            }
        }
        (Input::Dense(p), None) => {
            let (g, (dx, dy)) = match engine {
                Engine::Tiles => tiles::evolve_plane(&p.grid, rule, a.generations).expect("B0 refused above"),
                _ => life::evolve_unbounded(&p.grid, rule, a.generations, dense_algorithm(engine)),
            };
            Final::Dense(Pattern {
                grid: g,
                origin: (p.origin.0 + dx, p.origin.1 + dy),
                rule: p.rule.or(a.rule),
                ..p
            })
        }
    };
    let wall = start.elapsed().as_secs_f64();
    if a.stats || a.json {
        let s = stats(&fin, engine, rule, &a, torus, wall);
        if a.stats {
            eprintln!("{}", human(&s));
        }
        if a.json {
            println!("{}", serde_json::to_string_pretty(&s)?);
        }
    }
    write_output(&a, fin, rule, file_rule)
}

fn engine_name(e: Engine) -> &'static str {
    match e {
        Engine::Auto => "auto",
        Engine::Naive => "naive",
        Engine::Table => "table",
        Engine::Lifecube => "lifecube",
        Engine::LifecubeParallel => "lifecube-parallel",
        Engine::Hashlife => "hashlife",
        Engine::Tiles => "tiles",
        Engine::Relay => "relay",
    }
}

fn dense_algorithm(e: Engine) -> Algorithm {
    match e {
        Engine::Naive => Algorithm::Naive,
        Engine::Table => Algorithm::Table,
        Engine::LifecubeParallel => Algorithm::LifecubeParallel,
        _ => Algorithm::Lifecube,
    }
}

/// Read the file; a macrocell stays a tree until an engine needs it dense.
fn read_input(a: &Args, cap: usize) -> anyhow::Result<Input> {
    let text = crate::fsutil::read_text(&a.file)?;
    let ext = a.file.extension().and_then(|e| e.to_str());
    let loc = crate::error::Location::file(&a.file);
    if formats::detect(&text, ext) == Format::Mc {
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
    engine: Engine,
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
        s.generations,
        engine_name(s.engine),
        s.topology,
        s.wall_seconds,
        s.population,
        s.cell_generations_per_second
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
