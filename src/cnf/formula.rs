//! A CNF formula whose variables may carry names, so that a clause can be
//! printed the way Knuth prints it (`10a11 ~10b11`) and a model can be read
//! back by name.
//!
//! Book: Part II, chapter 4, section 4.3.1 (`book/src/thesis/ch4.md`).

use crate::cnf::lit::{Clause, Lit, MAX_VAR, Var};
use crate::error::{Error, Result};
use std::collections::HashMap;

// ANCHOR: formula
/// Clauses over variables `0..num_vars`, some of them named.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Formula {
    num_vars: u32,
    names: Vec<Option<String>>,
    ids: HashMap<String, Var>,
    clauses: Vec<Clause>,
}
// ANCHOR_END: formula

impl Formula {
    pub fn new() -> Formula {
        Formula::default()
    }

    /// A new anonymous variable.
    pub fn fresh(&mut self) -> Var {
        assert!(self.num_vars < MAX_VAR, "too many variables for DIMACS");
        let v = Var(self.num_vars);
        self.num_vars += 1;
        self.names.push(None);
        v
    }

    /// The variable with this name, created on first use.
    pub fn named(&mut self, name: &str) -> Var {
        if let Some(&v) = self.ids.get(name) {
            return v;
        }
        let v = self.fresh();
        self.set_name(v, name);
        v
    }

    /// Give variable `v` a name (replacing any earlier one).
    pub fn set_name(&mut self, v: Var, name: &str) {
        self.ensure_var(v);
        if let Some(old) = self.names[v.index()].take() {
            self.ids.remove(&old);
        }
        self.names[v.index()] = Some(name.to_string());
        self.ids.insert(name.to_string(), v);
    }

    /// Make sure variables `0..=v` exist (DIMACS may mention a variable before naming it).
    pub fn ensure_var(&mut self, v: Var) {
        while self.num_vars <= v.0 {
            self.fresh();
        }
    }

    pub fn var(&self, name: &str) -> Option<Var> {
        self.ids.get(name).copied()
    }
    pub fn name(&self, v: Var) -> Option<&str> {
        self.names.get(v.index()).and_then(|n| n.as_deref())
    }
    pub fn num_vars(&self) -> u32 {
        self.num_vars
    }
    pub fn clauses(&self) -> &[Clause] {
        &self.clauses
    }
    pub fn num_clauses(&self) -> usize {
        self.clauses.len()
    }
    /// Named variables in numeric order.
    pub fn named_vars(&self) -> impl Iterator<Item = (Var, &str)> {
        self.names.iter().enumerate().filter_map(|(i, n)| n.as_deref().map(|n| (Var(i as u32), n)))
    }

    /// Add a clause; its variables are created if new.
    pub fn add(&mut self, clause: Clause) {
        if let Some(m) = clause.iter().map(|l| l.var()).max() {
            self.ensure_var(m);
        }
        self.clauses.push(clause);
    }

    /// A literal as Knuth writes it: the name (or `v` and the DIMACS number), `~` when negated.
    pub fn lit_text(&self, l: Lit) -> String {
        let base = match self.name(l.var()) {
            Some(n) => n.to_string(),
            None => format!("v{}", l.var().dimacs()),
        };
        if l.is_neg() { format!("~{base}") } else { base }
    }

    /// Check that a name is usable in Knuth's format: printable, no spaces, no leading `~`.
    pub fn check_name(name: &str) -> Result<()> {
        if name.is_empty()
            || name.starts_with('~')
            || name.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(Error::invalid(format!("'{name}' cannot be a variable name")));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_both_ways() {
        let mut f = Formula::new();
        let a = f.named("1a1");
        let x = f.fresh();
        let b = f.named("2b3");
        assert_eq!(f.named("1a1"), a);
        assert_eq!(f.var("2b3"), Some(b));
        assert_eq!(f.name(x), None);
        f.add(vec![a.pos(), b.neg(), x.pos()]);
        assert_eq!(f.lit_text(b.neg()), "~2b3");
        assert_eq!(f.lit_text(x.pos()), "v2");
        assert_eq!(f.num_vars(), 3);
        f.add(vec![Var(9).pos()]);
        assert_eq!(f.num_vars(), 10);
    }
}
