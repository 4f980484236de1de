"""A numpy front for the native vectorised environment: it owns the arrays Rust writes into."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from hyle_entropy._native import VecEnv


# The action that leaves a self-play game as it is for a step (its agent to move waits).
WAIT = -1


def action_count(size: int = 7) -> int:
    """The number of actions of Entropy(size): cells + cells * 2(size-1) + 1."""
    cells = size * size
    return cells + cells * 2 * (size - 1) + 1


def observation_size(size: int = 7, observation: str = "planes") -> int:
    """Values per observation without a mask: 402 planes, 1137 gains, 3062 lines, 3700 evals,
    3750 read or 59 compact bytes on 7x7."""
    cells = size * size
    if observation == "planes":
        return size * cells + cells + size + 3
    if observation == "gains":
        return size * cells + cells + size + 3 + 3 * cells + cells * 2 * (size - 1)
    if observation == "lines":
        return observation_size(size, "gains") + 2 * size + 3 * (cells + cells * 2 * (size - 1))
    if observation == "evals":
        return observation_size(size, "lines") + action_count(size)
    if observation == "read":
        return observation_size(size, "evals") + 1 + cells
    if observation == "compact":
        return cells + size + 3
    raise ValueError(f"observation {observation!r}: use 'planes', 'gains', 'lines', 'evals', 'read' or 'compact'")


class EntropyVecEnv:
    """``num_envs`` games of Entropy stepped together in Rust with the GIL released.

    Arrays (one row per agent; ``num_agents`` is ``num_envs``, or twice that in self-play):
    ``observations`` (float32 planes or uint8 compact), ``masks`` (bool, legal actions),
    ``rewards`` (float32), ``terminals`` and ``truncations`` (bool). They are updated in place by
    :meth:`reset` and :meth:`step`, which also return them.

    A finished game restarts inside the step that ends it (``autoreset=True``): that step still
    reports ``terminals[i] = True`` and the final reward, and ``observations[i]`` is the new
    game's first observation.

    Args:
        num_envs: games stepped together.
        seed: seed of every game's chips, roles and opponent (one stream per game).
        role: the agent's role, ``"order"``, ``"chaos"`` or ``"random"`` (drawn per episode).
        opponent: a built-in bot: ``"random"``, ``"pass"``, ``"greedy"``, ``"heuristic"``,
            ``"expecti:depth=2"`` (the course assignment's expectiminimax, an opponent that is
            not our searcher), ``"search:nodes=2000"``...
        size: 7, or 5 for Entropy(5).
        observation: ``"planes"`` (the PufferLib plan's 402 floats), ``"gains"`` (the planes,
            then what each move does to the score now: 1137 floats), ``"lines"`` (the gains,
            then every line's pattern now and the patterns of the lines each move changes,
            after it: 3062 floats), ``"evals"`` (the lines, then what each action does to the
            engine's linear evaluation, in tens of points: 3700 floats), ``"read"`` (the evals,
            then 1 while the agent reads its opponent as the greedy bot, watching its moves as
            the Rust bot ``policy`` does, and then what each placement does to the same
            valuation after greedy Order's reply: 3750 floats; single-agent games read, and
            ``set_state`` sets the flag) or ``"compact"`` (bytes).
        mode: ``"single"`` (one agent against the opponent) or ``"selfplay"`` (agents ``2i`` and
            ``2i + 1`` are game i's Chaos and Order; the one not to move has an empty mask).
        mask_in_observation: append the mask to each observation (for trainers without masks).
        reward_illegal: the reward of an illegal action, which is refused.
        reward_shaping: add this times the change of the potential since the agent's last
            decision over 25 (negated for Chaos) at every step.
        reward_potential: what the shaping measures: ``"score"`` (the board's score so far) or
            ``"eval"`` (the engine's expected final score: a move also earns what it builds
            for later). A finished game's potential is its score either way, so the shaping
            sums to ``reward_shaping * (S - P0) / 25`` with P0 the empty board's potential (0
            for the score).
        reward_final: weight of the plan's terminal reward ``clamp((S - 75) / 25, -1, 1)``
            (negated for Chaos). With shaping on and this at 0, the return is linear in the
            final score S: ``reward_shaping * S / 25``, with no clamp.
        autoreset: restart finished games inside ``step``.
        threads: the threads that step the games: 1 (in turn, on the caller's thread), 0 (one
            per core) or n. Every result is the same whichever is chosen; more threads only
            take less time, which matters where observations are dear (``"evals"``: 38 k
            environment steps per second on one core, 72 k on two, against greedy).
    """

    def __init__(
        self,
        num_envs: int = 1,
        seed: int = 0,
        role: str = "random",
        opponent: str = "random",
        size: int = 7,
        observation: str = "planes",
        mode: str = "single",
        mask_in_observation: bool = False,
        reward_illegal: float = -0.1,
        reward_shaping: float = 0.0,
        reward_final: float = 1.0,
        autoreset: bool = True,
        reward_potential: str = "score",
        threads: int = 1,
    ) -> None:
        # Everything but the seed, for an environment like this one (with_opponent).
        self.settings: Dict[str, Any] = dict(
            num_envs=num_envs,
            role=role,
            opponent=opponent,
            size=size,
            observation=observation,
            mode=mode,
            mask_in_observation=mask_in_observation,
            reward_illegal=reward_illegal,
            reward_shaping=reward_shaping,
            reward_final=reward_final,
            autoreset=autoreset,
            reward_potential=reward_potential,
            threads=threads,
        )
        self.native = VecEnv(seed=seed, **self.settings)
        self.num_envs = num_envs
        self.size = size
        self.num_agents = self.native.num_agents
        self.observation_size = self.native.observation_size
        self.action_count = self.native.action_count
        dtype = np.float32 if self.native.observation_dtype == "float32" else np.uint8
        self.observations = np.zeros((self.num_agents, self.observation_size), dtype=dtype)
        self.masks = np.zeros((self.num_agents, self.action_count), dtype=np.bool_)
        self.rewards = np.zeros(self.num_agents, dtype=np.float32)
        self.terminals = np.zeros(self.num_agents, dtype=np.bool_)
        self.truncations = np.zeros(self.num_agents, dtype=np.bool_)
        self.bind(self.observations, self.masks, self.rewards, self.terminals, self.truncations)

    def bind(
        self,
        observations: np.ndarray,
        masks: np.ndarray,
        rewards: np.ndarray,
        terminals: np.ndarray,
        truncations: np.ndarray,
    ) -> None:
        """Makes Rust write into these arrays instead (for trainers that own their buffers)."""
        self.observations, self.masks, self.rewards = observations, masks, rewards
        self.terminals, self.truncations = terminals, truncations
        self.native.bind(observations, masks, rewards, terminals, truncations)

    def with_opponent(self, opponent: str, seed: int) -> "EntropyVecEnv":
        """A new environment with these settings but another opponent, its games drawn from
        ``seed`` (it owns new arrays: :meth:`bind` it to share these)."""
        return EntropyVecEnv(seed=seed, **{**self.settings, "opponent": opponent})

    def reset(self, seed: Optional[int] = None) -> np.ndarray:
        """Starts every game afresh (re-seeded if a seed is given); returns the observations."""
        self.native.reset(seed)
        return self.observations

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Plays one action per agent; returns observations, rewards, terminals, truncations."""
        actions = np.ascontiguousarray(actions, dtype=np.int64).reshape(self.num_agents)
        self.native.step(actions)
        return self.observations, self.rewards, self.terminals, self.truncations

    def stats(self, clear: bool = True) -> Dict[str, float]:
        """Means over the episodes finished since the last clear (``episodes`` is their count)."""
        raw = self.native.stats()
        n = raw["episodes"]
        out: Dict[str, float] = {"episodes": n, "illegal": raw["illegal"]}
        if n:
            out["score"] = raw["score"] / n
            out["episode_return"] = raw["episode_return"] / n
            out["episode_length"] = raw["episode_length"] / n
            out["order_share"] = raw["order_episodes"] / n
            if raw["order_episodes"]:
                out["order_score"] = raw["order_score"] / raw["order_episodes"]
            if n - raw["order_episodes"]:
                out["chaos_score"] = raw["chaos_score"] / (n - raw["order_episodes"])
        if clear:
            self.native.clear_stats()
        return out

    def legal_actions(self, i: int = 0) -> List[int]:
        """The legal actions of game i."""
        return self.native.legal_actions(i)

    def chance_outcomes(self, i: int = 0) -> List[Tuple[int, float]]:
        """The colours the next draw of game i may bring, with their probabilities."""
        return self.native.chance_outcomes(i)

    def get_state(self, i: int = 0) -> str:
        """Game i as a position text, e.g. ``'1....../......./... slide'``."""
        return self.native.get_state(i)

    def set_state(self, i: int, state: str, greedy: bool = False) -> None:
        """Sets game i from a position text in which a player is to move; ``greedy``: whether
        the player to move reads its opponent as greedy there (the ``"read"`` observation's
        flag)."""
        self.native.set_state(i, state, greedy)

    def render(self, i: int = 0, mode: str = "ansi") -> Any:
        """Game i as ANSI text (``mode="ansi"``) or an RGB array (``mode="rgb_array"``)."""
        if mode == "ansi":
            return self.native.render_ansi(i)
        if mode == "rgb_array":
            return self.native.render_rgb(i)
        raise ValueError(f"render mode {mode!r}: use 'ansi' or 'rgb_array'")
