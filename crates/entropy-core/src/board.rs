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
    /// Byte `r` is the occupancy of row `r` (bit `c` for column `c`).
    row_bits: u64,
    /// Byte `c` is the occupancy of column `c` (bit `r` for row `r`).
    column_bits: u64,
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
            row_bits: 0,
            column_bits: 0,
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
        self.size.contains(cell) && self.row_bits & bit(cell.row(), cell.column()) == 0
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
        self.row_bits |= bit(r, c);
        self.column_bits |= bit(c, r);
        self.chips += 1;
    }

    /// Takes the chip off a cell. The caller guarantees there is one.
    #[inline]
    pub(crate) fn take(&mut self, cell: Cell) -> Colour {
        let (r, c) = (cell.row(), cell.column());
        let value = (self.rows[r] >> (BITS_PER_CELL * c as u32)) & 7;
        debug_assert!(value != 0, "take from {cell}, which is empty");
        let colour = Colour::ALL[(value as usize).wrapping_sub(1) % 7];
        self.rows[r] &= !(7 << (BITS_PER_CELL * c as u32));
        self.columns[c] &= !(7 << (BITS_PER_CELL * r as u32));
        self.row_bits &= !bit(r, c);
        self.column_bits &= !bit(c, r);
        self.chips -= 1;
        colour
    }

    /// Places a chip on a cell the caller knows to be empty and on the board (no score, no
    /// checks): for fast playouts. [`Board::set`] is the checked form.
    #[inline]
    pub fn place_unchecked(&mut self, cell: Cell, colour: Colour) {
        self.put(cell, colour);
    }

    /// Slides a chip along a path the caller knows to be legal (no score, no checks).
    #[inline]
    pub fn slide_unchecked(&mut self, from: Cell, to: Cell) {
        let colour = self.take(from);
        self.put(to, colour);
    }

    /// The number of slides along each row and each column, by table lookup.
    #[inline]
    pub fn slide_counts(&self) -> SlideCounts {
        let n = self.size.side();
        let mut rows = 0;
        let mut columns = 0;
        for i in 0..n {
            rows |= (line::slide_count(n, self.row_occupancy(i)) as u64) << (8 * i);
            columns |= (line::slide_count(n, self.column_occupancy(i)) as u64) << (8 * i);
        }
        SlideCounts { rows, columns }
    }

    /// The number of slides on the board (Order's moves less the pass), by table lookup.
    #[inline]
    pub fn slide_count(&self) -> usize {
        self.slide_counts().total()
    }

    /// Slide number `index` (from, to) in the order of [`crate::Position::legal_moves`], found
    /// without listing the others; `None` past the last slide.
    #[inline]
    pub fn nth_slide(&self, index: usize) -> Option<(Cell, Cell)> {
        self.nth_slide_counted(self.slide_counts(), index)
    }

    /// [`Board::nth_slide`] given this board's [`Board::slide_counts`], so that a caller who
    /// needs both the count and a slide looks the counts up once.
    #[inline]
    pub fn nth_slide_counted(&self, counts: SlideCounts, index: usize) -> Option<(Cell, Cell)> {
        let n = self.size.side();
        let along_rows = line::byte_sum(counts.rows) as usize;
        if index < along_rows {
            let (r, k) = line::select_byte(counts.rows, index as u32);
            let (from, to) = line::nth_slide(n, self.row_occupancy(r), k as usize);
            return Some((Cell::at(r, from), Cell::at(r, to)));
        }
        let index = index - along_rows;
        if index < line::byte_sum(counts.columns) as usize {
            let (c, k) = line::select_byte(counts.columns, index as u32);
            let (from, to) = line::nth_slide(n, self.column_occupancy(c), k as usize);
            return Some((Cell::at(from, c), Cell::at(to, c)));
        }
        None
    }

    /// The empty cell number `index` in row-major order, found without a loop: per-row counts of
    /// empty cells by bytewise popcount, then [`line::select_byte`].
    #[inline]
    pub fn nth_vacant(&self, index: usize) -> Option<Cell> {
        if index >= self.vacant_count() {
            return None;
        }
        let vacant = !self.row_bits & vacancy_mask(self.size.side());
        let (r, k) = line::select_byte(line::byte_popcounts(vacant), index as u32);
        let row = (vacant >> (8 * r)) as u8;
        Some(Cell::at(r, line::nth_bit(row, k as usize)))
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

    /// The chips as a bitboard with one byte per row: bit `8 * row + column`. The eighth bit of
    /// each byte is always clear, so shifting by one never wraps from one row into the next.
    #[inline]
    pub fn occupied_bits(&self) -> u64 {
        self.row_bits
    }

    /// The empty cells of the board in the same layout as [`Board::occupied_bits`].
    #[inline]
    pub fn vacant_bits(&self) -> u64 {
        !self.row_bits & vacancy_mask(self.size.side())
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
        (self.row_bits >> (8 * row)) as u8
    }

    /// The occupancy of a column, bit `r` for row `r`.
    #[inline]
    pub fn column_occupancy(&self, column: usize) -> u8 {
        (self.column_bits >> (8 * column)) as u8
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

    /// The score and each line's as text: `S rows=r1,..,rN columns=c1,..,cN` (`entropy score
    /// --lines`).
    pub fn scores_text(&self) -> String {
        let (rows, columns) = self.line_scores();
        let n = self.size().side();
        let join = |v: &[u32]| {
            v[..n]
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "{} rows={} columns={}",
            self.score(),
            join(&rows),
            join(&columns)
        )
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
        let along_row = line::slides(n, self.row_occupancy(r), c);
        let along_column = line::slides(n, self.column_occupancy(c), r);
        let row_cells = line::bits(along_row).map(move |c2| Cell::new(r, c2).expect("on grid"));
        let column_cells =
            line::bits(along_column).map(move |r2| Cell::new(r2, c).expect("on grid"));
        row_cells.chain(column_cells)
    }
}

/// The bit of `(line, position)` in a bitboard with one byte per line.
#[inline(always)]
const fn bit(line: usize, position: usize) -> u64 {
    1 << (8 * line + position)
}

/// The cells of an N x N board in a bitboard with one byte per line.
#[inline(always)]
const fn vacancy_mask(side: usize) -> u64 {
    let line = (1u64 << side) - 1;
    let lines = if side == 8 {
        u64::MAX
    } else {
        (1u64 << (8 * side)) - 1
    };
    lines & (line * 0x0101_0101_0101_0101)
}

/// The number of slides along each line of a board, one byte per line (see
/// [`Board::slide_counts`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SlideCounts {
    rows: u64,
    columns: u64,
}

impl SlideCounts {
    /// The number of slides on the board.
    #[inline]
    pub fn total(self) -> usize {
        (line::byte_sum(self.rows) + line::byte_sum(self.columns)) as usize
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
