"""The comparison for `python -m hyle_entropy.train_ppo`: the same policy, environment, rewards,
curriculum and evaluation, trained by Stable-Baselines3's MaskablePPO (sb3-contrib) instead of
PufferLib's PuffeRL, on CPU.

    pip install "hyle-entropy[puffer]" sb3-contrib
    python examples/maskable_ppo.py --minutes 30 --out runs/maskable

It reads train_ppo's configs, the package's ``plan.ini`` by default (the plan's run: from the
random bot, curriculum from random to greedy; entropy.ini's other settings) and ``--config
entropy.ini`` for the default's; the [env], [policy], [curriculum] and [eval] sections; the
learning settings of [train] that MaskablePPO has: learning rate, gamma, GAE lambda, clip,
value and entropy coefficients, gradient norm, epochs, minibatch) and writes the same
``curve.csv`` (steps, minutes, score as Order and conceded as Chaos against greedy, steps per
second) and ``curve.png``, so docs/python.md can set the two side by side. MaskablePPO takes
the mask through its own channel (``action_masks``); the policy masks the logits itself as
well, so the two trainers see the same distribution.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path
from typing import Any, Dict, List

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnv

from hyle_entropy import train_ppo
from hyle_entropy.ppo_policy import EntropyPolicy
from hyle_entropy.vector import EntropyVecEnv


class SharedPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's policy interface over :class:`EntropyPolicy`: one pass gives the logits
    and the value (SB3's own layout would run a features extractor and two heads)."""

    def __init__(self, *args: Any, net: Dict[str, int], **kwargs: Any):
        self.net_config = net
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule) -> None:
        self.net = EntropyPolicy(**self.net_config)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _distribution(self, logits: torch.Tensor, action_masks: Any):
        distribution = self.action_dist.proba_distribution(action_logits=logits)
        if action_masks is not None:
            distribution.apply_masking(action_masks)
        return distribution

    def forward(self, obs, deterministic=False, action_masks=None):
        logits, values = self.net(obs)
        distribution = self._distribution(logits, action_masks)
        actions = distribution.get_actions(deterministic=deterministic)
        return actions, values, distribution.log_prob(actions)

    def evaluate_actions(self, obs, actions, action_masks=None):
        logits, values = self.net(obs)
        distribution = self._distribution(logits, action_masks)
        return values, distribution.log_prob(actions), distribution.entropy()

    def get_distribution(self, obs, action_masks=None):
        return self._distribution(self.net(obs)[0], action_masks)

    def predict_values(self, obs):
        return self.net(obs)[1]


class Sb3Env(VecEnv):
    """Stable-Baselines3's VecEnv over sub-environments of the Rust environment, one opponent
    each, as train_ppo's (games stepped hundreds per call; the policy runs on whole batches)."""

    def __init__(self, config: Dict[str, Dict[str, Any]], opponents: List[str], seed: int):
        env = config["env"]
        per = int(env["num_envs"]) // len(opponents)
        self.envs = [
            EntropyVecEnv(
                num_envs=per,
                seed=seed + 7919 * i,
                role=env["role"],
                opponent=opponent,
                mask_in_observation=True,
                reward_illegal=float(env["reward_illegal"]),
                reward_shaping=float(env["reward_shaping"]),
                reward_final=float(env["reward_final"]),
                observation=str(env["observation"]),
            )
            for i, opponent in enumerate(opponents)
        ]
        first = self.envs[0]
        observation_space = spaces.Box(0.0, 1.0, shape=(first.observation_size,), dtype=np.float32)
        super().__init__(per * len(opponents), observation_space, spaces.Discrete(first.action_count))
        self._actions = np.zeros(self.num_envs, dtype=np.int64)

    def set_stage(self, opponents: List[str], seed: int) -> None:
        for i, opponent in enumerate(opponents):
            if self.envs[i].settings["opponent"] != opponent:
                self.envs[i] = self.envs[i].with_opponent(opponent, seed + 7919 * i)
                self.envs[i].reset()

    def _stack(self, name: str) -> np.ndarray:
        return np.concatenate([getattr(e, name) for e in self.envs])

    def reset(self):
        for e in self.envs:
            e.reset()
        return self._stack("observations").copy()

    def step_async(self, actions) -> None:
        self._actions = np.asarray(actions, dtype=np.int64)

    def step_wait(self):
        per = self.envs[0].num_envs
        for i, e in enumerate(self.envs):
            e.step(self._actions[i * per : (i + 1) * per])
        infos = [{} for _ in range(self.num_envs)]
        return self._stack("observations").copy(), self._stack("rewards").copy(), self._stack("terminals").copy(), infos

    def env_method(self, method_name, *args, indices=None, **kwargs):
        if method_name == "action_masks":
            return list(self._stack("masks"))
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


class Curve(BaseCallback):
    """The curriculum's stages by step, and train_ppo's evaluation every ``interval`` seconds
    of training (evaluations excluded from the training time)."""

    def __init__(self, config, stages, out: Path, minutes: float):
        super().__init__()
        self.config, self.stages, self.out, self.limit = config, stages, out, minutes * 60
        self.rows: List[Dict[str, Any]] = []
        self.stage = 0
        self.train_seconds = 0.0

    def _evaluate(self) -> None:
        ev = self.config["eval"]
        self.train_seconds += time.time() - self.tick
        net = self.model.policy.net
        result = train_ppo.evaluate(net, int(ev["games"]), str(ev["opponent"]), int(ev["seed"]))
        (order, order_ci), (chaos, chaos_ci) = result["order"], result["chaos"]
        sps = self.num_timesteps / self.train_seconds if self.train_seconds else 0.0
        self.rows.append(
            {
                "steps": self.num_timesteps,
                "train_seconds": round(self.train_seconds, 1),
                "wall_seconds": round(time.time() - self.started, 1),
                "stage": self.stage,
                "score_as_order": round(order, 2),
                "order_ci": round(order_ci, 2),
                "conceded_as_chaos": round(chaos, 2),
                "chaos_ci": round(chaos_ci, 2),
                "steps_per_second": round(sps),
            }
        )
        with open(self.out / "curve.csv", "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=train_ppo.CURVE_FIELDS)
            writer.writeheader()
            writer.writerows(self.rows)
        train_ppo.plot_curve(self.rows, self.out / "curve.png", trainer="MaskablePPO")
        print(
            f"{self.train_seconds / 60:6.1f} min  {self.num_timesteps:>11,} steps  {sps:>7,.0f} steps/s  stage {self.stage}  "
            f"vs {ev['opponent']}: as Order {order:6.1f} ± {order_ci:.1f}  conceded as Chaos {chaos:6.1f} ± {chaos_ci:.1f}",
            flush=True,
        )
        self.next = self.train_seconds + float(ev["interval"])
        self.tick = time.time()

    def _on_training_start(self) -> None:
        self.started = self.tick = time.time()
        self._evaluate()

    def _on_step(self) -> bool:
        total = int(self.config["train"]["total_timesteps"])
        wanted = train_ppo.stage_at(self.stages, self.num_timesteps / total)
        if wanted != self.stage:
            self.stage = wanted
            self.training_env.set_stage(self.stages[wanted][1], 1_000_003 + wanted)
        elapsed = self.train_seconds + time.time() - self.tick
        if elapsed >= self.next:
            self._evaluate()
        return elapsed < self.limit and self.num_timesteps < total

    def _on_training_end(self) -> None:
        self._evaluate()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("runs/maskable"), help="where curve.csv and curve.png go")
    parser.add_argument("--minutes", type=float, default=30.0, help="training wall time (evaluations excluded)")
    parser.add_argument("--config", type=Path, default=train_ppo.CONFIG.with_name("plan.ini"), help="train_ppo's config (default: the package's plan.ini)")
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE")
    parser.add_argument("--n-steps", type=int, default=32, help="steps per game per rollout (train_ppo's bptt_horizon)")
    args = parser.parse_args()
    config = train_ppo.load_config(args.config, args.set)
    if train_ppo.critic_steps(config):
        print("maskable_ppo: MaskablePPO has no warm-up: warmup.critic_steps is ignored", file=sys.stderr)
    stages = train_ppo.curriculum(config)
    seed = int(config["base"]["seed"])
    t = config["train"]
    torch.set_num_threads(2)
    torch.manual_seed(seed)
    # As train_ppo does, so that the two trainers compare on the same allocator.
    train_ppo.keep_freed_memory()
    args.out.mkdir(parents=True, exist_ok=True)
    env = Sb3Env(config, stages[0][1], seed)
    model = MaskablePPO(
        SharedPolicy,
        env,
        n_steps=args.n_steps,
        batch_size=int(t["minibatch_size"]),
        n_epochs=int(t["update_epochs"]),
        learning_rate=float(t["learning_rate"]),
        gamma=float(t["gamma"]),
        gae_lambda=float(t["gae_lambda"]),
        clip_range=float(t["clip_coef"]),
        ent_coef=float(t["ent_coef"]),
        vf_coef=float(t["vf_coef"]),
        max_grad_norm=float(t["max_grad_norm"]),
        policy_kwargs={"net": train_ppo.policy_settings(config)},
        seed=seed,
        verbose=0,
    )
    model.learn(total_timesteps=int(t["total_timesteps"]), callback=Curve(config, stages, args.out, args.minutes))


if __name__ == "__main__":
    main()
