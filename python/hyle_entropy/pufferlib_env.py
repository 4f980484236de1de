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
        log_interval: int = 128,
        buf: Any = None,
        seed: int = 0,
        render_mode: Optional[str] = None,
    ) -> None:
        obs_size = observation_size(size, "planes") + action_count(size)
        if gymnasium is not None:
            self.single_observation_space = gymnasium.spaces.Box(0.0, 1.0, shape=(obs_size,), dtype=np.float32)
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

    def reset(self, seed: Optional[int] = None) -> Tuple[np.ndarray, List[Dict[str, Any]]]:
        self._env.reset(self._seed if seed is None else seed)
        self._tick = 0
        return self.observations, []

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, List[Dict[str, Any]]]:
        self._env.step(actions)
        self._tick += 1
        infos: List[Dict[str, Any]] = []
        if self._tick % self.log_interval == 0:
            stats = self._env.stats()
            if stats.get("episodes"):
                infos.append(stats)
        return self.observations, self.rewards, self.terminals, self.truncations, infos

    def render(self) -> Any:
        return self._env.render(0, self.render_mode or "ansi")

    def close(self) -> None:
        pass
