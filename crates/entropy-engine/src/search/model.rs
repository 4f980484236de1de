//! Opponent models: below the root, the search may assume that a player moves as the greedy
//! bot does instead of as well as it can. Against a greedy opponent this is exact and makes the
//! tree far narrower; [`crate::bots::SearchBot`] switches a model on only after watching the
//! opponent play that way, and off again as soon as it stops.

use entropy_core::{Move, MoveList, Phase, Position};

/// Which players the search assumes greedy or weak (below the root).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct OpponentModel {
    /// Order plays the slide with the largest immediate gain, or passes if none gains.
    pub greedy_order: bool,
    /// Chaos places where Order's best immediate reply scores least.
    pub greedy_chaos: bool,
    /// Optimistic about Order: it plays its best move or, with probability `weakness`, any
    /// move alike (the node is worth the mix of its moves' maximum and their average).
    pub weak_order: bool,
    /// Optimistic about Chaos: its best placement or, with probability `weakness`, any alike.
    pub weak_chaos: bool,
    /// How weak a weak player is, in percent: 100 values its nodes at their plain average.
    pub weakness: u8,
}

impl OpponentModel {
    /// Whether the player to move in this phase is assumed weak.
    pub fn weak_at(&self, phase: Phase) -> bool {
        match phase {
            Phase::Slide => self.weak_order,
            Phase::Place(_) => self.weak_chaos,
            _ => false,
        }
    }
}

/// The moves greedy Order may play here (it breaks ties at random).
pub fn greedy_order_moves(position: &Position) -> MoveList {
    // One scan: the slides with the largest gain so far, started again at each larger one.
    // Only slides onto a cell next to a chip can gain.
    let mut best = 0;
    let mut moves = MoveList::new();
    crate::eval::for_each_touching_slide(position, |from, to, gain| {
        if gain > best {
            best = gain;
            moves = MoveList::new();
        }
        if gain == best && gain > 0 {
            moves.push(Move::Slide { from, to });
        }
    });
    if moves.is_empty() {
        moves.push(Move::Pass);
    }
    moves
}

/// The placements greedy Chaos may play here (it breaks ties at random).
pub fn greedy_chaos_moves(position: &Position) -> MoveList {
    let Phase::Place(colour) = position.phase() else {
        return MoveList::new();
    };
    let mut replies = [(u32::MAX, Move::Pass); 49];
    let mut count = 0;
    let mut best = u32::MAX;
    for (cell, reply) in crate::eval::lowest_replies_to_placements(position, colour) {
        best = best.min(reply);
        replies[count] = (reply, Move::Place { colour, cell });
        count += 1;
    }
    let mut moves = MoveList::new();
    for &(reply, mv) in &replies[..count] {
        if reply == best {
            moves.push(mv);
        }
    }
    moves
}

/// The moves the model allows at a decision node, or `None` to search them all.
pub fn modelled_moves(model: OpponentModel, position: &Position) -> Option<MoveList> {
    match position.phase() {
        Phase::Slide if model.greedy_order => Some(greedy_order_moves(position)),
        Phase::Place(_) if model.greedy_chaos => Some(greedy_chaos_moves(position)),
        _ => None,
    }
}
