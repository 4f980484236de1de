//! The read observation ([`write_read`]): the evals, then what the player to move reads of its
//! opponent.

use entropy_core::{Move, Phase, Position};

use super::{action_of, observation_size, write_evals, ObservationKind, EXACT_EMPTY};
use crate::eval::{BoardMemo, Evaluator, LinearEval, ScoreEval};
use crate::search::model::greedy_order_moves;
use crate::search::moves_to_end;
use crate::search::reference::expectimax;

/// Writes the read observation: the evals ([`write_evals`]), then 1 if the opponent reads as
/// greedy (`greedy`), else 0, then one value per cell: while the flag is 1 and Chaos places,
/// how much placing the drawn chip on the cell and greedy Order's reply to it (the slide that
/// gains most now, or the pass; of tied replies the one best for Order, as the searcher's
/// greedy model assumes) change the evals' valuation, in tens of points; 0 elsewhere. Against a
/// greedy Order this is Chaos's one-move lookahead made exact about the reply, the question the
/// searcher asks once it reads Order as greedy (`search::model`).
pub fn write_read(position: &Position, greedy: bool, out: &mut [f32]) {
    let size = position.size();
    let evals = observation_size(size, ObservationKind::Evals);
    write_evals(position, &mut out[..evals]);
    let (flag, replies) = out[evals..].split_at_mut(1);
    flag[0] = f32::from(u8::from(greedy));
    replies.fill(0.0);
    let Phase::Place(colour) = position.phase() else {
        return;
    };
    if !greedy {
        return;
    }
    let eval = LinearEval::model_inputs_ref();
    let mut memo = BoardMemo::default();
    let now = eval.evaluate_with(position, &mut memo);
    for cell in position.board().vacant_cells() {
        let placed = Move::Place { colour, cell };
        let mut child = *position;
        child.play_unchecked(placed);
        let value = value_after_greedy_reply(&child, eval, &mut memo);
        let action = action_of(size, placed).expect("a placement has an action");
        replies[action] = ((value - now) / 10.0) as f32;
    }
}

/// Order's expected final score once greedy Order has replied to `child` (Order to move): the
/// best for Order of greedy's tied replies, each valued as the evals value afterstates; the
/// score itself where `child` ends the game.
fn value_after_greedy_reply(child: &Position, eval: &LinearEval, memo: &mut BoardMemo) -> f64 {
    if child.is_over() {
        return f64::from(child.score());
    }
    greedy_order_moves(child)
        .iter()
        .map(|&reply| {
            let mut after = *child;
            after.play_unchecked(reply);
            if after.board().vacant_count() <= EXACT_EMPTY {
                expectimax(&after, moves_to_end(&after), &ScoreEval)
            } else {
                eval.evaluate_with(&after, memo)
            }
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

#[cfg(test)]
mod tests {
    use entropy_core::Size;
    use rand::SeedableRng;

    use super::super::write_observation_reading;
    use super::*;
    use crate::eval::Weights;
    use crate::playout::random_move;

    /// The read observation, the slow way: its head the evals, then the flag, then (read as
    /// greedy, Chaos to place) every placement followed by each of Order's moves that gains
    /// most (scored by playing it; the pass where none gains), the best of them for Order
    /// valued alone (exactly once at most two cells are empty), less the position's value,
    /// over ten; zeros otherwise.
    #[test]
    fn read_is_each_placements_value_after_greedys_reply() {
        let size = Size::SEVEN;
        let (evals, c) = (observation_size(size, ObservationKind::Evals), size.cells());
        assert_eq!(observation_size(size, ObservationKind::Read), 3750);
        let eval = LinearEval::new(Weights::model_inputs());
        let value = |p: &Position| {
            if p.board().vacant_count() <= 2 {
                expectimax(p, 99, &ScoreEval)
            } else {
                eval.evaluate(p)
            }
        };
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(8);
        let mut checked = 0;
        let mut position = Position::new(size);
        while !position.is_over() {
            for greedy in [false, true] {
                let mut out = vec![0f32; observation_size(size, ObservationKind::Read)];
                write_observation_reading(&position, ObservationKind::Read, greedy, &mut out);
                let mut plain = vec![0f32; evals];
                write_evals(&position, &mut plain);
                assert_eq!(out[..evals], plain[..]);
                assert_eq!(out[evals], if greedy { 1.0 } else { 0.0 });
                let mut want = vec![0f32; c];
                if let (true, Phase::Place(_)) = (greedy, position.phase()) {
                    let now = eval.evaluate(&position);
                    for &placed in position.legal_moves().iter() {
                        let child = position.after(placed).unwrap();
                        if child.is_over() {
                            let best = f64::from(child.score());
                            want[action_of(size, placed).unwrap()] = ((best - now) / 10.0) as f32;
                            continue;
                        }
                        let replies: Vec<Position> = child
                            .legal_moves()
                            .iter()
                            .map(|&reply| child.after(reply).unwrap())
                            .collect();
                        let most = replies.iter().map(Position::score).max().unwrap();
                        let best = replies
                            .iter()
                            .filter(|after| most > child.score() && after.score() == most)
                            .map(value)
                            .fold(f64::NEG_INFINITY, f64::max);
                        // No slide gains: greedy passes.
                        let best = if most > child.score() {
                            best
                        } else {
                            value(&child.after(Move::Pass).unwrap())
                        };
                        want[action_of(size, placed).unwrap()] = ((best - now) / 10.0) as f32;
                        checked += 1;
                    }
                }
                assert_eq!(out[evals + 1..], want[..], "{position:?} greedy {greedy}");
            }
            let mv = random_move(&position, &mut rng);
            position.play_unchecked(mv);
        }
        assert!(checked > 500, "{checked} placements");
    }
}
