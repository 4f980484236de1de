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

mod buffers;
mod config;
mod game;
pub mod render;

pub use entropy_engine::learned::{actions, observation};

use entropy_core::notation::text::{format_position, parse_position};
use entropy_core::{derive_seed, Position, Role};
use entropy_engine::make_bot;
use entropy_engine::search::GreedyWatch;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

pub use actions::{action_count, action_of, move_of, pass_action};
pub use observation::{observation_size, ObservationKind};

pub use buffers::{Buffers, Observations, Stats};
pub use config::{EnvConfig, EnvError, Mode, Potential, RoleChoice, WAIT};
pub use game::order_reward;

use buffers::{agents_per_game, row_size, split_rows, Outcome};
use game::Game;

/// Many games of Entropy stepped together.
pub struct VecEnv {
    config: EnvConfig,
    games: Vec<Game>,
    stats: Stats,
    /// The threads that step the games, when [`EnvConfig::threads`] asks for a pool of its own.
    pool: Option<rayon::ThreadPool>,
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
                    derive_seed(config.seed, &[i as u64, 1]),
                )?),
                Mode::SelfPlay => None,
            };
            games.push(Game {
                position: Position::new(config.size),
                agent: Role::Order,
                rng: Xoshiro256PlusPlus::seed_from_u64(derive_seed(config.seed, &[i as u64, 0])),
                opponent,
                last_potential: [0.0; 2],
                episode_return: 0.0,
                episode_length: 0,
                watch: GreedyWatch::new(),
                greedy: false,
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
                game.rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(seed, &[i as u64, 0]));
                if self.config.mode == Mode::Single {
                    game.opponent = Some(make_bot(
                        &self.config.opponent,
                        derive_seed(seed, &[i as u64, 1]),
                    )?);
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
    /// single-agent mode the agent takes the role to move) and rewrites its buffers. `greedy`:
    /// whether the player to move reads its opponent as greedy there (the read observation's
    /// flag, until the game's next step; its watcher starts again).
    pub fn set_state(
        &mut self,
        i: usize,
        text: &str,
        greedy: bool,
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
        game.watch.reset();
        game.greedy = greedy;
        game.last_potential = [config.reward_potential.of(&position); 2];
        let mut rows = split_rows(buffers, self.games.len(), config);
        self.games[i].write(config, &mut rows[i]);
        Ok(())
    }
}
