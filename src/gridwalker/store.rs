//! How a grid holds its slices. The plain store keeps the 64-byte slices in
//! the grid and confronts them directly; the database store (Section 6.2.4,
//! [`super::db`]) keeps 32-bit ids and memoises every confrontation. The solver
//! is written once against this trait.

use super::convention::Layout;
use super::slice::Slice;
use super::sliver::{Changed, Contradiction, confront_ew, confront_ns};
use crate::life::{Cell, Rule};
use std::marker::PhantomData;

/// The result of confronting two stored slices: the new pair and what changed.
pub type Confronted<Id> = Result<(Id, Id, Changed), Contradiction>;

pub trait SliceStore {
    type Id: Copy + Eq + std::fmt::Debug;
    /// The slice of a future cell: live, dead or unknown.
    fn initial(&mut self, cell: Cell) -> Self::Id;
    /// The unit slice of constellation `c`.
    fn unit(&mut self, c: u16) -> Self::Id;
    fn count(&self, id: Self::Id) -> u32;
    /// The slice's contents (a "slice query" in Table 6.5's terms).
    fn fetch(&mut self, id: Self::Id) -> Slice;
    /// The contents without counting it as a query (checks and reports).
    fn peek(&self, id: Self::Id) -> Slice;
    fn confront_ew(&mut self, w: Self::Id, e: Self::Id) -> Confronted<Self::Id>;
    fn confront_ns(&mut self, n: Self::Id, s: Self::Id) -> Confronted<Self::Id>;
    /// Named counters for the statistics.
    fn stats(&self) -> Vec<(&'static str, u64)> {
        Vec::new()
    }
}

/// Slices held by value.
#[derive(Debug, Clone, Copy)]
pub struct PlainStore<L> {
    dead: Slice,
    live: Slice,
    layout: PhantomData<L>,
}

impl<L: Layout> PlainStore<L> {
    pub fn new(rule: Rule) -> Self {
        PlainStore {
            dead: Slice::for_future(rule, false),
            live: Slice::for_future(rule, true),
            layout: PhantomData,
        }
    }
}

impl<L: Layout> SliceStore for PlainStore<L> {
    type Id = Slice;
    fn initial(&mut self, cell: Cell) -> Slice {
        match cell {
            Cell::Dead => self.dead,
            Cell::Alive => self.live,
            Cell::Unknown => Slice::FULL,
        }
    }
    fn unit(&mut self, c: u16) -> Slice {
        Slice::unit(c)
    }
    #[inline]
    fn count(&self, id: Slice) -> u32 {
        id.count()
    }
    fn fetch(&mut self, id: Slice) -> Slice {
        id
    }
    fn peek(&self, id: Slice) -> Slice {
        id
    }
    #[inline(always)]
    fn confront_ew(&mut self, mut w: Slice, mut e: Slice) -> Confronted<Slice> {
        let ch = confront_ew::<L>(&mut w, &mut e)?;
        Ok((w, e, ch))
    }
    #[inline(always)]
    fn confront_ns(&mut self, mut n: Slice, mut s: Slice) -> Confronted<Slice> {
        let ch = confront_ns(&mut n, &mut s)?;
        Ok((n, s, ch))
    }
}
