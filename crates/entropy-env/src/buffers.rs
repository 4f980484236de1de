//! What a step writes and counts: the caller's buffers cut into each game's rows, and the
//! statistics of finished episodes.

use entropy_core::Role;

use crate::actions::action_count;
use crate::config::{EnvConfig, Mode};
use crate::observation::observation_size;

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

/// What one game's step leaves for the environment's statistics: each game steps alone (on
/// whichever thread), and the environment adds these up in the games' order afterwards.
#[derive(Default)]
pub(crate) struct Outcome {
    pub(crate) illegal: u64,
    pub(crate) finished: Option<Episode>,
}

/// A finished episode, as the statistics count it.
pub(crate) struct Episode {
    pub(crate) score: f64,
    pub(crate) episode_return: f64,
    pub(crate) episode_length: f64,
    pub(crate) agent: Role,
}

impl Stats {
    pub(crate) fn add(&mut self, outcome: &Outcome) {
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

/// Agents per game: one, or two in self-play.
pub(crate) fn agents_per_game(mode: Mode) -> usize {
    match mode {
        Mode::Single => 1,
        Mode::SelfPlay => 2,
    }
}

/// Values per observation row (with the mask if it is appended).
pub(crate) fn row_size(config: &EnvConfig) -> usize {
    observation_size(config.size, config.observation)
        + if config.mask_in_observation {
            action_count(config.size)
        } else {
            0
        }
}

/// Cuts the buffers into each game's rows, in the games' order.
pub(crate) fn split_rows<'b>(
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
