//! A vectorised reinforcement-learning environment for Entropy(N) over the Rust core: many games
//! stepped in one call, writing observations, action masks, rewards and flags into buffers the
//! caller owns (numpy arrays, through the `entropy-py` binding).
//!
//! - [`actions`]: the action layout (every legal move, including slides that stop early).
//! - [`observation`]: the PufferLib plan's 402-float planes and a compact byte layout.
//!
//! Both live in the engine (`entropy_engine::learned`), re-exported here: the `ppo` bot reads
//! the same observation and action numbers as the policy it plays was trained on.
//!
//! A finished game resets itself inside [`VecEnv::step`], and that step still reports
//! `terminal = true` with the final reward; the observation written is the new game's first.
//!
//! The games step in turn or on rayon's threads ([`EnvConfig::threads`]); each writes only its
//! own rows, so the results are the same either way.

#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod render;

pub use entropy_engine::learned::{actions, observation};

use entropy_core::notation::text::{format_position, parse_position};
use entropy_core::{Move, Phase, Position, Role, Size};
use entropy_engine::bots::random_move;
use entropy_engine::eval::{Evaluator, LinearEval};
use entropy_engine::search::moves_to_end;
use entropy_engine::{make_bot, Bot, Budget};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

pub use actions::{action_count, action_of, move_of, pass_action};
pub use observation::{observation_size, ObservationKind};

/// Which role the agent plays in single-agent mode.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RoleChoice {
    /// Always Order.
    Order,
    /// Always Chaos.
    Chaos,
    /// Order or Chaos with equal chance, drawn at each reset.
    Random,
}

/// Who the agents are.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One agent per game, against a built-in opponent.
    Single,
    /// Two agents per game, for self-play: agent `2i` is game i's Chaos, `2i + 1` its Order.
    /// Only the agent to move has legal actions; the other's action is ignored. The agent to
    /// move may give [`WAIT`] instead: its game does not move this step (no reward, no penalty),
    /// so that a caller can step some games and not others.
    SelfPlay,
}

/// The potential whose change the shaping rewards pay ([`EnvConfig::reward_shaping`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Potential {
    /// The score of the board so far: a move's reward is what it scores now.
    Score,
    /// The engine's expected final score without a search: the shipped linear evaluation
    /// plus its calibration's offset for the moves left (the correction that makes the
    /// values shown people mean what they say). A move's reward also counts what it builds for
    /// later, as the searcher's leaves value it.
    Evaluation,
}

impl Potential {
    /// Order's potential in `position`: exactly the score once the game is over.
    pub fn of(self, position: &Position) -> f32 {
        match self {
            Potential::Score => position.score() as f32,
            // Over, the evaluation is the score and the offset for no moves left is 0.
            Potential::Evaluation => {
                let eval = LinearEval::trained_ref();
                let offset = eval.calibration().map_or(0.0, |calibration| {
                    calibration.offset(position.size().side(), moves_to_end(position))
                });
                (eval.evaluate(position) + offset) as f32
            }
        }
    }
}

impl std::str::FromStr for Potential {
    type Err = String;

    fn from_str(name: &str) -> Result<Potential, String> {
        match name {
            "score" => Ok(Potential::Score),
            "eval" | "evaluation" => Ok(Potential::Evaluation),
            other => Err(format!(
                "reward potential {other:?}: use \"score\" (the board's score so far) or \"eval\" (the engine's expected final score)"
            )),
        }
    }
}

/// The action that leaves a self-play game as it is for a step (see [`Mode::SelfPlay`]).
pub const WAIT: i64 = -1;

/// How the environment is set up.
#[derive(Clone, Debug)]
pub struct EnvConfig {
    /// Board size (7, or 5 for Entropy(5)).
    pub size: Size,
    /// Games stepped together.
    pub num_envs: usize,
    /// The agent's role (single-agent mode).
    pub role: RoleChoice,
    /// The opponent, a built-in bot name (`random`, `pass`, `greedy`, `search:nodes=1000`...).
    pub opponent: String,
    /// Single agent or self-play.
    pub mode: Mode,
    /// The observation layout.
    pub observation: ObservationKind,
    /// Append the action mask to each observation (PufferLib's trainer has no mask channel).
    pub mask_in_observation: bool,
    /// Reward for an illegal action, which is refused (the game does not move).
    pub reward_illegal: f32,
    /// Per-step shaping: this times the change of the potential ([`EnvConfig::reward_potential`])
    /// since the agent's last decision over 25, negated for Chaos. 0 turns it off.
    pub reward_shaping: f32,
    /// What the shaping measures the change of. Either way a finished game's potential is its
    /// final score, so an episode's shaping rewards sum to the final score less the potential
    /// of the empty board (a constant): the best play is the same, the signal is earlier.
    pub reward_potential: Potential,
    /// Weight of the plan's terminal reward, [`order_reward`] (negated for Chaos). With
    /// `reward_shaping` on and this at 0, an episode's return is the final score over 25
    /// times the shaping weight (negated for Chaos): linear in the score, with no clamp.
    pub reward_final: f32,
    /// Seed of every game's chips, roles and opponent.
    pub seed: u64,
    /// Restart a finished game inside the step that finishes it (vectorised trainers). When
    /// off, a finished game shows its final board with an empty mask until the next reset
    /// (Gymnasium and PettingZoo semantics), and steps on it do nothing.
    pub autoreset: bool,
    /// Threads that step the games: 1 steps them in turn on the caller's thread, 0 on rayon's
    /// global pool (one thread per core), n > 1 on a pool of n threads of this environment's
    /// own. The games are independent, so every result is the same whichever is chosen; what
    /// changes is the time a step takes when observations are dear (`evals`).
    pub threads: usize,
}

impl Default for EnvConfig {
    fn default() -> Self {
        EnvConfig {
            size: Size::SEVEN,
            num_envs: 1,
            role: RoleChoice::Random,
            opponent: "random".to_owned(),
            mode: Mode::Single,
            observation: ObservationKind::Planes,
            mask_in_observation: false,
            reward_illegal: -0.1,
            reward_shaping: 0.0,
            reward_potential: Potential::Score,
            reward_final: 1.0,
            seed: 0,
            autoreset: true,
            threads: 1,
        }
    }
}

/// A configuration the environment cannot use.
#[derive(Debug, thiserror::Error)]
pub enum EnvError {
    /// The opponent is not a built-in bot.
    #[error(transparent)]
    UnknownOpponent(#[from] entropy_engine::UnknownBot),
    /// A buffer has the wrong length.
    #[error("{name} has {actual} elements, expected {expected}")]
    BufferSize {
        /// Which buffer.
        name: &'static str,
        /// Its length.
        actual: usize,
        /// The length needed.
        expected: usize,
    },
    /// A game index past the number of games.
    #[error("game {0} does not exist")]
    NoSuchGame(usize),
    /// A position text that cannot be used.
    #[error("cannot set the state: {0}")]
    BadState(String),
    /// The zero-game environment.
    #[error("num_envs must be at least 1")]
    NoGames,
    /// An observation buffer of the other element type than the observation's.
    #[error("the {kind:?} observation needs {needs} buffers")]
    BufferType {
        /// The observation.
        kind: ObservationKind,
        /// The element type it needs (`f32` or `u8`).
        needs: &'static str,
    },
    /// The thread pool could not be started.
    #[error("cannot start the environment's threads: {0}")]
    Threads(String),
}

/// The terminal reward of a final score for Order: `clamp((S - 75) / 25, -1, 1)`.
pub fn order_reward(score: u32) -> f32 {
    ((score as f32 - 75.0) / 25.0).clamp(-1.0, 1.0)
}

/// Statistics of the episodes finished since the last clear.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Episodes finished.
    pub episodes: u64,
    /// Final scores, summed.
    pub score: f64,
    /// Agent returns, summed (Order's in self-play).
    pub episode_return: f64,
    /// Agent decisions per episode, summed.
    pub episode_length: f64,
    /// Episodes in which the agent played Order.
    pub order_episodes: u64,
    /// Final scores of those, summed.
    pub order_score: f64,
    /// Final scores of the episodes in which the agent played Chaos, summed.
    pub chaos_score: f64,
    /// Illegal actions refused.
    pub illegal: u64,
}

/// The buffers one step writes, one row per agent.
pub struct Buffers<'a> {
    /// Observations: `agents x observation_size` values.
    pub observations: Observations<'a>,
    /// Action masks: `agents x action_count`, true where legal.
    pub masks: &'a mut [bool],
    /// Rewards, one per agent.
    pub rewards: &'a mut [f32],
    /// Whether the agent's game ended on this step.
    pub terminals: &'a mut [bool],
    /// Whether the game was cut short (never: Entropy always ends).
    pub truncations: &'a mut [bool],
}

/// Observation buffer of either element type.
pub enum Observations<'a> {
    /// For [`ObservationKind::Planes`], [`ObservationKind::Gains`], [`ObservationKind::Lines`]
    /// and [`ObservationKind::Evals`].
    F32(&'a mut [f32]),
    /// For [`ObservationKind::Compact`].
    U8(&'a mut [u8]),
}

struct Game {
    position: Position,
    agent: Role,
    rng: Xoshiro256PlusPlus,
    opponent: Option<Box<dyn Bot>>,
    /// The potential at the agent's last decision, for shaping (per role in self-play).
    last_potential: [f32; 2],
    episode_return: f32,
    episode_length: u32,
}

/// What one game's step leaves for the environment's statistics: each game steps alone (on
/// whichever thread), and the environment adds these up in the games' order afterwards.
#[derive(Default)]
struct Outcome {
    illegal: u64,
    finished: Option<Episode>,
}

/// A finished episode, as the statistics count it.
struct Episode {
    score: f64,
    episode_return: f64,
    episode_length: f64,
    agent: Role,
}

impl Stats {
    fn add(&mut self, outcome: &Outcome) {
        self.illegal += outcome.illegal;
        let Some(episode) = &outcome.finished else {
            return;
        };
        self.episodes += 1;
        self.score += episode.score;
        self.episode_return += episode.episode_return;
        self.episode_length += episode.episode_length;
        if episode.agent == Role::Order {
            self.order_episodes += 1;
            self.order_score += episode.score;
        } else {
            self.chaos_score += episode.score;
        }
    }
}

/// Many games of Entropy stepped together.
pub struct VecEnv {
    config: EnvConfig,
    games: Vec<Game>,
    stats: Stats,
    /// The threads that step the games, when [`EnvConfig::threads`] asks for a pool of its own.
    pool: Option<rayon::ThreadPool>,
}

fn derive(seed: u64, a: u64, b: u64) -> u64 {
    let mut z =
        seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The shaping reward of `role` for the potential's change since its last decision (negated
/// for Chaos), remembering the potential for its next one.
fn shaped_reward(game: &mut Game, role: Role, config: &EnvConfig) -> f32 {
    if config.reward_shaping == 0.0 {
        return 0.0;
    }
    let sign = if role == Role::Order { 1.0 } else { -1.0 };
    let potential = config.reward_potential.of(&game.position);
    let slot = role_index(role);
    let reward = config.reward_shaping * sign * (potential - game.last_potential[slot]) / 25.0;
    game.last_potential[slot] = potential;
    reward
}

fn role_index(role: Role) -> usize {
    match role {
        Role::Chaos => 0,
        Role::Order => 1,
    }
}

/// Agents per game: one, or two in self-play.
fn agents_per_game(mode: Mode) -> usize {
    match mode {
        Mode::Single => 1,
        Mode::SelfPlay => 2,
    }
}

/// Values per observation row (with the mask if it is appended).
fn row_size(config: &EnvConfig) -> usize {
    observation_size(config.size, config.observation)
        + if config.mask_in_observation {
            action_count(config.size)
        } else {
            0
        }
}

/// Cuts the buffers into each game's rows, in the games' order.
fn split_rows<'b>(
    buffers: &'b mut Buffers<'_>,
    games: usize,
    config: &EnvConfig,
) -> Vec<Buffers<'b>> {
    let agents = agents_per_game(config.mode);
    let (obs, actions) = (
        agents * row_size(config),
        agents * action_count(config.size),
    );
    let observations: Vec<Observations<'b>> = match &mut buffers.observations {
        Observations::F32(b) => b.chunks_mut(obs).map(Observations::F32).collect(),
        Observations::U8(b) => b.chunks_mut(obs).map(Observations::U8).collect(),
    };
    let rows: Vec<Buffers<'b>> = observations
        .into_iter()
        .zip(buffers.masks.chunks_mut(actions))
        .zip(buffers.rewards.chunks_mut(agents))
        .zip(buffers.terminals.chunks_mut(agents))
        .zip(buffers.truncations.chunks_mut(agents))
        .map(
            |((((observations, masks), rewards), terminals), truncations)| Buffers {
                observations,
                masks,
                rewards,
                terminals,
                truncations,
            },
        )
        .collect();
    debug_assert_eq!(rows.len(), games);
    rows
}

impl VecEnv {
    /// Makes the games (not yet reset).
    pub fn new(config: EnvConfig) -> Result<VecEnv, EnvError> {
        if config.num_envs == 0 {
            return Err(EnvError::NoGames);
        }
        let mut games = Vec::with_capacity(config.num_envs);
        for i in 0..config.num_envs {
            let opponent = match config.mode {
                Mode::Single => Some(make_bot(
                    &config.opponent,
                    derive(config.seed, i as u64, 1),
                )?),
                Mode::SelfPlay => None,
            };
            games.push(Game {
                position: Position::new(config.size),
                agent: Role::Order,
                rng: Xoshiro256PlusPlus::seed_from_u64(derive(config.seed, i as u64, 0)),
                opponent,
                last_potential: [0.0; 2],
                episode_return: 0.0,
                episode_length: 0,
            });
        }
        let pool = match config.threads {
            0 | 1 => None,
            n => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| EnvError::Threads(e.to_string()))?,
            ),
        };
        Ok(VecEnv {
            config,
            games,
            stats: Stats::default(),
            pool,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &EnvConfig {
        &self.config
    }

    /// Agents: one per game, or two in self-play.
    pub fn num_agents(&self) -> usize {
        agents_per_game(self.config.mode) * self.games.len()
    }

    /// Values per observation row (with the mask if it is appended).
    pub fn observation_size(&self) -> usize {
        row_size(&self.config)
    }

    /// Actions per agent.
    pub fn action_count(&self) -> usize {
        action_count(self.config.size)
    }

    fn check(&self, buffers: &Buffers<'_>) -> Result<(), EnvError> {
        let agents = self.num_agents();
        let kind = self.config.observation;
        let bytes = kind == ObservationKind::Compact;
        let obs_len = match &buffers.observations {
            Observations::F32(b) if !bytes => b.len(),
            Observations::U8(b) if bytes => b.len(),
            _ => {
                let needs = if bytes { "u8" } else { "f32" };
                return Err(EnvError::BufferType { kind, needs });
            }
        };
        let checks = [
            ("observations", obs_len, agents * self.observation_size()),
            ("masks", buffers.masks.len(), agents * self.action_count()),
            ("rewards", buffers.rewards.len(), agents),
            ("terminals", buffers.terminals.len(), agents),
            ("truncations", buffers.truncations.len(), agents),
        ];
        for (name, actual, expected) in checks {
            if actual != expected {
                return Err(EnvError::BufferSize {
                    name,
                    actual,
                    expected,
                });
            }
        }
        Ok(())
    }

    /// Runs `work` on every game with its rows of the buffers, on the configured threads (the
    /// games are independent: each has its own chips, opponent and rows), then adds the
    /// outcomes to the statistics in the games' order, so the threads change no result.
    fn each_game<F>(&mut self, buffers: &mut Buffers<'_>, work: F)
    where
        F: Fn(&EnvConfig, usize, &mut Game, &mut Buffers<'_>) -> Outcome + Sync,
    {
        let config = &self.config;
        let mut rows = split_rows(buffers, self.games.len(), config);
        let outcomes: Vec<Outcome> = if config.threads == 1 {
            self.games
                .iter_mut()
                .zip(rows.iter_mut())
                .enumerate()
                .map(|(i, (game, rows))| work(config, i, game, rows))
                .collect()
        } else {
            let (games, work) = (&mut self.games, &work);
            let mut parallel = move || {
                games
                    .par_iter_mut()
                    .zip(rows.par_iter_mut())
                    .enumerate()
                    .map(|(i, (game, rows))| work(config, i, game, rows))
                    .collect()
            };
            match &self.pool {
                Some(pool) => pool.install(parallel),
                None => parallel(),
            }
        };
        for outcome in &outcomes {
            self.stats.add(outcome);
        }
    }

    /// Starts every game afresh (re-seeded if a seed is given) and writes the first observations.
    pub fn reset(&mut self, seed: Option<u64>, buffers: &mut Buffers<'_>) -> Result<(), EnvError> {
        self.check(buffers)?;
        if let Some(seed) = seed {
            self.config.seed = seed;
            for (i, game) in self.games.iter_mut().enumerate() {
                game.rng = Xoshiro256PlusPlus::seed_from_u64(derive(seed, i as u64, 0));
                if self.config.mode == Mode::Single {
                    game.opponent =
                        Some(make_bot(&self.config.opponent, derive(seed, i as u64, 1))?);
                }
            }
        }
        self.each_game(buffers, |config, _, game, rows| {
            game.restart(config);
            game.write(config, rows);
            rows.rewards.fill(0.0);
            rows.terminals.fill(false);
            rows.truncations.fill(false);
            Outcome::default()
        });
        Ok(())
    }

    /// Plays one action per agent (ignored for agents not to move) and writes the results.
    pub fn step(&mut self, actions: &[i64], buffers: &mut Buffers<'_>) -> Result<(), EnvError> {
        self.check(buffers)?;
        if actions.len() != self.num_agents() {
            return Err(EnvError::BufferSize {
                name: "actions",
                actual: actions.len(),
                expected: self.num_agents(),
            });
        }
        let agents = agents_per_game(self.config.mode);
        self.each_game(buffers, |config, i, game, rows| {
            rows.truncations.fill(false);
            let actions = &actions[agents * i..agents * (i + 1)];
            let outcome = match config.mode {
                Mode::Single => game.step_single(config, actions[0], rows),
                Mode::SelfPlay => game.step_self_play(config, actions, rows),
            };
            game.write(config, rows);
            outcome
        });
        Ok(())
    }

    /// Statistics of the episodes finished since the last [`VecEnv::clear_stats`].
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Forgets the statistics.
    pub fn clear_stats(&mut self) {
        self.stats = Stats::default();
    }

    fn game(&self, i: usize) -> Result<&Game, EnvError> {
        self.games.get(i).ok_or(EnvError::NoSuchGame(i))
    }

    /// Game i's position.
    pub fn position(&self, i: usize) -> Result<&Position, EnvError> {
        Ok(&self.game(i)?.position)
    }

    /// Game i's agent role (single-agent mode).
    pub fn agent_role(&self, i: usize) -> Result<Role, EnvError> {
        Ok(self.game(i)?.agent)
    }

    /// The legal actions in game i now.
    pub fn legal_actions(&self, i: usize) -> Result<Vec<usize>, EnvError> {
        let position = &self.game(i)?.position;
        Ok(position
            .legal_moves()
            .iter()
            .filter_map(|&mv| action_of(position.size(), mv))
            .collect())
    }

    /// The colours the next draw of game i may bring, with their probabilities.
    pub fn chance_outcomes(&self, i: usize) -> Result<Vec<(u8, f64)>, EnvError> {
        let bag = self.game(i)?.position.bag();
        let total = bag.total().max(1) as f64;
        Ok(bag
            .colours()
            .map(|(c, n)| (c.number(), n as f64 / total))
            .collect())
    }

    /// Game i's state as a position text.
    pub fn get_state(&self, i: usize) -> Result<String, EnvError> {
        Ok(format_position(&self.game(i)?.position))
    }

    /// Replaces game i's position (a position text at a decision of the agent to move; in
    /// single-agent mode the agent takes the role to move) and rewrites its buffers.
    pub fn set_state(
        &mut self,
        i: usize,
        text: &str,
        buffers: &mut Buffers<'_>,
    ) -> Result<(), EnvError> {
        self.check(buffers)?;
        let position = parse_position(text).map_err(|e| EnvError::BadState(e.to_string()))?;
        if position.size() != self.config.size {
            return Err(EnvError::BadState(format!(
                "the board is not {}x{}",
                self.config.size, self.config.size
            )));
        }
        let role = position.to_move().ok_or_else(|| {
            EnvError::BadState("a player must be to move (phase slide or a colour)".to_owned())
        })?;
        let config = &self.config;
        let game = self.games.get_mut(i).ok_or(EnvError::NoSuchGame(i))?;
        game.position = position;
        if config.mode == Mode::Single {
            game.agent = role;
        }
        game.last_potential = [config.reward_potential.of(&position); 2];
        let mut rows = split_rows(buffers, self.games.len(), config);
        self.games[i].write(config, &mut rows[i]);
        Ok(())
    }
}

impl Game {
    /// Plays the agent's action in a single-agent game, then chance and the opponent up to the
    /// agent's next decision. `rows` is this game's one row.
    fn step_single(&mut self, config: &EnvConfig, action: i64, rows: &mut Buffers<'_>) -> Outcome {
        if self.position.is_over() {
            rows.rewards[0] = 0.0;
            rows.terminals[0] = true;
            return Outcome::default();
        }
        rows.terminals[0] = false;
        let Some(mv) = self.legal_move(action) else {
            rows.rewards[0] = config.reward_illegal;
            self.episode_return += config.reward_illegal;
            return Outcome {
                illegal: 1,
                finished: None,
            };
        };
        self.position.play_unchecked(mv);
        self.episode_length += 1;
        advance(self, config.mode);
        let sign = if self.agent == Role::Order { 1.0 } else { -1.0 };
        let score = self.position.score();
        let mut reward = shaped_reward(self, self.agent, config);
        if self.position.is_over() {
            reward += sign * config.reward_final * order_reward(score);
            rows.terminals[0] = true;
        }
        self.episode_return += reward;
        rows.rewards[0] = reward;
        Outcome {
            illegal: 0,
            finished: self.position.is_over().then(|| self.finish(config)),
        }
    }

    /// Plays the mover's action in a self-play game. `actions` and `rows` are this game's two:
    /// Chaos's, then Order's.
    fn step_self_play(
        &mut self,
        config: &EnvConfig,
        actions: &[i64],
        rows: &mut Buffers<'_>,
    ) -> Outcome {
        const CHAOS: usize = 0;
        const ORDER: usize = 1;
        let over = self.position.is_over();
        rows.rewards.fill(0.0);
        rows.terminals.fill(over);
        if over {
            return Outcome::default();
        }
        let mover = match self.position.phase() {
            Phase::Place(_) => CHAOS,
            _ => ORDER,
        };
        if actions[mover] == WAIT {
            return Outcome::default();
        }
        let Some(mv) = self.legal_move(actions[mover]) else {
            rows.rewards[mover] = config.reward_illegal;
            return Outcome {
                illegal: 1,
                finished: None,
            };
        };
        self.position.play_unchecked(mv);
        self.episode_length += 1;
        advance(self, Mode::SelfPlay);
        let role = if mover == ORDER {
            Role::Order
        } else {
            Role::Chaos
        };
        rows.rewards[mover] = shaped_reward(self, role, config);
        if self.position.is_over() {
            // The other player's score change since its last decision ends the game too: each
            // role's shaped rewards then sum to its share of the final score.
            let other = ORDER + CHAOS - mover;
            rows.rewards[other] = shaped_reward(self, role.opponent(), config);
            let r = config.reward_final * order_reward(self.position.score());
            rows.rewards[ORDER] += r;
            rows.rewards[CHAOS] -= r;
            rows.terminals.fill(true);
        }
        self.episode_return += rows.rewards[ORDER];
        Outcome {
            illegal: 0,
            finished: self.position.is_over().then(|| self.finish(config)),
        }
    }

    /// The move an action stands for, if legal now.
    fn legal_move(&self, action: i64) -> Option<Move> {
        let action = usize::try_from(action).ok()?;
        move_of(&self.position, action).filter(|&mv| self.position.check(mv).is_ok())
    }

    /// The finished episode, for the statistics; the game restarts if the config says so.
    fn finish(&mut self, config: &EnvConfig) -> Episode {
        let episode = Episode {
            score: self.position.score() as f64,
            episode_return: self.episode_return as f64,
            episode_length: self.episode_length as f64,
            agent: self.agent,
        };
        if config.autoreset {
            self.restart(config);
        }
        episode
    }

    /// A new game: fresh board, the agent's role, and play up to the agent's first decision.
    fn restart(&mut self, config: &EnvConfig) {
        self.position = Position::new(config.size);
        self.agent = match config.role {
            RoleChoice::Order => Role::Order,
            RoleChoice::Chaos => Role::Chaos,
            RoleChoice::Random => {
                if self.rng.random_bool(0.5) {
                    Role::Order
                } else {
                    Role::Chaos
                }
            }
        };
        self.last_potential = [config.reward_potential.of(&self.position); 2];
        self.episode_return = 0.0;
        self.episode_length = 0;
        if let Some(opponent) = self.opponent.as_mut() {
            opponent.new_game(config.size, self.agent.opponent());
        }
        advance(self, config.mode);
    }

    /// Writes this game's observation and mask rows (`rows`: one, or Chaos's and Order's).
    fn write(&self, config: &EnvConfig, rows: &mut Buffers<'_>) {
        let obs_size = row_size(config);
        let actions = action_count(config.size);
        let plain = observation_size(config.size, config.observation);
        for row in 0..agents_per_game(config.mode) {
            let to_move = match config.mode {
                Mode::Single => true,
                Mode::SelfPlay => match self.position.phase() {
                    Phase::Place(_) => row == 0,
                    Phase::Slide => row == 1,
                    _ => false,
                },
            };
            let mask = &mut rows.masks[row * actions..(row + 1) * actions];
            if to_move {
                observation::write_mask(&self.position, mask);
            } else {
                mask.fill(false);
            }
            match &mut rows.observations {
                Observations::F32(obs) => {
                    let out = &mut obs[row * obs_size..(row + 1) * obs_size];
                    observation::write_observation(
                        &self.position,
                        config.observation,
                        &mut out[..plain],
                    );
                    if config.mask_in_observation {
                        for (o, &m) in out[plain..].iter_mut().zip(mask.iter()) {
                            *o = if m { 1.0 } else { 0.0 };
                        }
                    }
                }
                Observations::U8(obs) => {
                    let out = &mut obs[row * obs_size..(row + 1) * obs_size];
                    observation::write_compact(&self.position, &mut out[..plain]);
                    if config.mask_in_observation {
                        for (o, &m) in out[plain..].iter_mut().zip(mask.iter()) {
                            *o = m as u8;
                        }
                    }
                }
            }
        }
    }
}

/// Plays chance and the opponent until an agent must decide or the game is over.
fn advance(game: &mut Game, mode: Mode) {
    loop {
        let phase = game.position.phase();
        let mv = match (phase, mode) {
            (Phase::Over, _) => return,
            (Phase::Draw, _) => random_move(&game.position, &mut game.rng),
            (_, Mode::SelfPlay) => return,
            (Phase::Place(_), Mode::Single) if game.agent == Role::Chaos => return,
            (Phase::Slide, Mode::Single) if game.agent == Role::Order => return,
            (_, Mode::Single) => {
                let opponent = game
                    .opponent
                    .as_mut()
                    .expect("single-agent games have an opponent");
                opponent.choose(&game.position, Budget::UNLIMITED)
            }
        };
        game.position.play_unchecked(mv);
    }
}
