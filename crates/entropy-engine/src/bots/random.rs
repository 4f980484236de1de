//! Uniformly random play.

use entropy_core::{Move, Phase, Position};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::{Bot, Budget};

/// Plays a uniformly random legal move: any empty cell as Chaos, any slide or the pass as Order.
pub struct RandomBot {
    rng: Xoshiro256PlusPlus,
}

impl RandomBot {
    /// A random bot with this seed.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

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

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, position: &Position, _budget: Budget) -> Move {
        random_move(position, &mut self.rng)
    }
}
