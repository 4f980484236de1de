//! Training the evaluation: the searching bot plays itself, every decision's search value
//! becomes a target for the position's features (multi-step Q-learning: the search looks
//! several moves ahead and bootstraps from the current weights), and a ridge regression per
//! bucket of the game fits new weights. A few generations, each playing with the last fit.
//!
//! Chance positions get the search value of the decision that follows them, for the colour that
//! was drawn: an unbiased sample of their expected value.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use entropy_core::notation::text::{format_position, parse_position};
use entropy_core::{Colour, Move, Phase, Position, Size};
use entropy_engine::bots::random_move;
use entropy_engine::eval::{
    features, Bucket, Evaluator, FeatureVector, LinearEval, Weights, BUCKETS,
};
use entropy_engine::search::{Limits, Searcher};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::fit::{fit_bucket, r_squared};

/// One training example.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The game it came from (held-out games are chosen by this).
    pub game: usize,
    /// The position.
    pub position: Position,
    /// The position's bucket.
    pub bucket: Bucket,
    /// The position's features.
    pub features: FeatureVector,
    /// The search value: the regression target.
    pub target: f64,
    /// The game's final score.
    pub outcome: f64,
}

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Seed of the chip orders and the opening randomisation.
    pub seed: u64,
    /// Self-play games per generation.
    pub games: usize,
    /// Generations: each plays with the weights fitted by the one before.
    pub generations: usize,
    /// Positions each search may visit (node limits keep training reproducible).
    pub nodes: u64,
    /// Games played at once.
    pub jobs: usize,
    /// One game in this many is held out of the fit to measure R^2.
    pub holdout_every: usize,
    /// Ridge penalty, relative to each feature's variance.
    pub ridge: f64,
    /// How far each target moves from the search value towards the game's final score (0: pure
    /// bootstrapping from the search; 1: Monte Carlo). Bootstrapping alone inherits the starting
    /// weights' bias for many generations, because only the last turns see the true end.
    pub lambda: f64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            seed: 2023,
            games: 300,
            generations: 4,
            nodes: 3000,
            jobs: 1,
            holdout_every: 5,
            ridge: 1e-3,
            lambda: 0.0,
        }
    }
}

/// How well one generation's weights fit.
#[derive(Clone, Debug)]
pub struct GenerationReport {
    /// Generation number, from 1.
    pub generation: usize,
    /// Samples used to fit.
    pub train_samples: usize,
    /// Samples held out.
    pub test_samples: usize,
    /// R^2 of the new weights against the targets on held-out games.
    pub r2_search: f64,
    /// Mean of prediction minus final score on held-out games (the evaluation's bias).
    pub bias: f64,
    /// The median over buckets of the held-out R^2 against targets within the bucket: how well
    /// the evaluation orders positions of the same phase and turn, which is what a search
    /// compares.
    pub r2_within: f64,
    /// R^2 of the new weights against final scores on held-out games.
    pub r2_outcome: f64,
    /// R^2 of the weights that played (the previous fit) against search values, held out.
    pub r2_search_before: f64,
    /// Mean final score of the self-play games.
    pub mean_score: f64,
    /// R^2 of the new weights' static evaluation against their own search two moves deeper,
    /// on held-out positions of turns 20-30 (chips placed): how much of what a search would add
    /// the evaluation already sees.
    pub r2_deeper: f64,
}

/// Turns (chips placed) of the mid-game positions on which [`deeper_r_squared`] is measured.
pub const MID_GAME: std::ops::RangeInclusive<usize> = 20..=30;

/// R^2 of the static evaluation with `weights` against the same evaluation searched two moves
/// deeper, on at most `limit` of these positions (spread evenly over them).
pub fn deeper_r_squared(weights: &Weights, positions: &[Position], limit: usize) -> f64 {
    let step = positions.len().div_ceil(limit.max(1)).max(1);
    let eval = LinearEval::new(weights.clone());
    let mut searcher = Searcher::new(eval.clone(), 4);
    let (mut statics, mut deeper) = (Vec::new(), Vec::new());
    for position in positions.iter().step_by(step) {
        statics.push(eval.evaluate(position));
        deeper.push(searcher.value(position, 2).0);
    }
    r_squared(&statics, &deeper)
}

/// The weights a training starts from: `hand`, `trained`, or the path of a weights file.
pub fn start_weights(start: &str) -> Result<Weights, String> {
    match start {
        "hand" => Ok(Weights::hand()),
        "trained" => Ok(Weights::trained()),
        path => Weights::read(path).map_err(|e| format!("the start weights: {e}")),
    }
}

/// Plays one self-play game with node-limited searches for both sides, the linear evaluation
/// with `weights` at their leaves; returns its samples.
pub fn self_play(weights: &Weights, config: &TrainConfig, game: usize) -> Vec<Sample> {
    self_play_with(LinearEval::new(weights.clone()), config, game)
}

/// [`self_play`] with `eval` at the searches' leaves (a learned model's own games and
/// targets: the next generation of its training data). The same deals and opening randomness
/// as [`self_play`] for the same seed and game.
pub fn self_play_with<E: Evaluator>(eval: E, config: &TrainConfig, game: usize) -> Vec<Sample> {
    let seed = config.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ game as u64;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut chips: Vec<Colour> = Colour::ALL.iter().flat_map(|&c| [c; 7]).collect();
    chips.shuffle(&mut rng);
    let mut searcher = Searcher::new(eval, 4);
    let limits = Limits::nodes(config.nodes);
    let mut position = Position::new(Size::SEVEN);
    let mut samples = Vec::with_capacity(150);
    let mut pending_draw: Option<Position>;
    let record = |position: &Position, target: f64, samples: &mut Vec<Sample>| {
        samples.push(Sample {
            game,
            position: *position,
            bucket: Bucket::of(position),
            features: features(position),
            target,
            outcome: 0.0,
        });
    };
    for chip in chips {
        pending_draw = Some(position);
        position.play_unchecked(Move::Draw(chip));
        while matches!(position.phase(), Phase::Place(_) | Phase::Slide) {
            let result = searcher.search(&position, limits);
            if let Some(draw) = pending_draw.take() {
                record(&draw, result.value, &mut samples);
            }
            record(&position, result.value, &mut samples);
            // A little randomness in the opening, where the chips alone vary games too little.
            let mv = if position.placed() < 6 && rng.random_bool(0.15) {
                random_move(&position, &mut rng)
            } else {
                result.best
            };
            position.play_unchecked(mv);
        }
    }
    let outcome = position.score() as f64;
    for sample in &mut samples {
        sample.outcome = outcome;
        sample.target += config.lambda * (outcome - sample.target);
    }
    samples
}

/// Plays `config.games` self-play games on `config.jobs` threads, calling `progress` after each.
/// The samples come back in game order whatever the threads did.
pub fn generate(
    weights: &Weights,
    config: &TrainConfig,
    first_game: usize,
    progress: &(dyn Fn() + Sync),
) -> Vec<Sample> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(config.games));
    std::thread::scope(|scope| {
        for _ in 0..config.jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= config.games {
                    break;
                }
                let samples = self_play(weights, config, first_game + i);
                results
                    .lock()
                    .expect("no panics while holding the lock")
                    .push((i, samples));
                progress();
            });
        }
    });
    let mut results = results
        .into_inner()
        .expect("no panics while holding the lock");
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().flat_map(|(_, s)| s).collect()
}

/// Fits new weights to samples, bucket by bucket; `base` supplies buckets with too few samples.
pub fn fit_weights(samples: &[Sample], base: &Weights, ridge: f64) -> Weights {
    let mut weights = base.clone();
    for b in 0..BUCKETS {
        let bucket = Bucket(b);
        let rows: Vec<(&FeatureVector, f64)> = samples
            .iter()
            .filter(|s| s.bucket == bucket)
            .map(|s| (&s.features, s.target))
            .collect();
        // Moving each bucket's intercept onto the mean final score (removing the bias that
        // bootstrapping keeps) was tried and played 13 points per paired deal worse: it is not
        // done.
        if let Some(fitted) = fit_bucket(&rows, ridge) {
            weights.set_bucket(bucket, fitted);
        }
    }
    weights
}

/// The weights' prediction for a sample.
pub fn predict(weights: &Weights, sample: &Sample) -> f64 {
    let w = weights.bucket(sample.bucket);
    w[0] + w[1..]
        .iter()
        .zip(&sample.features)
        .map(|(w, f)| w * f)
        .sum::<f64>()
}

/// R^2 of weights on samples, against the targets and against the final scores.
pub fn evaluate_fit(weights: &Weights, samples: &[Sample]) -> (f64, f64) {
    let predictions: Vec<f64> = samples.iter().map(|s| predict(weights, s)).collect();
    let targets: Vec<f64> = samples.iter().map(|s| s.target).collect();
    let outcomes: Vec<f64> = samples.iter().map(|s| s.outcome).collect();
    (
        r_squared(&predictions, &targets),
        r_squared(&predictions, &outcomes),
    )
}

/// Runs every generation from `start`; returns the final weights and a report per generation.
pub fn train(
    start: Weights,
    config: &TrainConfig,
    mut on_generation: impl FnMut(&GenerationReport, &Weights),
    progress: &(dyn Fn() + Sync),
) -> (Weights, Vec<GenerationReport>) {
    let mut weights = start;
    let mut reports = Vec::new();
    for generation in 1..=config.generations {
        let samples = generate(&weights, config, first_game(config, generation), progress);
        let (fitted, report) = fit_generation(&weights, samples, config, generation);
        on_generation(&report, &fitted);
        reports.push(report);
        weights = fitted;
    }
    (weights, reports)
}

/// The number of the first self-play game of a generation (from 1): each generation plays
/// new chip orders.
pub fn first_game(config: &TrainConfig, generation: usize) -> usize {
    (generation - 1) * config.games
}

/// One generation's fit: new weights from the samples its games gave (in game order, as
/// [`generate`] returns them) with the `weights` that played them, and how well they fit.
/// Split from [`train`] so that the games can be played elsewhere (a cluster's workers) and
/// fitted here with the same result.
pub fn fit_generation(
    weights: &Weights,
    samples: Vec<Sample>,
    config: &TrainConfig,
    generation: usize,
) -> (Weights, GenerationReport) {
    let held_out = |s: &Sample| s.game % config.holdout_every.max(2) == 0;
    let (test, train): (Vec<Sample>, Vec<Sample>) = samples.into_iter().partition(held_out);
    let mid_game: Vec<Position> = test
        .iter()
        .filter(|s| MID_GAME.contains(&s.position.placed()))
        .map(|s| s.position)
        .collect();
    let fitted = fit_weights(&train, weights, config.ridge);
    let (r2_search, r2_outcome) = evaluate_fit(&fitted, &test);
    let (r2_search_before, _) = evaluate_fit(weights, &test);
    let mut within: Vec<f64> = (0..BUCKETS)
        .filter_map(|b| {
            let bucket: Vec<Sample> = test
                .iter()
                .filter(|s| s.bucket == Bucket(b))
                .cloned()
                .collect();
            (bucket.len() >= 50).then(|| evaluate_fit(&fitted, &bucket).0)
        })
        .collect();
    within.sort_by(f64::total_cmp);
    let r2_within = within.get(within.len() / 2).copied().unwrap_or(f64::NAN);
    let bias = test
        .iter()
        .map(|s| predict(&fitted, s) - s.outcome)
        .sum::<f64>()
        / test.len().max(1) as f64;
    let mut games: Vec<(usize, f64)> = train
        .iter()
        .chain(&test)
        .map(|s| (s.game, s.outcome))
        .collect();
    games.sort_by_key(|g| g.0);
    games.dedup_by_key(|g| g.0);
    let games: Vec<f64> = games.into_iter().map(|g| g.1).collect();
    let report = GenerationReport {
        generation,
        train_samples: train.len(),
        test_samples: test.len(),
        r2_search,
        bias,
        r2_within,
        r2_outcome,
        r2_search_before,
        mean_score: games.iter().sum::<f64>() / games.len().max(1) as f64,
        r2_deeper: deeper_r_squared(&fitted, &mid_game, 1000),
    };
    (fitted, report)
}

impl GenerationReport {
    /// The report as the line `entropy train` prints and keeps in the weights file.
    pub fn line(&self) -> String {
        format!(
            "generation {}: {} samples fitted, {} held out; held-out R^2 {:.3} against targets \
             (median within a bucket {:.3}; the weights that played: {:.3}), {:.3} against final \
             scores, bias {:+.2}, {:.3} against a search two moves deeper at turns 20-30; \
             mean self-play score {:.1}",
            self.generation,
            self.train_samples,
            self.test_samples,
            self.r2_search,
            self.r2_within,
            self.r2_search_before,
            self.r2_outcome,
            self.bias,
            self.r2_deeper,
            self.mean_score
        )
    }
}

/// The error of a training-data text (samples, the teacher's transitions) that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataTextError(pub String);

impl std::fmt::Display for DataTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DataTextError {}

impl Sample {
    /// The sample as one line, exactly: `GAME TARGET OUTCOME POSITION` (the numbers printed so
    /// that they read back to the same bits; the position as a position text). Features and
    /// bucket follow from the position, so they are not written.
    pub fn to_line(&self) -> String {
        format!(
            "{} {:?} {:?} {}",
            self.game,
            self.target,
            self.outcome,
            format_position(&self.position)
        )
    }

    /// Reads a line written by [`Sample::to_line`].
    pub fn from_line(line: &str) -> Result<Sample, DataTextError> {
        let bad = |what: &str| DataTextError(format!("{what} in sample line {line:?}"));
        let mut parts = line.trim().splitn(4, ' ');
        let mut next = |what: &str| parts.next().ok_or_else(|| bad(&format!("no {what}")));
        let game = next("game")?
            .parse()
            .map_err(|_| bad("a bad game number"))?;
        let target: f64 = next("target")?.parse().map_err(|_| bad("a bad target"))?;
        let outcome: f64 = next("outcome")?.parse().map_err(|_| bad("a bad outcome"))?;
        let position =
            parse_position(next("position")?).map_err(|e| bad(&format!("a bad position ({e})")))?;
        Ok(Sample {
            game,
            position,
            bucket: Bucket::of(&position),
            features: features(&position),
            target,
            outcome,
        })
    }
}

/// Samples as text, one line each ([`Sample::to_line`]).
pub fn samples_to_text(samples: &[Sample]) -> String {
    samples.iter().map(|s| s.to_line() + "\n").collect()
}

/// Reads the samples of [`samples_to_text`].
pub fn samples_from_text(text: &str) -> Result<Vec<Sample>, DataTextError> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(Sample::from_line)
        .collect()
}
