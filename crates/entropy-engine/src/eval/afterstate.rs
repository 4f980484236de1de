//! Choosing by afterstates: the move whose resulting position an evaluation values best for the
//! player to move, as the one-move-lookahead agents play and the opponent observer judges.

use entropy_core::{Move, Phase, Position};

/// The move whose afterstate the evaluation values best for the player to move (Order: the
/// highest value, Chaos: the lowest; the first of equals), with that value; `None` when it is
/// not a decision (a draw or the end).
pub fn best_afterstate(
    position: &Position,
    value: impl Fn(&Position) -> f64,
) -> Option<(Move, f64)> {
    let order = decider_is_order(position)?;
    let moves = position.legal_moves();
    let valued = moves.iter().map(|&mv| {
        let mut after = *position;
        after.play_unchecked(mv);
        (mv, value(&after))
    });
    best_valued(order, valued)
}

/// Whether Order decides in `position` (`Some(false)`: Chaos; `None`: not a decision).
pub fn decider_is_order(position: &Position) -> Option<bool> {
    match position.phase() {
        Phase::Slide => Some(true),
        Phase::Place(_) => Some(false),
        _ => None,
    }
}

/// The best of valued moves for Order (the highest) or Chaos (the lowest), the first of equals.
pub fn best_valued(order: bool, valued: impl Iterator<Item = (Move, f64)>) -> Option<(Move, f64)> {
    let mut best: Option<(Move, f64)> = None;
    for (mv, v) in valued {
        let better = match best {
            None => true,
            Some((_, b)) => (order && v > b) || (!order && v < b),
        };
        if better {
            best = Some((mv, v));
        }
    }
    best
}
