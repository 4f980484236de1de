//! The eight symmetries of the square board and colour permutations. Order's score is invariant
//! under both, which the property tests check; search may use them for its transposition table.

use crate::{Board, Cell, Colour, Phase, Position, SetupError};

/// One of the eight symmetries of the N x N board (the dihedral group of the square).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves every cell where it is.
    Identity,
    /// Quarter turn clockwise.
    Rotate90,
    /// Half turn.
    Rotate180,
    /// Quarter turn anticlockwise.
    Rotate270,
    /// Mirror top to bottom.
    FlipRows,
    /// Mirror left to right.
    FlipColumns,
    /// Mirror in the main diagonal (rows become columns).
    Transpose,
    /// Mirror in the other diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All eight symmetries.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipRows,
        Symmetry::FlipColumns,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Where the symmetry takes a cell of an N x N board (`side` = N).
    pub fn apply(self, cell: Cell, side: usize) -> Cell {
        let (r, c) = (cell.row(), cell.column());
        let last = side - 1;
        let (r2, c2) = match self {
            Symmetry::Identity => (r, c),
            Symmetry::Rotate90 => (c, last - r),
            Symmetry::Rotate180 => (last - r, last - c),
            Symmetry::Rotate270 => (last - c, r),
            Symmetry::FlipRows => (last - r, c),
            Symmetry::FlipColumns => (r, last - c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (last - c, last - r),
        };
        Cell::new(r2, c2).expect("symmetries keep cells on the board")
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }
}

impl Board {
    /// The board with every chip moved by the symmetry.
    pub fn transformed(&self, symmetry: Symmetry) -> Board {
        let side = self.size().side();
        let mut out = Board::empty(self.size());
        for (cell, colour) in self.chips() {
            out.put(symmetry.apply(cell, side), colour);
        }
        out
    }

    /// The board with every colour `c` replaced by `permutation[c.index()]`. The permutation
    /// must map the game's colours onto the game's colours, one to one.
    pub fn recoloured(&self, permutation: &[Colour; 7]) -> Board {
        let mut out = Board::empty(self.size());
        for (cell, colour) in self.chips() {
            let to = permutation[colour.index()];
            assert!(
                self.size().has_colour(to),
                "colour {to} is not in this game"
            );
            out.put(cell, to);
        }
        out
    }
}

impl Position {
    /// The position with its board moved by the symmetry (same phase and bag).
    pub fn transformed(&self, symmetry: Symmetry) -> Position {
        Position::from_board(self.board().transformed(symmetry), self.phase())
            .expect("a symmetry keeps a valid position valid")
    }

    /// The position with its colours permuted, the drawn chip included.
    pub fn recoloured(&self, permutation: &[Colour; 7]) -> Result<Position, SetupError> {
        let phase = match self.phase() {
            Phase::Place(colour) => Phase::Place(permutation[colour.index()]),
            other => other,
        };
        Position::from_board(self.board().recoloured(permutation), phase)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_permutations_with_inverses() {
        for side in [5, 7] {
            let size = crate::Size::new(side).unwrap();
            for symmetry in Symmetry::ALL {
                let mut seen = std::collections::HashSet::new();
                for cell in size.board_cells() {
                    let image = symmetry.apply(cell, side);
                    assert!(size.contains(image));
                    assert!(seen.insert(image));
                    assert_eq!(symmetry.inverse().apply(image, side), cell);
                }
            }
        }
    }
}
