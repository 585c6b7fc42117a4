//! Clauses, DIMACS and iCNF, and the SAT solvers behind one trait (thesis chapter 4).
