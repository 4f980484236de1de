"""A PettingZoo AEC environment: agents ``"chaos"`` and ``"order"`` take turns; the chance draw
is resolved inside. Observations are ``{"observation", "action_mask"}`` dicts; passes
``pettingzoo.test.api_test``."""

from __future__ import annotations

from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from hyle_entropy.gymnasium_env import observation_box
from hyle_entropy.vector import EntropyVecEnv

AGENTS = ["chaos", "order"]


class EntropyAEC(AECEnv):
    """Two agents over one game of Entropy(size). The final rewards are
    ``clamp((S - 75) / 25, -1, 1)`` for Order and its negative for Chaos."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "entropy_v0", "is_parallelizable": False}

    def __init__(self, size: int = 7, observation: str = "planes", render_mode: Optional[str] = None, seed: int = 0):
        super().__init__()
        self.render_mode = render_mode
        self._env = EntropyVecEnv(
            num_envs=1, seed=seed, size=size, observation=observation, mode="selfplay", autoreset=False
        )
        self.possible_agents = list(AGENTS)
        obs_space = observation_box(observation, self._env.observation_size)
        space = spaces.Dict(
            {"observation": obs_space, "action_mask": spaces.Box(0, 1, shape=(self._env.action_count,), dtype=np.int8)}
        )
        self.observation_spaces = {a: space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(self._env.action_count) for a in AGENTS}
        self._seed = seed

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        row = AGENTS.index(agent)
        return {
            "observation": self._env.observations[row].copy(),
            "action_mask": self._env.masks[row].astype(np.int8),
        }

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        if seed is not None:
            self._seed = seed
        else:
            self._seed += 1
        self._env.reset(self._seed)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = self._env.native.to_move(0)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        actions = np.zeros(2, dtype=np.int64)
        actions[AGENTS.index(agent)] = int(action)
        self._cumulative_rewards[agent] = 0.0
        _, rewards, terminals, _ = self._env.step(actions)
        for i, a in enumerate(AGENTS):
            self.rewards[a] = float(rewards[i])
            self.terminations[a] = bool(terminals[i])
        self._accumulate_rewards()
        to_move = self._env.native.to_move(0)
        if to_move:
            self.agent_selection = to_move
        elif self.agents:
            # The game is over: every agent takes its dead step in turn.
            self.agent_selection = self.agents[0]
        for a in AGENTS:
            self.infos[a] = {"score": self._env.native.score(0)}

    def render(self) -> Any:
        if self.render_mode is None:
            return None
        return self._env.render(0, self.render_mode)

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> EntropyAEC:
    """Makes the AEC environment (PettingZoo's factory convention)."""
    return EntropyAEC(**kwargs)
