//! The environment's settings and its errors.

use entropy_core::{Position, Size};
use entropy_engine::eval::{Evaluator, LinearEval};
use entropy_engine::search::moves_to_end;

use crate::observation::ObservationKind;

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
