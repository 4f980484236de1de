//! Training the n-tuple evaluation by temporal differences in self-play (TD(0) on afterstates,
//! as TD-Gammon and the n-tuple networks of 2048 learn).
//!
//! Both roles play one move ahead over the current weights. The position after a player's move
//! (its afterstate) learns the value of the best afterstate its opponent can reach next: after
//! Order's move, a chip is drawn and Chaos places it where the evaluation says least (a sample
//! of the draw's expectation over the minimum); after Chaos's placement, Order's best move. The
//! last placement ends the game with its exact score.
//!
//! Games are played in batches with the weights frozen, spread over threads; each batch's
//! updates are then applied in game order, so the result depends on the seed and not on the
//! number of threads.

use entropy_core::{Move, Phase, Position, Size};
use entropy_engine::bots::{best_afterstate, make_bot, random_move, GreedyBot, NetBot, UnknownBot};
use entropy_engine::eval::{features, Weights, FEATURES};
use entropy_engine::learned::NTupleModel;
use entropy_engine::{Bot, Budget};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

/// How to train the n-tuple evaluation.
#[derive(Clone, Debug)]
pub struct TdConfig {
    /// Seed of the chip orders and the exploring moves.
    pub seed: u64,
    /// Self-play games in all.
    pub games: usize,
    /// Games played with frozen weights before their updates are applied.
    pub batch: usize,
    /// Threads playing a batch.
    pub jobs: usize,
    /// Step size at the start (the share of each error corrected, normalised least mean
    /// squares), falling linearly to `rate_end` over the games.
    pub rate: f32,
    /// Step size at the end.
    pub rate_end: f32,
    /// Chance of a uniformly random move instead of the best one.
    pub explore: f64,
    /// Other afterstates of each decision, chosen at random, that learn their own targets too
    /// (so the values of moves not played, which the one-move lookahead compares, are trained).
    pub candidates: usize,
    /// Board size.
    pub size: Size,
    /// Bots (built-in names, as `entropy match` takes them) that play Chaos instead of the
    /// agent, one per game chosen by its seed; only Order's afterstates learn then: their
    /// values become what Order can expect against these players. `["greedy"]` learns Order
    /// against greedy, which does not see Order's plans more than one move ahead. Empty:
    /// self-play.
    pub chaos: Vec<String>,
}

impl Default for TdConfig {
    fn default() -> Self {
        TdConfig {
            seed: 2026,
            games: 200_000,
            batch: 256,
            jobs: 1,
            rate: 0.05,
            rate_end: 0.005,
            explore: 0.02,
            candidates: 2,
            size: Size::SEVEN,
            chaos: Vec::new(),
        }
    }
}

/// One afterstate and the value it learns.
#[derive(Copy, Clone, Debug)]
pub struct Transition {
    /// The position after a player's move.
    pub after: Position,
    /// The value of the best afterstate of the next decision.
    pub target: f32,
}

/// A self-play game's transitions and final score.
#[derive(Clone, Debug)]
pub struct TdGame {
    /// Every afterstate with its target, in the order played.
    pub transitions: Vec<Transition>,
    /// Order's final score.
    pub score: u32,
    /// Decisions taken (both roles).
    pub decisions: usize,
}

/// The seed of one game of a training run.
pub fn game_seed(seed: u64, game: usize) -> u64 {
    seed ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A chip drawn from the bag, each chip equally likely.
pub fn draw(position: &Position, rng: &mut impl Rng) -> Move {
    let bag = position.bag();
    let chip = rng.random_range(0..bag.total());
    Move::Draw(bag.nth_chip(chip).expect("the bag holds that many chips"))
}

/// Plays one self-play game with the model, both roles one move ahead, a random move with
/// chance `explore`; with `config.chaos`, Order alone against one of those bots.
///
/// # Panics
/// If a name in `config.chaos` is not a bot: check them with [`check_chaos`] first.
pub fn td_game(model: &NTupleModel, config: &TdConfig, seed: u64) -> TdGame {
    if !config.chaos.is_empty() {
        let name = &config.chaos[(seed % config.chaos.len() as u64) as usize];
        let mut chaos = make_bot(name, seed).expect("Chaos bots checked before training");
        return td_game_against(model, config, seed, chaos.as_mut());
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = Game::new(config.size, true);
    while !game.position.is_over() {
        if game.position.phase() == Phase::Draw {
            game.position.play_unchecked(draw(&game.position, &mut rng));
            continue;
        }
        let next =
            |after: &Position, rng: &mut Xoshiro256PlusPlus| next_decision_value(model, after, rng);
        learn_decision(model, config, &mut game, &mut rng, next);
    }
    game.finish()
}

/// A game of the learner under way.
struct Game {
    position: Position,
    /// The afterstate of the learner's last move, which learns at its next decision.
    previous: Option<Position>,
    transitions: Vec<Transition>,
    decisions: usize,
}

impl Game {
    /// A new game; with `learn_start`, the empty board learns the value of the first decision.
    fn new(size: Size, learn_start: bool) -> Game {
        let position = Position::new(size);
        Game {
            position,
            previous: learn_start.then_some(position),
            transitions: Vec::with_capacity(4 * size.cells()),
            decisions: 0,
        }
    }

    fn finish(self) -> TdGame {
        TdGame {
            transitions: self.transitions,
            score: self.position.score(),
            decisions: self.decisions,
        }
    }
}

/// One decision of the learner, played: the afterstate of its previous move learns the value
/// of its best afterstate now, `config.candidates` random moves' afterstates learn
/// `next_value` of theirs, and it plays the best move (or a random one with chance
/// `config.explore`).
fn learn_decision(
    model: &NTupleModel,
    config: &TdConfig,
    game: &mut Game,
    rng: &mut Xoshiro256PlusPlus,
    mut next_value: impl FnMut(&Position, &mut Xoshiro256PlusPlus) -> Option<f32>,
) {
    let position = game.position;
    let (best, value) = best_afterstate(&position, |p| model.value(p)).expect("a decision");
    if let Some(after) = game.previous {
        game.transitions.push(Transition {
            after,
            target: value as f32,
        });
    }
    for _ in 0..config.candidates {
        let mut after = position;
        after.play_unchecked(random_move(&position, rng));
        if let Some(target) = next_value(&after, rng) {
            game.transitions.push(Transition { after, target });
        }
    }
    let mv = if config.explore > 0.0 && rng.random_bool(config.explore) {
        random_move(&position, rng)
    } else {
        best
    };
    game.position.play_unchecked(mv);
    game.decisions += 1;
    game.previous = Some(game.position);
}

/// Whether every name in `chaos` makes a bot (the error names the first that does not).
pub fn check_chaos(chaos: &[String]) -> Result<(), UnknownBot> {
    chaos
        .iter()
        .try_for_each(|name| make_bot(name, 0).map(drop))
}

/// [`td_game`] with a bot as Chaos: each Order afterstate learns the value of Order's best
/// afterstate at its next decision (after a chip drawn at random and the bot's placement), or
/// the final score where the game ends first.
fn td_game_against(
    model: &NTupleModel,
    config: &TdConfig,
    seed: u64,
    chaos: &mut dyn Bot,
) -> TdGame {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    chaos.new_game(config.size, entropy_core::Role::Chaos);
    let mut game = Game::new(config.size, false);
    while !game.position.is_over() {
        let position = game.position;
        match position.phase() {
            Phase::Draw => game.position.play_unchecked(draw(&position, &mut rng)),
            Phase::Place(_) => {
                let mv = chaos.choose(&position, Budget::UNLIMITED);
                game.position.play_unchecked(mv);
                game.decisions += 1;
            }
            _ => {
                let next = |after: &Position, rng: &mut Xoshiro256PlusPlus| {
                    Some(next_order_value(model, after, chaos, rng))
                };
                learn_decision(model, config, &mut game, &mut rng, next);
            }
        }
    }
    // Order's last afterstate learns the final score, after Chaos's last placement.
    if let Some(after) = game.previous {
        let target = game.position.score() as f32;
        game.transitions.push(Transition { after, target });
    }
    game.finish()
}

/// The value of Order's best afterstate at the decision after Order's afterstate `after`
/// against a Chaos bot (a chip drawn at random, the bot's placement); the final score where
/// the game ends first. The bot is asked about a position off its game's path: bots that
/// watch their opponent should not be given (`search:...,watch=0` does not watch).
fn next_order_value(
    model: &NTupleModel,
    after: &Position,
    chaos: &mut dyn Bot,
    rng: &mut impl Rng,
) -> f32 {
    let mut position = *after;
    while !position.is_over() && position.phase() != Phase::Slide {
        let mv = match position.phase() {
            Phase::Draw => draw(&position, rng),
            _ => chaos.choose(&position, Budget::UNLIMITED),
        };
        position.play_unchecked(mv);
    }
    match best_afterstate(&position, |p| model.value(p)) {
        Some((_, value)) => value as f32,
        None => position.score() as f32,
    }
}

/// The value of the best afterstate of the decision that follows an afterstate (a chip drawn at
/// random first if one is to be drawn); `None` at the end of the game.
fn next_decision_value(model: &NTupleModel, after: &Position, rng: &mut impl Rng) -> Option<f32> {
    let mut position = *after;
    if position.phase() == Phase::Draw {
        position.play_unchecked(draw(&position, rng));
    }
    best_afterstate(&position, |p| model.value(p)).map(|(_, v)| v as f32)
}

/// Plays the games `first..first + count` with frozen weights on `jobs` threads, in game order.
pub fn play_batch(
    model: &NTupleModel,
    config: &TdConfig,
    first: usize,
    count: usize,
) -> Vec<TdGame> {
    let jobs = config.jobs.clamp(1, count.max(1));
    let mut games: Vec<Option<TdGame>> = vec![None; count];
    std::thread::scope(|scope| {
        for (job, chunk) in games.chunks_mut(count.div_ceil(jobs)).enumerate() {
            let start = first + job * count.div_ceil(jobs);
            scope.spawn(move || {
                for (i, slot) in chunk.iter_mut().enumerate() {
                    let seed = game_seed(config.seed, start + i);
                    *slot = Some(td_game(model, config, seed));
                }
            });
        }
    });
    games
        .into_iter()
        .map(|g| g.expect("every game played"))
        .collect()
}

/// The features' means and standard deviations over the afterstates of `games` self-play games
/// of the score-only model, for standardising the linear inputs.
pub fn feature_scales(config: &TdConfig, games: usize) -> ([f32; FEATURES], [f32; FEATURES]) {
    let zero = NTupleModel::zero(
        config.size.side(),
        Weights::trained(),
        [0.0; FEATURES],
        [1.0; FEATURES],
    );
    let played = play_batch(&zero, config, usize::MAX / 2, games);
    crate::fit::feature_moments(
        played
            .iter()
            .flat_map(|g| &g.transitions)
            .filter(|t| !t.after.is_over())
            .map(|t| features(&t.after)),
    )
}

/// Applies a batch's updates in game order; returns the mean squared error before each update.
pub fn apply_batch(model: &mut NTupleModel, games: &[TdGame], rate: f32) -> f64 {
    let mut squared = 0f64;
    let mut count = 0usize;
    for t in games.iter().flat_map(|g| &g.transitions) {
        if t.after.is_over() {
            continue;
        }
        let inputs = model.inputs(&t.after);
        let error = model.learn(&inputs, t.target, rate);
        squared += (error as f64).powi(2);
        count += 1;
    }
    squared / count.max(1) as f64
}

/// The step size after `done` of `total` games.
pub fn rate_at(config: &TdConfig, done: usize) -> f32 {
    let progress = done as f32 / config.games.max(1) as f32;
    config.rate + (config.rate_end - config.rate) * progress.min(1.0)
}

/// Order's final score in a game between two bots on the chips drawn from one seed.
pub fn play_deal(order: &mut dyn Bot, chaos: &mut dyn Bot, size: Size, deal: u64) -> u32 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(deal);
    let mut position = Position::new(size);
    order.new_game(size, entropy_core::Role::Order);
    chaos.new_game(size, entropy_core::Role::Chaos);
    while !position.is_over() {
        let mv = match position.phase() {
            Phase::Draw => draw(&position, &mut rng),
            Phase::Slide => order.choose(&position, Budget::UNLIMITED),
            _ => chaos.choose(&position, Budget::UNLIMITED),
        };
        position.play_unchecked(mv);
    }
    position.score()
}

/// The agent's mean score as Order against greedy Chaos and conceded as Chaos against greedy
/// Order, over the same `deals` chip orders (spread over `jobs` threads).
pub fn against_greedy(model: &NTupleModel, size: Size, deals: usize, jobs: usize) -> (f64, f64) {
    let model = Arc::new(model.clone());
    let jobs = jobs.clamp(1, deals.max(1));
    let totals: Vec<(u64, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|job| {
                let model = model.clone();
                scope.spawn(move || {
                    let (mut as_order, mut conceded) = (0u64, 0u64);
                    for deal in (job..deals).step_by(jobs) {
                        let seed = 0xDEA1 + deal as u64;
                        let mut net = NetBot::with_model("net", model.clone(), seed);
                        let mut greedy = GreedyBot::new(seed);
                        as_order += play_deal(&mut net, &mut greedy, size, seed) as u64;
                        conceded += play_deal(&mut greedy, &mut net, size, seed) as u64;
                    }
                    (as_order, conceded)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect()
    });
    let n = deals.max(1) as f64;
    let as_order: u64 = totals.iter().map(|t| t.0).sum();
    let conceded: u64 = totals.iter().map(|t| t.1).sum();
    (as_order as f64 / n, conceded as f64 / n)
}

/// The learning curve's columns, one line per evaluation ([`TdReport::csv_line`]).
pub const TD_CURVE_HEADER: &str =
    "games,seconds,steps_per_second,rate,td_mse,mean_selfplay_score,as_order_vs_greedy,conceded_vs_greedy";

/// What training did since the last evaluation, and how the model plays against greedy now.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TdReport {
    /// Games trained on so far.
    pub games: usize,
    /// Seconds since this run started.
    pub seconds: f64,
    /// Decisions played a second since the last evaluation.
    pub decisions_per_second: f64,
    /// The step size now.
    pub rate: f32,
    /// Mean squared TD error a game since the last evaluation.
    pub td_error: f64,
    /// Mean self-play score since the last evaluation.
    pub self_play: f64,
    /// Mean score as Order against greedy's Chaos.
    pub as_order: f64,
    /// Mean score conceded as Chaos to greedy's Order.
    pub conceded: f64,
}

impl TdReport {
    /// The report as a line of the learning curve ([`TD_CURVE_HEADER`]).
    pub fn csv_line(&self) -> String {
        format!(
            "{},{:.1},{:.0},{:.4},{:.2},{:.2},{:.2},{:.2}",
            self.games,
            self.seconds,
            self.decisions_per_second,
            self.rate,
            self.td_error,
            self.self_play,
            self.as_order,
            self.conceded
        )
    }
}

/// Trains `model` by TD from `done` games to `config.games`, in batches, evaluating it against
/// greedy over `eval_deals` deals every `eval_every` games and at the end. `on_batch` hears the
/// games done after every batch; `on_eval` gets each evaluation's report with the model (the
/// caller writes its curve and checkpoint there, and an error stops the run).
pub fn train<E>(
    model: &mut NTupleModel,
    config: &TdConfig,
    mut done: usize,
    eval_every: usize,
    eval_deals: usize,
    mut on_batch: impl FnMut(usize),
    mut on_eval: impl FnMut(&TdReport, &NTupleModel) -> Result<(), E>,
) -> Result<(), E> {
    let started = std::time::Instant::now();
    let eval_every = eval_every.max(1);
    // Since the last evaluation: decisions, squared error summed over games, scores, games.
    let (mut decisions, mut squared, mut scores, mut games_since) = (0usize, 0f64, 0u64, 0usize);
    let mut window_start = std::time::Instant::now();
    while done < config.games {
        let until_eval = eval_every - done % eval_every;
        let count = config.batch.max(1).min(config.games - done).min(until_eval);
        let games = play_batch(model, config, done, count);
        let mse = apply_batch(model, &games, rate_at(config, done));
        done += count;
        decisions += games.iter().map(|g| g.decisions).sum::<usize>();
        squared += mse * count as f64;
        scores += games.iter().map(|g| u64::from(g.score)).sum::<u64>();
        games_since += count;
        on_batch(done);
        if done % eval_every == 0 || done == config.games {
            let (as_order, conceded) = against_greedy(model, config.size, eval_deals, config.jobs);
            let report = TdReport {
                games: done,
                seconds: started.elapsed().as_secs_f64(),
                decisions_per_second: decisions as f64
                    / window_start.elapsed().as_secs_f64().max(1e-9),
                rate: rate_at(config, done),
                td_error: squared / games_since as f64,
                self_play: scores as f64 / games_since as f64,
                as_order,
                conceded,
            };
            on_eval(&report, model)?;
            (decisions, squared, scores, games_since) = (0, 0.0, 0, 0);
            window_start = std::time::Instant::now();
        }
    }
    Ok(())
}

/// The model and the games done of an earlier run written to `out` with the same `settings`
/// (its `made by:` line), if there is one; an error if `out` holds another run.
pub fn resume_run(
    out: &std::path::Path,
    settings: &str,
) -> Result<Option<(NTupleModel, usize)>, String> {
    if !out.exists() {
        return Ok(None);
    }
    let bytes = std::fs::read(out).map_err(|e| format!("cannot read {}: {e}", out.display()))?;
    let model = NTupleModel::from_bytes(&bytes)
        .map_err(|e| format!("cannot resume from {}: {}", out.display(), e.0))?;
    let provenance = model.provenance().to_owned();
    let made_by = provenance.lines().find_map(|l| l.strip_prefix("made by: "));
    if made_by != Some(settings) {
        return Err(format!(
            "{} holds another run ({}); use --fresh to start again or another --out",
            out.display(),
            made_by.unwrap_or("unknown settings")
        ));
    }
    let done = provenance
        .lines()
        .find_map(|l| l.strip_prefix("done: "))
        .and_then(|d| d.parse().ok())
        .ok_or_else(|| "the weights do not say how many games were done".to_owned())?;
    Ok(Some((model, done)))
}
