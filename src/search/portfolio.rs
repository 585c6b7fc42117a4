//! `--solver auto`: a portfolio that is never much slower than the best of
//! its engines. GRIDWALKER answers most orphan questions in a millisecond and
//! CaDiCaL is steady where GRIDWALKER's search tree explodes, so the two race
//! on two threads and the first verified answer wins; the column automaton
//! takes every pattern at most six cells on a side outright.
//!
//! Book: Part IV, "A GRIDWALKER that never loses badly" (`book/src/beyond/robust.md`).

use crate::Result;
use crate::automaton;
use crate::base::{self, OrphanEngine, OrphanQuery};
use crate::cnf::{SolverKind, Stop};
use crate::error::Error;
use crate::gridwalker;
use crate::life::{Rule, SpecGrid};
use crate::search::grid_stack;
pub use crate::search::sat::{self, sat_encoding};
use crate::search::spacetime;
use crate::search::{Boundary, Cycle, CycleEngine, CycleQuery, CycleVerdict, Problem};
use crate::stop::HookGuard;
use std::sync::mpsc;
use std::time::{Duration, Instant};

// ANCHOR: head_start
/// GRIDWALKER runs alone this long before CaDiCaL starts: most answers come
/// sooner, and then the portfolio costs nothing over GRIDWALKER itself (no
/// thread is even spawned). Why not sooner: a second thread that builds
/// millions of clauses slows GRIDWALKER in the same process by 20-100%
/// (the two contend for the allocator and page faults), which on a
/// pattern GRIDWALKER settles in 3 ms is the whole margin. Why not later:
/// on every orphan where CaDiCaL wins in the zoo it needs 200 ms or more.
pub const HEAD_START: Duration = Duration::from_millis(10);

/// On a pattern at most six cells on a side, the column automaton joins
/// after this long: it needs about 12 us per column of a 5-cell-high pattern
/// (45 us at 6), so its time is the yardstick the head start must be small beside.
pub const NARROW_HEAD_START: Duration = Duration::from_micros(50);

/// In a cycle search (`search --solver auto`, boxes larger than
/// [`TINY_CYCLE`]) the space-time engine runs alone this long.
/// Where CaDiCaL wins such a search it needs 45 ms to seconds, and `auto`
/// then takes the head start plus what the two threads cost each other, so
/// the head start must be small beside 45 ms. On 24 held-out oscillators of
/// periods 6, 8 and 15 (`experiments search-held-out --seed 31
/// --oscillators-from 6`), 100 ms missed 1.2x on three of the 14 settled (a
/// p8 in 6x6 with a quarter turn: 2.2x), 20 ms on one (1.23x), 10 ms on none;
/// the set of seed 72 (from period 5) then drew a p15 in 6x6 with full
/// symmetry that CaDiCaL settles in 48 ms, where 10 ms gave 1.24x and 5 ms
/// 1.09x. A search the space-time engine wins after the head start shares
/// the machine with CaDiCaL for the rest of its run.
pub const CYCLE_HEAD_START: Duration = Duration::from_millis(5);
// ANCHOR_END: head_start

// ANCHOR: race
/// Run `gw` on this thread; once it has run for `head_start` (its stop
/// flag's alarm, polled at every node), start the second engine (`sat`:
/// CaDiCaL, or the automaton) on a second thread. The
/// first to return an answer raises the other's stop flag, and the caller's
/// flag `outer`, if any, raises both for as long as each runs. An error of the
/// SAT thread does not stop GRIDWALKER; GRIDWALKER's own error is returned
/// (every engine checks its answers, so an error is a bug). A losing SAT
/// thread is not waited for: it sees its flag within a few thousand
/// conflicts (or right after building its clauses) and ends by itself.
fn race<T: Send + 'static>(
    gw: impl FnOnce(&Stop) -> Result<T>,
    (sat, head_start): (impl FnOnce(&Stop) -> Result<T> + Send + 'static, Duration),
    outer: Option<&Stop>,
) -> Result<T> {
    let (gw_stop, sat_stop) = (Stop::default(), Stop::default());
    let (answer_tx, answer_rx) = mpsc::channel();
    let (gw_flag, sat_flag, sat_outer) = (gw_stop.clone(), sat_stop.clone(), outer.cloned());
    let _follow = outer.map(|o| follow(o, &gw_stop));
    gw_stop.set_alarm(
        Instant::now() + head_start,
        Box::new(move || {
            // A pool thread: after the first race, starting the second engine
            // costs a wake-up, not a thread's creation.
            rayon::spawn(move || {
                let _follow = sat_outer.as_ref().map(|o| follow(o, &sat_flag));
                let r = if sat_flag.is_set() { Err(Error::Interrupted) } else { sat(&sat_flag) };
                if r.is_ok() {
                    gw_flag.interrupt();
                }
                let _ = answer_tx.send(r);
            });
        }),
    );
    let r = if gw_stop.is_set() { Err(Error::Interrupted) } else { gw(&gw_stop) };
    gw_stop.disarm();
    match r {
        Err(Error::Interrupted) => {
            // No message: the alarm never rang (the caller stopped the race
            // during the head start), so the second engine never started.
            answer_rx.recv().map_err(|_| Error::Interrupted)?
        }
        r => {
            sat_stop.interrupt();
            r
        }
    }
}
// ANCHOR_END: race

/// One member of the race: `engine` on `query` with the race's own stop flag
/// (which [`race`] links to the caller's).
fn member(engine: &dyn OrphanEngine, query: &OrphanQuery, stop: &Stop) -> Result<base::Verdict> {
    engine.decide(&OrphanQuery { stop: Some(stop.clone()), ..query.clone() })
}

/// Raise `own` whenever `outer` is raised (at once if it is up already),
/// for as long as the guard lives.
fn follow(outer: &Stop, own: &Stop) -> HookGuard {
    let flag = own.clone();
    let guard = outer.add_hook(Box::new(move || flag.interrupt()));
    if outer.is_set() {
        own.interrupt();
    }
    guard
}

// ANCHOR: decide_orphan_auto
/// `--solver auto`: GRIDWALKER's default variant starts; if one side of the
/// searched box is at most six cells, the column automaton joins the race
/// after [`NARROW_HEAD_START`], otherwise CaDiCaL does after [`HEAD_START`].
/// Every member gets the query's rule and boundary.
#[derive(Debug, Clone, Copy, Default)]
pub struct Auto;

impl OrphanEngine for Auto {
    fn name(&self) -> &'static str {
        "auto"
    }
    fn decide(&self, q: &OrphanQuery) -> Result<base::Verdict> {
        let start = Instant::now();
        let searched = q.searched();
        let gw_query = q.clone();
        let gw = move |stop: &Stop| member(&gridwalker::Engine::default(), &gw_query, stop);
        let raced = if searched.width().min(searched.height()) <= automaton::table::MAX_SIDE {
            let narrow = q.clone();
            let automaton = move |stop: &Stop| member(&automaton::solve::Engine, &narrow, stop);
            race(gw, (automaton, NARROW_HEAD_START), q.stop.as_ref())
        } else {
            let wide = q.clone();
            let sat = move |stop: &Stop| member(&sat::Engine::new(SolverKind::Cadical), &wide, stop);
            race(gw, (sat, HEAD_START), q.stop.as_ref())
        };
        let mut verdict = match raced {
            // Stopped by the caller: whatever the members said, that is the answer.
            Err(_) if q.stop.as_ref().is_some_and(|s| s.is_set()) => return Err(Error::Interrupted),
            r => r?,
        };
        verdict.elapsed = start.elapsed();
        Ok(verdict)
    }
}

/// Does `target` (with `boundary` around it) have a parent under Conway's
/// rule? [`Auto`] on that query.
pub fn decide_orphan_auto(target: &SpecGrid, boundary: Boundary) -> Result<base::Verdict> {
    Auto.decide(&OrphanQuery::new(target.clone()).boundary(boundary))
}
// ANCHOR_END: decide_orphan_auto

/// A caged cycle (still life, oscillator or spaceship, no symmetry) under
/// `rule`: GRIDWALKER's circular grid stack against CaDiCaL.
pub fn caged_cycle_auto(cycle: Cycle, rule: Rule) -> Result<CycleVerdict> {
    let start = Instant::now();
    let q = CycleQuery::new(cycle, rule);
    grid_stack::Engine.supports(&q)?;
    let (gw, sat) = (q.clone(), q);
    let mut verdict = race(
        move |stop: &Stop| grid_stack::Engine.search(&gw.stop(stop.clone())),
        (move |stop: &Stop| cadical().search(&sat.stop(stop.clone())), HEAD_START),
        None,
    )?;
    verdict.elapsed = start.elapsed();
    Ok(verdict)
}

/// CaDiCaL as a cycle engine.
fn cadical() -> sat::Engine {
    sat::Engine::new(SolverKind::Cadical)
}

// ANCHOR: race_pays
/// Whether CaDiCaL joins the race once the head start is over: only with
/// a second core to run on. On one core the two threads share it, so the
/// race costs 2x whenever one engine wins, and on all but one problem of the
/// search-vs-peers set (issue 24) the space-time engine is the faster of the
/// two: there `auto` is the space-time engine alone.
pub fn race_pays() -> bool {
    // Asked once, and only when the second engine is due: the answer reads
    // cgroup files, about 40-60 us on the first call of a process, more
    // than many whole searches.
    static PAYS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PAYS.get_or_init(|| std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2))
}
// ANCHOR_END: race_pays

// ANCHOR: cycle_alone
/// A cycle search over at most this many space-time cells (width x height
/// x period) runs the space-time engine alone. In `search-vs-peers` every
/// such problem took it under 0.03 ms, hundreds of times less than the
/// [`CYCLE_HEAD_START`] after which CaDiCaL would join, while setting up the
/// race (stop flags, a channel, the alarm) cost about 1 us in a warm loop:
/// up to a fifth of those searches.
pub const TINY_CYCLE: usize = 64;

/// Whether `auto` leaves a cycle search to the space-time engine alone for
/// its shape: only a tiny box ([`TINY_CYCLE`]); every other one races,
/// whatever its period. A rule once kept periods below 6 alone, because
/// CaDiCaL had settled none of them first, here or on 114 held-out problems.
/// The held-out set of seed 41 broke it: on p5 oscillators with a half turn
/// CaDiCaL wins (6x6: 2.0 s against 2.3 s; 7x7: 29 s against more than 70 s,
/// wall clock of the whole process), while CaDiCaL joining after the head
/// start costs the space-time engine a few per cent where it wins (c/4 in
/// 9x9 and 10x10, p4 in 7x7: 1.02x to 1.05x).
fn space_time_alone(problem: &Problem) -> bool {
    matches!(*problem, Problem::Cycle(Cycle { width, height, period, .. }) if width * height * period <= TINY_CYCLE)
}
// ANCHOR_END: cycle_alone

// ANCHOR: cycle_auto
/// `search --solver auto`: the space-time engine on this thread and, after
/// [`CYCLE_HEAD_START`], CaDiCaL (with [`sat_encoding`]) on a second one; the first
/// finished search wins and stops the other. Only boxes larger than
/// [`TINY_CYCLE`] race, and CaDiCaL joins only with a second core ([`race_pays`]).
/// Finding and counting both race.
pub fn caged_cycle_race(problem: &Problem, rule: Rule, opts: &spacetime::Options) -> Result<CycleVerdict> {
    caged_cycle_race_stoppable(problem, rule, opts, None)
}

/// [`caged_cycle_race`] that gives up with [`Error::Interrupted`] once
/// `outer` is raised (both engines see it: it raises their own flags).
pub fn caged_cycle_race_stoppable(
    problem: &Problem,
    rule: Rule,
    opts: &spacetime::Options,
    outer: Option<&Stop>,
) -> Result<CycleVerdict> {
    let q =
        CycleQuery { stop: outer.cloned(), ..CycleQuery::new(problem.cycle()?, rule).options(opts.clone()) };
    CycleEngine::search(&Auto, &q)
}

impl CycleEngine for Auto {
    fn name(&self) -> &'static str {
        "auto"
    }
    fn search(&self, q: &CycleQuery) -> Result<CycleVerdict> {
        // Another encoding is asked of the SAT solver: CaDiCaL alone.
        if q.encoding.is_some_and(|e| e != sat_encoding(&q.problem(), q.rule)) {
            return cadical().search(q);
        }
        let r = race_cycle(q);
        match &q.stop {
            Some(o) if o.is_set() && r.is_err() => Err(Error::Interrupted),
            _ => r,
        }
    }
}

fn race_cycle(q: &CycleQuery) -> Result<CycleVerdict> {
    let start = Instant::now();
    let opts = &q.options;
    // Known cells and a population cap are the space-time engine's alone;
    // a tiny box is the space-time engine's (see [`space_time_alone`]).
    let alone = opts.known.is_some() || opts.max_population.is_some() || space_time_alone(&q.problem());
    let mut verdict = if alone {
        // Alone, the engine watches the caller's flag itself: no flag of
        // its own, no hook, nothing to pay on a search of microseconds.
        spacetime::Engine.search(q)?
    } else {
        let sat = q.clone();
        // The cores are counted only when CaDiCaL would join, after the head
        // start: a search that answers sooner never reads the cgroup files
        // (see [`race_pays`]). On one core CaDiCaL stays out, since a race
        // there halves the winner's speed, and the space-time engine runs on.
        let join = move |stop: &Stop| {
            if race_pays() { cadical().search(&sat.stop(stop.clone())) } else { Err(Error::Interrupted) }
        };
        race(
            |stop: &Stop| spacetime::Engine.search(&q.clone().stop(stop.clone())),
            (join, CYCLE_HEAD_START),
            q.stop.as_ref(),
        )?
    };
    verdict.elapsed = start.elapsed();
    Ok(verdict)
}
// ANCHOR_END: cycle_auto

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// A first member that polls its flag until it is raised.
    fn until_stopped(stop: &Stop) -> Result<u8> {
        while !stop.poll() {
            std::thread::sleep(Duration::from_millis(1));
        }
        Err(Error::Interrupted)
    }

    #[test]
    fn a_race_the_caller_stopped_before_it_began_runs_neither_member() {
        let outer = Stop::default();
        outer.interrupt();
        let ran = Arc::new(AtomicBool::new(false));
        let (a, b) = (ran.clone(), ran.clone());
        let first = move |_: &Stop| {
            a.store(true, Ordering::SeqCst);
            Ok(1u8)
        };
        let second = move |_: &Stop| {
            b.store(true, Ordering::SeqCst);
            Ok(2u8)
        };
        let r = race(first, (second, Duration::ZERO), Some(&outer));
        assert!(matches!(r, Err(Error::Interrupted)), "{r:?}");
        assert!(!ran.load(Ordering::SeqCst));
    }

    #[test]
    fn a_race_the_caller_stops_during_the_head_start_is_interrupted() {
        let outer = Stop::default();
        let raiser = outer.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            raiser.interrupt();
        });
        let second = |_: &Stop| -> Result<u8> { panic!("the second member must not start") };
        let r = race(until_stopped, (second, Duration::from_secs(60)), Some(&outer));
        t.join().unwrap();
        assert!(matches!(r, Err(Error::Interrupted)), "{r:?}");
    }
}
