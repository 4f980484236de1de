//! Evaluation: Order's expected final score from a position, as a linear function of features
//! with weights per phase of the game, fitted by `entropy train`, and the calibration that
//! turns the values of searches over it into expected final scores for people to read.

mod afterstate;
pub mod calibration;
mod features;
mod line_entry;
pub mod lines;
mod lowest_reply;
mod weights;

pub use afterstate::{best_afterstate, best_valued, decider_is_order};
pub use calibration::{Calibration, CalibrationSample, DecisionSample, SAMPLES_HEADER};
pub use features::{
    bag_max, changed_lines, features, features_on_board, for_each_touching_slide, threats,
    threats_slow, ChildFeatures, FeatureVector, BAG_MAX, FEATURES, FEATURE_NAMES,
};
pub use lowest_reply::{
    lowest_replies_to_placements, lowest_reply_placement, replies_to_placements,
};
pub use weights::{Bucket, Weights, WeightsError, BUCKETS, TURN_GROUP};

use entropy_core::{Move, Position};

/// Estimates Order's expected final score. Every estimate must be at least the current score:
/// Order can always pass and a placement never lowers the score, so the true value is too, and
/// the search relies on it as a lower bound.
pub trait Evaluator: Sync {
    /// Order's expected final score, at least `position.score()`.
    fn evaluate(&self, position: &Position) -> f64;

    /// The same value as [`Evaluator::evaluate`], reusing what `memo` keeps of the last board
    /// evaluated through it where `position` is on that board (the search evaluates a chance
    /// node's draws one after another: one board, up to seven positions).
    #[inline]
    fn evaluate_with(&self, position: &Position, memo: &mut BoardMemo) -> f64 {
        let _ = memo;
        self.evaluate(position)
    }

    /// The same value as [`Evaluator::evaluate`] of `child`, which `parent` becomes by `mv`,
    /// updating what `memo` keeps of `parent` by the move where it can (the search evaluates
    /// the children of a node one move above its horizon one after another).
    #[inline]
    fn evaluate_child(
        &self,
        parent: &Position,
        mv: Move,
        child: &Position,
        memo: &mut BoardMemo,
    ) -> f64 {
        let _ = (parent, mv);
        self.evaluate_with(child, memo)
    }

    /// What turns this evaluation's searched values into Order's expected final score for
    /// people to read ([`Calibration`]); `None`: they are shown as they are.
    fn calibration(&self) -> Option<&Calibration> {
        None
    }
}

/// What evaluations in a row share, kept by the search: the features of the last board
/// evaluated (positions on one board, differing in phase and bag, share all but the bag's),
/// and the lines of the last parent whose children were evaluated.
#[derive(Clone, Debug, Default)]
pub struct BoardMemo {
    board: Option<(u64, FeatureVector)>,
    /// The board of the parent `children` describes.
    parent: Option<u64>,
    children: ChildFeatures,
}

impl BoardMemo {
    /// The features of `position`, from the memo where it is on the last board seen.
    #[inline]
    pub fn features(&mut self, position: &Position) -> FeatureVector {
        let board = position.board_hash();
        match &self.board {
            Some((seen, same_board)) if *seen == board => features_on_board(position, same_board),
            _ => {
                let computed = features(position);
                self.board = Some((board, computed));
                computed
            }
        }
    }

    /// The features of `child`, which `parent` becomes by `mv`: updated by the move from what
    /// the memo keeps of `parent`.
    #[inline]
    pub fn child_features(
        &mut self,
        parent: &Position,
        mv: Move,
        child: &Position,
    ) -> FeatureVector {
        let board = parent.board_hash();
        if self.parent != Some(board) {
            self.children.set_parent(parent);
            self.parent = Some(board);
        }
        self.children.of_child(child, changed_lines(mv))
    }
}

/// The linear evaluation with weights per bucket of the game.
#[derive(Clone, Debug)]
pub struct LinearEval {
    weights: Weights,
    /// Fitted for these weights' searches: the shipped weights carry theirs, the `search-hand`
    /// bot's hand weights theirs; other weights have none.
    calibration: Option<&'static Calibration>,
}

impl LinearEval {
    /// An evaluation with these weights (values shown uncorrected: a calibration belongs to
    /// the weights it was fitted for).
    pub fn new(weights: Weights) -> LinearEval {
        LinearEval {
            weights,
            calibration: None,
        }
    }

    /// The weights fitted by `entropy train` and shipped in the binary, with the calibration
    /// fitted for them.
    pub fn trained() -> LinearEval {
        LinearEval {
            calibration: Some(Calibration::shipped()),
            ..LinearEval::new(Weights::trained())
        }
    }

    /// The same evaluation with another calibration (`None`: values shown as searched).
    pub fn with_calibration(self, calibration: Option<&'static Calibration>) -> LinearEval {
        LinearEval {
            calibration,
            ..self
        }
    }

    /// The shipped linear evaluation, shared.
    pub fn trained_ref() -> &'static LinearEval {
        static TRAINED: std::sync::OnceLock<LinearEval> = std::sync::OnceLock::new();
        TRAINED.get_or_init(LinearEval::trained)
    }

    /// The evaluation the learned models' inputs read ([`Weights::model_inputs`]), shared; no
    /// calibration.
    pub fn model_inputs_ref() -> &'static LinearEval {
        static MODEL_INPUTS: std::sync::OnceLock<LinearEval> = std::sync::OnceLock::new();
        MODEL_INPUTS.get_or_init(|| LinearEval::new(Weights::model_inputs()))
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

impl LinearEval {
    /// The value of `position` from its features, computed only when the game is not over.
    #[inline(always)]
    fn value_from(&self, position: &Position, features: impl FnOnce() -> FeatureVector) -> f64 {
        let score = position.score() as f64;
        if position.is_over() {
            return score;
        }
        self.weights.predict(position, &features()).max(score)
    }
}

impl Evaluator for LinearEval {
    #[inline]
    fn evaluate(&self, position: &Position) -> f64 {
        self.value_from(position, || features(position))
    }

    #[inline]
    fn evaluate_with(&self, position: &Position, memo: &mut BoardMemo) -> f64 {
        self.value_from(position, || memo.features(position))
    }

    #[inline]
    fn evaluate_child(
        &self,
        parent: &Position,
        mv: Move,
        child: &Position,
        memo: &mut BoardMemo,
    ) -> f64 {
        self.value_from(child, || memo.child_features(parent, mv, child))
    }

    fn calibration(&self) -> Option<&Calibration> {
        self.calibration
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

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_core::{Phase, Size};
    use rand::SeedableRng;

    #[test]
    fn evaluating_through_a_memo_gives_the_evaluation() {
        let eval = LinearEval::trained();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(12);
        let mut memo = BoardMemo::default();
        for size in [Size::SEVEN, Size::FIVE] {
            for _ in 0..20 {
                let mut pos = Position::new(size);
                while !pos.is_over() {
                    // A chance node's draws in turn, as the search evaluates them.
                    let next = if pos.phase() == Phase::Draw {
                        pos.legal_moves()
                            .iter()
                            .map(|&mv| {
                                let mut drawn = pos;
                                drawn.play_unchecked(mv);
                                drawn
                            })
                            .collect()
                    } else {
                        vec![pos]
                    };
                    for p in &next {
                        let expected = eval.evaluate(p);
                        assert_eq!(eval.evaluate_with(p, &mut memo), expected, "{p:?}");
                    }
                    let mv = crate::playout::random_move(&pos, &mut rng);
                    pos.play_unchecked(mv);
                }
                assert_eq!(eval.evaluate_with(&pos, &mut memo), pos.score() as f64);
            }
        }
    }
}
