"""Steps per second of the environment on one core.

Each configuration runs for a few seconds with legal random actions drawn from the masks by
numpy; the mask is either its own boolean array (the default) or appended to the observation
(PufferLib's layout). ``env`` times only ``step`` (the Rust side: opponent, chance, observations, masks),
``total`` includes drawing the actions in Python. The process is pinned to one CPU and numpy's
BLAS to one thread (its idle threads otherwise spin on the other cores).

    python python/benchmarks/bench_env.py [--seconds 3]
"""

import argparse
import os
import time

# Before numpy starts its thread pool.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from hyle_entropy import EntropyVecEnv  # noqa: E402


def bench(num_envs: int, opponent: str, observation: str, seconds: float, mask_in_observation: bool) -> tuple:
    env = EntropyVecEnv(
        num_envs=num_envs, opponent=opponent, observation=observation, mask_in_observation=mask_in_observation, seed=1
    )
    env.reset()
    rng = np.random.default_rng(0)
    stepped = 0.0
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = (rng.random(env.masks.shape, dtype=np.float32) * env.masks).argmax(axis=1)
        t = time.perf_counter()
        env.step(actions)
        stepped += time.perf_counter() - t
        steps += num_envs
    total = time.perf_counter() - start
    return steps / stepped, steps / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"{'envs':>5} {'opponent':>8} {'observation':>11} {'mask':>13} {'env steps/s':>12} {'total steps/s':>14}")
    for opponent in ["random", "greedy"]:
        for observation in ["planes", "compact"]:
            for mask_in_observation in [False, True]:
                for num_envs in [1, 1024]:
                    env_rate, total_rate = bench(num_envs, opponent, observation, args.seconds, mask_in_observation)
                    mask = "appended" if mask_in_observation else "own array"
                    print(
                        f"{num_envs:>5} {opponent:>8} {observation:>11} {mask:>13} {env_rate:>12,.0f} {total_rate:>14,.0f}"
                    )


if __name__ == "__main__":
    main()
