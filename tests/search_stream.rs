//! Incremental streams: answers under assumptions equal fresh one-shot answers.

use lifesearch::cnf::{Outcome, SolverKind, new_solver};
use lifesearch::life::{Grid, Rule, SpecGrid};
use lifesearch::search::incremental::{PredecessorStream, gray_sequence};
use lifesearch::search::verify::is_predecessor;
use lifesearch::search::{Boundary, Encoding, Problem, encode, solve};
use rand::SeedableRng;

#[test]
fn gray_sequence_changes_one_cell_at_a_time() {
    let seq = gray_sequence(&Grid::new(3, 2), 64);
    assert_eq!(seq.len(), 64);
    for w in seq.windows(2) {
        let diff = w[0].cells().iter().zip(w[1].cells()).filter(|(a, b)| a != b).count();
        assert_eq!(diff, 1);
    }
    // The first 2^6 codes of a 6-cell box are all distinct.
    let distinct: std::collections::HashSet<_> = seq.iter().collect();
    assert_eq!(distinct.len(), 64);
}

#[test]
fn stream_agrees_with_one_shot_solves() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
    let start = Grid::random(6, 6, 0.55, &mut rng);
    let mut seq = gray_sequence(&start, 40);
    // Put a known 6x6 orphan-free and a dense pattern in too.
    seq.push(Grid::random(6, 6, 0.8, &mut rng));
    for kind in SolverKind::available_kinds() {
        let mut stream = PredecessorStream::new(6, 6, kind).unwrap();
        for g in &seq {
            let target = SpecGrid::from(g);
            let a = stream.solve(&target).unwrap();
            let enc =
                encode(&Problem::orphan(target.clone(), Boundary::Free), Encoding::Window, Rule::CONWAY)
                    .unwrap();
            let b = solve(&enc, new_solver(SolverKind::Varisat).unwrap().as_mut()).unwrap();
            assert_eq!(a.outcome, b.outcome, "{kind}");
            assert_eq!(a.orphan, b.outcome == Outcome::Unsat);
            if let Some(p) = &a.predecessor {
                assert!(is_predecessor(p, &target, 1, Rule::CONWAY));
            }
        }
        assert_eq!(stream.solver().stats().solves, seq.len() as u64);
    }
}

#[test]
fn stream_rejects_wrong_sizes() {
    let mut s = PredecessorStream::new(4, 4, SolverKind::Cadical).unwrap();
    assert!(s.solve(&SpecGrid::from(&Grid::new(5, 4))).is_err());
    assert!(PredecessorStream::new(0, 4, SolverKind::Cadical).is_err());
}
