//! Peak memory: in-process bytes for the Rust solvers through the counting
//! allocator, and the child-process maximum RSS for every solver.

use lifesearch::alloc::{CountingAlloc, live_bytes, peak_bytes, reset_peak};
use lifesearch::cnf::child::{command, solve_in_child};
use lifesearch::cnf::{Outcome, SolverKind, dimacs, new_solver};
use lifesearch::life::{Grid, Rule, SpecGrid};
use lifesearch::search::{Boundary, Encoding, Problem, encode};
use std::path::PathBuf;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

use lifesearch::search::known::GARDEN_OF_EDEN_10X10 as GOE;

fn goe_formula() -> lifesearch::cnf::Formula {
    let t = SpecGrid::from(&Grid::from_rows(&GOE).unwrap());
    encode(&Problem::orphan(t, Boundary::Free), Encoding::Window, Rule::CONWAY).unwrap().formula
}

#[test]
fn counting_allocator_sees_rust_solvers() {
    let f = goe_formula();
    for kind in [SolverKind::Batsat, SolverKind::Varisat] {
        let before = live_bytes();
        reset_peak();
        let mut s = new_solver(kind).unwrap();
        for c in f.clauses() {
            s.add_clause(c);
        }
        assert_eq!(s.solve().unwrap(), Outcome::Unsat);
        let peak = peak_bytes() - before;
        drop(s);
        // 26,992 clauses of up to 9 literals: at least their literals must have been stored.
        assert!(peak > 26_992 * 4, "{kind}: {peak} bytes");
        assert!(peak < 1 << 30, "{kind}: {peak} bytes");
    }
}

#[test]
fn child_rss_grows_with_the_formula() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("goe.cnf");
    std::fs::write(&big, dimacs::write(&goe_formula())).unwrap();
    let empty = dir.path().join("empty.cnf");
    std::fs::write(&empty, "p cnf 0 0\n").unwrap();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_lifesearch"));
    // Make this process big: a child started by vfork must not report our
    // size as its own (it did, through wait4, before the child read VmHWM).
    let ballast = vec![1u8; 64 << 20];
    for kind in SolverKind::available_kinds() {
        let base = solve_in_child(command(&bin, &["cnf", "__solve"], &empty, kind)).unwrap();
        let r = solve_in_child(command(&bin, &["cnf", "__solve"], &big, kind)).unwrap();
        assert_eq!(base.outcome, Outcome::Sat);
        assert_eq!(r.outcome, Outcome::Unsat, "{kind}");
        assert!(
            r.max_rss_bytes > base.max_rss_bytes,
            "{kind}: {} vs {}",
            r.max_rss_bytes,
            base.max_rss_bytes
        );
        assert!(
            base.max_rss_bytes < 48 << 20,
            "{kind}: baseline {} bytes includes the parent",
            base.max_rss_bytes
        );
        eprintln!(
            "{kind}: baseline {} KiB, goe {} KiB, {:.1} ms",
            base.max_rss_bytes >> 10,
            r.max_rss_bytes >> 10,
            r.millis
        );
    }
    assert_eq!(ballast.iter().map(|&b| b as usize).sum::<usize>(), 64 << 20);
}
