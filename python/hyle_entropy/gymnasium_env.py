"""A Gymnasium environment: one game, the agent in one role against a built-in opponent.

Observations are a dict ``{"observation": ..., "action_mask": ...}``; :meth:`action_masks`
returns the mask too, for sb3-contrib's MaskablePPO. Works with gymnasium 0.29 and 1.x and
passes ``gymnasium.utils.env_checker.check_env``.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces

from hyle_entropy.vector import EntropyVecEnv


def observation_box(observation: str, width: int) -> spaces.Box:
    """The space of one observation of this kind (``width`` values): the planes lie in [0, 1],
    the compact bytes in [0, 255], the gains (signed score changes in tens) and the lines
    (pattern numbers) anywhere."""
    if observation == "planes":
        return spaces.Box(0.0, 1.0, shape=(width,), dtype=np.float32)
    if observation == "compact":
        return spaces.Box(0, 255, shape=(width,), dtype=np.uint8)
    return spaces.Box(-np.inf, np.inf, shape=(width,), dtype=np.float32)


class EntropyEnv(gymnasium.Env):
    """Entropy against a built-in opponent (see :class:`hyle_entropy.EntropyVecEnv` for the
    arguments). The episode ends when the board is full; the reward is
    ``clamp((S - 75) / 25, -1, 1)`` for Order and its negative for Chaos, plus optional shaping;
    an illegal action is refused with ``reward_illegal``."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        role: str = "random",
        opponent: str = "random",
        size: int = 7,
        observation: str = "planes",
        reward_illegal: float = -0.1,
        reward_shaping: float = 0.0,
        render_mode: Optional[str] = None,
        reward_potential: str = "score",
        seed: int = 0,
    ) -> None:
        super().__init__()
        self.render_mode = render_mode
        self._env = EntropyVecEnv(
            num_envs=1,
            seed=seed,
            role=role,
            opponent=opponent,
            size=size,
            observation=observation,
            reward_illegal=reward_illegal,
            reward_shaping=reward_shaping,
            autoreset=False,
            reward_potential=reward_potential,
        )
        obs_space = observation_box(observation, self._env.observation_size)
        self.observation_space = spaces.Dict(
            {
                "observation": obs_space,
                "action_mask": spaces.Box(0, 1, shape=(self._env.action_count,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(self._env.action_count)
        self._env.reset()

    def _observation(self) -> Dict[str, np.ndarray]:
        return {
            "observation": self._env.observations[0].copy(),
            "action_mask": self._env.masks[0].astype(np.int8),
        }

    def _info(self) -> Dict[str, Any]:
        return {
            "role": self._env.native.agent_role(0),
            "score": self._env.native.score(0),
            "state": self._env.get_state(0),
        }

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, np.ndarray], Dict[str, Any]]:
        super().reset(seed=seed)
        if seed is None and self.np_random is not None:
            seed = int(self.np_random.integers(0, 2**63 - 1))
        self._env.reset(seed)
        return self._observation(), self._info()

    def step(self, action: Any) -> Tuple[Dict[str, np.ndarray], float, bool, bool, Dict[str, Any]]:
        _, rewards, terminals, truncations = self._env.step(np.array([int(action)]))
        return self._observation(), float(rewards[0]), bool(terminals[0]), bool(truncations[0]), self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions as a bool array (MaskablePPO's hook)."""
        return self._env.masks[0].copy()

    def render(self) -> Any:
        if self.render_mode is None:
            return None
        return self._env.render(0, self.render_mode)
