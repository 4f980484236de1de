//! The learned models and the agents that play them: everything trained by `entropy train-net`
//! or in Python, kept apart from the rules, the search and the linear evaluation, which read
//! without them. A new learned model goes here: its file, its agent, its line in
//! [`crate::bots::BOTS`] and its case in `make_bot`.
//!
//! - [`ntuple`]: the n-tuple evaluation (line patterns over the linear one): `net7*.bin`, and
//!   `tables7.bin`, the default search's leaves (`entropy train-tables`).
//! - [`actions`] and [`observation`]: the reinforcement-learning environment's action numbers
//!   and observations (the PufferLib plan's planes), here so that the `ppo` bot reads what its
//!   policy was trained on (`entropy-env` re-exports them).
//! - [`planes`]: the networks' inputs (the whole board as numbers, the policy planes), which the
//!   Python trainers read through the bindings, so both sides see the same numbers.
//! - [`policy_net`]: the PPO policy network (`ppo_policy.EntropyPolicy`) in plain Rust, from
//!   weights exported by `python -m hyle_entropy.ppo_policy --weights`, no tract.
//! - `networks` (feature `onnx`): the ONNX networks run by tract, `wnet7.onnx`, `pnet7-*.onnx`.
//! - `ppo` (feature `onnx`): the PPO policy (`ppo7.onnx`, trained by
//!   `python -m hyle_entropy.train_ppo`) and its agent `PpoBot`.
//! - [`NetBot`], and with `onnx` `WnetBot` and `PnetBot` (`network_bots`): the agents, one move ahead over a
//!   model (or one forward pass of a policy), no search.
//! - [`BotEval`]: a searching bot's leaf evaluation, linear or n-tuple.
//!
//! What the shipped models depend on: every one of them reads the linear evaluation's features
//! ([`crate::eval::FEATURES`], in order) and `net7*.bin` and `tables7.bin` the linear weights
//! they were fitted over as their base (a copy kept in the file); `wnet7.onnx` and the policies
//! read [`planes`]. Changing the features, their order or the planes invalidates the shipped
//! models: retrain them (`scripts/train_agents.sh`, `entropy train-tables`), and the tests that
//! compare their moves and values with golden files (`weights/wnet7-golden.txt`, the CodeCup
//! transcripts) say so.

pub mod actions;
mod net;
#[cfg(feature = "onnx")]
mod network_bots;
#[cfg(feature = "onnx")]
pub mod networks;
pub mod ntuple;
pub mod observation;
pub mod planes;
mod policy_bot;
pub mod policy_net;
#[cfg(feature = "onnx")]
pub mod ppo;

use entropy_core::{Move, Position};

pub use net::NetBot;
#[cfg(feature = "onnx")]
pub use network_bots::{PnetBot, WnetBot};
pub use ntuple::{NTupleEval, NTupleModel};
pub use policy_bot::{policy_move, policy_move_reading, PolicyBot};

use crate::eval::{BoardMemo, Calibration, Evaluator, LinearEval};
use crate::Bot;

/// The evaluations a searching bot can use: chosen when the bot is made, one branch per leaf.
#[derive(Clone, Debug)]
pub enum BotEval {
    /// The linear evaluation.
    Linear(LinearEval),
    /// The learned n-tuple evaluation.
    NTuple(NTupleEval),
}

impl Evaluator for BotEval {
    #[inline]
    fn evaluate(&self, position: &Position) -> f64 {
        match self {
            BotEval::Linear(eval) => eval.evaluate(position),
            BotEval::NTuple(eval) if eval.model().side() == position.size().side() => {
                eval.evaluate(position)
            }
            // A model of another board size: its base's linear evaluation is not for this
            // board either, so the plain trained linear one serves.
            BotEval::NTuple(_) => LinearEval::trained_ref().evaluate(position),
        }
    }

    #[inline]
    fn evaluate_with(&self, position: &Position, memo: &mut BoardMemo) -> f64 {
        match self {
            BotEval::Linear(eval) => eval.evaluate_with(position, memo),
            // The features through the memo, as the linear evaluation reads them.
            BotEval::NTuple(eval) if eval.model().side() == position.size().side() => eval
                .model()
                .value_from(position, || memo.features(position)),
            _ => self.evaluate(position),
        }
    }

    #[inline]
    fn evaluate_child(
        &self,
        parent: &Position,
        mv: Move,
        child: &Position,
        memo: &mut BoardMemo,
    ) -> f64 {
        match self {
            BotEval::Linear(eval) => eval.evaluate_child(parent, mv, child, memo),
            BotEval::NTuple(eval) if eval.model().side() == child.size().side() => eval
                .model()
                .value_from(child, || memo.child_features(parent, mv, child)),
            _ => self.evaluate(child),
        }
    }

    fn calibration(&self) -> Option<&Calibration> {
        match self {
            BotEval::Linear(eval) => eval.calibration(),
            BotEval::NTuple(eval) => eval.calibration(),
        }
    }
}

impl BotEval {
    /// The evaluation the default `search` bot values its leaves with, and the analysis
    /// (hints, reviews, the evaluation graph) searches with: the line-pattern tables over the
    /// shipped linear weights, with their calibration ([`NTupleEval::tables`]).
    pub fn shipped() -> BotEval {
        BotEval::NTuple(NTupleEval::tables())
    }

    /// The same evaluation without its calibration: the search's own values.
    pub fn uncalibrated(self) -> BotEval {
        match self {
            BotEval::Linear(eval) => BotEval::Linear(eval.with_calibration(None)),
            BotEval::NTuple(eval) => BotEval::NTuple(eval.with_calibration(None)),
        }
    }
}

/// The learned agent, with the shipped weights or `net:model=FILE` (a model written by
/// `entropy train-net`; `order=FILE` a model for Order's decisions, `against_greedy=FILE` one for
/// Order's once Chaos reads as greedy).
pub(crate) fn net_bot(name: &str, options: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    if options.is_empty() {
        return Ok(Box::new(NetBot::new(seed)));
    }
    let (mut weights, mut order, mut greedy) = (None, None, None);
    for option in options.split(',') {
        let (slot, path) = match option.split_once('=') {
            Some(("model", path)) => (&mut weights, path),
            Some(("order", path)) => (&mut order, path),
            Some(("against_greedy", path)) => (&mut greedy, path),
            _ => {
                return Err(format!(
                    "{name} (bad option {option:?}: use model=FILE, order=FILE and \
                     against_greedy=FILE, once each)"
                ))
            }
        };
        if slot.is_some() {
            return Err(format!("{name} ({option:?} given twice)"));
        }
        let model = load_model(path).map_err(|e| format!("{name} ({e})"))?;
        *slot = Some(std::sync::Arc::new(model));
    }
    let weights = weights.unwrap_or_else(NTupleModel::trained);
    let mut bot = NetBot::with_model(name, weights, seed);
    if let Some(model) = order {
        bot = bot.with_order(model);
    }
    Ok(Box::new(match greedy {
        Some(model) => bot.against_greedy(model),
        None => bot,
    }))
}

/// The agent `policy`: the shipped network, or `policy:model=FILE` (weights written by
/// `python -m hyle_entropy.ppo_policy POLICY.pt --weights FILE`).
pub(crate) fn policy_bot(name: &str, options: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    use self::policy_net::PolicyNet;
    let net = match model_option(
        name,
        options,
        "model=FILE, a file written by python -m hyle_entropy.ppo_policy POLICY.pt --weights FILE",
    )? {
        None => PolicyNet::shipped(),
        Some((path, bytes)) => std::sync::Arc::new(
            PolicyNet::from_bytes(&bytes).map_err(|e| format!("{name} ({path}: {e})"))?,
        ),
    };
    Ok(Box::new(PolicyBot::new(name, net, seed)))
}

/// The path and bytes of `model=FILE`, the one option of a single-network bot (`usage` says
/// what to give instead of another option); `None` without options (the shipped network).
fn model_option(
    name: &str,
    options: &str,
    usage: &str,
) -> Result<Option<(String, Vec<u8>)>, String> {
    if options.is_empty() {
        return Ok(None);
    }
    let Some(path) = options.strip_prefix("model=") else {
        return Err(format!("{name} (bad option {options:?}: use {usage})"));
    };
    let bytes =
        std::fs::read(path).map_err(|e| format!("{name} (cannot read model {path}: {e})"))?;
    Ok(Some((path.to_owned(), bytes)))
}

/// The whole-board network agent, with the shipped network or `wnet:model=FILE` (an ONNX model
/// written by `python -m hyle_entropy.board_net`).
#[cfg(feature = "onnx")]
pub(crate) fn wnet_bot(name: &str, options: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    use crate::learned::networks::BoardNet;
    let net = match model_option(name, options, "model=FILE.onnx")? {
        None => BoardNet::shipped(),
        Some((path, bytes)) => {
            BoardNet::from_onnx(&bytes, 7).map_err(|e| format!("{name} ({path}: {e})"))?
        }
    };
    Ok(Box::new(WnetBot::new(name, net, seed)))
}

/// The policy network agent: the shipped Chaos policy (and, once Order reads as greedy, the
/// shipped Chaos policy against greedy), or `pnet:model=FILE[,model=FILE]` (ONNX models written
/// by `python -m hyle_entropy.placement_net`, one per role; a role without one plays as `net`);
/// `against_greedy=FILE` (once per role) a policy played while the opponent reads as greedy.
#[cfg(feature = "onnx")]
pub(crate) fn pnet_bot(name: &str, options: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    use crate::learned::networks::PolicyNet;
    let (mut policies, mut against_greedy) = (Vec::new(), Vec::new());
    for option in options.split(',').filter(|o| !o.is_empty()) {
        let (list, path, what) = match option.split_once('=') {
            Some(("model", path)) => (&mut policies, path, "model"),
            Some(("against_greedy", path)) => (&mut against_greedy, path, "greedy model"),
            _ => {
                return Err(format!(
                    "{name} (bad option {option:?}: use model=FILE.onnx and \
                     against_greedy=FILE.onnx, \
                     once per role)"
                ))
            }
        };
        let bytes =
            std::fs::read(path).map_err(|e| format!("{name} (cannot read {what} {path}: {e})"))?;
        let net = PolicyNet::from_onnx(&bytes, 7).map_err(|e| format!("{name} ({path}: {e})"))?;
        if list
            .iter()
            .any(|p: &PolicyNet| p.plays_order() == net.plays_order())
        {
            return Err(format!(
                "{name} ({path} is a second {what} for {}: give one per role)",
                if net.plays_order() { "Order" } else { "Chaos" }
            ));
        }
        list.push(net);
    }
    // The shipped greedy policy was fine-tuned from the shipped one: it goes with it only.
    if policies.is_empty() {
        return Ok(Box::new(PnetBot::shipped(name, against_greedy, seed)));
    }
    Ok(Box::new(PnetBot::new(name, policies, against_greedy, seed)))
}

/// The PPO agent: the shipped policy, or `ppo:model=FILE.onnx` (a policy exported by
/// `python -m hyle_entropy.train_ppo`).
#[cfg(feature = "onnx")]
pub(crate) fn ppo_bot(name: &str, options: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    use crate::learned::ppo::{PpoBot, PpoNet};
    let net = match model_option(name, options, "model=FILE.onnx")? {
        None => PpoNet::shipped(),
        Some((path, bytes)) => {
            PpoNet::from_onnx(&bytes).map_err(|e| format!("{name} ({path}: {e})"))?
        }
    };
    Ok(Box::new(PpoBot::new(name, net, seed)))
}

/// Without the `onnx` feature there is no network runtime to run the agent with.
#[cfg(not(feature = "onnx"))]
pub(crate) fn ppo_bot(name: &str, _options: &str, _seed: u64) -> Result<Box<dyn Bot>, String> {
    wnet_bot(name, _options, _seed)
}

/// Without the `onnx` feature there is no network runtime to run the agent with.
#[cfg(not(feature = "onnx"))]
pub(crate) fn pnet_bot(name: &str, _options: &str, _seed: u64) -> Result<Box<dyn Bot>, String> {
    wnet_bot(name, _options, _seed)
}

/// Without the `onnx` feature there is no network runtime to run the agent with.
#[cfg(not(feature = "onnx"))]
pub(crate) fn wnet_bot(name: &str, _options: &str, _seed: u64) -> Result<Box<dyn Bot>, String> {
    Err(format!(
        "{name} (this build has no network runtime: build with --features onnx)"
    ))
}

/// Reads an n-tuple model written by `entropy train-net`.
pub fn load_model(path: &str) -> Result<NTupleModel, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read weights {path}: {e}"))?;
    NTupleModel::from_bytes(&bytes).map_err(|e| format!("weights {path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// A searching bot's linear leaf gives the linear evaluation's values, through the memo
    /// too; an n-tuple leaf gives its model's.
    #[test]
    fn a_bot_eval_gives_its_evaluations_values() {
        let linear = LinearEval::trained();
        let leaf = BotEval::Linear(LinearEval::trained());
        let net = BotEval::NTuple(NTupleEval::trained());
        let model = NTupleEval::trained();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let mut memo = BoardMemo::default();
        let mut position = Position::new(entropy_core::Size::SEVEN);
        while !position.is_over() {
            let expected = linear.evaluate(&position);
            assert_eq!(leaf.evaluate(&position), expected);
            assert_eq!(leaf.evaluate_with(&position, &mut memo), expected);
            assert_eq!(net.evaluate(&position), model.evaluate(&position));
            let mv = crate::playout::random_move(&position, &mut rng);
            position.play_unchecked(mv);
        }
    }
}
