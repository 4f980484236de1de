//! A game in progress: board, bag, whose turn, running score and hash.

use std::fmt;

use crate::board::Board;
use crate::cell::{Cell, Role, Size, MAX_SIDE};
use crate::line;
use crate::moves::{Move, MoveList};
use crate::score;
use crate::zobrist;
use crate::Colour;

/// Whose decision comes next.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Chance: a chip is about to be drawn from the bag.
    Draw,
    /// Chaos holds a drawn chip of this colour and must place it.
    Place(Colour),
    /// Order may slide a chip or pass.
    Slide,
    /// The board is full; the game is over.
    Over,
}

impl Phase {
    /// The player to move; `None` at a chance node or when the game is over.
    pub const fn role(self) -> Option<Role> {
        match self {
            Phase::Place(_) => Some(Role::Chaos),
            Phase::Slide => Some(Role::Order),
            Phase::Draw | Phase::Over => None,
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Phase::Draw => f.write_str("a chip is to be drawn"),
            Phase::Place(colour) => write!(f, "Chaos is to place colour {colour}"),
            Phase::Slide => f.write_str("Order is to slide or pass"),
            Phase::Over => f.write_str("the game is over"),
        }
    }
}

/// The chips left in the bag, by colour. The chip in Chaos's hand is not in the bag.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bag {
    /// Chips left by colour index; the eighth byte is always 0 so the counts read as one `u64`.
    counts: [u8; 8],
    total: u8,
}

impl Bag {
    /// The full bag of an Entropy(N) game: N chips of each of the first N colours.
    pub fn full(size: Size) -> Bag {
        let mut counts = [0u8; 8];
        for colour in size.game_colours() {
            counts[colour.index()] = size.chips_per_colour();
        }
        Bag {
            counts,
            total: size.cells() as u8,
        }
    }

    /// How many chips of this colour are left.
    #[inline]
    pub fn count(&self, colour: Colour) -> u8 {
        self.counts[colour.index()]
    }

    /// How many chips are left in all.
    #[inline]
    pub fn total(&self) -> u8 {
        self.total
    }

    /// Whether the bag is empty.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The colours still in the bag with their counts; the chance of drawing a colour is its
    /// count divided by [`Bag::total`].
    pub fn colours(&self) -> impl Iterator<Item = (Colour, u8)> + '_ {
        Colour::ALL
            .into_iter()
            .map(|colour| (colour, self.count(colour)))
            .filter(|&(_, count)| count > 0)
    }

    /// The colour of the chip at position `index` when the bag's chips are lined up by colour;
    /// a uniform `index` in `0..total` draws a chip uniformly.
    #[inline]
    pub fn nth_chip(&self, index: u8) -> Option<Colour> {
        if index >= self.total {
            return None;
        }
        // The eighth count is always 0, so `select_byte` finds the colour index directly.
        let (below, _) = crate::line::select_byte(u64::from_le_bytes(self.counts), index as u32);
        Some(Colour::ALL[below])
    }

    /// Takes a chip of this colour out of the bag; the caller knows there is one.
    #[inline]
    pub fn take(&mut self, colour: Colour) {
        self.counts[colour.index()] -= 1;
        self.total -= 1;
    }
}

/// Why a move cannot be played in a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The move belongs to another phase of the turn (a slide while Chaos must place, say).
    WrongPhase {
        /// The phase the position is in.
        phase: Phase,
        /// The move attempted.
        attempted: Move,
    },
    /// No chip of this colour is left in the bag.
    NotInBag(Colour),
    /// Chaos must place the chip that was drawn, not another colour.
    NotTheDrawnColour {
        /// The colour drawn.
        drawn: Colour,
        /// The colour in the move.
        placed: Colour,
    },
    /// The cell is outside the board.
    OffBoard(Cell),
    /// The cell already holds a chip.
    Occupied(Cell),
    /// There is no chip on the cell a slide starts from.
    NoChip(Cell),
    /// A slide must end on another cell; Order passes with [`Move::Pass`].
    SameCell(Cell),
    /// A slide moves along a row or a column only.
    NotInLine {
        /// Start of the slide.
        from: Cell,
        /// End of the slide.
        to: Cell,
    },
    /// A chip lies on the path of a slide.
    Blocked {
        /// Start of the slide.
        from: Cell,
        /// End of the slide.
        to: Cell,
        /// The first chip in the way.
        at: Cell,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::WrongPhase { phase, attempted } => {
                write!(f, "{attempted} cannot be played now: {phase}")
            }
            IllegalMove::NotInBag(colour) => {
                write!(f, "no chip of colour {colour} is left in the bag")
            }
            IllegalMove::NotTheDrawnColour { drawn, placed } => {
                write!(f, "the drawn chip has colour {drawn}, not {placed}")
            }
            IllegalMove::OffBoard(cell) => write!(f, "{cell} is outside the board"),
            IllegalMove::Occupied(cell) => write!(f, "{cell} is already occupied"),
            IllegalMove::NoChip(cell) => write!(f, "there is no chip on {cell} to slide"),
            IllegalMove::SameCell(cell) => {
                write!(
                    f,
                    "a slide from {cell} must end on another cell (pass instead)"
                )
            }
            IllegalMove::NotInLine { from, to } => {
                write!(f, "{from} to {to} is not along a row or a column")
            }
            IllegalMove::Blocked { from, to, at } => {
                write!(f, "the slide {from} to {to} is blocked by the chip on {at}")
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// Why a board and phase do not make a position of the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// More chips of a colour than the game has.
    TooManyChips {
        /// The colour.
        colour: Colour,
        /// How many are on the board (and in hand).
        count: u8,
        /// How many the game has.
        max: u8,
    },
    /// The colour in Chaos's hand is not used in this game.
    ColourNotInGame(Colour),
    /// The board is full, so no chip can be in Chaos's hand.
    FullBoard,
    /// The board is not full, so the game is not over.
    NotOver,
    /// Order moves only after a chip was placed; the board is empty.
    NothingToSlide,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::TooManyChips { colour, count, max } => write!(
                f,
                "{count} chips of colour {colour} (on the board and in hand), but the game has {max}"
            ),
            SetupError::ColourNotInGame(colour) => {
                write!(f, "colour {colour} is not used in this game")
            }
            SetupError::FullBoard => f.write_str("the board is full, so no chip can be placed"),
            SetupError::NotOver => f.write_str("the board is not full, so the game is not over"),
            SetupError::NothingToSlide => {
                f.write_str("the board is empty, so it cannot be Order's turn")
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// A position of an Entropy(N) game: the board, whose decision is next, the bag (derived from
/// the board and the drawn chip), Order's running score and a Zobrist hash.
///
/// `Position` is `Copy`; search copies it rather than undoing moves.
///
/// ```
/// use entropy_core::{Cell, Colour, Move, Phase, Position, Size};
///
/// let mut pos = Position::new(Size::SEVEN);
/// pos.play(Move::Draw(Colour::Red)).unwrap();
/// let cell = Cell::new(0, 0).unwrap();
/// pos.play(Move::Place { colour: Colour::Red, cell }).unwrap();
/// assert_eq!(pos.phase(), Phase::Slide);
/// // The chip in the corner can slide to the other 12 cells of its row and column, or pass.
/// assert_eq!(pos.legal_moves().len(), 13);
/// ```
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct Position {
    board: Board,
    phase: Phase,
    bag: Bag,
    /// The current score of each row (0..7) and column (7..14), so a changed line costs one lookup.
    line_scores: [u8; 2 * MAX_SIDE],
    score: u16,
    hash: u64,
}

impl Position {
    /// The start of a game: empty board, full bag, a chip about to be drawn.
    pub fn new(size: Size) -> Position {
        Position::from_board(Board::empty(size), Phase::Draw).expect("the empty board is valid")
    }

    /// Makes a position from a board and the phase of the turn, deriving the bag.
    ///
    /// A full board is always [`Phase::Over`] (given `Draw`, `Slide` or `Over`).
    pub fn from_board(board: Board, phase: Phase) -> Result<Position, SetupError> {
        let size = board.size();
        let mut used = board.colour_counts();
        if let Phase::Place(colour) = phase {
            if !size.has_colour(colour) {
                return Err(SetupError::ColourNotInGame(colour));
            }
            used[colour.index()] += 1;
        }
        let max = size.chips_per_colour();
        for colour in Colour::ALL {
            let count = used[colour.index()];
            if count > max {
                return Err(SetupError::TooManyChips { colour, count, max });
            }
        }
        let phase = match (board.is_full(), phase) {
            (true, Phase::Place(_)) => return Err(SetupError::FullBoard),
            (true, _) => Phase::Over,
            (false, Phase::Over) => return Err(SetupError::NotOver),
            (false, Phase::Slide) if board.chip_count() == 0 => {
                return Err(SetupError::NothingToSlide)
            }
            (false, phase) => phase,
        };
        let mut bag = Bag::full(size);
        for colour in size.game_colours() {
            bag.counts[colour.index()] -= used[colour.index()];
        }
        bag.total = bag.counts.iter().sum();
        let mut pos = Position {
            board,
            phase,
            bag,
            line_scores: [0; 2 * MAX_SIDE],
            score: 0,
            hash: 0,
        };
        for i in 0..MAX_SIDE {
            pos.line_scores[i] = score::line_score(board.row_key(i)) as u8;
            pos.line_scores[MAX_SIDE + i] = score::line_score(board.column_key(i)) as u8;
        }
        pos.score = pos.line_scores.iter().map(|&s| s as u16).sum();
        pos.hash = pos.hash_from_scratch();
        Ok(pos)
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board size.
    #[inline]
    pub fn size(&self) -> Size {
        self.board.size()
    }

    /// Whose decision comes next.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The player to move; `None` at a chance node or when the game is over.
    #[inline]
    pub fn to_move(&self) -> Option<Role> {
        self.phase.role()
    }

    /// The chips left in the bag (not counting a drawn chip in Chaos's hand).
    #[inline]
    pub fn bag(&self) -> &Bag {
        &self.bag
    }

    /// Order's score for the board as it stands (kept up to date incrementally).
    #[inline]
    pub fn score(&self) -> u32 {
        self.score as u32
    }

    /// The current score of a row (kept up to date incrementally).
    #[inline]
    pub fn row_score(&self, row: usize) -> u32 {
        self.line_scores[row] as u32
    }

    /// The current score of a column (kept up to date incrementally).
    #[inline]
    pub fn column_score(&self, column: usize) -> u32 {
        self.line_scores[MAX_SIDE + column] as u32
    }

    /// The Zobrist hash of board, phase and size (kept up to date incrementally).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash of board and size alone: the same for every phase of one board (a
    /// chance node and each of its draws), so what depends on the board alone can be shared.
    #[inline]
    pub fn board_hash(&self) -> u64 {
        self.hash ^ phase_key(self.phase)
    }

    /// The number of chips placed so far, 0..=N*N; turn `t` (1-based) places chip `t`.
    #[inline]
    pub fn placed(&self) -> usize {
        self.board.chip_count()
    }

    /// Whether the board is full.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Computes the hash from scratch, the oracle for the incremental hash.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = zobrist::size(self.size().side());
        for (cell, colour) in self.board.chips() {
            hash ^= zobrist::chip(cell.index(), colour);
        }
        hash ^ phase_key(self.phase)
    }

    /// The legal moves: the colours in the bag (chance), the empty cells (Chaos), or every slide
    /// followed by the pass (Order); none when the game is over.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        match self.phase {
            Phase::Draw => {
                for (colour, _) in self.bag.colours() {
                    moves.push(Move::Draw(colour));
                }
            }
            Phase::Place(colour) => {
                for cell in self.board.vacant_cells() {
                    moves.push(Move::Place { colour, cell });
                }
            }
            Phase::Slide => {
                self.for_each_slide(|from, to| moves.push(Move::Slide { from, to }));
                moves.push(Move::Pass);
            }
            Phase::Over => {}
        }
        moves
    }

    /// Calls `f(from, to)` for every slide on the board: along rows (top row first), then along
    /// columns; within a line by chip, then by destination.
    #[inline]
    pub fn for_each_slide(&self, mut f: impl FnMut(Cell, Cell)) {
        let n = self.size().side();
        for r in 0..n {
            let occupancy = self.board.row_occupancy(r);
            for c in line::bits(occupancy) {
                for c2 in line::bits(line::slides(n, occupancy, c)) {
                    f(grid_cell(r, c), grid_cell(r, c2));
                }
            }
        }
        for c in 0..n {
            let occupancy = self.board.column_occupancy(c);
            for r in line::bits(occupancy) {
                for r2 in line::bits(line::slides(n, occupancy, r)) {
                    f(grid_cell(r, c), grid_cell(r2, c));
                }
            }
        }
    }

    /// The number of Order's moves (every slide and the pass) on this board, by table lookup.
    #[inline]
    pub fn order_move_count(&self) -> usize {
        self.board.slide_count() + 1
    }

    /// Order's move number `index` in the order of [`Position::legal_moves`] (the last one,
    /// `order_move_count() - 1`, is the pass), found without listing the others.
    #[inline]
    pub fn order_move(&self, index: usize) -> Move {
        match self.board.nth_slide(index) {
            Some((from, to)) => Move::Slide { from, to },
            None => Move::Pass,
        }
    }

    /// The empty cell number `index` in row-major order.
    #[inline]
    pub fn nth_vacant(&self, index: usize) -> Option<Cell> {
        self.board.nth_vacant(index)
    }

    /// Checks a move against the rules without playing it.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        let wrong_phase = || IllegalMove::WrongPhase {
            phase: self.phase,
            attempted: mv,
        };
        match (self.phase, mv) {
            (Phase::Draw, Move::Draw(colour)) => {
                if self.bag.count(colour) == 0 {
                    return Err(IllegalMove::NotInBag(colour));
                }
            }
            (Phase::Place(drawn), Move::Place { colour, cell }) => {
                if colour != drawn {
                    return Err(IllegalMove::NotTheDrawnColour {
                        drawn,
                        placed: colour,
                    });
                }
                self.check_vacant(cell)?;
            }
            (Phase::Slide, Move::Slide { from, to }) => self.check_slide(from, to)?,
            (Phase::Slide, Move::Pass) => {}
            _ => return Err(wrong_phase()),
        }
        Ok(())
    }

    fn check_vacant(&self, cell: Cell) -> Result<(), IllegalMove> {
        if !self.size().contains(cell) {
            Err(IllegalMove::OffBoard(cell))
        } else if self.board.get(cell).is_some() {
            Err(IllegalMove::Occupied(cell))
        } else {
            Ok(())
        }
    }

    fn check_slide(&self, from: Cell, to: Cell) -> Result<(), IllegalMove> {
        if !self.size().contains(from) {
            return Err(IllegalMove::OffBoard(from));
        }
        if self.board.get(from).is_none() {
            return Err(IllegalMove::NoChip(from));
        }
        if from == to {
            return Err(IllegalMove::SameCell(from));
        }
        self.check_vacant(to)?;
        if from.row() != to.row() && from.column() != to.column() {
            return Err(IllegalMove::NotInLine { from, to });
        }
        // Walk from `from` towards `to`; the first chip met blocks the slide.
        let step = |a: usize, b: usize| (b as isize - a as isize).signum();
        let (dr, dc) = (step(from.row(), to.row()), step(from.column(), to.column()));
        let (mut r, mut c) = (from.row() as isize, from.column() as isize);
        loop {
            r += dr;
            c += dc;
            let cell = grid_cell(r as usize, c as usize);
            if self.board.get(cell).is_some() {
                return Err(IllegalMove::Blocked { from, to, at: cell });
            }
            if cell == to {
                return Ok(());
            }
        }
    }

    /// Plays a move after checking it; on error the position is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays a move that the caller knows to be legal (from [`Position::legal_moves`], say).
    /// An illegal move leaves the position inconsistent or panics; use [`Position::play`] for
    /// moves from outside.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        let before = phase_key(self.phase);
        match mv {
            Move::Draw(colour) => {
                self.bag.take(colour);
                self.phase = Phase::Place(colour);
            }
            Move::Place { colour, cell } => {
                self.board.put(cell, colour);
                self.hash ^= zobrist::chip(cell.index(), colour);
                self.rescore_row(cell.row());
                self.rescore_column(cell.column());
                self.phase = if self.board.is_full() {
                    Phase::Over
                } else {
                    Phase::Slide
                };
            }
            Move::Slide { from, to } => {
                let colour = self.board.take(from);
                self.board.put(to, colour);
                self.hash ^=
                    zobrist::chip(from.index(), colour) ^ zobrist::chip(to.index(), colour);
                if from.row() == to.row() {
                    self.rescore_row(from.row());
                    self.rescore_column(from.column());
                    self.rescore_column(to.column());
                } else {
                    self.rescore_column(from.column());
                    self.rescore_row(from.row());
                    self.rescore_row(to.row());
                }
                self.phase = Phase::Draw;
            }
            Move::Pass => self.phase = Phase::Draw,
        }
        self.hash ^= before ^ phase_key(self.phase);
    }

    #[inline(always)]
    fn rescore_row(&mut self, row: usize) {
        self.rescore_line(row, self.board.row_key(row));
    }

    #[inline(always)]
    fn rescore_column(&mut self, column: usize) {
        self.rescore_line(MAX_SIDE + column, self.board.column_key(column));
    }

    #[inline(always)]
    fn rescore_line(&mut self, line: usize, key: u32) {
        let new = score::line_score(key) as u8;
        self.score = self.score + new as u16 - self.line_scores[line] as u16;
        self.line_scores[line] = new;
    }

    /// Order's score after the slide, without playing it: only the three changed lines are
    /// looked up. The slide must be legal. [`Position::play_unchecked`] is the slow twin.
    #[inline]
    pub fn score_after_slide(&self, from: Cell, to: Cell) -> u32 {
        let (r1, c1, r2, c2) = (from.row(), from.column(), to.row(), to.column());
        let board = &self.board;
        let colour = board.row_key(r1) >> (score::BITS_PER_CELL * c1 as u32) & 7;
        let shift = |i: usize| score::BITS_PER_CELL * i as u32;
        let old = |line: usize| self.line_scores[line] as u32;
        let mut total = self.score as u32;
        if r1 == r2 {
            let row = board.row_key(r1) & !(7 << shift(c1)) | colour << shift(c2);
            let from_column = board.column_key(c1) & !(7 << shift(r1));
            let to_column = board.column_key(c2) | colour << shift(r1);
            total += score::line_score(row)
                + score::line_score(from_column)
                + score::line_score(to_column);
            total -= old(r1) + old(MAX_SIDE + c1) + old(MAX_SIDE + c2);
        } else {
            let column = board.column_key(c1) & !(7 << shift(r1)) | colour << shift(r2);
            let from_row = board.row_key(r1) & !(7 << shift(c1));
            let to_row = board.row_key(r2) | colour << shift(c1);
            total +=
                score::line_score(column) + score::line_score(from_row) + score::line_score(to_row);
            total -= old(MAX_SIDE + c1) + old(r1) + old(r2);
        }
        total
    }

    /// Order's score after placing a chip on an empty cell, without playing it.
    #[inline]
    pub fn score_after_place(&self, cell: Cell, colour: Colour) -> u32 {
        let (r, c) = (cell.row(), cell.column());
        let value = colour.number() as u32;
        let row = self.board.row_key(r) | value << (score::BITS_PER_CELL * c as u32);
        let column = self.board.column_key(c) | value << (score::BITS_PER_CELL * r as u32);
        self.score as u32 + score::line_score(row) + score::line_score(column)
            - self.line_scores[r] as u32
            - self.line_scores[MAX_SIDE + c] as u32
    }

    /// The position after a move, leaving this one as it is (the move is checked).
    pub fn after(&self, mv: Move) -> Result<Position, IllegalMove> {
        let mut next = *self;
        next.play(mv)?;
        Ok(next)
    }
}

#[inline(always)]
fn grid_cell(row: usize, column: usize) -> Cell {
    Cell::at(row, column)
}

fn phase_key(phase: Phase) -> u64 {
    match phase {
        Phase::Draw => zobrist::draw(),
        Phase::Place(colour) => zobrist::place(colour),
        Phase::Slide => zobrist::slide(),
        Phase::Over => zobrist::over(),
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position({}, {:?}, score {})",
            self.board, self.phase, self.score
        )
    }
}
