//! Order that never moves: the floor every Order bot must beat.

use entropy_core::{Move, Phase, Position};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::playout::random_move;
use crate::{Bot, Budget};

/// Always passes as Order; places at random as Chaos.
pub struct PassBot {
    rng: Xoshiro256PlusPlus,
}

impl PassBot {
    /// A pass bot with this seed (used for its random placements as Chaos).
    pub fn new(seed: u64) -> PassBot {
        PassBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Bot for PassBot {
    fn name(&self) -> &str {
        "pass"
    }

    fn choose(&mut self, position: &Position, _budget: Budget) -> Move {
        match position.phase() {
            Phase::Slide => Move::Pass,
            _ => random_move(position, &mut self.rng),
        }
    }
}
