//! The `hyle_entropy._native` Python module: the vectorised environment of `entropy-env`,
//! stepping many games in one call with the GIL released and writing into numpy arrays that
//! Python owns. The Python package `hyle_entropy` wraps it for PufferLib, Gymnasium and
//! PettingZoo.

use entropy_arena::record::MatchKey;
use entropy_core::Size;
use entropy_env::render;
use entropy_env::{
    Buffers, EnvConfig, EnvError, Mode, ObservationKind, Observations, RoleChoice, VecEnv,
};
use numpy::{
    PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

mod board_net;
mod sprt;
mod train;

fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// The value named `given` among `choices`, or an error naming the argument and the choices
/// (`role "x": use "order", "chaos" or "random"`).
fn choice<T: Copy>(argument: &str, given: &str, choices: &[(&str, T)]) -> PyResult<T> {
    if let Some(&(_, value)) = choices.iter().find(|(name, _)| *name == given) {
        return Ok(value);
    }
    let names: Vec<String> = choices
        .iter()
        .map(|(name, _)| format!("{name:?}"))
        .collect();
    let (last, rest) = names.split_last().expect("at least one choice");
    let listed = if rest.is_empty() {
        last.clone()
    } else {
        format!("{} or {last}", rest.join(", "))
    };
    Err(value_error(format!("{argument} {given:?}: use {listed}")))
}

/// The arrays a step writes, owned by Python.
struct Bound_ {
    observations: Py<PyAny>,
    masks: Py<PyArray2<bool>>,
    rewards: Py<PyArray1<f32>>,
    terminals: Py<PyArray1<bool>>,
    truncations: Py<PyArray1<bool>>,
}

/// Many games of Entropy stepped together in Rust (see the package documentation).
#[pyclass(name = "VecEnv", module = "hyle_entropy._native", unsendable)]
struct PyVecEnv {
    env: VecEnv,
    arrays: Option<Bound_>,
}

/// The environment's enumerated settings from their Python names, each refused with the
/// values it accepts.
fn parse_choices(
    size: usize,
    role: &str,
    observation: &str,
    mode: &str,
) -> PyResult<(Size, RoleChoice, ObservationKind, Mode)> {
    use Mode::{SelfPlay, Single};
    use RoleChoice::{Chaos, Order, Random};
    let size = Size::new(size).ok_or_else(|| value_error(format!("size {size}: use 7 or 5")))?;
    let role = choice(
        "role",
        role,
        &[("order", Order), ("chaos", Chaos), ("random", Random)],
    )?;
    let observation = choice("observation", observation, &ObservationKind::NAMED)?;
    let mode = choice("mode", mode, &[("single", Single), ("selfplay", SelfPlay)])?;
    Ok((size, role, observation, mode))
}

impl PyVecEnv {
    /// Runs `f` with the bound arrays as buffers, the GIL released.
    fn with_buffers<T: Send>(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut VecEnv, &mut Buffers<'_>) -> Result<T, EnvError> + Send,
    ) -> PyResult<T> {
        let arrays = self
            .arrays
            .as_ref()
            .ok_or_else(|| value_error("call bind(...) with the output arrays first"))?;
        let mut masks = arrays.masks.bind(py).try_readwrite().map_err(value_error)?;
        let mut rewards = arrays
            .rewards
            .bind(py)
            .try_readwrite()
            .map_err(value_error)?;
        let mut terminals = arrays
            .terminals
            .bind(py)
            .try_readwrite()
            .map_err(value_error)?;
        let mut truncations = arrays
            .truncations
            .bind(py)
            .try_readwrite()
            .map_err(value_error)?;
        let contiguous =
            |e: numpy::NotContiguousError| value_error(format!("arrays must be C-contiguous: {e}"));
        let masks = masks.as_slice_mut().map_err(contiguous)?;
        let rewards = rewards.as_slice_mut().map_err(contiguous)?;
        let terminals = terminals.as_slice_mut().map_err(contiguous)?;
        let truncations = truncations.as_slice_mut().map_err(contiguous)?;
        let env = &mut self.env;
        let observations = arrays.observations.bind(py);
        // Only one of the two is borrowed: the one of this environment's observation type.
        let (mut planes, mut compact) = (None, None);
        let observations = match env.config().observation {
            ObservationKind::Planes
            | ObservationKind::Gains
            | ObservationKind::Lines
            | ObservationKind::Evals
            | ObservationKind::Read => {
                let array = observations
                    .cast::<PyArray2<f32>>()
                    .map_err(|_| value_error("observations must be a float32 2-D array"))?;
                let array = planes.insert(array.try_readwrite().map_err(value_error)?);
                Observations::F32(array.as_slice_mut().map_err(contiguous)?)
            }
            ObservationKind::Compact => {
                let array = observations
                    .cast::<PyArray2<u8>>()
                    .map_err(|_| value_error("observations must be a uint8 2-D array"))?;
                let array = compact.insert(array.try_readwrite().map_err(value_error)?);
                Observations::U8(array.as_slice_mut().map_err(contiguous)?)
            }
        };
        py.detach(|| {
            let mut buffers = Buffers {
                observations,
                masks,
                rewards,
                terminals,
                truncations,
            };
            f(env, &mut buffers)
        })
        .map_err(value_error)
    }
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(signature = (num_envs = 1, seed = 0, role = "random", opponent = "random", size = 7,
        observation = "planes", mode = "single", mask_in_observation = false,
        reward_illegal = -0.1, reward_shaping = 0.0, reward_final = 1.0, autoreset = true,
        reward_potential = "score", threads = 1))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: usize,
        seed: u64,
        role: &str,
        opponent: &str,
        size: usize,
        observation: &str,
        mode: &str,
        mask_in_observation: bool,
        reward_illegal: f32,
        reward_shaping: f32,
        reward_final: f32,
        autoreset: bool,
        reward_potential: &str,
        threads: usize,
    ) -> PyResult<Self> {
        let reward_potential = reward_potential.parse().map_err(PyValueError::new_err)?;
        let (size, role, observation, mode) = parse_choices(size, role, observation, mode)?;
        let config = EnvConfig {
            size,
            num_envs,
            role,
            opponent: opponent.to_owned(),
            mode,
            observation,
            mask_in_observation,
            reward_illegal,
            reward_shaping,
            reward_potential,
            reward_final,
            seed,
            autoreset,
            threads,
        };
        let env = VecEnv::new(config).map_err(value_error)?;
        Ok(PyVecEnv { env, arrays: None })
    }

    /// Agents: num_envs, or 2 x num_envs in self-play.
    #[getter]
    fn num_agents(&self) -> usize {
        self.env.num_agents()
    }

    /// Values per observation row.
    #[getter]
    fn observation_size(&self) -> usize {
        self.env.observation_size()
    }

    /// Actions per agent.
    #[getter]
    fn action_count(&self) -> usize {
        self.env.action_count()
    }

    /// "float32" or "uint8".
    #[getter]
    fn observation_dtype(&self) -> &'static str {
        match self.env.config().observation {
            ObservationKind::Planes
            | ObservationKind::Gains
            | ObservationKind::Lines
            | ObservationKind::Evals
            | ObservationKind::Read => "float32",
            ObservationKind::Compact => "uint8",
        }
    }

    /// Binds the output arrays: observations (agents x observation_size, float32 or uint8),
    /// masks (agents x action_count, bool), rewards (float32), terminals and truncations (bool).
    fn bind(
        &mut self,
        py: Python<'_>,
        observations: Py<PyAny>,
        masks: Py<PyArray2<bool>>,
        rewards: Py<PyArray1<f32>>,
        terminals: Py<PyArray1<bool>>,
        truncations: Py<PyArray1<bool>>,
    ) -> PyResult<()> {
        let agents = self.env.num_agents();
        let check = |name: &str, shape: &[usize], expected: &[usize]| {
            if shape == expected {
                Ok(())
            } else {
                Err(value_error(format!(
                    "{name} has shape {shape:?}, expected {expected:?}"
                )))
            }
        };
        let obs_shape: Vec<usize> = observations.bind(py).getattr("shape")?.extract()?;
        check(
            "observations",
            &obs_shape,
            &[agents, self.env.observation_size()],
        )?;
        check(
            "masks",
            masks.bind(py).shape(),
            &[agents, self.env.action_count()],
        )?;
        check("rewards", rewards.bind(py).shape(), &[agents])?;
        check("terminals", terminals.bind(py).shape(), &[agents])?;
        check("truncations", truncations.bind(py).shape(), &[agents])?;
        self.arrays = Some(Bound_ {
            observations,
            masks,
            rewards,
            terminals,
            truncations,
        });
        Ok(())
    }

    /// Starts every game afresh (re-seeded if a seed is given).
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<u64>) -> PyResult<()> {
        self.with_buffers(py, move |env, buffers| env.reset(seed, buffers))
    }

    /// Plays one action per agent (int64 array); finished games restart inside the step, which
    /// still reports them terminal with their final reward.
    fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let actions = actions
            .as_slice()
            .map_err(|e| value_error(format!("actions must be contiguous: {e}")))?;
        self.with_buffers(py, move |env, buffers| env.step(actions, buffers))
    }

    /// Statistics summed over the episodes finished since the last clear.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.env.stats();
        let dict = PyDict::new(py);
        dict.set_item("episodes", s.episodes)?;
        dict.set_item("score", s.score)?;
        dict.set_item("episode_return", s.episode_return)?;
        dict.set_item("episode_length", s.episode_length)?;
        dict.set_item("order_episodes", s.order_episodes)?;
        dict.set_item("order_score", s.order_score)?;
        dict.set_item("chaos_score", s.chaos_score)?;
        dict.set_item("illegal", s.illegal)?;
        Ok(dict)
    }

    /// Forgets the statistics.
    fn clear_stats(&mut self) {
        self.env.clear_stats();
    }

    /// The legal actions of game i now.
    fn legal_actions(&self, i: usize) -> PyResult<Vec<usize>> {
        self.env.legal_actions(i).map_err(value_error)
    }

    /// The colours (1-7) the next draw of game i may bring, with their probabilities.
    fn chance_outcomes(&self, i: usize) -> PyResult<Vec<(u8, f64)>> {
        self.env.chance_outcomes(i).map_err(value_error)
    }

    /// Game i as a position text (board text and phase).
    fn get_state(&self, i: usize) -> PyResult<String> {
        self.env.get_state(i).map_err(value_error)
    }

    /// Replaces game i's position by a position text where a player is to move; `greedy`:
    /// whether the player to move reads its opponent as greedy there (the read observation's
    /// flag).
    #[pyo3(signature = (i, text, greedy = false))]
    fn set_state(&mut self, py: Python<'_>, i: usize, text: String, greedy: bool) -> PyResult<()> {
        self.with_buffers(py, move |env, buffers| {
            env.set_state(i, &text, greedy, buffers)
        })
    }

    /// Order's current score in game i.
    fn score(&self, i: usize) -> PyResult<u32> {
        Ok(self.env.position(i).map_err(value_error)?.score())
    }

    /// The agent's role in game i: "order" or "chaos" (single-agent mode).
    fn agent_role(&self, i: usize) -> PyResult<&'static str> {
        Ok(self.env.agent_role(i).map_err(value_error)?.name())
    }

    /// "order", "chaos" or "" (game over) for the player to move in game i.
    fn to_move(&self, i: usize) -> PyResult<&'static str> {
        Ok(self
            .env
            .position(i)
            .map_err(value_error)?
            .to_move()
            .map_or("", |r| r.name()))
    }

    /// Game i in ANSI colours.
    fn render_ansi(&self, i: usize) -> PyResult<String> {
        Ok(render::ansi(self.env.position(i).map_err(value_error)?))
    }

    /// Game i as an RGB image (height x width x 3, uint8).
    fn render_rgb<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let (side, pixels) = render::rgb(self.env.position(i).map_err(value_error)?);
        PyArray1::from_vec(py, pixels).reshape([side, side, 3])
    }
}

/// The terminal reward of a final score for Order: clamp((S - 75) / 25, -1, 1).
#[pyfunction]
fn order_reward(score: u32) -> f32 {
    entropy_env::order_reward(score)
}

/// The match settings of `entropy match` from Python's arguments, checked.
fn match_key(
    players: [&str; 2],
    seed: u64,
    clocks: (f64, Option<f64>),
    size: u8,
    luck: Option<u32>,
) -> PyResult<MatchKey> {
    let (clock, clock_b) = clocks;
    MatchKey::checked(
        [("a", players[0]), ("b", players[1])],
        seed,
        [("clock", clock), ("clock_b", clock_b.unwrap_or(clock))],
        size as usize,
    )
    .map(|key| key.with_luck(luck))
    .map_err(PyValueError::new_err)
}

/// The `match` object that `entropy match` writes in every record of a match with these
/// settings (JSON): what a file's games must share to be resumed together. `luck`: the depth
/// of the search valuing each game's luck in the draws (0 or None: not measured).
#[pyfunction(name = "match_key")]
#[pyo3(signature = (a, b, seed = 1, clock = 30.0, clock_b = None, size = 7, luck = None))]
fn py_match_key(
    a: &str,
    b: &str,
    seed: u64,
    clock: f64,
    clock_b: Option<f64>,
    size: u8,
    luck: Option<u32>,
) -> PyResult<String> {
    let key = match_key([a, b], seed, (clock, clock_b), size, luck)?;
    serde_json::to_string(&key).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Plays one game of a match as `entropy match` does and returns its record, the JSON line
/// `entropy match` writes for it: players `a` and `b` (built-in bots with options, or `cmd:...`
/// programs speaking CodeCup), deal `deal` of the match seeded `seed`, `game` 0 with A as Order
/// or 1 with B as Order, `clock` seconds per game (and `clock_b` for B, if different), board
/// side `size`, Order's luck in the draws valued by a `luck`-deep search (None: not measured).
/// The same clocks, forfeits and seeds as `entropy match`, so a match's games can be played
/// anywhere (a cluster's workers) and summarised together.
#[pyfunction]
#[pyo3(signature = (a, b, deal, game, seed = 1, clock = 30.0, clock_b = None, size = 7, luck = None))]
#[allow(clippy::too_many_arguments)]
fn play_game(
    py: Python<'_>,
    a: &str,
    b: &str,
    deal: u32,
    game: u8,
    seed: u64,
    clock: f64,
    clock_b: Option<f64>,
    size: u8,
    luck: Option<u32>,
) -> PyResult<String> {
    use entropy_arena::tournament::{MatchConfig, Task};
    if game > 1 {
        return Err(PyValueError::new_err(format!(
            "game must be 0 (A is Order) or 1 (B is Order), not {game}"
        )));
    }
    let config = MatchConfig {
        key: match_key([a, b], seed, (clock, clock_b), size, luck)?,
        deals: deal + 1,
        jobs: 1,
    };
    let record = py.detach(|| config.play(Task { deal, game }));
    serde_json::to_string(&record).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The module.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<PyVecEnv>()?;
    module.add_function(wrap_pyfunction!(order_reward, module)?)?;
    module.add_function(wrap_pyfunction!(play_game, module)?)?;
    module.add_function(wrap_pyfunction!(py_match_key, module)?)?;
    module.add_class::<sprt::PyMatchSprt>()?;
    module.add_function(wrap_pyfunction!(train::train_start, module)?)?;
    module.add_function(wrap_pyfunction!(train::train_self_play, module)?)?;
    module.add_function(wrap_pyfunction!(train::train_fit, module)?)?;
    module.add_function(wrap_pyfunction!(train::weights_text, module)?)?;
    module.add_function(wrap_pyfunction!(train::distill_teacher_game, module)?)?;
    module.add_function(wrap_pyfunction!(train::distill_fit, module)?)?;
    module.add_function(wrap_pyfunction!(board_net::board_inputs, module)?)?;
    module.add_function(wrap_pyfunction!(board_net::afterstates, module)?)?;
    module.add(
        "DISTILL_CURVE_HEADER",
        entropy_train::distill::DISTILL_CURVE_HEADER,
    )?;
    Ok(())
}
