//! The part that all three of Knuth's programs share: SAT-LIFE sections 6-15.
//! Clauses are assembled literal by literal, as in the C, then named and kept.
//! The two change files alter only how a plain literal is tested (section 7)
//! and named (section 6); those two decisions are the [`Variant`] trait.
//!
//! Book: Part I, SAT-LIFE, sections 6-15 (`book/src/knuth/sat-life.md`).

use std::collections::HashMap;

use super::var::{Clause, Var};

// ANCHOR: code
// ⟨Subroutines⟩
/// The type of a literal in the clause under construction: a plain cell
/// variable, or one of the counter families `A`..`G` (section 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Plain,
    A,
    B,
    C,
    D,
    E,
    F,
    G,
}

/// Values of `k` that give a plain literal a special meaning.
pub const NEXT: u8 = 1; // the cell at time t+1 instead of t
pub const TAUT: u8 = 2; // "always true"
pub const EXTRA: u8 = 7; // zprime's extra variable

/// One literal before it is named: Knuth packs these five fields into 32 bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code {
    pub kind: Kind,
    pub k: u8,
    pub x: i32,
    pub y: i32,
    pub neg: bool,
}
// ANCHOR_END: code

impl Kind {
    /// The letter that follows the xty code (Knuth's `c + '@'`).
    pub fn letter(self) -> char {
        match self {
            Kind::Plain => '@',
            Kind::A => 'A',
            Kind::B => 'B',
            Kind::C => 'C',
            Kind::D => 'D',
            Kind::E => 'E',
            Kind::F => 'F',
            Kind::G => 'G',
        }
    }
}

impl Code {
    fn is_taut(&self) -> bool {
        self.kind == Kind::Plain && self.k == TAUT
    }
}

// ANCHOR: emitted
// ⟨Subroutines⟩
/// How Knuth prints a clause: `outclause` puts a space before every literal;
/// the few clauses printed by a bare `printf` have none at the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Spaced,
    Bare,
}

/// A clause as one of the programs emits it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Emitted {
    pub clause: Clause,
    pub style: Style,
}
// ANCHOR_END: emitted

// ANCHOR: bounds
/// The rectangle of rows `xmin..=xmax` and columns `ymin..=ymax` that may hold
/// live cells at time t.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    pub xmin: i32,
    pub xmax: i32,
    pub ymin: i32,
    pub ymax: i32,
}

impl Bounds {
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.xmin && x <= self.xmax && y >= self.ymin && y <= self.ymax
    }
}
// ANCHOR_END: bounds

// ANCHOR: variant
// ⟨Subroutines⟩
/// What the change files change in the shared sections.
pub trait Variant {
    /// Section 7: can the cell (x, y) be alive at time t? If not, a plain
    /// time-t literal of it is constant and becomes a tautology marker.
    fn potentially_alive(&self, bounds: &Bounds, x: i32, y: i32) -> bool;
    /// Section 6: the variable that a plain literal with this `k` (0, 1 or
    /// [`EXTRA`]) names while the clauses for time `tt` are generated.
    fn plain_var(&self, x: i32, y: i32, tt: usize, k: u8) -> Var;
}
// ANCHOR_END: variant

// ANCHOR: memo
// ⟨Subroutines⟩
/// One of the `have_*` tables: it remembers at which time step a shared
/// group of clauses was last generated for (x, y). Knuth stores `tt + 1` in
/// a static array; a map lifts the array's size limit.
#[derive(Debug, Default)]
pub struct Memo(HashMap<(i32, i32), usize>);

impl Memo {
    /// True the first time (x, y) is asked about at time `tt`.
    fn first(&mut self, x: i32, y: i32, tt: usize) -> bool {
        self.0.insert((x, y), tt + 1) != Some(tt + 1)
    }
}
// ANCHOR_END: memo

// ANCHOR: encoder
/// The clause generator shared by the three programs.
pub struct Encoder<V: Variant> {
    pub variant: V,
    /// The time whose transition is being encoded.
    pub tt: usize,
    pub bounds: Bounds,
    clause: Vec<Code>,
    have_b: Memo,
    have_d: Memo,
    have_e: Memo,
    have_f: Memo,
    /// Every clause written so far, in order.
    pub out: Vec<Emitted>,
}

impl<V: Variant> Encoder<V> {
    pub fn new(variant: V, bounds: Bounds) -> Self {
        Encoder {
            variant,
            tt: 0,
            bounds,
            clause: Vec::with_capacity(4),
            have_b: Memo::default(),
            have_d: Memo::default(),
            have_e: Memo::default(),
            have_f: Memo::default(),
            out: Vec::new(),
        }
    }

    /// A clause printed directly, not through `outclause`.
    pub fn emit(&mut self, clause: Clause, style: Style) {
        self.out.push(Emitted { clause, style });
    }
    // ANCHOR_END: encoder

    // ANCHOR: outclause
    // ⟨Subroutines⟩
    /// Section 6: finish the current clause. A true tautology literal drops
    /// the whole clause, a false one drops only itself; every other literal
    /// gets its name now, when the time is known.
    pub fn outclause(&mut self) {
        if !self.clause.iter().any(|c| c.is_taut() && !c.neg) {
            let clause = self.clause.iter().filter(|c| !c.is_taut()).map(|c| self.name(c)).collect();
            self.out.push(Emitted { clause, style: Style::Spaced });
        }
        self.clause.clear();
    }

    fn name(&self, c: &Code) -> super::var::Lit {
        let var = match c.kind {
            Kind::Plain => self.variant.plain_var(c.x, c.y, self.tt, c.k),
            kind => Var::aux(coord(c.x), self.tt, coord(c.y), kind.letter(), c.k),
        };
        super::var::Lit { var, neg: c.neg }
    }
    // ANCHOR_END: outclause

    // ANCHOR: applit
    // ⟨Subroutines⟩
    /// Section 7: append the cell literal (x, y) at time t + k, complemented
    /// when `bar`. A time-t cell that must be dead is replaced by a tautology
    /// marker: `~z` is then true, `z` false.
    pub fn applit(&mut self, x: i32, y: i32, bar: bool, k: u8) {
        if k == 0 && !self.variant.potentially_alive(&self.bounds, x, y) {
            self.clause.push(Code { kind: Kind::Plain, k: TAUT, x: 0, y: 0, neg: !bar });
        } else {
            self.clause.push(Code { kind: Kind::Plain, k, x, y, neg: bar });
        }
    }
    // ANCHOR_END: applit

    // ANCHOR: newlit
    // ⟨Subroutines⟩
    /// Append a counter literal (Knuth's `newlit` and `newcomplit`).
    fn newlit(&mut self, x: i32, y: i32, kind: Kind, k: u8) {
        self.clause.push(Code { kind, k, x, y, neg: false });
    }
    fn newcomplit(&mut self, x: i32, y: i32, kind: Kind, k: u8) {
        self.clause.push(Code { kind, k, x, y, neg: true });
    }
    // ANCHOR_END: newlit

    // ANCHOR: pair
    // ⟨Subroutines⟩
    /// The six clauses that make `p1` mean "u or v" and `p2` mean "u and v"
    /// for the neighbour pair u, v; the last is skipped when `last` is false.
    fn pair(&mut self, (x, y, kind): (i32, i32, Kind), u: (i32, i32), v: (i32, i32), last: bool) {
        self.applit(u.0, u.1, true, 0);
        self.newlit(x, y, kind, 1);
        self.outclause();
        self.applit(v.0, v.1, true, 0);
        self.newlit(x, y, kind, 1);
        self.outclause();
        self.applit(u.0, u.1, true, 0);
        self.applit(v.0, v.1, true, 0);
        self.newlit(x, y, kind, 2);
        self.outclause();
        self.applit(u.0, u.1, false, 0);
        self.applit(v.0, v.1, false, 0);
        self.newcomplit(x, y, kind, 1);
        self.outclause();
        self.applit(u.0, u.1, false, 0);
        self.newcomplit(x, y, kind, 2);
        self.outclause();
        if last {
            self.applit(v.0, v.1, false, 0);
            self.newcomplit(x, y, kind, 2);
            self.outclause();
        }
    }
    // ANCHOR_END: pair

    // ANCHOR: d_e
    // ⟨Subroutines⟩
    /// Section 8: the pair (x-1, y+1), (x, y+1) counted by `D`, generated
    /// once per time step.
    fn d(&mut self, x: i32, y: i32) {
        let (x1, x2, yy) = (x - 1, x, y + 1);
        if self.have_d.first(x, y, self.tt) {
            let last = yy >= self.bounds.ymin && yy <= self.bounds.ymax;
            self.pair((x, y, Kind::D), (x1, yy), (x2, yy), last);
        }
    }

    /// Section 8: the pair (x-1, y-1), (x, y-1) counted by `E`.
    fn e(&mut self, x: i32, y: i32) {
        let (x1, x2, yy) = (x - 1, x, y - 1);
        if self.have_e.first(x, y, self.tt) {
            let last = yy >= self.bounds.ymin && yy <= self.bounds.ymax;
            self.pair((x, y, Kind::E), (x1, yy), (x2, yy), last);
        }
    }
    // ANCHOR_END: d_e

    // ANCHOR: f
    // ⟨Subroutines⟩
    /// Section 9: the pair (x-1, y), (x-1, y+1) counted by `F`.
    fn f(&mut self, x: i32, y: i32) {
        let (xx, y1, y2) = (x - 1, y, y + 1);
        if self.have_f.first(x, y, self.tt) {
            let last = xx >= self.bounds.xmin && xx <= self.bounds.xmax;
            self.pair((x, y, Kind::F), (xx, y1), (xx, y2), last);
        }
    }
    // ANCHOR_END: f

    // ANCHOR: g
    // ⟨Subroutines⟩
    /// Section 10: the two neighbours of (x, y) that d, e and f leave over.
    fn g(&mut self, x: i32, y: i32) {
        let (x1, y1, x2, y2) =
            if x & 1 != 0 { (x - 1, y, x + 1, y ^ 1) } else { (x + 1, y, x - 1, y - 1 + ((y & 1) << 1)) };
        self.pair((x, y, Kind::G), (x1, y1), (x2, y2), true);
    }
    // ANCHOR_END: g

    // ANCHOR: b
    // ⟨Subroutines⟩
    /// Section 11: `B` counts four neighbours as the sum of a `D` pair and an
    /// `E` pair. x is odd here, so the rows x-1 and x share it.
    fn b(&mut self, x: i32, y: i32) {
        let (xx, y1, y2) = (x, y - (y & 2), y + (y & 2));
        if self.have_b.first(x, y, self.tt) {
            self.d(xx, y1);
            self.e(xx, y2);
            self.sum2(x, y, Kind::B, (xx, y1, Kind::D), (xx, y2, Kind::E));
        }
    }

    /// The sixteen clauses that make `kind`(x, y) the sum of two 2-bit
    /// counters `p` and `q` (at least j of p and k of q give at least j+k).
    fn sum2(&mut self, x: i32, y: i32, kind: Kind, p: (i32, i32, Kind), q: (i32, i32, Kind)) {
        for j in 0..3u8 {
            for k in 0..3u8 {
                if j + k > 0 {
                    if j > 0 {
                        self.newcomplit(p.0, p.1, p.2, j);
                    }
                    if k > 0 {
                        self.newcomplit(q.0, q.1, q.2, k);
                    }
                    self.newlit(x, y, kind, j + k);
                    self.outclause();
                    if j > 0 {
                        self.newlit(p.0, p.1, p.2, 3 - j);
                    }
                    if k > 0 {
                        self.newlit(q.0, q.1, q.2, 3 - k);
                    }
                    self.newcomplit(x, y, kind, 5 - j - k);
                    self.outclause();
                }
            }
        }
    }
    // ANCHOR_END: b

    // ANCHOR: c
    // ⟨Subroutines⟩
    /// Section 12: `C` counts the other four neighbours, an `F` pair plus the
    /// `G` pair. When the `F` pair lies wholly outside the live rectangle it
    /// is zero, and `C` is just `G` (section 13).
    fn c(&mut self, x: i32, y: i32) {
        let (x1, y1) = if x & 1 != 0 { (x + 2, (y - 1) | 1) } else { (x, y & -2) };
        self.g(x, y);
        let b = self.bounds;
        if x1 - 1 < b.xmin || x1 - 1 > b.xmax || y1 + 1 < b.ymin || y1 > b.ymax {
            self.set_c_equal_to_g(x, y);
        } else {
            self.f(x1, y1);
            self.sum2(x, y, Kind::C, (x1, y1, Kind::F), (x, y, Kind::G));
        }
    }
    // ANCHOR_END: c

    // ANCHOR: c_equals_g
    // ⟨Set c equal to g⟩
    /// Section 13: c1 = g1, c2 = g2, and c3, c4 false.
    fn set_c_equal_to_g(&mut self, x: i32, y: i32) {
        for k in 1..3 {
            self.newcomplit(x, y, Kind::G, k);
            self.newlit(x, y, Kind::C, k);
            self.outclause();
            self.newlit(x, y, Kind::G, k);
            self.newcomplit(x, y, Kind::C, k);
            self.outclause();
        }
        self.newcomplit(x, y, Kind::C, 3);
        self.outclause();
        self.newcomplit(x, y, Kind::C, 4);
        self.outclause();
    }
    // ANCHOR_END: c_equals_g

    // ANCHOR: a
    // ⟨Subroutines⟩
    /// Section 14: `A` = `B` + `C`, but only the bits a2, a3, a4 that the
    /// rule needs: "at least 2", "at least 3", "at least 4" live neighbours.
    pub fn a(&mut self, x: i32, y: i32) {
        let xx = x | 1;
        self.b(xx, y);
        self.c(x, y);
        for j in 0..5u8 {
            for k in 0..5u8 {
                if j + k > 1 && j + k < 5 {
                    if j > 0 {
                        self.newcomplit(xx, y, Kind::B, j);
                    }
                    if k > 0 {
                        self.newcomplit(x, y, Kind::C, k);
                    }
                    self.newlit(x, y, Kind::A, j + k);
                    self.outclause();
                }
            }
        }
        for j in 0..5u8 {
            for k in 0..5u8 {
                if j + k > 2 && j + k < 6 && j * k > 0 {
                    self.newlit(xx, y, Kind::B, j);
                    self.newlit(x, y, Kind::C, k);
                    self.newcomplit(x, y, Kind::A, j + k - 1);
                    self.outclause();
                }
            }
        }
    }
    // ANCHOR_END: a

    // ANCHOR: zprime
    // ⟨Subroutines⟩
    /// Section 15: the cell's next state z' from z, a2, a3, a4. The rule's
    /// 4-literal clause is split with the extra variable x to stay in 3SAT.
    pub fn zprime(&mut self, x: i32, y: i32) {
        let (a, z) = (Kind::A, 0);
        self.newcomplit(x, y, a, 4);
        self.applit(x, y, true, NEXT);
        self.outclause(); // ~a4 ~z'
        self.newlit(x, y, a, 2);
        self.applit(x, y, true, NEXT);
        self.outclause(); // a2 ~z'
        self.newlit(x, y, a, 3);
        self.applit(x, y, false, z);
        self.applit(x, y, true, NEXT);
        self.outclause(); // a3 z ~z'
        self.newcomplit(x, y, a, 3);
        self.newlit(x, y, a, 4);
        self.applit(x, y, false, NEXT);
        self.outclause(); // ~a3 a4 z'
        self.applit(x, y, false, EXTRA);
        self.newcomplit(x, y, a, 2);
        self.newlit(x, y, a, 4);
        self.outclause(); // x ~a2 a4
        self.applit(x, y, true, EXTRA);
        self.applit(x, y, true, z);
        self.applit(x, y, false, NEXT);
        self.outclause(); // ~x ~z z'
    }
    // ANCHOR_END: zprime
}

/// A coordinate that is about to be named. Named literals always lie in or
/// next to the live rectangle, whose corner is at (1, 1) or more, so they
/// are never negative.
pub fn coord(v: i32) -> u32 {
    u32::try_from(v).expect("named coordinates are never negative")
}
