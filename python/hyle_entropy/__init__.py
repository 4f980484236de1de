"""Entropy (Hyle 7) as a fast vectorised reinforcement-learning environment.

The games run in Rust (``hyle_entropy._native``); this package wraps them for numpy users
(:class:`EntropyVecEnv`), PufferLib (:mod:`hyle_entropy.puffer`), Gymnasium
(:mod:`hyle_entropy.gym`) and PettingZoo (:mod:`hyle_entropy.aec`). Those libraries are
optional: import the adapter you need.

Actions (Entropy(7): 638): ``0..49`` place the drawn chip on cell ``row * 7 + column``;
``49 + cell * 12 + target`` slide the chip on ``cell`` to the ``target``-th other cell of its row
(targets 0-5, left to right) or column (targets 6-11, top to bottom); ``637`` pass. Every legal
move has an action, slides that stop early included; a mask marks the legal ones.

:func:`play_game` plays one game of an ``entropy match`` (built-in bots or CodeCup programs,
the same clocks, forfeits and seeds) and returns its JSON record, so a match's games can run
anywhere and be summarised by ``entropy match`` together; :class:`MatchSprt` is its SPRT.
:func:`train_self_play` and :func:`train_fit` are ``entropy train``'s self-play game and
generation fit, so training's games can run anywhere too (:mod:`hyle_entropy.cluster_train`).
"""

from hyle_entropy._native import (
    MatchSprt,
    VecEnv,
    order_reward,
    play_game,
    train_fit,
    train_self_play,
)
from hyle_entropy.vector import EntropyVecEnv, action_count, observation_size

__all__ = [
    "EntropyVecEnv",
    "MatchSprt",
    "VecEnv",
    "action_count",
    "observation_size",
    "order_reward",
    "play_game",
    "train_fit",
    "train_self_play",
]
