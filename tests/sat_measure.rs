//! Numbers for the notes (ignored by default; run with
//! `cargo test --test sat_measure -- --ignored --nocapture`): the thesis'
//! 10x10 Garden of Eden with every solver and both encodings, and a
//! Gray-coded stream solved incrementally versus one formula per pattern.

use lifesearch::cnf::{Outcome, SolverKind, new_solver};
use lifesearch::life::{Grid, Rule, SpecGrid};
use lifesearch::search::incremental::{PredecessorStream, gray_sequence};
use lifesearch::search::{Boundary, Encoding, Problem, encode, solve};
use rand::SeedableRng;
use std::time::Instant;

use lifesearch::search::known::GARDEN_OF_EDEN_10X10 as GOE;

#[test]
#[ignore]
fn measure_goe_and_streams() {
    let t = SpecGrid::from(&Grid::from_rows(&GOE).unwrap());
    for e in [Encoding::Window, Encoding::Knuth] {
        let enc = encode(&Problem::orphan(t.clone(), Boundary::Free), e, Rule::CONWAY).unwrap();
        for kind in SolverKind::available_kinds() {
            let mut ms: Vec<f64> = (0..3)
                .map(|_| {
                    let a = solve(&enc, new_solver(kind).unwrap().as_mut()).unwrap();
                    assert_eq!(a.outcome, Outcome::Unsat);
                    a.millis
                })
                .collect();
            ms.sort_by(f64::total_cmp);
            eprintln!(
                "goe10x10 {e:?} {kind}: median {:.1} ms ({} vars, {} clauses)",
                ms[1],
                enc.formula.num_vars(),
                enc.formula.num_clauses()
            );
        }
    }
    let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
    let seq: Vec<SpecGrid> =
        gray_sequence(&Grid::random(10, 10, 0.5, &mut rng), 200).iter().map(SpecGrid::from).collect();
    for e in [Encoding::Window, Encoding::Knuth] {
        let start = Instant::now();
        let mut s = PredecessorStream::with_encoding(
            10,
            10,
            Rule::CONWAY,
            e,
            new_solver(SolverKind::Cadical).unwrap(),
        )
        .unwrap();
        let orphans = seq.iter().filter(|t| s.solve(t).unwrap().orphan).count();
        let inc = start.elapsed().as_secs_f64() * 1e3;
        let start = Instant::now();
        let orphans2 = seq
            .iter()
            .filter(|t| {
                let enc = encode(&Problem::orphan((*t).clone(), Boundary::Free), e, Rule::CONWAY).unwrap();
                solve(&enc, new_solver(SolverKind::Cadical).unwrap().as_mut()).unwrap().outcome
                    == Outcome::Unsat
            })
            .count();
        let one = start.elapsed().as_secs_f64() * 1e3;
        assert_eq!(orphans, orphans2);
        eprintln!(
            "stream 200 gray 10x10 {e:?} cadical: incremental {inc:.0} ms, one-shot {one:.0} ms, {orphans} orphans"
        );
    }
}
