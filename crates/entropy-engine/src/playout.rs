//! Random play: a uniformly random legal move ([`random_move`]), and playouts with both sides
//! uniformly random to the end of the game.
//!
//! [`random_playout`] plays on a bare [`Board`] (no hash, no running score, no phase
//! bookkeeping) and scores once at the end; [`random_playout_slow`] is its twin through
//! [`Position::play_unchecked`] and [`random_move`], and the tests check that both reach the same
//! final board from the same random numbers.

use entropy_core::{Board, Colour, Move, Phase, Position};
use rand::Rng;

/// A uniformly random legal move for the player to move (or the chance draw, by bag counts).
pub fn random_move(position: &Position, rng: &mut impl Rng) -> Move {
    match position.phase() {
        Phase::Draw => {
            let chip = rng.random_range(0..position.bag().total());
            Move::Draw(
                position
                    .bag()
                    .nth_chip(chip)
                    .expect("a chip below the total"),
            )
        }
        Phase::Place(colour) => {
            let index = rng.random_range(0..position.board().vacant_count());
            let cell = position
                .nth_vacant(index)
                .expect("an empty cell below the count");
            Move::Place { colour, cell }
        }
        Phase::Slide => position.order_move(rng.random_range(0..position.order_move_count())),
        Phase::Over => Move::Pass,
    }
}

/// Plays random moves for chance, Chaos and Order until the board is full; returns Order's score.
/// Each draw is uniform over the chips in the bag, each placement over the empty cells, and each
/// Order move over the slides and the pass.
pub fn random_playout(position: Position, rng: &mut impl Rng) -> u32 {
    let mut board = *position.board();
    let mut bag = *position.bag();
    // Finish the turn in progress, then play whole turns in straight-line code.
    match position.phase() {
        Phase::Over => return board.score(),
        Phase::Draw => {}
        Phase::Place(colour) => {
            if random_place(&mut board, colour, rng) {
                return board.score();
            }
            random_slide(&mut board, rng);
        }
        Phase::Slide => random_slide(&mut board, rng),
    }
    loop {
        let chip = bag
            .nth_chip(rng.random_range(0..bag.total()))
            .expect("chip in bag");
        bag.take(chip);
        if random_place(&mut board, chip, rng) {
            return board.score();
        }
        random_slide(&mut board, rng);
    }
}

/// Places the chip on a uniformly random empty cell; says whether the board is now full.
#[inline(always)]
fn random_place(board: &mut Board, colour: Colour, rng: &mut impl Rng) -> bool {
    let index = rng.random_range(0..board.vacant_count());
    board.place_unchecked(board.nth_vacant(index).expect("empty cell"), colour);
    board.is_full()
}

/// Plays a uniformly random slide, or passes with the same chance as each slide.
#[inline(always)]
fn random_slide(board: &mut Board, rng: &mut impl Rng) {
    let counts = board.slide_counts();
    let index = rng.random_range(0..counts.total() + 1);
    if let Some((from, to)) = board.nth_slide_counted(counts, index) {
        board.slide_unchecked(from, to);
    }
}

/// The slow twin of [`random_playout`]: the same random choices, made through
/// [`random_move`] and [`Position::play_unchecked`].
pub fn random_playout_slow(mut position: Position, rng: &mut impl Rng) -> Position {
    while !position.is_over() {
        let mv: Move = random_move(&position, rng);
        position.play_unchecked(mv);
    }
    position
}

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_core::Size;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn fast_and_slow_playouts_agree() {
        for size in [Size::SEVEN, Size::FIVE] {
            for seed in 0..200 {
                let fast = random_playout(
                    Position::new(size),
                    &mut Xoshiro256PlusPlus::seed_from_u64(seed),
                );
                let slow = random_playout_slow(
                    Position::new(size),
                    &mut Xoshiro256PlusPlus::seed_from_u64(seed),
                );
                assert_eq!(fast, slow.score(), "seed {seed}");
                assert_eq!(fast, slow.board().score_naive(), "seed {seed}");
            }
        }
    }

    #[test]
    fn playouts_are_deterministic_for_a_seed() {
        let play = |seed| {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            (0..10)
                .map(|_| random_playout(Position::new(Size::SEVEN), &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(play(5), play(5));
        assert_ne!(play(5), play(6));
    }
}
