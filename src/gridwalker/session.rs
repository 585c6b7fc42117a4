//! A slice database kept across questions, as the thesis ran it over its
//! 125,000 candidates (Figures 6.1 and 6.2) and for Table 6.5's warm second
//! run. [`super::decide_orphan`] starts every question with a fresh store;
//! a session hands the same store from one question to the next, so that
//! whatever earlier questions stored can be found again.
//!
//! Book: Part II, chapter 6, section 6.2.4 (`book/src/thesis/ch6.md`).

use super::convention::{Layout, ThesisCode};
use super::db::DbStore;
use super::store::SliceStore;
use super::{OrphanAnswer, Variant, decide};
use crate::base::Counters;
use crate::life::{Rule, SpecGrid};

// ANCHOR: session
/// The `db` variant with one store for a sequence of questions.
pub struct Session<L: Layout = ThesisCode> {
    store: Option<DbStore<L>>,
    rule: Rule,
}

impl<L: Layout> Session<L> {
    /// A session with a freshly seeded store.
    pub fn new(rule: Rule) -> Self {
        Session { store: Some(DbStore::new(rule)), rule }
    }

    /// Decide `target` on the session's store. The counters are this
    /// question's (the store's running totals differenced); `store_size` is
    /// the store's size afterwards, seeds included (Table 6.5's column C on a
    /// fresh session).
    pub fn decide(&mut self, target: &SpecGrid) -> crate::Result<OrphanAnswer> {
        let store = self.store.take().unwrap_or_else(|| DbStore::new(self.rule));
        let mut before = Counters::default();
        store.count_into(&mut before);
        let (mut answer, store) = decide::<_, L>(target, self.rule, Variant::Db, store, None)?;
        answer.stats.subtract(&before);
        answer.stats.store_size = Some(store.len() as u64);
        self.store = Some(store);
        Ok(answer)
    }
}
// ANCHOR_END: session
