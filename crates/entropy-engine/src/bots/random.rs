//! Uniformly random play.

use entropy_core::{Move, Position};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::playout::random_move;
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

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, position: &Position, _budget: Budget) -> Move {
        random_move(position, &mut self.rng)
    }
}
