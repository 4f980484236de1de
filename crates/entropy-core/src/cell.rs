//! Cells, board sizes and roles.

use std::fmt;

/// The largest board side; every board is stored on a 7x7 grid.
pub const MAX_SIDE: usize = 7;

/// The number of cells of the storage grid.
pub const GRID_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// A cell of the 7x7 storage grid, numbered row-major from the top-left (`row * 7 + column`).
///
/// A smaller board (Entropy(5)) uses the top-left N x N corner of the grid, so cell numbers do
/// not depend on the board size; [`Size::contains`] says whether a cell is on a given board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// Returns the cell at `row`, `column` (both zero-based, top-left origin), if on the grid.
    pub const fn new(row: usize, column: usize) -> Option<Cell> {
        if row < MAX_SIDE && column < MAX_SIDE {
            Some(Cell((row * MAX_SIDE + column) as u8))
        } else {
            None
        }
    }

    /// The cell at `row`, `column`, which the caller knows to be on the grid (checked in debug
    /// builds only): for table-driven loops where the bounds are known.
    #[inline(always)]
    pub(crate) const fn at(row: usize, column: usize) -> Cell {
        debug_assert!(row < MAX_SIDE && column < MAX_SIDE);
        Cell((row * MAX_SIDE + column) as u8)
    }

    /// Returns the cell with this grid index (0..49).
    pub const fn from_index(index: usize) -> Option<Cell> {
        if index < GRID_CELLS {
            Some(Cell(index as u8))
        } else {
            None
        }
    }

    /// The cell's grid index, `row * 7 + column`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The zero-based row, counted from the top.
    #[inline(always)]
    pub const fn row(self) -> usize {
        // A table load is cheaper than dividing by 7 in the hot paths that place and slide.
        ROW_OF[self.0 as usize] as usize
    }

    /// The zero-based column, counted from the left.
    #[inline(always)]
    pub const fn column(self) -> usize {
        COLUMN_OF[self.0 as usize] as usize
    }

    /// All 49 grid cells in index order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..GRID_CELLS as u8).map(Cell)
    }
}

const fn build_coordinates(column: bool) -> [u8; GRID_CELLS] {
    let mut table = [0u8; GRID_CELLS];
    let mut i = 0;
    while i < GRID_CELLS {
        table[i] = if column { i % MAX_SIDE } else { i / MAX_SIDE } as u8;
        i += 1;
    }
    table
}

static ROW_OF: [u8; GRID_CELLS] = build_coordinates(false);
static COLUMN_OF: [u8; GRID_CELLS] = build_coordinates(true);

/// Displays the cell in CodeCup notation: row letter upper-case, column letter lower-case (`Bc`).
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = (b'A' + self.row() as u8) as char;
        let column = (b'a' + self.column() as u8) as char;
        write!(f, "{row}{column}")
    }
}

/// The side N of an Entropy(N) board: N x N cells, N colours, N chips of each colour.
///
/// The game is Entropy(7); Entropy(5) is the original and the course variant. Sides 2 to 7 are
/// accepted since nothing in the rules depends on N.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Size(u8);

impl Size {
    /// Entropy(7), the game of Hyle 7 and CodeCup 2023.
    pub const SEVEN: Size = Size(7);
    /// Entropy(5), the original board and the course variant.
    pub const FIVE: Size = Size(5);

    /// Returns the size with this side, if 2..=7.
    pub const fn new(side: usize) -> Option<Size> {
        if side >= 2 && side <= MAX_SIDE {
            Some(Size(side as u8))
        } else {
            None
        }
    }

    /// The board side N.
    pub const fn side(self) -> usize {
        self.0 as usize
    }

    /// The number of cells, N x N, which is also the number of chips.
    pub const fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// The number of colours, N.
    pub const fn colours(self) -> usize {
        self.side()
    }

    /// The number of chips of each colour, N.
    pub const fn chips_per_colour(self) -> u8 {
        self.0
    }

    /// Whether the cell lies on this board.
    pub const fn contains(self, cell: Cell) -> bool {
        cell.row() < self.side() && cell.column() < self.side()
    }

    /// Whether the colour is used in this game (the first N colours are).
    pub const fn has_colour(self, colour: crate::Colour) -> bool {
        colour.number() as usize <= self.side()
    }

    /// The cells of this board in row-major order.
    pub fn board_cells(self) -> impl Iterator<Item = Cell> {
        Cell::all().filter(move |&c| self.contains(c))
    }

    /// The colours of this game in numeric order.
    pub fn game_colours(self) -> impl Iterator<Item = crate::Colour> {
        crate::Colour::ALL.into_iter().take(self.side())
    }
}

impl Default for Size {
    fn default() -> Self {
        Size::SEVEN
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The two players.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Order slides chips to make palindromes and scores them.
    Order,
    /// Chaos places the drawn chips to prevent palindromes.
    Chaos,
}

impl Role {
    /// The other role.
    pub const fn opponent(self) -> Role {
        match self {
            Role::Order => Role::Chaos,
            Role::Chaos => Role::Order,
        }
    }

    /// Where the role's entry lives in pairs indexed by role (`[Order's, Chaos's]`): the one
    /// such index in the tree.
    pub const fn index(self) -> usize {
        match self {
            Role::Order => 0,
            Role::Chaos => 1,
        }
    }

    /// The role's name in lower case, as used in records and protocols.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Order => "order",
            Role::Chaos => "chaos",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_coordinates_round_trip() {
        for cell in Cell::all() {
            assert_eq!(Cell::new(cell.row(), cell.column()), Some(cell));
            assert_eq!(Cell::from_index(cell.index()), Some(cell));
        }
        assert_eq!(Cell::new(7, 0), None);
        assert_eq!(Cell::from_index(49), None);
        assert_eq!(Cell::new(1, 2).unwrap().to_string(), "Bc");
    }

    #[test]
    fn sizes() {
        assert_eq!(Size::new(1), None);
        assert_eq!(Size::new(8), None);
        assert_eq!(Size::FIVE.board_cells().count(), 25);
        assert!(!Size::FIVE.contains(Cell::new(0, 5).unwrap()));
        assert_eq!(Size::SEVEN.board_cells().count(), 49);
    }
}
