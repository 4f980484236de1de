"""PPO with a small CNN and a colour-map action head over the Entropy environment, on CPU, against the random opponent.

Uses sb3-contrib's MaskablePPO (maintained, takes the action mask) over the Rust vectorised
environment (256 games per step, through Stable-Baselines3's VecEnv interface), the agent's role
drawn per episode, with the score change rewarded at every step. Every ``--eval-every`` steps it plays ``--eval-games`` games
in each role against the random bot (sampling its moves from the policy) and prints a
learning-curve line: Order's mean score as
Order (random Order scores about 55 against random Chaos) and the mean score it concedes as
Chaos (lower is better).

    pip install ".[train]"                  # torch, sb3-contrib, gymnasium
    python examples/train_ppo.py --minutes 5 --curve curve.csv

Five minutes on 2 CPU cores take the agent from the random bot's 54 to about 70 as Order and
from 53 to about 35 conceded as Chaos (docs/python.md has the measured curve).

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
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import VecEnv
from torch import nn

from hyle_entropy import EntropyVecEnv

SIZE = 7
CELLS = SIZE * SIZE
PLANES = SIZE + 1  # one plane per colour, one for empty cells


def slide_matrices() -> tuple:
    """0/1 matrices (cells x slide actions) mapping each slide action to the cell its chip
    leaves and the cell it lands on (the action layout: slide target j of a cell is the j-th
    other cell of its row left to right, then of its column top to bottom). Multiplying by
    them, rather than indexing, keeps the backward pass a matrix product."""
    targets = 2 * (SIZE - 1)
    origin = torch.zeros(CELLS, CELLS * targets)
    destination = torch.zeros(CELLS, CELLS * targets)
    for cell in range(CELLS):
        row, column = divmod(cell, SIZE)
        others = [row * SIZE + c for c in range(SIZE) if c != column] + [r * SIZE + column for r in range(SIZE) if r != row]
        for j, other in enumerate(others):
            origin[cell, cell * targets + j] = 1.0
            destination[other, cell * targets + j] = 1.0
    return origin, destination


class EntropyCNN(BaseFeaturesExtractor):
    """3x3 convolutions (with each row's and column's mean, so a cell sees its lines) over the
    board planes and the broadcast scalars. Outputs the feature map, the board's colour planes
    and the drawn colour, flattened, for :class:`ColourHead`."""

    def __init__(self, observation_space: spaces.Dict, channels: int = 16):
        self.scalars = observation_space["observation"].shape[0] - PLANES * CELLS
        super().__init__(observation_space, channels * CELLS + PLANES * CELLS + SIZE)
        self.channels = channels
        self.stem = nn.Conv2d(PLANES + self.scalars, channels, 3, padding=1)
        self.blocks = nn.ModuleList([nn.Conv2d(3 * channels, channels, 3, padding=1) for _ in range(1)])

    @staticmethod
    def with_lines(x: torch.Tensor) -> torch.Tensor:
        rows = x.mean(dim=3, keepdim=True).expand_as(x)
        columns = x.mean(dim=2, keepdim=True).expand_as(x)
        return torch.cat([x, rows, columns], dim=1)

    def forward(self, observations: dict) -> torch.Tensor:
        obs = observations["observation"]
        board = obs[:, : PLANES * CELLS].reshape(-1, PLANES, SIZE, SIZE)
        scalars = obs[:, PLANES * CELLS :, None, None].expand(-1, -1, SIZE, SIZE)
        x = torch.relu(self.stem(torch.cat([board, scalars], dim=1)))
        for block in self.blocks:
            x = torch.relu(block(self.with_lines(x))) + x
        # The drawn colour is a scalar (colour / 7): turn it back into one-hot.
        drawn = torch.round(obs[:, PLANES * CELLS + SIZE] * SIZE).long()
        drawn = nn.functional.one_hot(drawn, SIZE + 1)[:, 1:].float()
        return torch.cat([x.flatten(1), obs[:, : PLANES * CELLS], drawn], dim=1)


class ColourHead(nn.Module):
    """Action logits from two maps of how good each colour would be on each cell (one for
    Order, one for Chaos): a placement's logit is Chaos's map at the cell for the drawn colour,
    a slide's is Order's map at the destination for the colour of the chip that moves, and the
    pass has its own logit. Laid out as the actions are."""

    def __init__(self, channels: int):
        super().__init__()
        self.channels = channels
        self.order = nn.Conv2d(3 * channels, SIZE, 1)
        self.chaos = nn.Conv2d(3 * channels, SIZE, 1)
        self.passing = nn.Linear(channels, 1)
        # Straight from the board planes: which colours sit within two cells of a row or
        # column (pairs and ABA patterns are made there), so the head need not wait for the
        # trunk to learn it.
        self.order_near = nn.Conv2d(PLANES, SIZE, 5, padding=2)
        self.chaos_near = nn.Conv2d(PLANES, SIZE, 5, padding=2)
        # Start from the uniform policy over legal moves (the random bot).
        for layer in (self.order, self.chaos, self.passing, self.order_near, self.chaos_near):
            nn.init.zeros_(layer.weight)
            nn.init.zeros_(layer.bias)
        origin, destination = slide_matrices()
        self.register_buffer("origin", origin)
        self.register_buffer("destination", destination)

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        n = latent.shape[0]
        x = latent[:, : self.channels * CELLS].reshape(n, self.channels, SIZE, SIZE)
        planes = latent[:, self.channels * CELLS : self.channels * CELLS + PLANES * CELLS]
        board = planes[:, : SIZE * CELLS].reshape(n, SIZE, CELLS)
        planes = planes.reshape(n, PLANES, SIZE, SIZE)
        drawn = latent[:, -SIZE:]
        lines = EntropyCNN.with_lines(x)
        order = (self.order(lines) + self.order_near(planes)).flatten(2)  # (n, colour, cell)
        chaos = (self.chaos(lines) + self.chaos_near(planes)).flatten(2)
        place = torch.einsum("nk,nkc->nc", drawn, chaos)
        # A slide's logit: Order's map at the destination for the colour on the origin.
        slides = ((board @ self.origin) * (order @ self.destination)).sum(dim=1)
        return torch.cat([place, slides, self.passing(x.mean(dim=(2, 3)))], dim=1)


class SpatialPolicy(MaskableMultiInputActorCriticPolicy):
    """MaskablePPO's policy with the colour-map action head; the value head is an MLP."""

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        self.action_net = ColourHead(self.features_extractor.channels)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)


class EntropySb3VecEnv(VecEnv):
    """Stable-Baselines3's VecEnv interface over the Rust vectorised environment, so that
    rollouts step hundreds of games per call and the policy runs on whole batches."""

    def __init__(self, num_envs: int, **kwargs):
        self.env = EntropyVecEnv(num_envs=num_envs, **kwargs)
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=(self.env.observation_size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.env.action_count,), dtype=np.int8),
            }
        )
        super().__init__(num_envs, observation_space, spaces.Discrete(self.env.action_count))
        self._actions = np.zeros(num_envs, dtype=np.int64)

    def _obs(self) -> dict:
        return {"observation": self.env.observations.copy(), "action_mask": self.env.masks.astype(np.int8)}

    def reset(self):
        self.env.reset()
        return self._obs()

    def step_async(self, actions) -> None:
        self._actions = np.asarray(actions, dtype=np.int64)

    def step_wait(self):
        _, rewards, terminals, _ = self.env.step(self._actions)
        infos = [{} for _ in range(self.num_envs)]
        return self._obs(), rewards.copy(), terminals.copy(), infos

    def env_method(self, method_name, *args, indices=None, **kwargs):
        if method_name == "action_masks":
            return list(self.env.masks.copy())
        raise NotImplementedError(method_name)

    def get_attr(self, attr_name, indices=None):
        return [getattr(self, attr_name, None)] * self.num_envs

    def set_attr(self, attr_name, value, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * self.num_envs

    def close(self) -> None:
        pass

    def seed(self, seed=None):
        return [seed] * self.num_envs


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
            actions, _ = model.predict(obs, action_masks=masks, deterministic=False)
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
    parser.add_argument("--envs", type=int, default=256, help="games stepped together")
    parser.add_argument("--eval-every", type=int, default=20_000, help="steps between evaluations")
    parser.add_argument("--eval-games", type=int, default=100, help="games per role per evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--shaping", type=float, default=1.0, help="reward the score change at every step (0: final reward only)"
    )
    parser.add_argument("--role", default="random", choices=["random", "order", "chaos"], help="the agent's role while training")
    parser.add_argument("--gamma", type=float, default=0.9, help="discount per decision (the score change is rewarded at once)")
    parser.add_argument("--lr", type=float, default=3e-3, help="Adam learning rate")
    parser.add_argument("--epochs", type=int, default=8, help="PPO epochs per rollout")
    parser.add_argument("--n-steps", type=int, default=16, help="steps per game per rollout")
    parser.add_argument("--verbose", action="store_true", help="print Stable-Baselines3's training table")
    parser.add_argument("--curve", default=None, help="write the learning curve to this CSV file")
    args = parser.parse_args()
    torch.set_num_threads(2)
    torch.manual_seed(args.seed)
    vec = EntropySb3VecEnv(args.envs, role=args.role, opponent="random", reward_shaping=args.shaping, seed=args.seed)
    model = MaskablePPO(
        SpatialPolicy,
        vec,
        n_steps=args.n_steps,
        batch_size=1024,
        n_epochs=args.epochs,
        learning_rate=args.lr,
        gamma=args.gamma,
        gae_lambda=0.95,
        ent_coef=0.0,
        policy_kwargs={"features_extractor_class": EntropyCNN, "net_arch": {"pi": [], "vf": [128]}},
        seed=args.seed,
        verbose=int(args.verbose),
    )
    deadline = time.time() + args.minutes * 60
    model.learn(total_timesteps=10**9, callback=Curve(args.eval_every, args.eval_games, deadline, args.curve))


if __name__ == "__main__":
    main()
