"""PPO with a small CNN over the Entropy environment, on CPU, against the random opponent.

Uses sb3-contrib's MaskablePPO (maintained, takes the action mask) over the Gymnasium adapter,
the agent's role drawn per episode. Every ``--eval-every`` steps it plays ``--eval-games`` games
in each role against the random bot and prints a learning-curve line: Order's mean score as
Order (random Order scores about 55 against random Chaos) and the mean score it concedes as
Chaos (lower is better).

    pip install "hyle-entropy[gymnasium,train]" sb3-contrib
    python examples/train_ppo.py --minutes 5 --curve curve.csv

PufferLib 3's own trainer is the plan's choice; PufferLib 3.0.0 could not be installed on our
machines (its sdist needs torch to build and downloads raylib), so this example uses MaskablePPO.
The PufferLib adapter (``hyle_entropy.pufferlib_env.EntropyPuffer``) follows its protocol.
"""

from __future__ import annotations

import argparse
import csv
import time

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import DummyVecEnv
from torch import nn

from hyle_entropy import EntropyVecEnv
from hyle_entropy.gymnasium_env import EntropyEnv

SIZE = 7
CELLS = SIZE * SIZE
PLANES = SIZE + 1  # one plane per colour, one for empty cells


class EntropyCNN(BaseFeaturesExtractor):
    """Two 3x3 convolutions over the 8 board planes, joined with the scalars (bag, drawn chip,
    phase, turn)."""

    def __init__(self, observation_space: spaces.Dict, channels: int = 32, features: int = 256):
        super().__init__(observation_space, features)
        self.cnn = nn.Sequential(
            nn.Conv2d(PLANES, channels, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1),
            nn.ReLU(),
            nn.Flatten(),
        )
        scalars = observation_space["observation"].shape[0] - PLANES * CELLS
        self.head = nn.Sequential(nn.Linear(channels * CELLS + scalars, features), nn.ReLU())

    def forward(self, observations: dict) -> torch.Tensor:
        obs = observations["observation"]
        board = obs[:, : PLANES * CELLS].reshape(-1, PLANES, SIZE, SIZE)
        return self.head(torch.cat([self.cnn(board), obs[:, PLANES * CELLS :]], dim=1))


def evaluate(model: MaskablePPO, games: int, seed: int) -> tuple:
    """Mean final score with the model as Order, and as Chaos, against the random bot."""
    means = []
    for role in ["order", "chaos"]:
        env = EntropyVecEnv(num_envs=games, role=role, opponent="random", seed=seed, autoreset=False)
        env.reset()
        while not env.terminals.all():
            obs = {"observation": env.observations, "action_mask": env.masks.astype(np.int8)}
            masks = env.masks.copy()
            masks[env.terminals] = True  # finished games: any action, ignored
            actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
            env.step(actions)
        means.append(env.stats()["score"])
    return means[0], means[1]


class Curve(BaseCallback):
    """Evaluates every so many steps and prints (and saves) the learning curve."""

    def __init__(self, every: int, games: int, deadline: float, path: str | None):
        super().__init__()
        self.every, self.games, self.deadline, self.path = every, games, deadline, path
        self.rows: list = []
        self.next = 0

    def _record(self) -> None:
        order, chaos = evaluate(self.model, self.games, seed=12345)
        row = (self.num_timesteps, round(time.time() - self.start, 1), round(order, 1), round(chaos, 1))
        self.rows.append(row)
        print(f"steps {row[0]:>8}  {row[1]:>6.1f} s  as Order {row[2]:>6.1f}  conceded as Chaos {row[3]:>6.1f}", flush=True)
        if self.path:
            with open(self.path, "w", newline="") as f:
                writer = csv.writer(f)
                writer.writerow(["steps", "seconds", "score_as_order", "conceded_as_chaos"])
                writer.writerows(self.rows)

    def _on_training_start(self) -> None:
        self.start = time.time()
        self._record()
        self.next = self.every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self._record()
            self.next += self.every
        return time.time() < self.deadline

    def _on_training_end(self) -> None:
        self._record()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="wall-clock training time")
    parser.add_argument("--envs", type=int, default=16, help="environments stepped together")
    parser.add_argument("--eval-every", type=int, default=20_000, help="steps between evaluations")
    parser.add_argument("--eval-games", type=int, default=100, help="games per role per evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--curve", default=None, help="write the learning curve to this CSV file")
    args = parser.parse_args()
    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    vec = DummyVecEnv(
        [lambda i=i: EntropyEnv(role="random", opponent="random", seed=args.seed * 1000 + i) for i in range(args.envs)]
    )
    model = MaskablePPO(
        "MultiInputPolicy",
        vec,
        n_steps=128,
        batch_size=512,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"features_extractor_class": EntropyCNN, "net_arch": [128]},
        seed=args.seed,
        verbose=0,
    )
    deadline = time.time() + args.minutes * 60
    model.learn(total_timesteps=10**9, callback=Curve(args.eval_every, args.eval_games, deadline, args.curve))


if __name__ == "__main__":
    main()
