"""A PufferLib 3 environment (the ``pufferlib.PufferEnv`` protocol): many games in one object,
flat observations with the action mask appended (PufferLib's trainer has no mask channel),
``Discrete`` actions, and ``step`` returning ``(obs, rewards, terminals, truncations, infos)``.

PufferLib is optional: without it the class still follows the protocol (it allocates its own
buffers), so it can be used and tested alone. Works with ``pufferlib.vector.make`` (Serial).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from hyle_entropy.vector import EntropyVecEnv, action_count, observation_size

try:  # pragma: no cover - depends on the optional library
    import gymnasium
    from pufferlib import PufferEnv as _Base

    HAVE_PUFFERLIB = True
except ImportError:  # pragma: no cover - depends on the optional library
    _Base = object
    HAVE_PUFFERLIB = False
    try:
        import gymnasium
    except ImportError:
        gymnasium = None  # type: ignore[assignment]


class EntropyPuffer(_Base):  # type: ignore[misc, valid-type]
    """``num_envs`` games against a built-in opponent (``opponent``), the agent in ``role``
    (``"random"``: drawn per episode, like the plan's -1). Observations: 402 planes + 638 mask
    values on 7x7 (float32). Finished games reset inside ``step`` and still report
    ``terminals[i] = True`` with the final reward (PufferLib's own Go env loses that flag)."""

    def __init__(
        self,
        num_envs: int = 1,
        role: str = "random",
        opponent: str = "random",
        size: int = 7,
        reward_illegal: float = -0.1,
        reward_shaping: float = 0.0,
        reward_final: float = 1.0,
        observation: str = "planes",
        reward_potential: str = "score",
        threads: int = 1,
        log_interval: int = 128,
        buf: Any = None,
        seed: int = 0,
        render_mode: Optional[str] = None,
    ) -> None:
        obs_size = observation_size(size, observation) + action_count(size)
        if gymnasium is not None:
            # The gains are signed score changes in tens and the lines pattern numbers; the
            # planes and the mask lie in [0, 1].
            low, high = (-np.inf, np.inf) if observation in ("gains", "lines", "evals", "read") else (0.0, 1.0)
            self.single_observation_space = gymnasium.spaces.Box(low, high, shape=(obs_size,), dtype=np.float32)
            self.single_action_space = gymnasium.spaces.Discrete(action_count(size))
        self.render_mode = render_mode
        self.num_agents = num_envs
        self.log_interval = log_interval
        self._tick = 0
        self._env = EntropyVecEnv(
            num_envs=num_envs,
            seed=seed,
            role=role,
            opponent=opponent,
            size=size,
            mask_in_observation=True,
            reward_illegal=reward_illegal,
            reward_shaping=reward_shaping,
            reward_final=reward_final,
            observation=observation,
            reward_potential=reward_potential,
            threads=threads,
        )
        if HAVE_PUFFERLIB:
            super().__init__(buf)
            # PufferLib allocated the buffers: have Rust write straight into them.
            self._env.bind(self.observations, self._env.masks, self.rewards, self.terminals, self.truncations)
        else:
            self.observations = self._env.observations
            self.rewards = self._env.rewards
            self.terminals = self._env.terminals
            self.truncations = self._env.truncations
            self.actions = np.zeros(num_envs, dtype=np.int64)
        self._seed = seed
        # Games against a pool of past selves, once set_opponent("self", ...) asks for them.
        self._pool_games: Optional[Any] = None

    def reset(self, seed: Optional[int] = None) -> Tuple[np.ndarray, List[Dict[str, Any]]]:
        if self._pool_games is not None:
            self._pool_games.reset()
        else:
            self._env.reset(self._seed if seed is None else seed)
        self._tick = 0
        return self.observations, []

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, List[Dict[str, Any]]]:
        if self._pool_games is not None:
            self._pool_games.step(np.asarray(actions, dtype=np.int64))
        else:
            self._env.step(actions)
        self._tick += 1
        infos: List[Dict[str, Any]] = []
        if self._tick % self.log_interval == 0:
            stats = self._env.stats()
            if stats.get("episodes"):
                infos.append(stats)
        return self.observations, self.rewards, self.terminals, self.truncations, infos

    @property
    def opponent(self) -> str:
        """The built-in bot its games are against, or ``"self"`` (a pool of past selves)."""
        return "self" if self._pool_games is not None else self._env.settings["opponent"]

    def set_opponent(self, opponent: str, seed: int, pool: Any = None) -> None:
        """Plays the following games against another built-in bot (a curriculum's next stage),
        or against ``pool`` (a :class:`hyle_entropy.selfplay.OpponentPool`) where ``opponent``
        is ``"self"``, from new deals drawn from ``seed``: every game restarts, and reports a
        terminal step so that a trainer does not join the old game to the new."""
        if opponent == "self":
            from hyle_entropy.selfplay import PoolGames

            if pool is None:
                raise ValueError('set_opponent("self") needs the pool of policies to play')
            settings = dict(self._env.settings)
            arrays = {"observations": self.observations, "rewards": self.rewards, "terminals": self.terminals}
            self._pool_games = PoolGames(settings.pop("num_envs"), pool, seed, arrays, **settings)
            self._pool_games.reset()
        else:
            env = self._env.with_opponent(opponent, seed)
            env.bind(self.observations, self._env.masks, self.rewards, self.terminals, self.truncations)
            self._env, self._pool_games = env, None
            env.reset()
        self.rewards[:] = 0.0
        self.terminals[:] = True

    def render(self) -> Any:
        return self._env.render(0, self.render_mode or "ansi")

    def close(self) -> None:
        pass
