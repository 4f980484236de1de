//! The last cells solved exactly, as a leaf value: Order's expected final score under best
//! play from a position with few empty cells, with no evaluation.
//!
//! Near the end the game is narrow: with `e` cells empty the bag holds exactly `e` chips (or
//! `e - 1` and the one in Chaos's hand), so a draw has at most `e` colours, Chaos at most `e`
//! cells, and Order's slides must end on an empty cell. From two empty cells a position is
//! solved in a few hundred score lookups, about what evaluating it costs, where the
//! evaluation's guesses are at their worst (an error of 2.2 to 2.7 points, standard
//! deviation, against the search's values on self-play positions with one or two empty
//! cells, where earlier turns' is 1.5). The searcher can value positions this close to the
//! end by [`exact_value`] instead of searching or evaluating them
//! ([`super::Searcher::set_endgame`]).
//!
//! [`super::reference::expectimax`] over the score is the slow twin the tests compare with.

use entropy_core::{Colour, Move, Phase, Position};

/// The most moves from the end (draws included, [`super::moves_to_end`]) at which the searcher
/// may value a position by [`exact_value`]: 8 takes a chance node with three empty cells,
/// tens of microseconds; the cost grows about tenfold a cell.
pub const MAX_ENDGAME: u32 = 8;

/// Order's expected final score from `position` with both sides playing their best to the end
/// and the draws weighted by the chips in the bag. Any phase; meant for a few empty cells
/// (its cost multiplies with each).
pub fn exact_value(position: &Position) -> f64 {
    match position.phase() {
        Phase::Over => f64::from(position.score()),
        Phase::Draw => drawn(position),
        Phase::Place(colour) => placed(position, colour),
        Phase::Slide => slid(position),
    }
}

/// A chance node: each colour's value weighted by its chips in the bag. With one empty cell
/// the chip lands there: the score after it, without playing it.
fn drawn(position: &Position) -> f64 {
    let bag = position.bag();
    let total = f64::from(bag.total());
    let last = last_cell(position);
    let mut sum = 0.0;
    for (colour, count) in bag.colours() {
        let value = match last {
            Some(cell) => f64::from(position.score_after_place(cell, colour)),
            None => {
                let mut child = *position;
                child.play_unchecked(Move::Draw(colour));
                placed(&child, colour)
            }
        };
        sum += f64::from(count) * value;
    }
    sum / total
}

/// Chaos places `colour` where Order's value is least.
fn placed(position: &Position, colour: Colour) -> f64 {
    if let Some(cell) = last_cell(position) {
        return f64::from(position.score_after_place(cell, colour));
    }
    let mut best = f64::INFINITY;
    for cell in position.board().vacant_cells() {
        let mut child = *position;
        child.play_unchecked(Move::Place { colour, cell });
        best = best.min(slid(&child));
    }
    best
}

/// Order slides (or passes) to the draw worth most to it.
fn slid(position: &Position) -> f64 {
    let mut pass = *position;
    pass.play_unchecked(Move::Pass);
    let mut best = drawn(&pass);
    position.for_each_slide(|from, to| {
        let mut child = *position;
        child.play_unchecked(Move::Slide { from, to });
        best = best.max(drawn(&child));
    });
    best
}

/// The empty cell when only one is left.
fn last_cell(position: &Position) -> Option<entropy_core::Cell> {
    let board = position.board();
    if board.vacant_count() == 1 {
        board.vacant_cells().next()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use entropy_core::Size;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::eval::ScoreEval;
    use crate::playout::random_move;
    use crate::search::moves_to_end;
    use crate::search::reference::expectimax;

    /// On random positions of every phase with one to three empty cells (7x7 and 5x5), the
    /// exact value is plain expectimax's to the end of the game.
    #[test]
    fn the_exact_value_is_expectimax_to_the_end() {
        let mut checked = [0; 4];
        for size in [Size::SEVEN, Size::FIVE] {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
            for _ in 0..12 {
                let mut position = Position::new(size);
                while !position.is_over() {
                    let empty = position.board().vacant_count();
                    if empty <= 3 {
                        let want = expectimax(&position, moves_to_end(&position), &ScoreEval);
                        let got = exact_value(&position);
                        assert!((got - want).abs() < 1e-9, "{position:?}: {got} vs {want}");
                        checked[empty] += 1;
                    }
                    let mv = random_move(&position, &mut rng);
                    position.play_unchecked(mv);
                }
            }
        }
        assert!(checked[1..].iter().all(|&n| n >= 40), "{checked:?}");
    }
}
