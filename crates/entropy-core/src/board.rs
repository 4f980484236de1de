//! The board: which chip lies on which cell, kept as row and column line keys.

use std::fmt;

use crate::cell::{Cell, Size, MAX_SIDE};
use crate::line;
use crate::score::{self, naive, BITS_PER_CELL};
use crate::Colour;

/// The chips on an Entropy(N) board.
///
/// Each row and each column is kept as a line key (three bits per cell, see [`crate::score`]) and
/// as an occupancy mask, so scoring a line is one table lookup and sliding is one table lookup.
/// A `Board` only knows where chips are; [`crate::Position`] adds whose turn it is, the bag and
/// the running score, and checks that no colour is used more than N times.
///
/// ```
/// use entropy_core::{Board, Cell, Colour, Size};
///
/// let mut board = Board::empty(Size::FIVE);
/// board.set(Cell::new(0, 0).unwrap(), Some(Colour::Red)).unwrap();
/// board.set(Cell::new(0, 1).unwrap(), Some(Colour::Red)).unwrap();
/// assert_eq!(board.to_string(), "11.../...../...../...../.....");
/// assert_eq!(board.score(), 2);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    rows: [u32; MAX_SIDE],
    columns: [u32; MAX_SIDE],
    row_occupancy: [u8; MAX_SIDE],
    column_occupancy: [u8; MAX_SIDE],
    size: Size,
    chips: u8,
}

/// Why a chip cannot be set on a board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SetError {
    /// The cell is outside the N x N board.
    OffBoard(Cell),
    /// The colour is not one of the first N colours.
    ColourNotInGame(Colour),
}

impl fmt::Display for SetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetError::OffBoard(cell) => write!(f, "cell {cell} is outside the board"),
            SetError::ColourNotInGame(colour) => {
                write!(f, "colour {colour} is not used in this game")
            }
        }
    }
}

impl std::error::Error for SetError {}

impl Board {
    /// An empty board of this size.
    pub const fn empty(size: Size) -> Board {
        Board {
            rows: [0; MAX_SIDE],
            columns: [0; MAX_SIDE],
            row_occupancy: [0; MAX_SIDE],
            column_occupancy: [0; MAX_SIDE],
            size,
            chips: 0,
        }
    }

    /// The board size.
    pub const fn size(&self) -> Size {
        self.size
    }

    /// The chip on a cell, if any (cells off the board are empty).
    #[inline]
    pub fn get(&self, cell: Cell) -> Option<Colour> {
        let bits = (self.rows[cell.row()] >> (BITS_PER_CELL * cell.column() as u32)) & 7;
        Colour::from_number(bits as u8)
    }

    /// Whether the cell is on the board and holds no chip.
    #[inline]
    pub fn is_vacant(&self, cell: Cell) -> bool {
        self.size.contains(cell) && self.row_occupancy[cell.row()] & (1 << cell.column()) == 0
    }

    /// Puts a chip on a cell or clears it, checking the cell and colour against the board size.
    pub fn set(&mut self, cell: Cell, colour: Option<Colour>) -> Result<(), SetError> {
        if !self.size.contains(cell) {
            return Err(SetError::OffBoard(cell));
        }
        if let Some(colour) = colour {
            if !self.size.has_colour(colour) {
                return Err(SetError::ColourNotInGame(colour));
            }
        }
        if self.get(cell).is_some() {
            self.take(cell);
        }
        if let Some(colour) = colour {
            self.put(cell, colour);
        }
        Ok(())
    }

    /// Puts a chip on an empty cell of the board. The caller guarantees both.
    #[inline]
    pub(crate) fn put(&mut self, cell: Cell, colour: Colour) {
        debug_assert!(self.is_vacant(cell), "put on {cell}, which is not vacant");
        let (r, c) = (cell.row(), cell.column());
        let value = colour.number() as u32;
        self.rows[r] |= value << (BITS_PER_CELL * c as u32);
        self.columns[c] |= value << (BITS_PER_CELL * r as u32);
        self.row_occupancy[r] |= 1 << c;
        self.column_occupancy[c] |= 1 << r;
        self.chips += 1;
    }

    /// Takes the chip off a cell. The caller guarantees there is one.
    #[inline]
    pub(crate) fn take(&mut self, cell: Cell) -> Colour {
        let colour = self.get(cell).expect("take from a cell with a chip");
        let (r, c) = (cell.row(), cell.column());
        self.rows[r] &= !(7 << (BITS_PER_CELL * c as u32));
        self.columns[c] &= !(7 << (BITS_PER_CELL * r as u32));
        self.row_occupancy[r] &= !(1 << c);
        self.column_occupancy[c] &= !(1 << r);
        self.chips -= 1;
        colour
    }

    /// The number of chips on the board.
    pub const fn chip_count(&self) -> usize {
        self.chips as usize
    }

    /// The number of empty cells.
    pub const fn vacant_count(&self) -> usize {
        self.size.cells() - self.chips as usize
    }

    /// Whether every cell holds a chip.
    pub const fn is_full(&self) -> bool {
        self.chips as usize == self.size.cells()
    }

    /// The line key of a row (cells left to right, lowest bits first).
    #[inline]
    pub fn row_key(&self, row: usize) -> u32 {
        self.rows[row]
    }

    /// The line key of a column (cells top to bottom, lowest bits first).
    #[inline]
    pub fn column_key(&self, column: usize) -> u32 {
        self.columns[column]
    }

    /// The occupancy of a row, bit `c` for column `c`.
    #[inline]
    pub fn row_occupancy(&self, row: usize) -> u8 {
        self.row_occupancy[row]
    }

    /// The occupancy of a column, bit `r` for row `r`.
    #[inline]
    pub fn column_occupancy(&self, column: usize) -> u8 {
        self.column_occupancy[column]
    }

    /// How many chips of each colour are on the board, indexed by [`Colour::index`].
    pub fn colour_counts(&self) -> [u8; 7] {
        let mut counts = [0u8; 7];
        for (_, colour) in self.chips() {
            counts[colour.index()] += 1;
        }
        counts
    }

    /// The chips on the board with their cells, row-major.
    pub fn chips(&self) -> impl Iterator<Item = (Cell, Colour)> + '_ {
        self.size
            .board_cells()
            .filter_map(move |cell| self.get(cell).map(|colour| (cell, colour)))
    }

    /// The empty cells of the board, row-major.
    pub fn vacant_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.size
            .board_cells()
            .filter(move |&cell| self.is_vacant(cell))
    }

    /// The score of each row (top to bottom) and each column (left to right), by table lookup.
    pub fn line_scores(&self) -> ([u32; MAX_SIDE], [u32; MAX_SIDE]) {
        let rows = std::array::from_fn(|r| score::line_score(self.rows[r]));
        let columns = std::array::from_fn(|c| score::line_score(self.columns[c]));
        (rows, columns)
    }

    /// Order's score for the board as it stands, computed from scratch by table lookup: the sum
    /// over every row and column of the lengths of its palindromic runs of length >= 2.
    #[inline]
    pub fn score(&self) -> u32 {
        let mut total = 0;
        for i in 0..MAX_SIDE {
            total += score::line_score(self.rows[i]) + score::line_score(self.columns[i]);
        }
        total
    }

    /// Order's score computed the slow, obvious way, cell by cell: the oracle for [`Board::score`].
    pub fn score_naive(&self) -> u32 {
        let n = self.size.side();
        let value = |r: usize, c: usize| {
            self.get(Cell::new(r, c).expect("on the grid"))
                .map_or(0, |colour| colour.number())
        };
        let mut total = 0;
        for i in 0..n {
            let row: Vec<u8> = (0..n).map(|c| value(i, c)).collect();
            let column: Vec<u8> = (0..n).map(|r| value(r, i)).collect();
            total += naive::brute_force_score(&row) + naive::brute_force_score(&column);
        }
        total
    }

    /// The cells a chip on `from` can slide to, in no particular order; empty if `from` is empty.
    pub fn slide_targets(&self, from: Cell) -> impl Iterator<Item = Cell> {
        let n = self.size.side();
        let (r, c) = (from.row(), from.column());
        let along_row = line::slides(n, self.row_occupancy[r], c);
        let along_column = line::slides(n, self.column_occupancy[c], r);
        let row_cells = line::bits(along_row).map(move |c2| Cell::new(r, c2).expect("on grid"));
        let column_cells =
            line::bits(along_column).map(move |r2| Cell::new(r2, c).expect("on grid"));
        row_cells.chain(column_cells)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_and_clear() {
        let mut board = Board::empty(Size::SEVEN);
        let cell = Cell::new(3, 4).unwrap();
        board.set(cell, Some(Colour::Blue)).unwrap();
        assert_eq!(board.get(cell), Some(Colour::Blue));
        assert_eq!(board.chip_count(), 1);
        board.set(cell, Some(Colour::Red)).unwrap();
        assert_eq!(board.get(cell), Some(Colour::Red));
        assert_eq!(board.chip_count(), 1);
        board.set(cell, None).unwrap();
        assert_eq!(board, Board::empty(Size::SEVEN));
    }

    #[test]
    fn set_checks_size() {
        let mut board = Board::empty(Size::FIVE);
        let off = Cell::new(5, 0).unwrap();
        assert_eq!(
            board.set(off, Some(Colour::Red)),
            Err(SetError::OffBoard(off))
        );
        let on = Cell::new(0, 0).unwrap();
        assert_eq!(
            board.set(on, Some(Colour::Purple)),
            Err(SetError::ColourNotInGame(Colour::Purple))
        );
    }
}
