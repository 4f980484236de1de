"""The Gymnasium, PettingZoo and PufferLib adapters, each skipped when its library is absent."""

import numpy as np
import pytest


def test_gymnasium_env_passes_the_checker():
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from hyle_entropy.gymnasium_env import EntropyEnv

    for role in ["order", "chaos"]:
        env = EntropyEnv(role=role, opponent="greedy", render_mode="ansi")
        check_env(env, skip_render_check=True)
        obs, info = env.reset(seed=3)
        assert env.observation_space.contains(obs)
        done, steps, total = False, 0, 0.0
        while not done:
            action = int(np.flatnonzero(env.action_masks())[0])
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
            steps += 1
        assert steps == (48 if role == "order" else 49)
        assert -1.0 <= total <= 1.0
        assert isinstance(env.render(), str)
    assert isinstance(gymnasium.spaces.Discrete(3), gymnasium.spaces.Space)
    # Every observation fits its declared space (the gains and the lines are signed floats).
    for observation in ["compact", "gains", "lines"]:
        env = EntropyEnv(role="order", opponent="greedy", observation=observation)
        check_env(env, skip_render_check=True)


def test_pettingzoo_env_passes_the_api_test():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from hyle_entropy.pettingzoo_env import EntropyAEC

    api_test(EntropyAEC(size=5), num_cycles=200)
    env = EntropyAEC()
    env.reset(seed=1)
    rewards = {"order": 0.0, "chaos": 0.0}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert rewards["order"] == -rewards["chaos"]
    api_test(EntropyAEC(size=5, observation="gains"), num_cycles=50)


def test_pufferlib_protocol():
    from hyle_entropy.pufferlib_env import HAVE_PUFFERLIB, EntropyPuffer

    env = EntropyPuffer(num_envs=8, seed=1)
    obs, infos = env.reset()
    assert obs.shape == (8, 402 + 638) and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(120):
        masks = obs[:, 402:] > 0
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminals, truncations, infos = env.step(actions)
        finished += int(terminals.sum())
        assert np.all(np.abs(rewards) <= 1.0)
    assert finished > 0


def test_pufferlib_vector_serial():
    """Through PufferLib's own vectorisation (``scripts/test.sh`` puts PufferLib 3.0.0's Python
    code on the path, as its package cannot be built here)."""
    from hyle_entropy.pufferlib_env import HAVE_PUFFERLIB, EntropyPuffer

    if not HAVE_PUFFERLIB:
        pytest.skip("PufferLib is not importable")
    import pufferlib.vector

    vecenv = pufferlib.vector.make(
        EntropyPuffer, num_envs=2, env_kwargs={"num_envs": 4}, backend=pufferlib.vector.Serial
    )
    obs, _ = vecenv.reset(seed=1)
    assert obs.shape == (8, 402 + 638) and obs.dtype == np.float32
    assert vecenv.single_action_space.n == 638 and vecenv.num_agents == 8
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(150):
        masks = obs[:, 402:] > 0
        assert masks.any(axis=1).all(), "every game has a legal action"
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminals, truncations, _ = vecenv.step(actions)
        finished += int(terminals.sum())
        assert np.all(np.abs(rewards) <= 1.0) and not truncations.any()
    assert finished >= 8, "every game ended at least once and reported it"
    vecenv.close()
