//! The symmetries a cycle search may impose, and the images of a cell under each.
//!
//! Book: Part II, chapter 6, section 6.1 (`book/src/thesis/ch6.md`).

// ANCHOR: symmetry
/// A symmetry imposed on every generation of a cycle (or on the first one of a spaceship).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Symmetry {
    #[default]
    None,
    /// Mirror image left-right: (x, y) = (W-1-x, y).
    MirrorLr,
    /// Mirror image top-bottom: (x, y) = (x, H-1-y).
    MirrorUd,
    /// Both mirrors, as in Knuth's SAT-LIFE-GRIDQUAD-CYCLE.
    Quad,
    /// Half-turn rotation.
    Rot180,
    /// Quarter-turn rotation (square boxes only).
    Rot90,
    /// Reflection in the main diagonal: (x, y) = (y, x) (square boxes only).
    Diagonal,
    /// Reflection in the other diagonal: (x, y) = (W-1-y, H-1-x) (square boxes only).
    AntiDiagonal,
    /// Both diagonals at once (square boxes only).
    BothDiagonals,
    /// Every symmetry of the square: both mirrors, both diagonals, all rotations (square boxes only).
    D8,
}
// ANCHOR_END: symmetry

impl Symmetry {
    /// Every symmetry, in the order of the enum.
    pub const ALL: [Symmetry; 10] = [
        Symmetry::None,
        Symmetry::MirrorLr,
        Symmetry::MirrorUd,
        Symmetry::Quad,
        Symmetry::Rot180,
        Symmetry::Rot90,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
        Symmetry::BothDiagonals,
        Symmetry::D8,
    ];
    /// The images of cell (x, y) in a W x H box that must equal it.
    pub fn images(self, w: usize, h: usize, x: usize, y: usize) -> Vec<(usize, usize)> {
        let (mx, my) = (w - 1 - x, h - 1 - y);
        match self {
            Symmetry::None => vec![],
            Symmetry::MirrorLr => vec![(mx, y)],
            Symmetry::MirrorUd => vec![(x, my)],
            Symmetry::Quad => vec![(mx, y), (x, my)],
            Symmetry::Rot180 => vec![(mx, my)],
            Symmetry::Rot90 => vec![(my, x)],
            Symmetry::Diagonal => vec![(y, x)],
            Symmetry::AntiDiagonal => vec![(w - 1 - y, h - 1 - x)],
            Symmetry::BothDiagonals => vec![(y, x), (w - 1 - y, h - 1 - x)],
            Symmetry::D8 => vec![(mx, y), (y, x)],
        }
    }
    /// Does the symmetry include the half turn, (x, y) = (W-1-x, H-1-y)? The
    /// quarter turn, both mirrors and both diagonals each make it.
    pub fn has_half_turn(self) -> bool {
        matches!(
            self,
            Symmetry::Rot180 | Symmetry::Rot90 | Symmetry::Quad | Symmetry::BothDiagonals | Symmetry::D8
        )
    }
    pub fn needs_square(self) -> bool {
        matches!(
            self,
            Symmetry::Rot90
                | Symmetry::Diagonal
                | Symmetry::AntiDiagonal
                | Symmetry::BothDiagonals
                | Symmetry::D8
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "cli")]
    #[test]
    fn all_lists_every_symmetry_the_command_line_offers() {
        assert_eq!(&Symmetry::ALL[..], <Symmetry as clap::ValueEnum>::value_variants());
    }

    /// The slow twin of `has_half_turn`: close every cell's images under the
    /// symmetry's generators and look for its half-turn image in the orbit.
    #[test]
    fn the_half_turn_is_in_the_orbit_of_every_cell_exactly_when_said() {
        for s in Symmetry::ALL {
            let (w, h) = if s.needs_square() { (5, 5) } else { (5, 4) };
            let in_orbit = |x: usize, y: usize| {
                let mut orbit = vec![(x, y)];
                let mut i = 0;
                while i < orbit.len() {
                    let (a, b) = orbit[i];
                    for c in s.images(w, h, a, b) {
                        if !orbit.contains(&c) {
                            orbit.push(c);
                        }
                    }
                    i += 1;
                }
                orbit.contains(&(w - 1 - x, h - 1 - y))
            };
            let every = (0..w).all(|x| (0..h).all(|y| in_orbit(x, y)));
            assert_eq!(s.has_half_turn(), every, "{s:?}");
        }
    }
}
