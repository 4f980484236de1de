//! Move ordering: the transposition table's move, then killer moves, then a cheap static order
//! (Order: the largest immediate gain first; Chaos: the smallest immediate gain for Order first;
//! optionally, [`ordered_moves`]' `colour_ties`, equal gains by the chips of the moving colour
//! in the lines a move reaches).

use entropy_core::{Cell, Colour, Move, MoveList, Phase, Position};

/// Killer moves: per ply, the last two moves that caused a cutoff.
pub struct Killers {
    slots: Vec<[Option<Move>; 2]>,
}

impl Killers {
    /// Room for this many plies.
    pub fn new(plies: usize) -> Killers {
        Killers {
            slots: vec![[None; 2]; plies],
        }
    }

    /// Remembers a move that caused a cutoff at this ply.
    pub fn record(&mut self, ply: usize, mv: Move) {
        if let Some(slot) = self.slots.get_mut(ply) {
            if slot[0] != Some(mv) {
                slot[1] = slot[0];
                slot[0] = Some(mv);
            }
        }
    }

    /// The killers of this ply.
    pub fn at(&self, ply: usize) -> [Option<Move>; 2] {
        self.slots.get(ply).copied().unwrap_or([None; 2])
    }

    /// Forgets all killers.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = [None; 2]);
    }
}

/// The legal moves of a decision node in the order to search them.
///
/// With `colour_ties`, moves of equal immediate gain are ordered by the chips of their colour in
/// the lines they reach, the palindromes they may make later: Order's slides that bring a chip
/// into lines holding more chips of its colour than the lines it leaves come first, Chaos's
/// placements into lines holding fewer chips of the drawn colour. Without it they keep the order
/// they are generated in. Either way the search's values are the same; only its size changes.
pub fn ordered_moves(
    position: &Position,
    first: Option<Move>,
    killers: [Option<Move>; 2],
    colour_ties: bool,
) -> MoveList {
    // Keys: higher is searched earlier. On the stack: every interior node orders its moves.
    let mut keyed = KeyedMoves {
        items: [(0, Move::Pass); entropy_core::MAX_MOVES],
        len: 0,
    };
    match position.phase() {
        Phase::Slide => {
            let now = position.score() as i32;
            let board = position.board();
            position.for_each_slide(|from, to| {
                let gain = position.score_after_slide(from, to) as i32 - now;
                let tie = if colour_ties {
                    let colour = board.get(from).map_or(0, Colour::number);
                    // The chip counts itself in the lines it leaves, and in the line it slides
                    // along at both ends: a constant among the slides.
                    same_colour_in_lines(position, to, colour)
                        - same_colour_in_lines(position, from, colour)
                } else {
                    0
                };
                keyed.push((gain * GAIN + tie.clamp(-TIE, TIE), Move::Slide { from, to }));
            });
            // A pass keeps everything; try it right after the moves that gain.
            keyed.push((TIE + 1, Move::Pass));
        }
        Phase::Place(colour) => {
            let now = position.score() as i32;
            for cell in position.board().vacant_cells() {
                let gain = position.score_after_place(cell, colour) as i32 - now;
                let tie = if colour_ties {
                    same_colour_in_lines(position, cell, colour.number())
                } else {
                    0
                };
                keyed.push((-gain * GAIN - tie, Move::Place { colour, cell }));
            }
        }
        Phase::Draw | Phase::Over => {}
    }
    let keyed = &mut keyed.items[..keyed.len];
    for (rank, killer) in killers.iter().enumerate() {
        if let Some(entry) = keyed.iter_mut().find(|(_, m)| Some(*m) == *killer) {
            entry.0 = 1_000_000 - rank as i32;
        }
    }
    if let Some(entry) = keyed.iter_mut().find(|(_, m)| Some(*m) == first) {
        entry.0 = 2_000_000;
    }
    // A stable sort keeps generation order among equals, so the search is deterministic.
    keyed.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
    let mut moves = MoveList::new();
    for &(_, mv) in keyed.iter() {
        moves.push(mv);
    }
    moves
}

/// A point of immediate gain in an ordering key: more than any tie-break can add or take.
const GAIN: i32 = 64;

/// The most a tie-break adds to or takes from an ordering key.
const TIE: i32 = GAIN / 4;

/// The chips of colour number `colour` in the row and the column of `cell`.
#[inline(always)]
fn same_colour_in_lines(position: &Position, cell: Cell, colour: u8) -> i32 {
    let board = position.board();
    (same_colour(board.row_key(cell.row()), colour)
        + same_colour(board.column_key(cell.column()), colour)) as i32
}

/// The cells of a line key that hold colour number `colour` (1 to 7).
#[inline(always)]
fn same_colour(key: u32, colour: u8) -> u32 {
    // A cell holds the colour where its three bits XOR the colour's are all zero; the key's
    // unused high cells are empty (0), never a colour.
    const LOWS: u32 = 0o1111111;
    let x = key ^ (colour as u32 * LOWS);
    let differs = (x | x >> 1 | x >> 2) & LOWS;
    7 - differs.count_ones()
}

struct KeyedMoves {
    items: [(i32, Move); entropy_core::MAX_MOVES],
    len: usize,
}

impl KeyedMoves {
    #[inline]
    fn push(&mut self, item: (i32, Move)) {
        self.items[self.len] = item;
        self.len += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_core::notation::text::parse_position;

    /// The slow twin of [`same_colour`]: the line's cells one by one.
    fn same_colour_slow(key: u32, colour: u8) -> u32 {
        (0..7)
            .filter(|i| (key >> (3 * i)) & 7 == colour as u32)
            .count() as u32
    }

    #[test]
    fn same_colour_counts_a_line_cell_by_cell() {
        for key in (0..1u32 << 21).step_by(101) {
            for colour in 1..=7 {
                assert_eq!(
                    same_colour(key, colour),
                    same_colour_slow(key, colour),
                    "{key:o}"
                );
            }
        }
    }

    #[test]
    fn colour_ties_reorder_only_equal_gains() {
        // Row A holds 1 . . 1; the 2 on Cb can slide up to Ab between them (a gain of 3).
        let pos = parse_position("1..1.../......./.2...../......./..1..../......./....... slide")
            .unwrap();
        let gain = |mv: &Move| match *mv {
            Move::Slide { from, to } => pos.score_after_slide(from, to) as i32 - pos.score() as i32,
            _ => 0,
        };
        let plain = ordered_moves(&pos, None, [None; 2], false);
        let ties = ordered_moves(&pos, None, [None; 2], true);
        assert_eq!(plain.len(), ties.len());
        // The same gains in the same order, and the pass in the same place.
        let gains = |moves: &MoveList| moves.iter().map(gain).collect::<Vec<_>>();
        assert_eq!(gains(&plain), gains(&ties));
        let pass = |moves: &MoveList| moves.iter().position(|&m| m == Move::Pass);
        assert_eq!(pass(&plain), pass(&ties));
        // After the pass come the quiet slides, those that bring their chip among more chips
        // of its colour first; the 1 on Ec sliding to row A or column A (two more 1s) leads.
        let board = pos.board();
        let tie = |mv: &Move| match *mv {
            Move::Slide { from, to } => {
                let colour = board.get(from).map_or(0, Colour::number);
                same_colour_in_lines(&pos, to, colour) - same_colour_in_lines(&pos, from, colour)
            }
            _ => unreachable!(),
        };
        let quiet: Vec<i32> = ties[pass(&ties).unwrap() + 1..]
            .iter()
            .filter(|mv| gain(mv) == 0)
            .map(tie)
            .collect();
        assert!(quiet.windows(2).all(|w| w[0] >= w[1]), "{quiet:?}");
        assert!(quiet[0] > quiet[quiet.len() - 1], "{quiet:?}");
        let Move::Slide { from, .. } = ties[pass(&ties).unwrap() + 1] else {
            panic!("a slide after the pass")
        };
        assert_eq!(board.get(from).map(Colour::number), Some(1));
    }
}
