//! Order's best reply to each placement Chaos can make: greedy Chaos's question, asked once per
//! empty cell. The answers share most of their work, so it is done once per position, in
//! [`Tables`], and each placement pays only for the slides it changes. Greedy Chaos needs the
//! exact answer only for its lowest cells: [`Candidates`] orders the cells by a cheap lower bound
//! so that the others are cut short.
//!
//! A slide along a line from `p` to `q` gains three terms: what its own line gains, what the
//! line crossing at `p` loses (never positive) and what the line crossing at `q` gains. A line's
//! score is the sum over its palindromes, and a palindrome has no empty cell, so a chip placed at
//! position `t` of a line changes what a change at position `i` gains the line only if every cell
//! between `t` and `i` holds a chip: only if `i` is in the run of chips through `t` or just
//! beyond it at either end (its reach, `run_reach`). So a chip placed on row `r`, column `c`
//! changes the gain of a slide only if the slide goes along row `r` from or to a cell in the
//! reach (or through the placed chip's cell), or along column `c` likewise, or along another
//! line from or to a cell of row `r` or column `c` in the reach; every other slide gains what it
//! gains now.

use entropy_core::{Cell, Colour, Position};

use super::features::threats;

mod tables;

use tables::{bits, cell, Tables, NONE};

/// Order's best reply (his score after his best slide, or a pass) to each placement of
/// `colour`, for every empty cell in row-major order: the same values as placing the chip and
/// taking the score plus [`threats`]' best gain, found with less work.
pub fn replies_to_placements(
    position: &Position,
    colour: Colour,
) -> impl Iterator<Item = (Cell, u32)> + '_ {
    let mut candidates = Candidates::of(position, colour, |_| 0);
    bits(position.board().vacant_bits())
        .map(move |index| (cell(index), candidates.reply(index, u32::MAX)))
}

/// [`replies_to_placements`] for a player who wants only the lowest replies (greedy Chaos
/// when it keeps every cell it might play): every cell whose reply is the lowest gets its
/// exact value, every other cell a lower bound on its reply above the lowest, found with less
/// work. Cells come in row-major order.
pub fn lowest_replies_to_placements(
    position: &Position,
    colour: Colour,
) -> impl Iterator<Item = (Cell, u32)> + '_ {
    let mut candidates = Candidates::of(position, colour, |_| 0);
    let mut lowest = u32::MAX;
    while let Some((bound, _, index)) = candidates.next() {
        if bound > lowest {
            // This bound and every one after it are above the lowest reply.
            break;
        }
        lowest = lowest.min(candidates.reply(index, lowest));
    }
    let reply = candidates.reply;
    bits(position.board().vacant_bits()).map(move |index| (cell(index), reply[index]))
}

/// Greedy Chaos's placement: the empty cell that leaves Order the lowest best reply, and that
/// reply. Ties go to the cell with the lowest `tie_key` (asked once per empty cell, in
/// row-major order), then to the first cell; random keys make the choice uniform among the
/// lowest.
///
/// Choosing one cell is cheaper than [`lowest_replies_to_placements`]: a cell that can at best
/// tie with the chosen one and has a higher key needs no exact reply.
pub fn lowest_reply_placement(
    position: &Position,
    colour: Colour,
    tie_key: impl FnMut(Cell) -> u32,
) -> (Cell, u32) {
    let mut candidates = Candidates::of(position, colour, tie_key);
    // The chosen cell: its reply, then its key and cell, which break ties.
    let (mut best, mut best_tie) = (u32::MAX, (u32::MAX, usize::MAX));
    while let Some((bound, key, index)) = candidates.next() {
        if (bound, (key, index)) > (best, best_tie) {
            // This cell and every one after it lose to the chosen one.
            break;
        }
        // Beating the chosen cell takes a lower reply, or an equal one and a tie won. (Here
        // a cell that loses ties has a bound below `best`, so `best` is above 0.)
        let enough = if (key, index) < best_tie {
            best
        } else {
            best - 1
        };
        let reply = candidates.reply(index, enough);
        if reply <= enough {
            (best, best_tie) = (reply, (key, index));
        }
    }
    (cell(best_tie.1), best)
}

/// The placements of one chip, each with a cheap lower bound on Order's reply, handed out lowest
/// bound first, so that the lowest replies are found first and the others can be cut short.
struct Candidates<'a> {
    position: &'a Position,
    colour: Colour,
    chip: u32,
    tables: Box<Tables>,
    /// Whether one empty cell is left (the placement ends the game: Order has no reply).
    last: bool,
    /// Per cell: the score after the placement, and the best slide it leaves alone (`NONE` where
    /// that is unknown).
    now: [u32; 64],
    far: [i32; 64],
    /// Per cell: Order's reply, or a lower bound on it.
    reply: [u32; 64],
    /// Bound, tie key and cell packed in one number; the first `taken` ascending.
    order: [u64; 64],
    count: usize,
    taken: usize,
}

impl<'a> Candidates<'a> {
    fn of(
        position: &'a Position,
        colour: Colour,
        mut tie_key: impl FnMut(Cell) -> u32,
    ) -> Candidates<'a> {
        let chip = u32::from(colour.number());
        let board = position.board();
        let mut candidates = Candidates {
            position,
            colour,
            chip,
            tables: Tables::of(position, chip),
            last: board.vacant_count() == 1,
            now: [0; 64],
            far: [NONE; 64],
            reply: [0; 64],
            order: [0; 64],
            count: 0,
            taken: 0,
        };
        let c = &mut candidates;
        for index in bits(board.vacant_bits()) {
            let (row, column) = (index / 8, index % 8);
            c.now[index] = (position.score() as i32 + c.tables.placing[index] as i32) as u32;
            if !c.last {
                let spot = c.tables.spot(row, column);
                if let Some(gain) = c.tables.far.best_unaffected(&spot) {
                    c.far[index] = gain;
                }
            }
            c.reply[index] = c.now[index] + c.far[index].max(0) as u32;
            let key = tie_key(cell(index));
            c.order[c.count] = u64::from(c.reply[index]) << 38 | u64::from(key) << 6 | index as u64;
            c.count += 1;
        }
        candidates
    }

    /// The next candidate, the lowest bound (then tie key, then cell) first: its bound, tie key
    /// and cell. (Picked one at a time: most choices look at a few, and sorting them all
    /// costs more.)
    fn next(&mut self) -> Option<(u32, u32, usize)> {
        let rest = &mut self.order[self.taken..self.count];
        let (lowest, _) = rest.iter().enumerate().min_by_key(|&(_, &packed)| packed)?;
        rest.swap(0, lowest);
        let packed = rest[0];
        self.taken += 1;
        Some((
            (packed >> 38) as u32,
            (packed >> 6) as u32,
            (packed & 63) as usize,
        ))
    }

    /// Order's reply to the placement on cell `index` if at most `enough`, else a lower bound
    /// on it above `enough`; kept in `reply`.
    fn reply(&mut self, index: usize, enough: u32) -> u32 {
        if self.last {
            return self.reply[index];
        }
        let (row, column) = (index / 8, index % 8);
        let now = self.now[index];
        self.reply[index] = if self.far[index] == NONE {
            let mut after = *self.position;
            after.play_unchecked(entropy_core::Move::Place {
                colour: self.colour,
                cell: cell(index),
            });
            now + threats(&after).0
        } else {
            let placed = self.tables.placed(self.tables.spot(row, column), self.chip);
            let limit = enough.saturating_sub(now).min(i32::MAX as u32) as i32;
            now + self.far[index]
                .max(self.tables.changed_best(&placed, limit))
                .max(0) as u32
        };
        self.reply[index]
    }
}
