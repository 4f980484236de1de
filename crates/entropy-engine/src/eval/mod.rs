//! Evaluation: Order's expected final score from a position, as a linear function of features
//! with weights per phase of the game, fitted by `entropy train`.

pub mod board;
#[cfg(feature = "wnet")]
pub mod board_net;
mod features;
pub mod lines;
pub mod ntuple;
mod replies;
mod weights;

pub use features::{
    features, for_each_touching_slide, threats, threats_slow, FeatureVector, FEATURES,
    FEATURE_NAMES,
};
pub use ntuple::{NTupleEval, NTupleModel};
pub use replies::{lowest_replies_to_placements, lowest_reply_placement, replies_to_placements};
pub use weights::{Bucket, Weights, WeightsError, BUCKETS, TURN_GROUP};

use entropy_core::Position;

/// Estimates Order's expected final score. Every estimate must be at least the current score:
/// Order can always pass and a placement never lowers the score, so the true value is too, and
/// the search relies on it as a lower bound.
pub trait Evaluator: Sync {
    /// Order's expected final score, at least `position.score()`.
    fn evaluate(&self, position: &Position) -> f64;
}

/// The linear evaluation with weights per bucket of the game.
#[derive(Clone, Debug)]
pub struct LinearEval {
    weights: Weights,
}

impl LinearEval {
    /// An evaluation with these weights.
    pub fn new(weights: Weights) -> LinearEval {
        LinearEval { weights }
    }

    /// The weights fitted by `entropy train` and shipped in the binary.
    pub fn trained() -> LinearEval {
        LinearEval::new(Weights::trained())
    }

    /// The shipped linear evaluation, shared.
    pub fn trained_ref() -> &'static LinearEval {
        static TRAINED: std::sync::OnceLock<LinearEval> = std::sync::OnceLock::new();
        TRAINED.get_or_init(LinearEval::trained)
    }

    /// Hand-set weights, the starting point of training.
    pub fn hand() -> LinearEval {
        LinearEval::new(Weights::hand())
    }

    /// The weights.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }
}

impl Evaluator for LinearEval {
    #[inline]
    fn evaluate(&self, position: &Position) -> f64 {
        let score = position.score() as f64;
        if position.is_over() {
            return score;
        }
        let value = self.weights.predict(position, &features(position));
        value.max(score)
    }
}

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
}

/// The current score and nothing more: the plainest evaluation, for tests and references.
#[derive(Copy, Clone, Debug, Default)]
pub struct ScoreEval;

impl Evaluator for ScoreEval {
    fn evaluate(&self, position: &Position) -> f64 {
        position.score() as f64
    }
}
