"""Games against a pool of the learner's past selves, seen from the learner's side: one row per
game, as the single-agent environment gives, with the other role played by a frozen policy.

``PoolGames`` steps the self-play environment (two agents per game) and, after each of the
learner's moves, the opponent's reply, so a trainer sees only its own decisions. The learner's
role is drawn per episode. ``OpponentPool`` keeps the frozen policies (snapshots of the learner
taken as training goes) and plays one of them, drawn anew by :meth:`OpponentPool.draw`.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

import numpy as np

from hyle_entropy.vector import WAIT, EntropyVecEnv

# A policy as the pool plays it: observation rows (float32, mask appended) -> actions.
Act = Callable[[np.ndarray], np.ndarray]


class OpponentPool:
    """Up to ``size`` frozen policies; :meth:`act` plays the one drawn last."""

    def __init__(self, size: int = 5, seed: int = 0):
        self.size = size
        self.policies: List[Act] = []
        self.current: Optional[Act] = None
        self.rng = np.random.default_rng(seed)

    def add(self, act: Act) -> None:
        """Adds a snapshot (the oldest leaves when the pool is full) and draws again."""
        self.policies.append(act)
        del self.policies[: -self.size]
        self.draw()

    def draw(self) -> None:
        """Picks the policy the following games are played against, uniformly."""
        self.current = self.policies[int(self.rng.integers(len(self.policies)))]

    def act(self, observations: np.ndarray) -> np.ndarray:
        if self.current is None:
            raise RuntimeError("the opponent pool is empty: add a policy first")
        return self.current(observations)


class PoolGames:
    """``num_envs`` self-play games, the learner's rows written into the given arrays
    (``observations`` with the mask appended, ``rewards``, ``terminals``); the other role is
    played by ``pool``. ``settings`` are :class:`EntropyVecEnv`'s (mode and mask are set here)."""

    def __init__(self, num_envs: int, pool: OpponentPool, seed: int, arrays: Dict[str, np.ndarray], **settings: Any):
        settings = dict(settings, mode="selfplay", mask_in_observation=True, autoreset=True)
        settings.pop("opponent", None)
        settings.pop("role", None)
        self.env = EntropyVecEnv(num_envs=num_envs, seed=seed, **settings)
        self.pool = pool
        self.n = num_envs
        self.rng = np.random.default_rng(seed)
        self.learner_order = self.rng.random(num_envs) < 0.5
        self.out = arrays
        self.games = np.arange(num_envs)

    def learner_rows(self) -> np.ndarray:
        """The learner's agent of each game (2i is Chaos, 2i + 1 Order)."""
        return 2 * self.games + self.learner_order

    def reset(self) -> None:
        self.env.reset()
        self.learner_order = self.rng.random(self.n) < 0.5
        self._opponents_move(np.zeros(self.n, dtype=np.float32), np.zeros(self.n, dtype=bool))
        self._write(np.zeros(self.n, dtype=np.float32), np.zeros(self.n, dtype=bool))

    def step(self, actions: np.ndarray) -> None:
        full = np.full(2 * self.n, WAIT, dtype=np.int64)
        rows = self.learner_rows()
        full[rows] = actions
        self.env.step(full)
        rewards = self.env.rewards[rows].copy()
        terminals = self.env.terminals[rows].copy()
        self._new_roles(terminals)
        self._opponents_move(rewards, terminals)
        self._write(rewards, terminals)

    def _new_roles(self, finished: np.ndarray) -> None:
        """A finished game restarted inside the step: the learner's role is drawn again."""
        if finished.any():
            self.learner_order[finished] = self.rng.random(int(finished.sum())) < 0.5

    def _opponents_move(self, rewards: np.ndarray, terminals: np.ndarray) -> None:
        """Plays the opponent wherever it is to move, until the learner is to move in every
        game (a game that ends on the opponent's move restarts, and may start with it),
        adding what the learner's rows receive meanwhile to its rewards and terminals."""
        for _ in range(4):
            opponent_rows = 2 * self.games + ~self.learner_order
            waiting = self.env.masks[opponent_rows].any(axis=1)
            if not waiting.any():
                return
            # The learner's games wait while the opponents reply.
            full = np.full(2 * self.n, WAIT, dtype=np.int64)
            full[opponent_rows[waiting]] = self.pool.act(self.env.observations[opponent_rows[waiting]])
            learner = self.learner_rows()
            self.env.step(full)
            # The learner's share of a game the opponent ended (its last score change); a game
            # that ends here restarts with roles drawn again.
            ended = self.env.terminals[learner] & waiting
            rewards += np.where(waiting, self.env.rewards[learner], 0.0)
            terminals |= ended
            self._new_roles(ended)
        raise RuntimeError("the opponent is still to move after four replies")

    def _write(self, rewards: np.ndarray, terminals: np.ndarray) -> None:
        rows = self.learner_rows()
        self.out["observations"][:] = self.env.observations[rows]
        self.out["rewards"][:] = rewards
        self.out["terminals"][:] = terminals
