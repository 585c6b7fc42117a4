//! Calling the SAT layer from the experiments: the orphan question as CNF
//! (window encoding, free boundary), solved by each solver compiled in, timed
//! without the encoding (the thesis excluded LLS's transcoding likewise), and
//! every predecessor checked by evolution.

use anyhow::{Result, bail};
use lifesearch::cnf::{Outcome, SolverKind, new_solver};
use lifesearch::life::{Rule, SpecGrid};
use lifesearch::search::verify::is_predecessor;
use lifesearch::search::{Boundary, Encoding, Problem, encode, solve};

/// The SAT solvers in this build.
pub fn kinds() -> Vec<SolverKind> {
    SolverKind::available_kinds()
}

/// A solver's name with the crate version it comes from (for the manifest).
pub fn version(kind: SolverKind) -> String {
    let v = match kind {
        SolverKind::Cadical => "cadical crate 0.1 (CaDiCaL, statically linked)",
        SolverKind::Batsat => "batsat crate 0.6 (pure Rust)",
        SolverKind::Varisat => "varisat crate 0.2 (pure Rust)",
        SolverKind::Kissat | SolverKind::Minisat | SolverKind::Glucose => "via rustsat (extra-solvers)",
    };
    format!("{}: {v}", kind.name())
}

/// One SAT answer: the lowest solve time of the runs and whether it is an orphan.
pub struct SatTimed {
    pub millis: f64,
    pub orphan: bool,
}

/// Decide `spec` with `kind`, `runs` times on a fresh solver each, keep the fastest.
pub fn decide(spec: &SpecGrid, kind: SolverKind, runs: usize) -> Result<SatTimed> {
    decide_encoded(spec, kind, Encoding::Window, runs)
}

/// [`decide`] with the encoding of one Life step chosen.
pub fn decide_encoded(
    spec: &SpecGrid,
    kind: SolverKind,
    encoding: Encoding,
    runs: usize,
) -> Result<SatTimed> {
    let enc = encode(&Problem::orphan(spec.clone(), Boundary::Free), encoding, Rule::CONWAY)?;
    let timed = (0..runs.max(1)).map(|_| {
        let mut solver = new_solver(kind)?;
        let a = solve(&enc, solver.as_mut())?;
        let orphan = match a.outcome {
            Outcome::Unsat => true,
            Outcome::Sat => {
                let Some(parent) = a.generations.first() else { bail!("{kind}: SAT without a parent") };
                if !is_predecessor(parent, spec, 1, Rule::CONWAY) {
                    bail!("{kind} returned a parent that does not evolve into the target");
                }
                false
            }
            Outcome::Unknown => bail!("{kind} gave up without an answer"),
        };
        Ok(SatTimed { millis: a.millis, orphan })
    });
    let timed = timed.collect::<Result<Vec<_>>>()?;
    Ok(timed.into_iter().min_by(|a, b| a.millis.total_cmp(&b.millis)).expect("at least one run"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exp::gw::table_6_1_patterns;

    #[test]
    fn sat_and_gridwalker_agree_on_the_thesis_patterns() {
        let p = table_6_1_patterns();
        for i in [0usize, 3] {
            let sat = decide(&p[i].spec, SolverKind::Cadical, 1).unwrap();
            let gw = crate::exp::gw::decide(&p[i].spec, lifesearch::gridwalker::Variant::Basic, 1).unwrap();
            assert_eq!(sat.orphan, gw.orphan(), "pattern {}", p[i].id);
            assert_eq!(sat.orphan, p[i].thesis_orphan, "pattern {}", p[i].id);
        }
    }
}
