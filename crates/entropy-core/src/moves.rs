//! Moves, chance included, and a fixed-capacity move list.

use std::fmt;
use std::str::FromStr;

use crate::cell::{Cell, Role};
use crate::notation::{codecup, ParseError};
use crate::Colour;

/// One decision in the game, chance included.
///
/// A turn is `Draw` (chance: the bag gives Chaos a chip), `Place` (Chaos puts it on an empty
/// cell), then `Slide` or `Pass` (Order). Search, records, protocols and bots all use this type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A chip of this colour is drawn from the bag (the chance player's move).
    Draw(Colour),
    /// Chaos places the drawn chip on an empty cell.
    Place {
        /// The drawn colour.
        colour: Colour,
        /// The empty cell it goes to.
        cell: Cell,
    },
    /// Order slides a chip like a rook through empty cells and stops on any of them.
    Slide {
        /// The cell the chip leaves.
        from: Cell,
        /// The empty cell it stops on.
        to: Cell,
    },
    /// Order leaves the board as it is.
    Pass,
}

impl Move {
    /// Who makes this move; `None` for the chance move `Draw`.
    pub const fn role(self) -> Option<Role> {
        match self {
            Move::Draw(_) => None,
            Move::Place { .. } => Some(Role::Chaos),
            Move::Slide { .. } | Move::Pass => Some(Role::Order),
        }
    }
}

/// Displays the move compactly: `3` (draw colour 3), `3Bc` (place it on Bc), `BcBg` (slide),
/// `pass`. Cells are in CodeCup notation. [`Move::from_str`] reads the same forms.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Draw(colour) => write!(f, "{colour}"),
            Move::Place { colour, cell } => write!(f, "{colour}{cell}"),
            Move::Slide { from, to } => write!(f, "{from}{to}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Reads the compact form written by `Display`: `3`, `3Bc`, `BcBg`, `pass`. A slide onto its own
/// cell (`BcBc`) is read as a pass, as in CodeCup.
impl FromStr for Move {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Move, ParseError> {
        let text = s.trim();
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        match text.len() {
            1 => Ok(Move::Draw(codecup::parse_colour(text)?)),
            3 => {
                let (colour, cell) = codecup::parse_placement(text)?;
                Ok(Move::Place { colour, cell })
            }
            4 => codecup::parse_order_move(text),
            _ => Err(ParseError::new(
                "move",
                s,
                None,
                "expected a colour (3), a placement (3Bc), a slide (BcBg) or pass",
            )),
        }
    }
}

/// The most moves any position has: Order has at most 4 slides into each empty cell (one from
/// the nearest chip in each direction) and at most 12 slides per chip, so at most
/// max over e of min(4e, 12(49 - e)) = 147 slides, plus the pass.
pub const MAX_MOVES: usize = 160;

/// A list of moves with a fixed capacity, kept on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::Pass; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// The number of moves.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no moves.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether the list holds this move.
    pub fn contains(&self, mv: &Move) -> bool {
        self.as_slice().contains(mv)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_notation_round_trips() {
        let bc = Cell::new(1, 2).unwrap();
        let bg = Cell::new(1, 6).unwrap();
        let moves = [
            Move::Draw(Colour::Yellow),
            Move::Place {
                colour: Colour::Yellow,
                cell: bc,
            },
            Move::Slide { from: bc, to: bg },
            Move::Pass,
        ];
        for mv in moves {
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv), "{mv}");
        }
        assert_eq!("BcBc".parse::<Move>(), Ok(Move::Pass));
        assert!("hello".parse::<Move>().is_err());
    }
}
