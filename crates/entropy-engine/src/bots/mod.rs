//! The built-in bots and a registry to make them by name.

mod greedy;
mod pass;
mod random;

use std::fmt;

pub use greedy::{best_order_reply, GreedyBot};
pub use pass::PassBot;
pub use random::{random_move, RandomBot};

use crate::Bot;

/// A built-in bot's name and what it does.
#[derive(Copy, Clone, Debug)]
pub struct BotInfo {
    /// The name used on the command line and in records.
    pub name: &'static str,
    /// One line on how it plays each role.
    pub description: &'static str,
}

/// Every built-in bot, weakest first.
pub const BOTS: &[BotInfo] = &[
    BotInfo {
        name: "random",
        description: "uniformly random legal moves in both roles (a pass is one of Order's moves)",
    },
    BotInfo {
        name: "pass",
        description: "Order always passes; Chaos places at random",
    },
    BotInfo {
        name: "greedy",
        description: "Order takes the largest immediate gain (passes if none); \
                      Chaos places where Order's best immediate reply scores least",
    },
];

/// A bot name that is not built in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownBot(pub String);

impl fmt::Display for UnknownBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = BOTS.iter().map(|b| b.name).collect();
        write!(
            f,
            "unknown bot {:?}; built-in bots are: {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownBot {}

/// Makes a built-in bot by name, seeded for reproducible play.
pub fn make_bot(name: &str, seed: u64) -> Result<Box<dyn Bot>, UnknownBot> {
    match name {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        "pass" => Ok(Box::new(PassBot::new(seed))),
        "greedy" => Ok(Box::new(GreedyBot::new(seed))),
        _ => Err(UnknownBot(name.to_owned())),
    }
}
