//! Plain expectimax: the slow, obviously correct twin of the *-minimax search.

use entropy_core::{Phase, Position};

use crate::eval::Evaluator;

/// The expectimax value of a position searched `depth` moves deep (chance draws count as moves):
/// Order maximises, Chaos minimises, a draw averages its colours weighted by the chips left. At
/// depth 0 the evaluation is used; a finished game is worth its score.
pub fn expectimax(position: &Position, depth: u32, eval: &impl Evaluator) -> f64 {
    if position.is_over() {
        return position.score() as f64;
    }
    if depth == 0 {
        return eval.evaluate(position);
    }
    let moves = position.legal_moves();
    let children = moves.iter().map(|&mv| {
        let mut child = *position;
        child.play_unchecked(mv);
        (mv, expectimax(&child, depth - 1, eval))
    });
    match position.phase() {
        Phase::Draw => {
            let total = position.bag().total() as f64;
            children
                .map(|(mv, value)| match mv {
                    entropy_core::Move::Draw(colour) => {
                        position.bag().count(colour) as f64 / total * value
                    }
                    _ => unreachable!("only draws at a chance node"),
                })
                .sum()
        }
        Phase::Place(_) => children.map(|(_, v)| v).fold(f64::INFINITY, f64::min),
        Phase::Slide => children.map(|(_, v)| v).fold(f64::NEG_INFINITY, f64::max),
        Phase::Over => unreachable!("handled above"),
    }
}

/// The number of positions [`expectimax`] visits, for comparing node counts with the search.
pub fn expectimax_nodes(position: &Position, depth: u32) -> u64 {
    if position.is_over() || depth == 0 {
        return 1;
    }
    1 + position
        .legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = *position;
            child.play_unchecked(mv);
            expectimax_nodes(&child, depth - 1)
        })
        .sum::<u64>()
}
