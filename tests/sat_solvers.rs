//! The CNF layer and every compiled-in solver against brute force.

use lifesearch::cnf::lit::satisfies;
use lifesearch::cnf::{Clause, Formula, IcnfScript, Lit, Outcome, SolverKind, Var, dimacs, new_solver};
use lifesearch::error::Location;
use proptest::prelude::*;

/// Brute force: is there an assignment of `n` variables satisfying all clauses and assumptions?
fn brute(n: u32, clauses: &[Clause], assumptions: &[Lit]) -> bool {
    (0u32..1 << n).any(|m| {
        let model: Vec<bool> = (0..n).map(|i| m >> i & 1 == 1).collect();
        satisfies(clauses, &model) && assumptions.iter().all(|l| l.holds(model[l.var().index()]))
    })
}

fn clause_strategy(n: u32) -> impl Strategy<Value = Clause> {
    prop::collection::vec((0..n, any::<bool>()).prop_map(|(v, s)| Lit::new(Var(v), s)), 1..4)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn solvers_agree_with_brute_force(
        clauses in prop::collection::vec(clause_strategy(8), 0..40),
        assumptions in prop::collection::vec((0u32..8, any::<bool>()).prop_map(|(v, s)| Lit::new(Var(v), s)), 0..4),
    ) {
        let expect = brute(8, &clauses, &assumptions);
        for kind in SolverKind::available_kinds() {
            let mut s = new_solver(kind).unwrap();
            for c in &clauses {
                s.add_clause(c);
            }
            // Once without assumptions, then under them: the same solver, incrementally.
            let free = s.solve().unwrap();
            prop_assert_eq!(free == Outcome::Sat, brute(8, &clauses, &[]), "{}", kind);
            let r = s.solve_with(&assumptions).unwrap();
            prop_assert_eq!(r == Outcome::Sat, expect, "{}", kind);
            if r == Outcome::Sat {
                let model = s.model(8);
                prop_assert!(satisfies(&clauses, &model), "{} model", kind);
                prop_assert!(assumptions.iter().all(|l| l.holds(model[l.var().index()])));
            } else if let Some(core) = s.failed_assumptions() {
                // The core is a subset of the assumptions that is itself contradictory.
                prop_assert!(core.iter().all(|l| assumptions.contains(l)), "{} core {:?}", kind, core);
                prop_assert!(!brute(8, &clauses, &core), "{} core not failing", kind);
            }
        }
    }

    #[test]
    fn dimacs_round_trips(clauses in prop::collection::vec(clause_strategy(12), 0..30)) {
        let mut f = Formula::new();
        for c in clauses {
            f.add(c);
        }
        let g = dimacs::read(&Location::new("p.cnf", None), &dimacs::write(&f)).unwrap();
        prop_assert_eq!(f.clauses(), g.clauses());
    }
}

#[test]
fn icnf_script_runs_like_direct_calls() {
    let text = "p inccnf\n1 2 0\n-1 2 0\na -2 0\na 1 0\n-2 3 0\na 1 -3 0\n";
    let script = IcnfScript::read(&Location::new("s.icnf", None), text).unwrap();
    for kind in SolverKind::available_kinds() {
        let mut s = new_solver(kind).unwrap();
        let outcomes = script.run(s.as_mut()).unwrap();
        assert_eq!(outcomes, vec![Outcome::Unsat, Outcome::Sat, Outcome::Unsat], "{kind}");
    }
}

#[test]
fn a_time_limit_or_interrupt_stops_a_hard_solve() {
    // Random 3-SAT with 600 variables at the threshold ratio 4.26: hard for every solver.
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
    let n = 600u32;
    let clauses: Vec<Clause> = (0..(n as f64 * 4.26) as usize)
        .map(|_| (0..3).map(|_| Lit::new(Var(rng.random_range(0..n)), rng.random_bool(0.5))).collect())
        .collect();
    for kind in SolverKind::available_kinds() {
        if kind == SolverKind::Varisat {
            continue; // varisat cannot be interrupted (documented)
        }
        let mut s = new_solver(kind).unwrap();
        for c in &clauses {
            s.add_clause(c);
        }
        s.set_time_limit(Some(std::time::Duration::from_millis(200)));
        let start = std::time::Instant::now();
        let r = s.solve().unwrap();
        assert_eq!(r, Outcome::Unknown, "{kind}");
        // Glucose notices an interrupt only at its next restart (seconds, measured ~4 s).
        assert!(start.elapsed().as_secs_f64() < 20.0, "{kind} took {:?}", start.elapsed());
    }
}

#[test]
fn unknown_and_missing_solvers_are_clear_errors() {
    let e = "picosat".parse::<SolverKind>().unwrap_err().to_string();
    assert!(e.contains("unknown solver 'picosat'"), "{e}");
    if !cfg!(feature = "extra-solvers") {
        let e = new_solver(SolverKind::Kissat).err().expect("kissat needs the feature").to_string();
        assert!(e.contains("extra-solvers"), "{e}");
    }
}

#[test]
fn stats_report_what_each_backend_has() {
    for kind in SolverKind::available_kinds() {
        let mut s = new_solver(kind).unwrap();
        s.add_clause(&[Var(0).pos(), Var(1).pos()]);
        s.add_clause(&[Var(0).neg()]);
        assert_eq!(s.solve().unwrap(), Outcome::Sat);
        assert_eq!(s.value(Var(1)), Some(true), "{kind}");
        let st = s.stats();
        assert_eq!(st.solves, 1, "{kind}");
        match kind {
            SolverKind::Batsat | SolverKind::Minisat | SolverKind::Glucose => {
                assert!(st.propagations.is_some() && st.conflicts.is_some(), "{kind}")
            }
            _ => assert!(st.conflicts.is_none(), "{kind}"),
        }
    }
}
