//! Training the n-tuple evaluation from a searcher's values (expert iteration: the searcher
//! is the teacher, the network learns what it finds).
//!
//! The searcher plays itself; at each decision the position after the move it chose and a few
//! other moves' afterstates, chosen at random, learn the values of searches of their own (a chip
//! drawn at random first where one is to be drawn: an unbiased sample of the expectation). The moves not played matter as much as the one played: the
//! one-move lookahead compares all of them.

use entropy_core::notation::text::{format_position, parse_position};
use entropy_core::{Move, Phase, Position, Role, Size};
use entropy_engine::bots::random_move;
use entropy_engine::eval::{Evaluator, LinearEval, Weights};
use entropy_engine::learned::{NTupleEval, NTupleModel};
use entropy_engine::search::{Limits, Searcher};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::td::{draw, game_seed, Transition};
use crate::DataTextError;

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
    /// Other afterstates of each decision valued by a search of their own, chosen as those the
    /// shipped linear evaluation likes best after the searcher's choice (besides `candidates`
    /// chosen at random among the rest).
    pub best_candidates: usize,
    /// The evaluation that chooses the `best_candidates`: a learned model of a previous round
    /// (the afterstates its one-move lookahead would pick are those whose errors decide its
    /// play, so they are the ones to learn next, as DAgger and expert iteration do); the
    /// shipped linear evaluation if `None`.
    pub candidate_model: Option<NTupleEval>,
    /// Value an afterstate where a chip is to be drawn by the mean over every colour in the
    /// bag (weighted by its chips) of the searches after it, instead of one search after a
    /// chip drawn at random: the exact expectation, at a search per colour.
    pub average_draws: bool,
    /// Value the played move's afterstate like the candidates' (a search of its own after it)
    /// instead of by the root search's value of that move. The root's value comes from a
    /// shallower search over every move, with leaves of another phase, and rates the played
    /// move 1.7 points below the linear evaluation's favourite on average where Order moves
    /// (below it in 77% of decisions), so the targets' order within a decision, what the
    /// one-move lookahead learns, is biased against the teacher's own choices.
    pub consistent: bool,
    /// Search every afterstate of a decision to one depth: the first is searched within
    /// `nodes`, the rest to the depth it completed. Within `nodes` alone the searches of one
    /// decision end at different depths (Chaos's early placements: 2 or 3 moves for 40% of
    /// decisions), so their leaves fall in different phases, whose evaluations are biased
    /// differently, and the targets' order within the decision, what the one-move lookahead
    /// learns, carries that bias.
    pub same_depth: bool,
    /// Threads.
    pub jobs: usize,
    /// Board size.
    pub size: Size,
}

/// The teacher's value of an afterstate: exact at the end, else a search of the decision that
/// follows (after a chip drawn at random, if one is to be drawn); with the depth of its
/// (last) search, `None` at the end.
pub fn teacher_value<E: Evaluator>(
    searcher: &mut Searcher<E>,
    after: &Position,
    limits: Limits,
    average_draws: bool,
    rng: &mut impl Rng,
) -> (f64, Option<u32>) {
    if after.is_over() {
        return (after.score() as f64, None);
    }
    let mut position = *after;
    if position.phase() == Phase::Draw {
        if average_draws {
            let bag = *position.bag();
            let total = f64::from(bag.total());
            let mut depth = None;
            let value = bag
                .colours()
                .map(|(colour, chips)| {
                    let mut drawn = position;
                    drawn.play_unchecked(Move::Draw(colour));
                    let result = searcher.search(&drawn, limits);
                    depth = Some(result.depth);
                    f64::from(chips) / total * result.value
                })
                .sum();
            return (value, depth);
        }
        position.play_unchecked(draw(&position, rng));
    }
    let result = searcher.search(&position, limits);
    (result.value, Some(result.depth))
}

/// The limits of a decision's afterstate searches after one of them completed `depth`: with
/// `same_depth`, exactly that depth (capped at 64 times the nodes, a safety that a typical
/// search stays far below); otherwise unchanged.
fn next_limits(limits: Limits, config: &DistillConfig, depth: Option<u32>) -> Limits {
    match depth {
        Some(depth) if config.same_depth && limits.depth.is_none() => Limits {
            depth: Some(depth),
            nodes: Some(64 * config.nodes),
            ..Limits::default()
        },
        _ => limits,
    }
}

/// Takes out of `moves` the `count` whose afterstates `model` (or the shipped linear
/// evaluation) likes best for the player to move (the moves a one-move lookahead would weigh
/// against the best), best first.
fn best_by(
    position: &Position,
    moves: &mut Vec<Move>,
    count: usize,
    model: Option<&NTupleEval>,
) -> Vec<Move> {
    if count == 0 {
        return Vec::new();
    }
    let eval: &dyn Evaluator = match model {
        Some(model) => model,
        None => LinearEval::trained_ref(),
    };
    let sign = if position.to_move() == Some(Role::Order) {
        -1.0
    } else {
        1.0
    };
    let mut valued: Vec<(f64, Move)> = moves
        .iter()
        .map(|&mv| {
            let after = position.after(mv).expect("a legal move");
            (sign * eval.evaluate(&after), mv)
        })
        .collect();
    valued.sort_by(|a, b| a.0.total_cmp(&b.0));
    let best: Vec<Move> = valued.iter().take(count).map(|v| v.1).collect();
    moves.retain(|m| !best.contains(m));
    best
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
        let best = best_by(
            &position,
            &mut moves,
            config.best_candidates,
            config.candidate_model.as_ref(),
        );
        moves.shuffle(&mut rng);
        let mut decision_limits = limits;
        for &mv in best.iter().chain(moves.iter().take(config.candidates)) {
            let after = position.after(mv).expect("a legal move");
            let (target, depth) = teacher_value(
                searcher,
                &after,
                decision_limits,
                config.average_draws,
                &mut rng,
            );
            decision_limits = next_limits(decision_limits, config, depth);
            out.push(Transition {
                after,
                target: target as f32,
            });
        }
        // A little randomness in the opening, where the chips alone vary games too little.
        let mv = if position.placed() < 6 && rng.random_bool(0.15) {
            random_move(&position, &mut rng)
        } else {
            result.best
        };
        let after = position.after(mv).expect("a legal move");
        let target = if mv == result.best && !config.consistent {
            result.value as f32
        } else {
            teacher_value(
                searcher,
                &after,
                decision_limits,
                config.average_draws,
                &mut rng,
            )
            .0 as f32
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

/// The decisions of teacher data: runs of consecutive afterstates of the same turn and phase
/// (a decision's candidates and its played move come together, and consecutive decisions
/// differ in one or the other).
pub fn decisions(data: &[Transition]) -> Vec<std::ops::Range<usize>> {
    let key = |t: &Transition| (t.after.placed(), t.after.phase() == Phase::Slide);
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=data.len() {
        if i == data.len() || key(&data[i]) != key(&data[start]) {
            out.push(start..i);
            start = i;
        }
    }
    out
}

/// One pass of pairwise (ranking) steps: for every two afterstates of a decision, the
/// difference of their values moves towards the difference of their targets by at most
/// `rate` of its error (one normalised gradient step), decisions in a shuffled order (seeded).
/// What a one-move lookahead uses is exactly these differences. Returns the mean squared error
/// of the differences, measured before each step.
pub fn fit_pairs(model: &mut NTupleModel, data: &[Transition], rate: f32, seed: u64) -> f64 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut groups = decisions(data);
    groups.shuffle(&mut rng);
    let (mut squared, mut pairs) = (0f64, 0usize);
    for group in groups {
        let items: Vec<_> = data[group]
            .iter()
            .filter(|t| !t.after.is_over())
            .map(|t| (model.inputs(&t.after), t.target))
            .collect();
        for a in 0..items.len() {
            for b in a + 1..items.len() {
                let (xa, ta) = &items[a];
                let (xb, tb) = &items[b];
                let (va, vb) = (model.value_of(xa), model.value_of(xb));
                let error = (ta - tb) - (va - vb);
                // One step along the difference's gradient, xa - xb, normalised by both
                // inputs' lengths together. Each afterstate normalised by its own length (two
                // `learn`s) steps off that gradient where the two share most of their inputs
                // but not their lengths, and the differences' error then grows.
                let g = rate * error / (model.norm(xa) + model.norm(xb)).max(f32::EPSILON);
                model.step(xa, g);
                model.step(xb, -g);
                squared += f64::from(error).powi(2);
                pairs += 1;
            }
        }
    }
    squared / pairs.max(1) as f64
}

/// Mean squared error of the model's differences between afterstates of one decision against
/// the targets' differences.
pub fn pair_error(model: &NTupleModel, data: &[Transition]) -> f64 {
    let (mut squared, mut pairs) = (0f64, 0usize);
    for group in decisions(data) {
        let items: Vec<(f64, f64)> = data[group]
            .iter()
            .filter(|t| !t.after.is_over())
            .map(|t| (model.value(&t.after), f64::from(t.target)))
            .collect();
        for a in 0..items.len() {
            for b in a + 1..items.len() {
                let error = (items[a].1 - items[b].1) - (items[a].0 - items[b].0);
                squared += error * error;
                pairs += 1;
            }
        }
    }
    squared / pairs.max(1) as f64
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

/// How to fit a model to the teacher's data.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Seed of the feature scales' games and of each epoch's order.
    pub seed: u64,
    /// The teacher's games the data come from (one in ten, the last ones, is held out).
    pub games: usize,
    /// Passes over the data.
    pub epochs: usize,
    /// Step size at the start.
    pub rate: f32,
    /// Step size at the end (it falls linearly over the epochs).
    pub rate_end: f32,
    /// Deals played against greedy after each epoch (both roles on each).
    pub eval_deals: usize,
    /// Threads.
    pub jobs: usize,
    /// Board size.
    pub size: Size,
    /// Step size of a pass of pairwise steps ([`fit_pairs`]) after each epoch; 0: none.
    pub pairwise: f32,
}

/// How a model stands after an epoch (epoch 0: the base linear evaluation, before any fit).
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// The epoch, from 1 (0 for the model before fitting).
    pub epoch: usize,
    /// Mean squared error over the epoch's training data, measured before each update.
    pub train_mse: Option<f64>,
    /// Mean squared error on the held-out games.
    pub heldout_mse: f64,
    /// R^2 on the held-out games.
    pub heldout_r2: f64,
    /// Mean squared error of the differences between afterstates of one decision, held out.
    pub heldout_pair_mse: f64,
    /// Mean score as Order against greedy Chaos.
    pub as_order: f64,
    /// Mean score conceded as Chaos against greedy Order.
    pub conceded: f64,
}

/// The header of the learning curve's CSV ([`EpochReport::csv_line`]).
pub const DISTILL_CURVE_HEADER: &str =
    "epoch,seconds,train_mse,heldout_mse,heldout_r2,as_order_vs_greedy,conceded_vs_greedy";

impl EpochReport {
    /// The report as a line of the learning curve's CSV, `seconds` into the run.
    pub fn csv_line(&self, seconds: f64) -> String {
        format!(
            "{},{seconds:.1},{},{:.3},{:.4},{:.2},{:.2}",
            self.epoch,
            self.train_mse.map_or(String::new(), |e| format!("{e:.3}")),
            self.heldout_mse,
            self.heldout_r2,
            self.as_order,
            self.conceded
        )
    }

    /// The report as the line `entropy train-net` prints.
    pub fn line(&self) -> String {
        let against = format!(
            "vs greedy {:.1} as Order, {:.1} conceded",
            self.as_order, self.conceded
        );
        match self.train_mse {
            None => format!(
                "base linear evaluation: held-out error {:.2} (R^2 {:.4}); {against}",
                self.heldout_mse, self.heldout_r2
            ),
            Some(train) => format!(
                "epoch {}: training error {train:.2}, held-out error {:.2} (R^2 {:.4}, of the \
                 differences within a decision {:.2}); {against}",
                self.epoch, self.heldout_mse, self.heldout_r2, self.heldout_pair_mse
            ),
        }
    }
}

/// Fits a fresh model (the shipped linear evaluation underneath) to the teacher's data, epoch by
/// epoch, calling `on_epoch` with the model before fitting (epoch 0) and after each epoch; stops
/// at the first error `on_epoch` returns. The data in game order, as [`teacher_data`] returns
/// them, so that a run whose games were played elsewhere fits the same model.
pub fn fit_teacher_data<E>(
    data: &[Transition],
    config: &FitConfig,
    mut on_epoch: impl FnMut(&EpochReport, &NTupleModel) -> Result<(), E>,
) -> Result<NTupleModel, E> {
    let td = crate::td::TdConfig {
        seed: config.seed,
        jobs: config.jobs,
        size: config.size,
        ..crate::td::TdConfig::default()
    };
    let (mean, scale) = crate::td::feature_scales(&td, 200);
    let mut model = NTupleModel::zero(config.size.side(), Weights::trained(), mean, scale);
    // One game in ten is held out to measure the fit.
    let games = config.games.max(1);
    let per_game = data.len() / games;
    let held = (games / 10).max(1) * per_game;
    let (train, test) = data.split_at(data.len() - held.min(data.len() / 2));
    let report = |model: &NTupleModel, epoch: usize, train_mse: Option<f64>| {
        let (heldout_mse, heldout_r2) = score_fit(model, test);
        let heldout_pair_mse = pair_error(model, test);
        let (as_order, conceded) =
            crate::td::against_greedy(model, config.size, config.eval_deals, config.jobs);
        EpochReport {
            epoch,
            train_mse,
            heldout_mse,
            heldout_r2,
            heldout_pair_mse,
            as_order,
            conceded,
        }
    };
    on_epoch(&report(&model, 0, None), &model)?;
    let total = config.epochs as f32;
    for epoch in 1..=config.epochs {
        let from = config.rate + (config.rate_end - config.rate) * (epoch - 1) as f32 / total;
        let to = config.rate + (config.rate_end - config.rate) * epoch as f32 / total;
        let errors = fit(&mut model, train, 1, from, to, config.seed ^ epoch as u64);
        if config.pairwise > 0.0 {
            fit_pairs(
                &mut model,
                train,
                config.pairwise * to / config.rate,
                config.seed ^ !(epoch as u64),
            );
        }
        on_epoch(&report(&model, epoch, Some(errors[0])), &model)?;
    }
    Ok(model)
}

/// Transitions as text, one line each: `TARGET POSITION` (the target printed so that it reads
/// back to the same bits, the afterstate as a position text).
pub fn transitions_to_text(transitions: &[Transition]) -> String {
    transitions
        .iter()
        .map(|t| format!("{:?} {}\n", t.target, format_position(&t.after)))
        .collect()
}

/// Reads the transitions of [`transitions_to_text`].
pub fn transitions_from_text(text: &str) -> Result<Vec<Transition>, DataTextError> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let bad = |what: String| DataTextError(format!("{what} in line {line:?}"));
            let (target, position) = line
                .trim()
                .split_once(' ')
                .ok_or_else(|| bad("no position".into()))?;
            Ok(Transition {
                target: target
                    .parse()
                    .map_err(|_| bad(format!("a bad target {target:?}")))?,
                after: parse_position(position)
                    .map_err(|e| bad(format!("a bad position ({e})")))?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(same_depth: bool) -> DistillConfig {
        DistillConfig {
            seed: 1,
            games: 1,
            nodes: 2000,
            candidates: 2,
            best_candidates: 0,
            average_draws: false,
            consistent: true,
            same_depth,
            candidate_model: None,
            jobs: 1,
            size: Size::SEVEN,
        }
    }

    #[test]
    fn the_best_candidates_are_the_chooser_s_favourites() {
        let position =
            parse_position("1.1..../......./......./.2...../......./......./....... slide")
                .expect("a position");
        let all: Vec<Move> = position.legal_moves().iter().copied().collect();
        let net = NTupleEval::trained();
        for model in [None, Some(&net)] {
            let eval: &dyn Evaluator = match model {
                Some(model) => model,
                None => LinearEval::trained_ref(),
            };
            let value = |mv: &Move| eval.evaluate(&position.after(*mv).expect("legal"));
            let mut moves = all.clone();
            let best = best_by(&position, &mut moves, 3, model);
            assert_eq!(best.len(), 3);
            assert_eq!(moves.len(), all.len() - 3, "taken out of the rest");
            let worst_kept = best.iter().map(value).fold(f64::INFINITY, f64::min);
            assert!(
                moves.iter().all(|mv| value(mv) <= worst_kept),
                "Order's favourites"
            );
        }
    }

    #[test]
    fn one_depth_per_decision_once_the_first_search_found_it() {
        let nodes = Limits::nodes(2000);
        let fixed = next_limits(nodes, &config(true), Some(3));
        assert_eq!(fixed.depth, Some(3));
        assert_eq!(fixed.nodes, Some(64 * 2000));
        // Later afterstates keep that depth, whatever their own searches report.
        assert_eq!(next_limits(fixed, &config(true), Some(5)), fixed);
        // A finished board found no depth: the next search still sets it.
        assert_eq!(next_limits(nodes, &config(true), None), nodes);
        assert_eq!(next_limits(nodes, &config(false), Some(3)), nodes);
    }
}
