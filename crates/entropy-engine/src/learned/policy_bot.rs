//! The agent `policy`: one network for both roles, one forward pass of it a decision, no
//! search. The network ([`super::policy_net`]) is the PPO policy (`ppo_policy.EntropyPolicy`)
//! taught by the searcher (`entropy teacher-data`, `python -m hyle_entropy.distill_policy`) and
//! run in plain Rust, so the agent needs no network runtime.

use std::sync::Arc;

use entropy_core::{Move, Phase, Position, Role, Size};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::actions::move_of;
use super::policy_net::{PolicyNet, ILLEGAL};
use crate::eval::{best_afterstate, Evaluator, LinearEval};
use crate::playout::random_move;
use crate::search::GreedyWatch;
use crate::{Bot, Budget};

/// The legal move the network gives the highest logit (the first of equals), in a 7x7 position
/// where a player is to move; `None` elsewhere.
pub fn policy_move(net: &PolicyNet, position: &Position) -> Option<Move> {
    policy_move_reading(net, position, false)
}

/// [`policy_move`] where the opponent reads as greedy (`greedy`) or not (a network over the
/// read observation plays differently against greedy).
pub fn policy_move_reading(net: &PolicyNet, position: &Position, greedy: bool) -> Option<Move> {
    if !matches!(position.phase(), Phase::Place(_) | Phase::Slide) {
        return None;
    }
    let output = net.evaluate_reading(position, greedy).ok()?;
    let mut best: Option<(usize, f32)> = None;
    for (action, &logit) in output.logits.iter().enumerate() {
        if logit > ILLEGAL && best.is_none_or(|(_, b)| logit > b) {
            best = Some((action, logit));
        }
    }
    best.and_then(|(action, _)| move_of(position, action))
}

/// Plays the network's most likely legal move. Boards of another size are played one move
/// ahead over the linear evaluation. It reports no expected score: the value head is trained
/// as the PPO critic's (the score still to come, for the side to move) and nothing calibrates
/// it as a forecast. A network over the read observation is told whether the opponent plays
/// as the greedy bot does, by a watcher of its moves ([`GreedyWatch`]): one network, which
/// learned what to do with the reading.
pub struct PolicyBot {
    name: String,
    net: Arc<PolicyNet>,
    rng: Xoshiro256PlusPlus,
    watch: Option<GreedyWatch>,
}

impl PolicyBot {
    /// The agent over this network.
    pub fn new(name: &str, net: Arc<PolicyNet>, seed: u64) -> PolicyBot {
        PolicyBot {
            name: name.to_owned(),
            watch: net.reads_opponent().then(GreedyWatch::new),
            net,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }

    /// Whether it read its opponent as greedy at its last decision.
    pub fn reads_opponent_greedy(&self) -> bool {
        self.watch.as_ref().is_some_and(GreedyWatch::is_greedy)
    }

    /// The network it plays.
    pub fn net(&self) -> &PolicyNet {
        &self.net
    }
}

impl Bot for PolicyBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _size: Size, _role: Role) {
        if let Some(watch) = &mut self.watch {
            watch.reset();
        }
    }

    fn choose(&mut self, position: &Position, _budget: Budget) -> Move {
        if let Some(watch) = &mut self.watch {
            watch.observe(position);
        }
        let greedy = self.reads_opponent_greedy();
        let chosen = if position.size() == Size::SEVEN {
            policy_move_reading(&self.net, position, greedy)
        } else {
            best_afterstate(position, |p| LinearEval::trained_ref().evaluate(p)).map(|(mv, _)| mv)
        };
        // Only a chance node, which a bot is never asked about, has no choice.
        let mv = chosen.unwrap_or_else(|| random_move(position, &mut self.rng));
        if let Some(watch) = &mut self.watch {
            watch.played(position, mv);
        }
        mv
    }

    fn expected_score(&self) -> Option<f64> {
        None
    }
}
