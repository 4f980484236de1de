//! Training the n-tuple evaluation from a searcher's values (expert iteration: the searcher
//! is the teacher, the network learns what it finds).
//!
//! The searcher plays itself; at each decision the position after the move it chose learns the
//! search's value, and a few other moves' afterstates, chosen at random, learn the values of
//! searches of their own (a chip drawn at random first where one is to be drawn: an unbiased
//! sample of the expectation). The moves not played matter as much as the one played: the
//! one-move lookahead compares all of them.

use entropy_core::{Move, Phase, Position, Size};
use entropy_engine::bots::random_move;
use entropy_engine::eval::{Evaluator, NTupleModel};
use entropy_engine::search::{Limits, Searcher};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::td::{draw, game_seed, Transition};

/// How to make the teacher's data.
#[derive(Clone, Debug)]
pub struct DistillConfig {
    /// Seed of the chip orders, the opening randomness and the candidates.
    pub seed: u64,
    /// Self-play games of the teacher.
    pub games: usize,
    /// Positions each of the teacher's searches may visit.
    pub nodes: u64,
    /// Other afterstates of each decision valued by a search of their own.
    pub candidates: usize,
    /// Threads.
    pub jobs: usize,
    /// Board size.
    pub size: Size,
}

/// The teacher's value of an afterstate: exact at the end, else a search of the decision that
/// follows (after a chip drawn at random, if one is to be drawn).
fn afterstate_value<E: Evaluator>(
    searcher: &mut Searcher<E>,
    after: &Position,
    limits: Limits,
    rng: &mut impl Rng,
) -> f64 {
    if after.is_over() {
        return after.score() as f64;
    }
    let mut position = *after;
    if position.phase() == Phase::Draw {
        position.play_unchecked(draw(&position, rng));
    }
    searcher.search(&position, limits).value
}

/// One self-play game of the teacher and its afterstates with their targets.
pub fn teacher_game<E: Evaluator>(
    searcher: &mut Searcher<E>,
    config: &DistillConfig,
    game: usize,
) -> Vec<Transition> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(game_seed(config.seed, game));
    let limits = Limits::nodes(config.nodes);
    let mut position = Position::new(config.size);
    let mut out = Vec::with_capacity(2 * (config.candidates + 1) * config.size.cells());
    searcher.clear();
    while !position.is_over() {
        if position.phase() == Phase::Draw {
            position.play_unchecked(draw(&position, &mut rng));
            continue;
        }
        let result = searcher.search(&position, limits);
        let mut moves: Vec<Move> = position.legal_moves().iter().copied().collect();
        moves.retain(|&m| m != result.best);
        moves.shuffle(&mut rng);
        for &mv in moves.iter().take(config.candidates) {
            let after = position.after(mv).expect("a legal move");
            let target = afterstate_value(searcher, &after, limits, &mut rng) as f32;
            out.push(Transition { after, target });
        }
        // A little randomness in the opening, where the chips alone vary games too little.
        let mv = if position.placed() < 6 && rng.random_bool(0.15) {
            random_move(&position, &mut rng)
        } else {
            result.best
        };
        let after = position.after(mv).expect("a legal move");
        let target = if mv == result.best {
            result.value as f32
        } else {
            afterstate_value(searcher, &after, limits, &mut rng) as f32
        };
        out.push(Transition { after, target });
        position = after;
    }
    out
}

/// Plays the teacher's games on `config.jobs` threads (each with its own searcher made by
/// `teacher`), calling `progress` after each game; the data come back in game order.
pub fn teacher_data<E: Evaluator>(
    config: &DistillConfig,
    teacher: impl Fn() -> Searcher<E> + Sync,
    progress: &(impl Fn() + Sync),
) -> Vec<Transition> {
    let jobs = config.jobs.clamp(1, config.games.max(1));
    let mut games: Vec<Vec<Transition>> = vec![Vec::new(); config.games];
    let chunk = config.games.div_ceil(jobs).max(1);
    std::thread::scope(|scope| {
        for (job, slots) in games.chunks_mut(chunk).enumerate() {
            let teacher = &teacher;
            scope.spawn(move || {
                let mut searcher = teacher();
                for (i, slot) in slots.iter_mut().enumerate() {
                    *slot = teacher_game(&mut searcher, config, job * chunk + i);
                    progress();
                }
            });
        }
    });
    games.into_iter().flatten().collect()
}

/// Fits the model to the data: `epochs` passes in a shuffled order (seeded), the step size
/// falling linearly from `rate` to `rate_end`. Returns the mean squared error of each epoch
/// (measured before each update).
pub fn fit(
    model: &mut NTupleModel,
    data: &[Transition],
    epochs: usize,
    rate: f32,
    rate_end: f32,
    seed: u64,
) -> Vec<f64> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let inputs: Vec<_> = data
        .iter()
        .filter(|t| !t.after.is_over())
        .map(|t| (model.inputs(&t.after), t.target))
        .collect();
    let mut order: Vec<usize> = (0..inputs.len()).collect();
    let total = (epochs * inputs.len()).max(1) as f32;
    let mut step = 0usize;
    let mut errors = Vec::with_capacity(epochs);
    for _ in 0..epochs {
        order.shuffle(&mut rng);
        let mut squared = 0f64;
        for &i in &order {
            let r = rate + (rate_end - rate) * (step as f32 / total);
            let error = model.learn(&inputs[i].0, inputs[i].1, r);
            squared += (error as f64).powi(2);
            step += 1;
        }
        errors.push(squared / inputs.len().max(1) as f64);
    }
    errors
}

/// Mean squared error and R^2 of the model on data.
pub fn score_fit(model: &NTupleModel, data: &[Transition]) -> (f64, f64) {
    let pairs: Vec<(f64, f64)> = data
        .iter()
        .filter(|t| !t.after.is_over())
        .map(|t| (model.value(&t.after), t.target as f64))
        .collect();
    let n = pairs.len().max(1) as f64;
    let mean = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    let total: f64 = pairs.iter().map(|p| (p.1 - mean).powi(2)).sum();
    let residual: f64 = pairs.iter().map(|p| (p.1 - p.0).powi(2)).sum();
    (residual / n, 1.0 - residual / total.max(1e-9))
}
