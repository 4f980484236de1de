//! Uniformly random play, and Order that never moves (the floor every Order bot must beat).

use entropy_core::{Move, Phase, Position};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::playout::random_move;
use crate::{Bot, Budget};

/// Plays a uniformly random legal move: any empty cell as Chaos, any slide or the pass as Order
/// (`random`); or, as `pass`, always passes as Order and places at random as Chaos.
pub struct RandomBot {
    rng: Xoshiro256PlusPlus,
    /// Order always passes (the bot `pass`).
    passes: bool,
}

impl RandomBot {
    /// A random bot with this seed.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            passes: false,
        }
    }

    /// The bot `pass`: Order always passes; its seed is for its random placements as Chaos.
    pub fn passing(seed: u64) -> RandomBot {
        RandomBot {
            passes: true,
            ..RandomBot::new(seed)
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &str {
        if self.passes {
            "pass"
        } else {
            "random"
        }
    }

    fn choose(&mut self, position: &Position, _budget: Budget) -> Move {
        if self.passes && position.phase() == Phase::Slide {
            return Move::Pass;
        }
        random_move(position, &mut self.rng)
    }
}
