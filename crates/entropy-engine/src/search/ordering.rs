//! Move ordering: the transposition table's move, then killer moves, then a cheap static order
//! (Order: the largest immediate gain first; Chaos: the smallest immediate gain for Order first).

use entropy_core::{Move, MoveList, Phase, Position};

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
pub fn ordered_moves(
    position: &Position,
    first: Option<Move>,
    killers: [Option<Move>; 2],
) -> MoveList {
    // Keys: higher is searched earlier. On the stack: every interior node orders its moves.
    let mut keyed = KeyedMoves {
        items: [(0, Move::Pass); entropy_core::MAX_MOVES],
        len: 0,
    };
    match position.phase() {
        Phase::Slide => {
            let now = position.score() as i32;
            position.for_each_slide(|from, to| {
                let gain = position.score_after_slide(from, to) as i32 - now;
                keyed.push((gain * 4, Move::Slide { from, to }));
            });
            // A pass keeps everything; try it right after the moves that gain.
            keyed.push((1, Move::Pass));
        }
        Phase::Place(colour) => {
            let now = position.score() as i32;
            for cell in position.board().vacant_cells() {
                let gain = position.score_after_place(cell, colour) as i32 - now;
                keyed.push((-gain * 4, Move::Place { colour, cell }));
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
