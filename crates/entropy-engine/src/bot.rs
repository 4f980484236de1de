//! The interface every player implements, for both roles.

use std::time::Duration;

use entropy_core::{Move, Position, Role, Size};

/// The time a bot may spend on the current decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Time left on the bot's clock for the rest of the game.
    pub game_left: Duration,
    /// A hard limit for this one move, if the protocol has one (the bot spec's 2 seconds).
    pub per_move: Option<Duration>,
}

impl Budget {
    /// A budget that never constrains a baseline bot: an hour for the game, no move limit.
    pub const UNLIMITED: Budget = Budget {
        game_left: Duration::from_secs(3600),
        per_move: None,
    };
}

/// A player of either role. The caller asks for a move only when the player is to move:
/// [`entropy_core::Phase::Place`] for Chaos, [`entropy_core::Phase::Slide`] for Order.
///
/// Bots are seeded at construction, so a bot given the same seed and the same positions makes
/// the same moves.
pub trait Bot: Send {
    /// The bot's name as written in records (`greedy`, `random`, ...).
    fn name(&self) -> &str;

    /// Called before a game starts with the board size and the role the bot will play.
    fn new_game(&mut self, _size: Size, _role: Role) {}

    /// Chooses a legal move for the player to move in `position`.
    fn choose(&mut self, position: &Position, budget: Budget) -> Move;

    /// Order's expected final score after the last move chosen, if the bot estimates one.
    fn expected_score(&self) -> Option<f64> {
        None
    }
}
