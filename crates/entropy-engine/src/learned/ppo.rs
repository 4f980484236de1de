//! The PPO agent: the PufferLib plan's CNN policy trained by PufferLib's PPO trainer
//! (`python -m hyle_entropy.train_ppo`), one forward pass a decision, no search, one policy for
//! both roles and the same play against every opponent. Built with the `onnx` feature.
//!
//! The policy reads the reinforcement-learning environment's observation ([`observation`]: the
//! plan's 402 planes, the gains, the lines or the evals observation, then the legal-action mask
//! as 0/1; which, the model's input size tells) and gives a logit per action ([`actions`]); the
//! bot plays the legal action with the highest logit, as the trainer's evaluation does.

use std::sync::Arc;

use entropy_core::{Move, Phase, Position, Role, Size};
use tract_onnx::prelude::*;

use super::actions::{action_count, move_of};
use super::networks::{load_plan, Plan};
use super::observation::{observation_size, observation_with_mask, ObservationKind};
use crate::eval::{best_afterstate, Evaluator, LinearEval};
use crate::playout::random_move;
use crate::{Bot, Budget};

/// The board the shipped policy was trained for (the only one it reads).
const SIDE: usize = 7;

/// A loaded PPO policy.
#[derive(Clone)]
pub struct PpoNet {
    plan: Arc<Plan>,
    /// The observation it reads: the planes, the gains, the lines or the evals.
    kind: ObservationKind,
}

impl std::fmt::Debug for PpoNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PpoNet({SIDE}x{SIDE}, {:?})", self.kind)
    }
}

impl PpoNet {
    /// Reads a policy exported by `train_ppo` (`ppo.onnx`), tells the observation it reads
    /// from its input's width (planes, gains or lines, then the mask), and runs it on the first
    /// placement of a game, so that a wrong model fails here and not in a game.
    pub fn from_onnx(bytes: &[u8]) -> Result<PpoNet, String> {
        let plan = load_plan(bytes)?;
        // The last dimension is the observation's width whether or not the batch is fixed.
        let width = plan
            .model()
            .input_fact(0)
            .ok()
            .and_then(|fact| fact.shape.iter().last()?.as_i64())
            .and_then(|last| usize::try_from(last).ok())
            .ok_or("the model's input has no fixed width")?;
        let size = Size::SEVEN;
        let mask = action_count(size);
        // The float layouts a policy can read (the compact one is bytes).
        let kinds = || {
            ObservationKind::NAMED
                .into_iter()
                .filter(|&(_, kind)| kind != ObservationKind::Compact)
        };
        let (_, kind) = kinds()
            .find(|&(_, kind)| observation_size(size, kind) + mask == width)
            .ok_or_else(|| {
                let widths: Vec<String> = kinds()
                    .map(|(name, kind)| format!("{} ({name})", observation_size(size, kind) + mask))
                    .collect();
                format!(
                    "the model reads {width} numbers: a 7x7 policy reads {}",
                    widths.join(", ")
                )
            })?;
        let net = PpoNet { plan, kind };
        let mut placing = Position::new(size);
        placing.play_unchecked(Move::Draw(entropy_core::Colour::ALL[0]));
        net.logits(&placing)?;
        Ok(net)
    }

    /// The shipped policy (`crates/entropy-engine/weights/ppo7.onnx`), read once and shared.
    pub fn shipped() -> PpoNet {
        static NET: std::sync::OnceLock<PpoNet> = std::sync::OnceLock::new();
        NET.get_or_init(|| {
            PpoNet::from_onnx(include_bytes!("../../weights/ppo7.onnx"))
                .expect("the shipped policy loads")
        })
        .clone()
    }

    /// The observation the policy reads (the planes, the gains, the lines or the evals), then
    /// the mask as 0/1.
    pub fn observation(&self, position: &Position) -> Vec<f32> {
        observation_with_mask(position, self.kind)
    }

    /// The logit of every action (illegal ones at -1e9) in a 7x7 position.
    pub fn logits(&self, position: &Position) -> Result<Vec<f32>, String> {
        if position.size().side() != SIDE {
            return Err(format!("the policy reads {SIDE}x{SIDE} boards only"));
        }
        let observation = self.observation(position);
        let input = tract_ndarray::Array2::from_shape_vec((1, observation.len()), observation)
            .map_err(|e| e.to_string())?;
        let output = self
            .plan
            .run(tvec!(Tensor::from(input).into()))
            .map_err(|e| format!("the model failed to run: {e}"))?;
        let logits = output[0]
            .to_plain_array_view::<f32>()
            .map_err(|e| format!("the model's output: {e}"))?;
        let expected = action_count(position.size());
        if logits.len() != expected {
            return Err(format!(
                "the model gave {} logits for {expected} actions",
                logits.len()
            ));
        }
        Ok(logits.iter().copied().collect())
    }

    /// The legal move with the highest logit (the first of equals), in a 7x7 position where a
    /// player is to move; `None` elsewhere.
    pub fn best_move(&self, position: &Position) -> Option<Move> {
        if !matches!(position.phase(), Phase::Place(_) | Phase::Slide) {
            return None;
        }
        let logits = self.logits(position).ok()?;
        let legal = position.legal_moves();
        let mut best: Option<(Move, f32)> = None;
        for (action, &logit) in logits.iter().enumerate() {
            let Some(mv) = move_of(position, action) else {
                continue;
            };
            if legal.contains(&mv) && best.is_none_or(|(_, b)| logit > b) {
                best = Some((mv, logit));
            }
        }
        best.map(|(mv, _)| mv)
    }
}

/// The agent `ppo`: the policy's most likely legal move. Boards of another size are played one
/// move ahead over the linear evaluation. It reports no expected score: the policy's value is
/// the return of its training games, against its training opponents, not a forecast of this
/// game.
pub struct PpoBot {
    name: String,
    net: PpoNet,
    rng: rand_xoshiro::Xoshiro256PlusPlus,
}

impl PpoBot {
    /// The agent over this policy.
    pub fn new(name: &str, net: PpoNet, seed: u64) -> PpoBot {
        use rand::SeedableRng;
        PpoBot {
            name: name.to_owned(),
            net,
            rng: rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Bot for PpoBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _size: Size, _role: Role) {}

    fn choose(&mut self, position: &Position, _budget: Budget) -> Move {
        let chosen = if position.size().side() == SIDE {
            self.net.best_move(position)
        } else {
            best_afterstate(position, |p| LinearEval::trained_ref().evaluate(p)).map(|(mv, _)| mv)
        };
        // Only a chance node, which a bot is never asked about, has no choice.
        chosen.unwrap_or_else(|| random_move(position, &mut self.rng))
    }

    fn expected_score(&self) -> Option<f64> {
        None
    }
}
