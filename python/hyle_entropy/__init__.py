"""Entropy (Hyle 7) as a fast vectorised reinforcement-learning environment, and the Python
half of the engine's learned agents and cluster runs.

The games run in Rust (``hyle_entropy._native``); the modules:

- :mod:`hyle_entropy.vector`: :class:`EntropyVecEnv`, many games stepped together in numpy arrays.
- :mod:`hyle_entropy.pufferlib_env`, :mod:`hyle_entropy.gymnasium_env`,
  :mod:`hyle_entropy.pettingzoo_env`: the PufferLib, Gymnasium and PettingZoo adapters (those
  libraries are optional: import the adapter you need).
- :mod:`hyle_entropy.board_net`, :mod:`hyle_entropy.placement_net`: training the `wnet` and
  `pnet` networks the engine runs (numpy; torch for `pnet`).
- :mod:`hyle_entropy.ntuple`: the `net` agent's n-tuple evaluation in numpy, the twin of the
  Rust model, reading the same files.
- :mod:`hyle_entropy.train_ppo` (settings in ``entropy.ini``), :mod:`hyle_entropy.ppo_policy`,
  :mod:`hyle_entropy.selfplay`: PPO with PufferLib's trainer, the policy the `ppo` and
  `policy` bots play, and games against a pool of past selves (torch and pufferlib-core: the
  ``[puffer]`` extra); :mod:`hyle_entropy.distill_policy` teaches that policy the searcher's
  decisions, and :mod:`hyle_entropy.train_policy` runs the teacher data, the distillation, PPO
  and the measures in one command.
- :mod:`hyle_entropy.cluster`, :mod:`hyle_entropy.cluster_train`, over
  :mod:`hyle_entropy.ray_tasks`: matches and training with their games as Ray tasks.

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
from hyle_entropy.vector import WAIT, EntropyVecEnv, action_count, observation_size

__all__ = [
    "EntropyVecEnv",
    "MatchSprt",
    "VecEnv",
    "WAIT",
    "action_count",
    "observation_size",
    "order_reward",
    "play_game",
    "train_fit",
    "train_self_play",
]
