//! Search against its peer (issue 24): still lifes, oscillators and
//! spaceships in a box, first answer or a proof of none, on lifesearch's
//! engines and on rlifesrc (crate `rlifesrc-lib`, linked in-process behind
//! the default `peers` feature; without it the rlifesrc rows say so).
//! How the engines are timed and checked is told on the book's page
//! `knuth/search-vs-peers.md`, around the code of [`measure`].

use crate::harness::{Ctx, Experiment, Fmt, Mode, Report, capped, col, timed};
use crate::inputs::{Case, answer_holds, case_row, held_out, problems};
use crate::plot::{Cactus, render};
use anyhow::Result;
use lifesearch::CycleQuery;
use lifesearch::life::{Grid, Rule};
use lifesearch::search::{Cycle, Encoding, Problem, Symmetry};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::time::Duration;

pub const ID: &str = "search-vs-peers";

pub struct SearchVsPeers;

/// The engines, in the order of the table.
pub const ENGINES: [&str; 5] = ["spacetime", "cadical-knuth", "gridwalker", "auto", "rlifesrc"];

/// One engine on one problem.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub problem: String,
    pub family: String,
    pub width: usize,
    pub height: usize,
    pub period: usize,
    pub dx: i64,
    pub dy: i64,
    pub symmetry: String,
    pub engine: String,
    /// The engine's version: lifesearch's, or rlifesrc-lib's from Cargo.lock.
    pub version: String,
    /// `found`, `none`, `cap` (stopped at `cap_ms`), `n/a` (the engine does
    /// not take this problem), `not compiled in`, or `error: ...`.
    pub verdict: String,
    /// `yes` when the answer passed the simulation check, `no` when it did
    /// not, empty when there is no answer.
    pub checked: String,
    /// `yes` when this verdict (found or none) matches every other engine's
    /// that settled the problem, `no` when one contradicts it, empty otherwise.
    pub agrees: String,
    pub runs: usize,
    /// Lowest wall time of the in-process call over `runs` runs (the cap when `cap`).
    /// Empty for `n/a`, `not compiled in` and errors.
    pub ms: Option<f64>,
    pub cap_ms: f64,
    /// This engine's time over the best settled time of lifesearch's own
    /// engines (spacetime, cadical-knuth, gridwalker) on the problem: for
    /// `auto`, what choosing costs; for rlifesrc, how far ahead lifesearch
    /// is (above 1). Empty when either did not settle the problem.
    pub vs_best: Option<f64>,
}

/// What one run of an engine ended with.
enum Verdict {
    Found(Grid),
    None,
    Cap,
}

/// How often each engine runs on a problem: at least `min` times while its
/// runs so far took under `slow` in all, and on, up to `max` runs, while
/// they took under `budget` (the book's page says why).
#[derive(Debug, Clone, Copy)]
pub struct Runs {
    pub min: usize,
    pub max: usize,
    pub budget: Duration,
    pub slow: Duration,
}

impl Runs {
    /// One run only (tests, tiny mode).
    pub const ONE: Runs = Runs { min: 1, max: 1, budget: Duration::ZERO, slow: Duration::ZERO };

    fn for_mode(mode: Mode) -> Runs {
        let ms = Duration::from_millis;
        match mode {
            Mode::Tiny => Runs::ONE,
            Mode::Quick => Runs { min: 3, max: 40, budget: ms(200), slow: ms(1000) },
            Mode::Full => Runs { min: 3, max: 100, budget: ms(1000), slow: ms(60_000) },
        }
    }

    /// Another run after `n` runs that took `spent` in all?
    fn more(&self, n: usize, spent: Duration) -> bool {
        n < self.max && (spent < self.budget || (n < self.min && spent < self.slow))
    }
}

/// A turn of an engine whose last run took under this many ms starts with a
/// run that is not timed: the engine before it leaves the caches cold, and
/// a search of microseconds pays more for that than for itself.
const WARM_UP_BELOW_MS: f64 = 10.0;

/// Why `engine` does not take `p`, if it does not.
fn not_applicable(engine: &str, c: &Cycle) -> Option<(&'static str, &'static str)> {
    match engine {
        "cadical-knuth" if Problem::Cycle(*c).validate(Encoding::Knuth, Rule::CONWAY).is_err() => {
            Some(("n/a", "Knuth's encoding does not take it"))
        }
        "gridwalker" if c.symmetry != Symmetry::None => Some(("n/a", "GRIDWALKER's stack takes no symmetry")),
        "rlifesrc" if !peer::COMPILED => Some(("not compiled in", "")),
        _ => None,
    }
}

/// One run of `engine` on `c` with its cap: the verdict and the time in ms.
/// Lifesearch's engines are asked through the cycle registry;
/// `cadical-knuth` is CaDiCaL told to use Knuth's encoding (which
/// `not_applicable` made sure takes `c`).
fn run_once(engine: &str, c: &Cycle, cap: Duration) -> Result<(Verdict, f64)> {
    // Without the feature `measure` reports the row as not compiled in.
    #[cfg(feature = "peers")]
    if engine == "rlifesrc" {
        let (v, ms) = timed(|| peer::rlifesrc(c, cap));
        return Ok((v?, ms));
    }
    let (name, encoding) = match engine {
        "cadical-knuth" => ("cadical", Some(Encoding::Knuth)),
        other => (other, None),
    };
    let e = lifesearch::engine::cycle_engine(name)?;
    let q = CycleQuery::new(*c, Rule::CONWAY).encoding(encoding);
    let (r, ms) = capped(cap, |s| e.search(&q.clone().stop(s.clone())));
    let verdict = match r {
        Err(lifesearch::Error::Interrupted) => Verdict::Cap,
        Err(e) => return Err(e.into()),
        Ok(v) => v.solutions.into_iter().next().map_or(Verdict::None, Verdict::Found),
    };
    Ok((verdict, ms))
}

// ANCHOR: measure
/// Measure `engines` on `case`, taking turns: each round runs every engine
/// still measuring once (after a warm-up run when the problem is small, see
/// [`WARM_UP_BELOW_MS`]), until [`Runs`] says stop (an engine that hits the
/// cap or fails stops at once). Each row keeps the lowest time, the verdict,
/// and whether the answer passed the simulation check; an engine whose
/// verdict changes from one run to the next is an error.
pub fn measure(case: &Case, engines: &[&str], runs: Runs, cap: Duration) -> Vec<Row> {
    let mut rows: Vec<Row> = engines
        .iter()
        .map(|&engine| (engine, not_applicable(engine, &case.cycle).unwrap_or_default()))
        .map(|(engine, (verdict, why))| case_row!(Row, case, {
            engine: engine.into(),
            version: if engine == "rlifesrc" { peer::version() } else { env!("CARGO_PKG_VERSION").into() },
            verdict: verdict.into(),
            checked: why.into(),
            cap_ms: cap.as_secs_f64() * 1e3,
            ..Row::default()
        }))
        .collect();
    // An engine that does not take the problem has its verdict already.
    let mut open: Vec<bool> = rows.iter().map(|r| r.verdict.is_empty()).collect();
    let mut spent = vec![0.0f64; engines.len()];
    // What ran just before an engine (not only the caches: a warm-up run
    // does not undo it all) moved the smallest rows by up to a third, so the
    // rounds take the orders of a Williams design: each engine follows each
    // other equally often.
    let mut orders = williams(rows.len()).into_iter().cycle();
    while open.contains(&true) {
        for i in orders.next().expect("a design has orders") {
            if open[i] {
                open[i] = turn(&mut rows[i], &mut spent[i], &case.cycle, runs, cap);
            }
        }
    }
    rows
}

// ANCHOR: williams
/// The orders of a Williams design for `n` engines (Williams, 1949, for
/// experiments whose treatments carry over into the next): rows of a Latin
/// square in which every engine comes just after every other one equally
/// often. A plain rotation does not do that: in it an engine nearly always
/// follows the same neighbour. The first row goes 0, 1, n-1, 2, n-2, ...,
/// the others add 1, 2, ... to it; for odd `n` the reversed rows are needed
/// too.
pub fn williams(n: usize) -> Vec<Vec<usize>> {
    let first: Vec<usize> =
        (0..n).map(|j| if j % 2 == 1 { j.div_ceil(2) } else { (n - j / 2) % n }).collect();
    let mut rows: Vec<Vec<usize>> = (0..n).map(|k| first.iter().map(|&e| (e + k) % n).collect()).collect();
    if n % 2 == 1 {
        let reversed: Vec<Vec<usize>> = rows.iter().map(|r| r.iter().rev().copied().collect()).collect();
        rows.extend(reversed);
    }
    rows
}
// ANCHOR_END: williams

/// One turn of `row`'s engine: a warm-up run if the problem is small, then
/// a timed run. Whether the engine measures on.
fn turn(row: &mut Row, spent: &mut f64, c: &Cycle, runs: Runs, cap: Duration) -> bool {
    if row.ms.is_some_and(|ms| ms < WARM_UP_BELOW_MS) {
        let _ = run_once(&row.engine, c, cap);
    }
    let run = run_once(&row.engine, c, cap);
    row.runs += 1;
    let (verdict, checked, ms) = match run {
        Err(e) => {
            (row.verdict, row.checked, row.ms) = (format!("error: {e:#}"), String::new(), None);
            return false;
        }
        Ok((Verdict::Cap, _)) => {
            // A later run past the cap is a slow run of a settled problem:
            // the verdict and the best time stand.
            if row.ms.is_none() {
                (row.verdict, row.checked, row.ms) = ("cap".into(), String::new(), Some(row.cap_ms));
            }
            return false;
        }
        Ok((Verdict::None, ms)) => ("none", String::new(), ms),
        Ok((Verdict::Found(g), ms)) => ("found", if answer_holds(&g, c) { "yes" } else { "no" }.into(), ms),
    };
    if row.runs > 1 && verdict != row.verdict {
        row.verdict = format!("error: {} then {verdict} on the same problem", row.verdict);
        row.ms = None;
        return false;
    }
    *spent += ms;
    row.ms = Some(row.ms.map_or(ms, |b| b.min(ms)));
    // A wrong answer stays wrong even if a later run is right.
    if row.checked != "no" {
        row.checked = checked;
    }
    row.verdict = verdict.into();
    runs.more(row.runs, Duration::from_secs_f64(*spent / 1e3))
}

// ANCHOR_END: measure

/// Measure the held-out set of `seed` (quick mode's runs, or with `full`
/// full mode's; GRIDWALKER left out: it is the slow engine on nearly every
/// problem) into `out`, and say how the targets of issue 24 fared on it.
pub fn run_held_out(
    seed: u64,
    n: usize,
    (oscillators_from, all_symmetries): (Option<u64>, bool),
    cap: Duration,
    full: bool,
    out: &std::path::Path,
) -> Result<String> {
    let cases = held_out(seed, n, oscillators_from, all_symmetries);
    let runs = Runs::for_mode(if full { Mode::Full } else { Mode::Quick });
    let engines = ["spacetime", "cadical-knuth", "auto", "rlifesrc"];
    let mut rows: Vec<Row> = cases.iter().flat_map(|c| measure(c, &engines, runs, cap)).collect();
    settle(&mut rows)?;
    crate::harness::write_csv(out, &rows)?;
    let of = |p: &str, e: &str| rows.iter().find(|r| r.problem == p && r.engine == e);
    let (mut judged, mut auto_ok, mut peer_judged, mut ahead) = (0, 0, 0, 0);
    let mut lines = Vec::new();
    let shown = |t: f64| if t.is_finite() { format!("{t:.3} ms") } else { "cap".into() };
    for c in &cases {
        let best = best_ms(&rows, &c.name, &OURS);
        let peer = of(&c.name, "rlifesrc").map(|r| settled_ms(r).unwrap_or(f64::INFINITY));
        // A problem that only rlifesrc settles counts against lifesearch.
        if let Some(t) = peer.filter(|t| t.is_finite() || best.is_finite()) {
            peer_judged += 1;
            ahead += usize::from(best <= t);
        }
        let a = of(&c.name, "auto").and_then(|r| r.vs_best);
        if let Some(a) = a {
            judged += 1;
            auto_ok += usize::from(a <= 1.2);
        } else if peer.is_none_or(|t| !t.is_finite()) {
            continue;
        }
        let a = a.map_or("-".into(), |a| format!("{a:.2}"));
        let peer = peer.map_or("-".into(), shown);
        lines.push(format!("{:<28} best {:>13}  auto/best {a}  rlifesrc {peer}", c.name, shown(best)));
    }
    lines.push(format!(
        "seed {seed}: {} problems, {judged} settled by lifesearch; auto within 1.2x of the best engine on \
         {auto_ok}; lifesearch's best at most rlifesrc's time on {ahead} of the {peer_judged} settled by either",
        cases.len()
    ));
    Ok(lines.join("\n"))
}

/// The engines whose best time is `vs_best`'s yardstick: lifesearch's own, not the choice among them.
const OWN: [&str; 3] = ["spacetime", "cadical-knuth", "gridwalker"];

/// lifesearch's engines a user can pick, `auto` included: the best of them is lifesearch's best.
const OURS: [&str; 4] = ["spacetime", "cadical-knuth", "gridwalker", "auto"];

/// Whether a row's engine settled its problem (found a pattern or proved none).
fn settled(r: &Row) -> bool {
    matches!(r.verdict.as_str(), "found" | "none")
}

/// A settled row's time (such a row always has one).
fn settled_ms(r: &Row) -> Option<f64> {
    settled(r).then_some(r.ms).flatten()
}

/// Fill the derived columns and refuse a set with a wrong answer, a
/// contradiction or a failed run.
fn settle(rows: &mut [Row]) -> Result<()> {
    derive(rows);
    let wrong: Vec<&Row> = rows
        .iter()
        .filter(|r| r.checked == "no" || r.agrees == "no" || r.verdict.starts_with("error"))
        .collect();
    anyhow::ensure!(wrong.is_empty(), "wrong, contradicting or failed runs: {wrong:?}");
    Ok(())
}

/// `agrees`: each settled verdict against the others' on the same problem;
/// `vs_best`: each settled time over the best of [`OWN`] on it.
fn derive(rows: &mut [Row]) {
    for i in 0..rows.len() {
        let r = &rows[i];
        let clash = rows.iter().any(|o| o.problem == r.problem && settled(o) && o.verdict != r.verdict);
        let best = best_ms(rows, &r.problem, &OWN);
        let r = &mut rows[i];
        r.vs_best = settled_ms(r).filter(|_| best.is_finite()).map(|t| t / best);
        if settled(r) {
            r.agrees = if clash { "no" } else { "yes" }.into();
        }
    }
}

/// The best settled time of `engines` on a problem (infinite when none settled).
fn best_ms(rows: &[Row], problem: &str, engines: &[&str]) -> f64 {
    rows.iter()
        .filter(|r| r.problem == problem && engines.contains(&r.engine.as_str()))
        .filter_map(settled_ms)
        .fold(f64::INFINITY, f64::min)
}

impl Experiment for SearchVsPeers {
    type Row = Row;
    const ID: &'static str = ID;
    const TITLE: &'static str =
        "Search vs peers: the space-time engine, CaDiCaL, GRIDWALKER, auto and rlifesrc";
    const FIGURE: bool = true;

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row>, Report)> {
        let cap = Duration::from_secs_f64(ctx.mode.pick(0.5, 1.0, 10.0));
        let runs = Runs::for_mode(ctx.mode);
        let cases = problems(ctx.mode);
        let cases: Vec<Case> =
            if ctx.mode == Mode::Tiny { cases.into_iter().take(3).collect() } else { cases };
        let bar = ctx.bar(cases.len() as u64, "problems");
        let mut rows = Vec::new();
        for c in &cases {
            rows.extend(measure(c, &ENGINES, runs, cap * c.cap_factor));
            bar.inc(1);
        }
        bar.finish_and_clear();
        settle(&mut rows)?;
        let settled_runs = rows.iter().filter(|r| settled(r)).count();
        let report = Report {
            solvers: vec![
                format!("lifesearch {}", env!("CARGO_PKG_VERSION")),
                "cadical".into(),
                format!("rlifesrc-lib {}", peer::version()),
            ],
            notes: vec![format!(
                "{} problems, {settled_runs} settled runs, cap {} ms (a row's cap_ms says where it is longer)",
                cases.len(),
                cap.as_millis()
            )],
            ..Report::default()
        };
        Ok((rows, report))
    }

    fn draw(&self, ctx: &Ctx, rows: &[Row]) -> Result<()> {
        let series = ENGINES
            .iter()
            .map(|e| (e.to_string(), rows.iter().filter(|r| r.engine == *e).filter_map(settled_ms).collect()))
            .filter(|(_, t): &(String, Vec<f64>)| !t.is_empty())
            .collect();
        render(
            &ctx.figure(ID),
            &Cactus {
                title: "Search problems settled within a time, per engine".into(),
                x_label: "time per problem (in-process, lowest of runs)".into(),
                y_label: "problems settled".into(),
                series,
                total: rows.chunk_by(|a, b| a.problem == b.problem).count(),
            },
        )
    }

    /// One row per problem, one column per engine, the peer's ratio last.
    fn markdown(&self, rows: &[Row]) -> Result<String> {
        let mut wide = Vec::new();
        // A problem's rows are consecutive.
        for same in rows.chunk_by(|a, b| a.problem == b.problem) {
            let of = |e: &str| same.iter().find(|r| r.engine == e);
            let (first, p) = (&same[0], &same[0].problem);
            let ours = best_ms(rows, p, &OURS);
            let peer = of("rlifesrc").and_then(settled_ms);
            let mut m = json!({
                "problem": p,
                "box": format!("{}x{}", first.width, first.height),
                "period": first.period,
                "shift": format!("({}, {})", first.dx, first.dy),
                "symmetry": first.symmetry,
                "auto_ratio": of("auto").and_then(|r| r.vs_best),
                "ratio": peer.filter(|_| ours.is_finite()).map(|t| ours / t),
            });
            for e in ENGINES {
                m[e] = json!(of(e).map_or(String::new(), cell));
            }
            wide.push(m);
        }
        let mut cols = vec![
            col("Problem", "problem", Fmt::Text),
            col("Box", "box", Fmt::Text),
            col("P", "period", Fmt::Int),
            col("(dx, dy)", "shift", Fmt::Text),
            col("Symmetry", "symmetry", Fmt::Text),
        ];
        cols.extend(ENGINES.iter().map(|e| col(e, e, Fmt::Text)));
        cols.push(col("auto / best", "auto_ratio", Fmt::Fixed(2)));
        cols.push(col("best lifesearch / rlifesrc", "ratio", Fmt::Fixed(2)));
        crate::table::markdown(&cols, &wide)
    }
}

fn cell(r: &Row) -> String {
    match (r.verdict.as_str(), r.ms) {
        ("found" | "none", Some(ms)) => format!("{} {}", r.verdict, fmt_ms(ms)),
        ("cap", _) => format!("cap {}", fmt_ms(r.cap_ms)),
        (v, _) => v.to_string(),
    }
}

/// Three decimals under 1 ms, one fewer per power of ten up to 100.
fn fmt_ms(ms: f64) -> String {
    let decimals = match ms {
        100.0.. => 0,
        10.0.. => 1,
        1.0.. => 2,
        _ => 3,
    };
    format!("{ms:.decimals$}")
}

/// rlifesrc through `rlifesrc-lib`, when the `peers` feature links it in.
mod peer {
    pub const COMPILED: bool = cfg!(feature = "peers");

    /// rlifesrc-lib's version as Cargo.lock pins it.
    pub fn version() -> String {
        let lock = include_str!("../../../Cargo.lock");
        let tail = lock.split("name = \"rlifesrc-lib\"\nversion = \"").nth(1);
        tail.and_then(|t| t.split('"').next()).unwrap_or("unknown").into()
    }

    // ANCHOR: rlifesrc
    /// One rlifesrc search with the library's defaults, run in slices of
    /// steps so that the cap is seen. rlifesrc moves the other way and wants
    /// a non-negative (dx, dy): it gets the mirror image of the problem, and
    /// its answer is mirrored back (the boxes and symmetries here survive it).
    #[cfg(feature = "peers")]
    pub fn rlifesrc(c: &super::Cycle, cap: super::Duration) -> anyhow::Result<super::Verdict> {
        use super::{Grid, Verdict};
        use lifesearch::search::Symmetry as S;
        use rlifesrc_lib::{Config, Status, Symmetry as R};
        use std::time::Instant;
        let start = Instant::now();
        let super::Cycle { width: w, height: h, period, dx, dy, symmetry } = *c;
        let sym = match symmetry {
            S::None => R::C1,
            S::MirrorLr => R::D2Col,
            S::MirrorUd => R::D2Row,
            S::Quad => R::D4Ortho,
            S::Rot180 => R::C2,
            S::Rot90 => R::C4,
            S::Diagonal => R::D2Diag,
            S::AntiDiagonal => R::D2Antidiag,
            S::BothDiagonals => R::D4Diag,
            S::D8 => R::D8,
        };
        let config = Config::new(w as i32, h as i32, period as i32)
            .set_translate(dx.abs() as i32, dy.abs() as i32)
            .set_symmetry(sym);
        let mut world = config.world().map_err(|e| anyhow::anyhow!("rlifesrc: {e}"))?;
        loop {
            match world.search(Some(20_000)) {
                Status::Found => {
                    let mirror =
                        |i: usize, side: usize, d: i64| (if d > 0 { side - 1 - i } else { i }) as i32;
                    let cells = (0..h)
                        .flat_map(|y| (0..w).map(move |x| (mirror(x, w, dx), mirror(y, h, dy))))
                        .map(|(x, y)| world.get_cell_state((x, y, 0)) == Some(rlifesrc_lib::ALIVE))
                        .collect();
                    return Ok(Verdict::Found(Grid::from_cells(w, h, cells)));
                }
                Status::None => return Ok(Verdict::None),
                _ if start.elapsed() > cap => return Ok(Verdict::Cap),
                _ => {}
            }
        }
    }
    // ANCHOR_END: rlifesrc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::case;
    use std::path::Path;

    /// The README's main job builds the book from a quick run, which has no
    /// row for a full-only problem: a value naming one must say what to show
    /// instead (`missing=`), or the quick book fails to build.
    #[test]
    fn the_book_quotes_full_only_problems_with_a_missing_text() {
        let quick: Vec<String> = problems(Mode::Quick).into_iter().map(|c| c.name).collect();
        let full = problems(Mode::Full);
        let mut pages = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../book/src")];
        let (mut bad, mut seen) = (Vec::new(), 0);
        while let Some(p) = pages.pop() {
            if p.is_dir() {
                pages.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            if p.extension().is_none_or(|e| e != "md") {
                continue;
            }
            for (n, line) in std::fs::read_to_string(&p).unwrap().lines().enumerate() {
                for value in line.split("{{#value search-vs-peers ").skip(1) {
                    let words: Vec<&str> = value.split("}}").next().unwrap().split_whitespace().collect();
                    let Some(name) = words.iter().find_map(|w| w.strip_prefix("problem=")) else { continue };
                    assert!(
                        full.iter().any(|c| c.name == name),
                        "{}:{}: no problem {name}",
                        p.display(),
                        n + 1
                    );
                    seen += 1;
                    if !quick.iter().any(|q| q == name) && !words.iter().any(|w| w.starts_with("missing=")) {
                        bad.push(format!("{}:{}: {name}", p.display(), n + 1));
                    }
                }
            }
        }
        assert!(seen > 10, "the book names problems of search-vs-peers in only {seen} values");
        assert!(bad.is_empty(), "full-run-only problems quoted without missing=:\n{}", bad.join("\n"));
    }

    #[test]
    fn held_out_draws_every_family_or_only_the_oscillators_asked_for() {
        let all = held_out(7, 40, None, false);
        for f in ["still-life", "oscillator", "orthogonal", "diagonal"] {
            assert!(all.iter().any(|c| c.family == f), "{f} never drawn");
        }
        for c in held_out(7, 40, Some(6), false) {
            assert!(c.family == "oscillator" && c.cycle.period >= 6, "{}", c.name);
        }
        // The first draws' oscillators have five symmetries; asked, every one.
        let drawn = |all| held_out(7, 60, Some(2), all).iter().map(|c| c.cycle.symmetry).collect::<Vec<_>>();
        assert!(!drawn(false).contains(&Symmetry::Diagonal));
        let every = drawn(true);
        for s in Symmetry::ALL {
            assert!(every.contains(&s), "{s:?} never drawn");
        }
    }

    #[test]
    fn a_williams_design_lets_every_engine_follow_every_other_equally_often() {
        for n in 1..=9 {
            let rows = williams(n);
            let mut follows = vec![vec![0; n]; n];
            for r in &rows {
                let mut sorted = r.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..n).collect::<Vec<_>>(), "n = {n}: {r:?} is not an order");
                for w in r.windows(2) {
                    follows[w[0]][w[1]] += 1;
                }
            }
            let times = if n % 2 == 0 { 1 } else { 2 };
            for (a, row) in follows.iter().enumerate() {
                for (b, &c) in row.iter().enumerate() {
                    assert_eq!(c, if a == b { 0 } else { times }, "n = {n}: {b} after {a}");
                }
            }
        }
    }

    #[test]
    fn every_engine_settles_the_glider_and_agrees() {
        let c = case("glider", "diagonal", (5, 5), 4, (1, 1), Symmetry::None);
        let none = case("c4d-3x3", "diagonal", (3, 3), 4, (1, 1), Symmetry::None);
        let cap = Duration::from_secs(20);
        let mut rows = measure(&c, &ENGINES, Runs::ONE, cap);
        rows.extend(measure(&none, &ENGINES, Runs::ONE, cap));
        derive(&mut rows);
        for r in &rows {
            if r.engine == "rlifesrc" && !peer::COMPILED {
                assert_eq!(r.verdict, "not compiled in");
                continue;
            }
            let want = if r.problem == "glider" { "found" } else { "none" };
            assert_eq!(r.verdict, want, "{r:?}");
            assert_eq!(r.agrees, "yes", "{r:?}");
            if want == "found" {
                assert_eq!(r.checked, "yes", "{r:?}");
            }
        }
    }

    #[test]
    fn runs_follow_the_budget_and_engines_take_turns() {
        let ms = Duration::from_millis;
        let r = Runs { min: 3, max: 6, budget: ms(10), slow: ms(100) };
        assert!(r.more(1, ms(50)) && r.more(2, ms(99)), "under min and under slow: on");
        assert!(!r.more(3, ms(50)), "min reached, over budget: stop");
        assert!(!r.more(1, ms(100)), "one run as slow as `slow`: stop");
        assert!(r.more(5, ms(9)) && !r.more(6, ms(1)), "max is a hard stop");
        let c = case("glider-4x4", "diagonal", (4, 4), 4, (1, 1), Symmetry::None);
        let rows = measure(&c, &["spacetime", "gridwalker"], Runs { budget: ms(60_000), ..r }, ms(20_000));
        for row in &rows {
            assert_eq!(
                (row.verdict.as_str(), row.checked.as_str(), row.runs),
                ("found", "yes", 6),
                "{row:?}"
            );
        }
        let sym = case("p2-6x6-d8", "oscillator", (6, 6), 2, (0, 0), Symmetry::D8);
        let row = measure(&sym, &["gridwalker"], r, ms(20_000)).remove(0);
        assert_eq!((row.verdict.as_str(), row.runs, row.ms), ("n/a", 0, None), "{row:?}");
    }

    #[test]
    fn a_contradiction_is_flagged() {
        let found =
            Row { problem: "glider".into(), verdict: "found".into(), ms: Some(1.0), ..Row::default() };
        let mut rows = vec![found.clone(), Row { verdict: "none".into(), ..found }];
        derive(&mut rows);
        assert_eq!(rows[0].agrees, "no");
    }
}
