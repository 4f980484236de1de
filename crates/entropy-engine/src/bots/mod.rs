//! The built-in bots and a registry to make them by name.

mod expecti;
mod greedy;
mod heuristic;
mod options;
mod random;
pub(crate) mod search;

use std::fmt;

pub use crate::eval::best_afterstate;
pub use crate::learned::{NetBot, PolicyBot};
#[cfg(feature = "onnx")]
pub use crate::learned::{PnetBot, WnetBot};
pub use crate::playout::random_move;
pub use expecti::ExpectiBot;
pub use greedy::{best_order_reply, GreedyBot};
pub use heuristic::{gap_creation, order_evaluation, order_plan, spoiler, ChaosPlan, HeuristicBot};
pub use options::{search_options, SearchOption};
pub use random::RandomBot;
pub use search::{
    tunable, HandWeights, SearchBot, SearchOptions, Tunable, Tuning, DEFAULT_TABLE_MIB, TUNABLES,
};

use crate::eval::{Calibration, LinearEval};
use crate::learned::{self, BotEval, NTupleEval};
use crate::Bot;
use options::SearchSetup;

/// A built-in bot's name and what it does.
#[derive(Copy, Clone, Debug)]
pub struct BotInfo {
    /// The name used on the command line and in records.
    pub name: &'static str,
    /// One line on how it plays each role.
    pub description: &'static str,
}

/// The built-in bots, weakest first, with the extra ones of this build's features after `net`.
macro_rules! bot_list {
    ($($extra:expr),*) => {
        &[
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
    BotInfo {
        name: "gap",
        description:
            "bot spec Plan 4 as Chaos (colour fragmentation, awkward gaps; no lookahead); \
                      Plan 2 as Order",
    },
    BotInfo {
        name: "spoiler",
        description: "bot spec Plan 3 as Chaos (spoil Order's best reply, break patterns); \
                      Plan 2 as Order",
    },
    BotInfo {
        name: "heuristic",
        description: "bot spec Plan 2 as Order (weighted pattern heuristics, one move); \
                      the recommended 60/40 spoiler and gap hybrid as Chaos",
    },
    BotInfo {
        name: "expecti",
        description: "an opponent that is not us, from the course assignment: fixed-depth \
                      expectiminimax with alpha-beta, exact bag odds and a rudimentary \
                      evaluation of its own, sharing only the rules with search; \
                      `expecti:depth=N` decisions ahead (3 by default, at most 6)",
    },
    BotInfo {
        name: "net",
        description: "the learned agent: one move ahead over n-tuple evaluations (entropy \
                      train-net), no search; Order over its own (trained by TD against a \
                      one-move Chaos), over one trained against greedy once Chaos reads as \
                      greedy; `net:model=FILE[,order=FILE,against_greedy=FILE]` for others",
    },
    BotInfo {
        name: "policy",
        description: "one network for both roles, taught by the searcher (entropy \
                      teacher-data, python -m hyle_entropy.distill_policy): one forward pass \
                      a decision, no search; `policy:model=FILE` for other weights \
                      (python -m hyle_entropy.ppo_policy POLICY.pt --weights FILE)",
    },
    $($extra,)*
    BotInfo {
        name: "search-hand",
        description: "*-minimax search with hand-set evaluation weights, under the clock",
    },
    BotInfo {
        name: "search",
        description:
            "*-minimax search with line-pattern tables over the trained evaluation, under the clock \
             (the strongest)",
    },
        ]
    };
}

/// The whole-board network agent (the `onnx` feature).
#[cfg(feature = "onnx")]
const WNET: BotInfo = BotInfo {
    name: "wnet",
    description: "one move ahead over the whole-board network (a perceptron over every cell, \
                  the bag and the linear features, trained on the searcher's values), no search",
};

/// The placement network agent (the `onnx` feature).
#[cfg(feature = "onnx")]
const PNET: BotInfo = BotInfo {
    name: "pnet",
    description: "Chaos by a convolutional policy network (one forward pass a placement; a \
                  second one once Order reads as greedy), Order as net; experimental: \
                  `pnet:model=FILE.onnx[,model=FILE]` for others, `against_greedy=FILE.onnx` for a \
                  policy played while the opponent reads as greedy \
                  (python -m hyle_entropy.placement_net)",
};

/// The PPO agent (the `onnx` feature).
#[cfg(feature = "onnx")]
const PPO: BotInfo = BotInfo {
    name: "ppo",
    description: "the PufferLib plan's CNN policy trained by PPO with PufferLib's trainer \
                  (python -m hyle_entropy.train_ppo), one forward pass a decision, no search; \
                  `ppo:model=FILE.onnx` for another policy",
};

/// Every built-in bot, weakest first.
#[cfg(feature = "onnx")]
pub const BOTS: &[BotInfo] = bot_list!(WNET, PNET, PPO);

/// The bots that need the `onnx` feature (a network runtime). Their names are taken in every
/// build, so that one without the feature says so instead of running a program of that name.
pub const NETWORK_BOTS: [&str; 3] = ["wnet", "pnet", "ppo"];

/// Every built-in bot, weakest first.
#[cfg(not(feature = "onnx"))]
pub const BOTS: &[BotInfo] = bot_list!();

/// The course assignment's expectiminimax, `expecti:depth=N` decisions deep.
fn expecti_bot(name: &str, options: &str) -> Result<Box<dyn Bot>, UnknownBot> {
    let depth = match options.split_once('=') {
        None if options.is_empty() => expecti::DEFAULT_DEPTH,
        Some(("depth", depth)) => match depth.parse() {
            Ok(depth @ 1..=expecti::MAX_DEPTH) => depth,
            _ => {
                return Err(UnknownBot(format!(
                    "{name} (depth {depth:?}: use a whole number from 1 to {})",
                    expecti::MAX_DEPTH
                )))
            }
        },
        _ => {
            return Err(UnknownBot(format!(
                "{name} (bad option {options:?}: use depth=N)"
            )))
        }
    };
    Ok(Box::new(ExpectiBot::new(name, depth)))
}

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

/// Makes a built-in bot by name, seeded for reproducible play. Search bots take options after
/// a colon ([`search_options`]): `search:nodes=20000` searches 20000 positions per move.
pub fn make_bot(name: &str, seed: u64) -> Result<Box<dyn Bot>, UnknownBot> {
    let (base, options) = name.split_once(':').unwrap_or((name, ""));
    if !options.is_empty()
        && !base.starts_with("search")
        && !matches!(base, "net" | "expecti" | "policy")
        && !NETWORK_BOTS.contains(&base)
    {
        return Err(UnknownBot(format!(
            "{name} (only search, expecti, net, policy and the network bots take options)"
        )));
    }
    match base {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        "pass" => Ok(Box::new(RandomBot::passing(seed))),
        "greedy" => Ok(Box::new(GreedyBot::new(seed))),
        "gap" => Ok(Box::new(HeuristicBot::new("gap", ChaosPlan::Gap, seed))),
        "spoiler" => Ok(Box::new(HeuristicBot::new(
            "spoiler",
            ChaosPlan::Spoiler,
            seed,
        ))),
        "heuristic" => Ok(Box::new(HeuristicBot::new(
            "heuristic",
            ChaosPlan::Hybrid,
            seed,
        ))),
        "expecti" => expecti_bot(name, options),
        "net" => learned::net_bot(name, options, seed).map_err(UnknownBot),
        "policy" => learned::policy_bot(name, options, seed).map_err(UnknownBot),
        "wnet" => learned::wnet_bot(name, options, seed).map_err(UnknownBot),
        "pnet" => learned::pnet_bot(name, options, seed).map_err(UnknownBot),
        "ppo" => learned::ppo_bot(name, options, seed).map_err(UnknownBot),
        "search" | "search-hand" => {
            // `search` values its leaves with the line-pattern tables, `search-hand` with the
            // hand weights; the linear evaluation judges the opponent's moves in both.
            let (eval, leaves) = if base == "search" {
                (LinearEval::trained(), Some(NTupleEval::tables()))
            } else {
                let hand = LinearEval::hand().with_calibration(Some(Calibration::hand()));
                (hand, None)
            };
            let setup = SearchSetup {
                options: SearchOptions::default(),
                eval,
                leaves,
            };
            let setup =
                options::apply(options, setup).map_err(|e| UnknownBot(format!("{name} ({e})")))?;
            Ok(Box::new(match setup.leaves {
                Some(net) => {
                    SearchBot::with_eval(name, BotEval::NTuple(net), setup.eval, setup.options)
                }
                None => SearchBot::new(name, setup.eval, setup.options),
            }))
        }
        _ => Err(UnknownBot(name.to_owned())),
    }
}
