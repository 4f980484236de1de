//! Move ordering: the transposition table's move, then killer moves, then a cheap static order
//! (Order: the largest immediate gain first; Chaos: the smallest immediate gain for Order first),
//! moves of equal gain by their history (how often they caused cutoffs) where it is kept.

use entropy_core::{Move, MoveList, Phase, Position, GRID_CELLS};

/// Ordering keys per point of immediate gain: room below for a history rank.
const GAIN_STEP: i32 = 1 << 20;

/// The table's move's key, above everything.
const FIRST: i32 = i32::MAX;

/// The first killer's key (the second's is one less), above every gain.
const KILLER: i32 = i32::MAX - 16;

/// The history heuristic: for every slide (origin, destination) and placement (cell), how
/// often it caused a cutoff, weighted by the square of the depth left, halved at every new
/// search so that recent searches count most. Ties of the static order (most of Order's ~150
/// slides gain nothing now) are broken by it.
pub struct History {
    slides: Vec<u32>,
    places: Vec<u32>,
}

impl Default for History {
    fn default() -> Self {
        History {
            slides: vec![0; GRID_CELLS * GRID_CELLS],
            places: vec![0; GRID_CELLS],
        }
    }
}

impl History {
    /// Remembers a move that caused a cutoff with `depth` moves left below it.
    pub fn record(&mut self, mv: Move, depth: u32) {
        let bonus = depth.saturating_mul(depth);
        if let Some(slot) = self.slot(mv) {
            *slot = slot.saturating_add(bonus).min(GAIN_STEP as u32 - 2);
        }
    }

    /// The move's history score, below [`GAIN_STEP`] - 1.
    pub fn score(&self, mv: Move) -> i32 {
        match mv {
            Move::Slide { from, to } => self.slides[from.index() * GRID_CELLS + to.index()] as i32,
            Move::Place { cell, .. } => self.places[cell.index()] as i32,
            _ => 0,
        }
    }

    /// Halves every score (a new search begins).
    pub fn age(&mut self) {
        self.slides
            .iter_mut()
            .chain(&mut self.places)
            .for_each(|h| *h /= 2);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slides
            .iter_mut()
            .chain(&mut self.places)
            .for_each(|h| *h = 0);
    }

    fn slot(&mut self, mv: Move) -> Option<&mut u32> {
        match mv {
            Move::Slide { from, to } => {
                Some(&mut self.slides[from.index() * GRID_CELLS + to.index()])
            }
            Move::Place { cell, .. } => Some(&mut self.places[cell.index()]),
            _ => None,
        }
    }
}

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

/// The legal moves of a decision node in the order to search them; equal gains by `history`
/// where given, else in generation order.
pub fn ordered_moves(
    position: &Position,
    first: Option<Move>,
    killers: [Option<Move>; 2],
    history: Option<&History>,
) -> MoveList {
    let history_rank = |mv: Move| history.map_or(0, |h| h.score(mv));
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
                let mv = Move::Slide { from, to };
                keyed.push((gain * GAIN_STEP + history_rank(mv), mv));
            });
            // A pass keeps everything; try it right after the moves that gain.
            keyed.push((GAIN_STEP - 1, Move::Pass));
        }
        Phase::Place(colour) => {
            let now = position.score() as i32;
            for cell in position.board().vacant_cells() {
                let gain = position.score_after_place(cell, colour) as i32 - now;
                let mv = Move::Place { colour, cell };
                keyed.push((-gain * GAIN_STEP + history_rank(mv), mv));
            }
        }
        Phase::Draw | Phase::Over => {}
    }
    let keyed = &mut keyed.items[..keyed.len];
    for (rank, killer) in killers.iter().enumerate() {
        if let Some(entry) = keyed.iter_mut().find(|(_, m)| Some(*m) == *killer) {
            entry.0 = KILLER - rank as i32;
        }
    }
    if let Some(entry) = keyed.iter_mut().find(|(_, m)| Some(*m) == first) {
        entry.0 = FIRST;
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
