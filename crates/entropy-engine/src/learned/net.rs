//! The learned agent: one move ahead over the n-tuple evaluation trained by temporal
//! differences (`entropy train-net`), with no deeper search.

use std::sync::Arc;

use entropy_core::{Move, Phase, Position, Role, Size};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::ntuple::NTupleModel;
use crate::eval::{best_afterstate, Evaluator, LinearEval};
use crate::playout::random_move;
use crate::search::observer::Observer;
use crate::{Bot, Budget};

/// The move a one-move-lookahead agent plays: `best` with its value kept as the expected
/// score, or a random move where `position` is no decision (a draw).
pub(crate) fn play_best(
    best: Option<(Move, f64)>,
    expected: &mut Option<f64>,
    position: &Position,
    rng: &mut Xoshiro256PlusPlus,
) -> Move {
    match best {
        Some((mv, value)) => {
            *expected = Some(value);
            mv
        }
        None => random_move(position, rng),
    }
}

/// Plays the move whose afterstate the learned n-tuple evaluation values best. Boards of a size
/// the model was not trained for are played one move ahead over the linear evaluation.
///
/// With a model of its own for Order ([`NetBot::with_order`]) it plays Order over that one.
/// With a model for Order against greedy ([`NetBot::against_greedy`]), it watches Chaos's
/// placements as the searcher does and plays Order over that model once Chaos reads as greedy.
pub struct NetBot {
    name: String,
    model: Arc<NTupleModel>,
    /// Order's values, where they are not `model`'s.
    order: Option<Arc<NTupleModel>>,
    fallback: LinearEval,
    rng: Xoshiro256PlusPlus,
    expected: Option<f64>,
    /// Order's values against a greedy Chaos and the watcher that tells when to use them.
    greedy: Option<(Arc<NTupleModel>, Box<Observer>)>,
}

impl NetBot {
    /// The agent with the shipped weights: Chaos's, Order's, and Order's against greedy Chaos.
    pub fn new(seed: u64) -> NetBot {
        NetBot::with_model("net", NTupleModel::trained(), seed)
            .with_order(NTupleModel::trained_order())
            .against_greedy(NTupleModel::trained_greedy_order())
    }

    /// The agent for Order alone (its Chaos plays over the same values, untrained for Chaos):
    /// the shipped Order weights and those against greedy, without loading Chaos's.
    pub fn order_only(seed: u64) -> NetBot {
        NetBot::with_model("net", NTupleModel::trained_order(), seed)
            .against_greedy(NTupleModel::trained_greedy_order())
    }

    /// The agent with these weights (and no model against greedy).
    pub fn with_model(name: &str, model: Arc<NTupleModel>, seed: u64) -> NetBot {
        NetBot {
            name: name.to_owned(),
            model,
            order: None,
            fallback: LinearEval::trained(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            expected: None,
            greedy: None,
        }
    }

    /// Plays Order over `model` (`entropy train-net --method td --chaos BOT` trains Order's
    /// values alone).
    pub fn with_order(mut self, model: Arc<NTupleModel>) -> NetBot {
        self.order = Some(model);
        self
    }

    /// Plays Order over `model` once Chaos reads as greedy (`entropy train-net --method td
    /// --greedy-chaos` trains such a model).
    pub fn against_greedy(mut self, model: Arc<NTupleModel>) -> NetBot {
        self.greedy = Some((model, Box::new(Observer::strict())));
        self
    }

    /// Whether its last decision was Order's over the model against greedy.
    pub fn exploits_greedy(&self) -> bool {
        self.greedy
            .as_ref()
            .is_some_and(|(_, observer)| observer.opponent_is_greedy())
    }
}

impl Bot for NetBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _size: Size, _role: Role) {
        self.expected = None;
        if let Some((_, observer)) = &mut self.greedy {
            observer.reset();
        }
    }

    fn choose(&mut self, position: &Position, _budget: Budget) -> Move {
        let order = position.phase() == Phase::Slide;
        if let (true, Some((_, observer))) = (order, &mut self.greedy) {
            observer.observe(position);
        }
        let model = match &self.greedy {
            Some((greedy, observer)) if order && observer.opponent_is_greedy() => greedy,
            _ => match &self.order {
                Some(model) if order => model,
                _ => &self.model,
            },
        };
        let best = if position.size().side() == model.side() {
            best_afterstate(position, |p| model.value(p))
        } else {
            best_afterstate(position, |p| self.fallback.evaluate(p))
        };
        let mv = play_best(best, &mut self.expected, position, &mut self.rng);
        if let (true, Some((_, observer))) = (order, &mut self.greedy) {
            observer.played(position, mv);
        }
        mv
    }

    fn expected_score(&self) -> Option<f64> {
        self.expected
    }
}
