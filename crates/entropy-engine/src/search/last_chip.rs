//! The last chip valued at once. With one empty cell left the game's end is a few moves away
//! and has almost no choice in it: Order slides one of the hole's neighbours into it (the only
//! slides there are) or passes, then the last chip is drawn and placed in the hole. So such a
//! position's exact value is a handful of score lookups ([`Position::score_after_place`]),
//! where searching the moves visits some twenty positions per slide, each probed and stored in
//! the table. The search values these positions this way at any depth (an exact value is
//! better than an estimate), which makes its last moves several times cheaper; plain
//! expectimax, its slow twin, searches them to the end.

use entropy_core::{Cell, Move, Phase, Position};

/// The one empty cell of a position that has exactly one.
#[inline]
fn hole(position: &Position) -> Option<Cell> {
    let board = position.board();
    if board.vacant_count() != 1 {
        return None;
    }
    board.vacant_cells().next()
}

/// Order's expected final score where the last chip is about to be drawn into the empty cell
/// `hole`: the scores with each colour in it, weighted by its chips in the bag.
#[inline]
fn drawn_into(position: &Position, hole: Cell) -> f64 {
    let bag = position.bag();
    let total = f64::from(bag.total());
    bag.colours()
        .map(|(colour, count)| {
            f64::from(count) * f64::from(position.score_after_place(hole, colour))
        })
        .sum::<f64>()
        / total
}

/// The exact value of a position with one empty cell and a player or a chance to move, or
/// `None` for any other position. `order_free`: Order may be valued as playing its best slide
/// (no opponent model restricts it); without it a position where Order is to slide is `None`.
#[inline]
pub fn last_chip_value(position: &Position, order_free: bool) -> Option<f64> {
    let hole = hole(position)?;
    match position.phase() {
        Phase::Draw => Some(drawn_into(position, hole)),
        Phase::Place(colour) => Some(f64::from(position.score_after_place(hole, colour))),
        Phase::Slide if order_free => Some(best_last_slide(position, hole)),
        Phase::Slide | Phase::Over => None,
    }
}

/// Order's best over a pass and every slide, where one cell (`hole`) is empty and the last
/// chip will be drawn into whichever cell is empty after the slide.
fn best_last_slide(position: &Position, hole: Cell) -> f64 {
    let mut best = drawn_into(position, hole);
    position.for_each_slide(|from, to| {
        let mut after = *position;
        after.play_unchecked(Move::Slide { from, to });
        // The chip on `from` filled the hole: `from` is the empty cell now.
        best = best.max(drawn_into(&after, from));
    });
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::LinearEval;
    use crate::search::moves_to_end;
    use crate::search::reference::expectimax;
    use entropy_core::Size;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Random play to one empty cell, stopping in each phase in turn.
    fn last_chip_positions(count: usize, seed: u64) -> Vec<Position> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut found = Vec::new();
        while found.len() < count {
            let size = if rng.random_bool(0.5) {
                Size::FIVE
            } else {
                Size::SEVEN
            };
            let mut position = Position::new(size);
            while !position.is_over() {
                if position.board().vacant_count() == 1 && rng.random_bool(0.5) {
                    found.push(position);
                    break;
                }
                let moves = position.legal_moves();
                position.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
        }
        found
    }

    #[test]
    fn the_last_chip_is_valued_as_expectimax_values_it_to_the_end() {
        let eval = LinearEval::trained();
        for position in last_chip_positions(300, 3) {
            let slow = expectimax(&position, moves_to_end(&position), &eval);
            let fast = last_chip_value(&position, true).expect("one empty cell");
            assert!(
                (slow - fast).abs() < 1e-9,
                "{position:?}: {fast} for {slow}"
            );
        }
    }

    #[test]
    fn only_positions_with_one_empty_cell_are_valued() {
        let mut position = Position::new(Size::FIVE);
        position.play_unchecked(Move::Draw(entropy_core::Colour::ALL[0]));
        assert_eq!(last_chip_value(&position, true), None);
        let slide = last_chip_positions(50, 4)
            .into_iter()
            .find(|p| p.phase() == Phase::Slide)
            .expect("a slide among 50 positions");
        assert_eq!(last_chip_value(&slide, false), None);
    }
}
