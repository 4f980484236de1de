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
    /// For [`ObservationKind::Planes`], [`ObservationKind::Gains`] and
    /// [`ObservationKind::Lines`].
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

/// Many games of Entropy stepped together.
pub struct VecEnv {
    config: EnvConfig,
    games: Vec<Game>,
    stats: Stats,
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
        Ok(VecEnv {
            config,
            games,
            stats: Stats::default(),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &EnvConfig {
        &self.config
    }

    /// Agents: one per game, or two in self-play.
    pub fn num_agents(&self) -> usize {
        match self.config.mode {
            Mode::Single => self.games.len(),
            Mode::SelfPlay => 2 * self.games.len(),
        }
    }

    /// Values per observation row (with the mask if it is appended).
    pub fn observation_size(&self) -> usize {
        observation_size(self.config.size, self.config.observation)
            + if self.config.mask_in_observation {
                self.action_count()
            } else {
                0
            }
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
        for i in 0..self.games.len() {
            self.restart(i);
            self.write(i, buffers);
            buffers.rewards.iter_mut().for_each(|r| *r = 0.0);
            buffers.terminals.iter_mut().for_each(|t| *t = false);
            buffers.truncations.iter_mut().for_each(|t| *t = false);
        }
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
        buffers.truncations.iter_mut().for_each(|t| *t = false);
        for i in 0..self.games.len() {
            match self.config.mode {
                Mode::Single => self.step_single(i, actions[i], buffers),
                Mode::SelfPlay => self.step_self_play(i, actions, buffers),
            }
            self.write(i, buffers);
        }
        Ok(())
    }

    fn step_single(&mut self, i: usize, action: i64, buffers: &mut Buffers<'_>) {
        if self.games[i].position.is_over() {
            buffers.rewards[i] = 0.0;
            buffers.terminals[i] = true;
            return;
        }
        buffers.terminals[i] = false;
        let Some(mv) = self.legal_move(i, action) else {
            buffers.rewards[i] = self.config.reward_illegal;
            self.games[i].episode_return += self.config.reward_illegal;
            self.stats.illegal += 1;
            return;
        };
        let game = &mut self.games[i];
        game.position.play_unchecked(mv);
        game.episode_length += 1;
        advance(game, self.config.mode);
        let sign = if game.agent == Role::Order { 1.0 } else { -1.0 };
        let score = game.position.score();
        let mut reward = shaped_reward(game, game.agent, &self.config);
        if game.position.is_over() {
            reward += sign * self.config.reward_final * order_reward(score);
            buffers.terminals[i] = true;
        }
        game.episode_return += reward;
        buffers.rewards[i] = reward;
        if game.position.is_over() {
            self.finish(i);
        }
    }

    fn step_self_play(&mut self, i: usize, actions: &[i64], buffers: &mut Buffers<'_>) {
        let (chaos, order) = (2 * i, 2 * i + 1);
        let over = self.games[i].position.is_over();
        for agent in [chaos, order] {
            buffers.rewards[agent] = 0.0;
            buffers.terminals[agent] = over;
        }
        if over {
            return;
        }
        let mover = match self.games[i].position.phase() {
            Phase::Place(_) => chaos,
            _ => order,
        };
        if actions[mover] == WAIT {
            return;
        }
        let Some(mv) = self.legal_move(i, actions[mover]) else {
            buffers.rewards[mover] = self.config.reward_illegal;
            self.stats.illegal += 1;
            return;
        };
        let game = &mut self.games[i];
        game.position.play_unchecked(mv);
        game.episode_length += 1;
        advance(game, Mode::SelfPlay);
        let role = if mover == order {
            Role::Order
        } else {
            Role::Chaos
        };
        buffers.rewards[mover] = shaped_reward(game, role, &self.config);
        if game.position.is_over() {
            // The other player's score change since its last decision ends the game too: each
            // role's shaped rewards then sum to its share of the final score.
            let (other, other_role) = if mover == order {
                (chaos, Role::Chaos)
            } else {
                (order, Role::Order)
            };
            buffers.rewards[other] = shaped_reward(game, other_role, &self.config);
            let r = self.config.reward_final * order_reward(game.position.score());
            buffers.rewards[order] += r;
            buffers.rewards[chaos] -= r;
            buffers.terminals[order] = true;
            buffers.terminals[chaos] = true;
        }
        game.episode_return += buffers.rewards[order];
        if game.position.is_over() {
            self.finish(i);
        }
    }

    /// The move an agent's action stands for, if legal now.
    fn legal_move(&self, i: usize, action: i64) -> Option<Move> {
        let position = &self.games[i].position;
        let action = usize::try_from(action).ok()?;
        move_of(position, action).filter(|&mv| position.check(mv).is_ok())
    }

    fn finish(&mut self, i: usize) {
        let game = &self.games[i];
        let score = game.position.score() as f64;
        self.stats.episodes += 1;
        self.stats.score += score;
        self.stats.episode_return += game.episode_return as f64;
        self.stats.episode_length += game.episode_length as f64;
        if game.agent == Role::Order {
            self.stats.order_episodes += 1;
            self.stats.order_score += score;
        } else {
            self.stats.chaos_score += score;
        }
        if self.config.autoreset {
            self.restart(i);
        }
    }

    /// A new game: fresh board, the agent's role, and play up to the agent's first decision.
    fn restart(&mut self, i: usize) {
        let config = &self.config;
        let game = &mut self.games[i];
        game.position = Position::new(config.size);
        game.agent = match config.role {
            RoleChoice::Order => Role::Order,
            RoleChoice::Chaos => Role::Chaos,
            RoleChoice::Random => {
                if game.rng.random_bool(0.5) {
                    Role::Order
                } else {
                    Role::Chaos
                }
            }
        };
        game.last_potential = [config.reward_potential.of(&game.position); 2];
        game.episode_return = 0.0;
        game.episode_length = 0;
        if let Some(opponent) = game.opponent.as_mut() {
            opponent.new_game(config.size, game.agent.opponent());
        }
        advance(game, config.mode);
    }

    fn write(&self, i: usize, buffers: &mut Buffers<'_>) {
        let game = &self.games[i];
        let obs_size = self.observation_size();
        let actions = self.action_count();
        let plain = observation_size(self.config.size, self.config.observation);
        let rows = match self.config.mode {
            Mode::Single => i..i + 1,
            Mode::SelfPlay => 2 * i..2 * i + 2,
        };
        for row in rows {
            let to_move = match self.config.mode {
                Mode::Single => true,
                Mode::SelfPlay => match game.position.phase() {
                    Phase::Place(_) => row % 2 == 0,
                    Phase::Slide => row % 2 == 1,
                    _ => false,
                },
            };
            let mask = &mut buffers.masks[row * actions..(row + 1) * actions];
            if to_move {
                observation::write_mask(&game.position, mask);
            } else {
                mask.fill(false);
            }
            match &mut buffers.observations {
                Observations::F32(obs) => {
                    let out = &mut obs[row * obs_size..(row + 1) * obs_size];
                    observation::write_observation(
                        &game.position,
                        self.config.observation,
                        &mut out[..plain],
                    );
                    if self.config.mask_in_observation {
                        for (o, &m) in out[plain..].iter_mut().zip(mask.iter()) {
                            *o = if m { 1.0 } else { 0.0 };
                        }
                    }
                }
                Observations::U8(obs) => {
                    let out = &mut obs[row * obs_size..(row + 1) * obs_size];
                    observation::write_compact(&game.position, &mut out[..plain]);
                    if self.config.mask_in_observation {
                        for (o, &m) in out[plain..].iter_mut().zip(mask.iter()) {
                            *o = m as u8;
                        }
                    }
                }
            }
        }
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
        let game = self.games.get_mut(i).ok_or(EnvError::NoSuchGame(i))?;
        game.position = position;
        if self.config.mode == Mode::Single {
            game.agent = role;
        }
        game.last_potential = [self.config.reward_potential.of(&position); 2];
        self.write(i, buffers);
        Ok(())
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
