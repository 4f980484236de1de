//! One game of the environment: the agent's action, the rewards, chance and the opponent up
//! to the agent's next decision, and the rows it writes.

use entropy_core::{Move, Phase, Position, Role};
use entropy_engine::bots::random_move;
use entropy_engine::learned::observation::ObservationKind;
use entropy_engine::search::GreedyWatch;
use entropy_engine::{Bot, Budget};
use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::actions::{action_count, move_of};
use crate::buffers::{agents_per_game, row_size, Buffers, Episode, Observations, Outcome};
use crate::config::{EnvConfig, Mode, RoleChoice, WAIT};
use crate::observation::{self, observation_size};

/// The terminal reward of a final score for Order: `clamp((S - 75) / 25, -1, 1)`.
pub fn order_reward(score: u32) -> f32 {
    ((score as f32 - 75.0) / 25.0).clamp(-1.0, 1.0)
}

pub(crate) struct Game {
    pub(crate) position: Position,
    pub(crate) agent: Role,
    pub(crate) rng: Xoshiro256PlusPlus,
    pub(crate) opponent: Option<Box<dyn Bot>>,
    /// The potential at the agent's last decision, for shaping (per role in self-play).
    pub(crate) last_potential: [f32; 2],
    pub(crate) episode_return: f32,
    pub(crate) episode_length: u32,
    /// The agent's watcher of its opponent (single-agent games over the read observation).
    pub(crate) watch: GreedyWatch,
    /// Whether the agent reads its opponent as greedy at its decision now (the read
    /// observation's flag; false in self-play).
    pub(crate) greedy: bool,
}

/// The shaping reward of `role` for the potential's change since its last decision (negated
/// for Chaos), remembering the potential for its next one.
fn shaped_reward(game: &mut Game, role: Role, config: &EnvConfig) -> f32 {
    if config.reward_shaping == 0.0 {
        return 0.0;
    }
    let sign = if role == Role::Order { 1.0 } else { -1.0 };
    let potential = config.reward_potential.of(&game.position);
    let slot = role.index();
    let reward = config.reward_shaping * sign * (potential - game.last_potential[slot]) / 25.0;
    game.last_potential[slot] = potential;
    reward
}

impl Game {
    /// Plays the agent's action in a single-agent game, then chance and the opponent up to the
    /// agent's next decision. `rows` is this game's one row.
    pub(crate) fn step_single(
        &mut self,
        config: &EnvConfig,
        action: i64,
        rows: &mut Buffers<'_>,
    ) -> Outcome {
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
        if reads(config) {
            self.watch.played(&self.position, mv);
        }
        self.position.play_unchecked(mv);
        self.episode_length += 1;
        advance(self, config.mode);
        self.read_opponent(config);
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
    pub(crate) fn step_self_play(
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

    /// Watches what the opponent did up to the agent's decision now, for the read
    /// observation's flag (single-agent games over the read observation only: the watcher
    /// scans the legal moves, which other observations need not pay for).
    pub(crate) fn read_opponent(&mut self, config: &EnvConfig) {
        if reads(config) && !self.position.is_over() {
            self.watch.observe(&self.position);
            self.greedy = self.watch.is_greedy();
        }
    }

    /// The move an action stands for, if legal now.
    pub(crate) fn legal_move(&self, action: i64) -> Option<Move> {
        let action = usize::try_from(action).ok()?;
        move_of(&self.position, action).filter(|&mv| self.position.check(mv).is_ok())
    }

    /// The finished episode, for the statistics; the game restarts if the config says so.
    pub(crate) fn finish(&mut self, config: &EnvConfig) -> Episode {
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
    pub(crate) fn restart(&mut self, config: &EnvConfig) {
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
        self.watch.reset();
        self.greedy = false;
        advance(self, config.mode);
        self.read_opponent(config);
    }

    /// Writes this game's observation and mask rows (`rows`: one, or Chaos's and Order's).
    pub(crate) fn write(&self, config: &EnvConfig, rows: &mut Buffers<'_>) {
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
                    observation::write_observation_reading(
                        &self.position,
                        config.observation,
                        self.greedy,
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

/// Whether the agent watches its opponent: a single-agent game over the read observation.
fn reads(config: &EnvConfig) -> bool {
    config.mode == Mode::Single && config.observation == ObservationKind::Read
}

/// Plays chance and the opponent until an agent must decide or the game is over.
pub(crate) fn advance(game: &mut Game, mode: Mode) {
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
