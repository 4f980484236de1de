"""Games against a pool of past selves, from the learner's side: the learner is to move in
every game after every step, its rewards over an episode sum to its share of the final score,
and the pool draws among its policies."""

import numpy as np
import pytest

from hyle_entropy import action_count, observation_size
from hyle_entropy.selfplay import OpponentPool, PoolGames

PLANES = observation_size(7)
ACTIONS = action_count(7)


def random_player(seed):
    rng = np.random.default_rng(seed)

    def act(observations):
        masks = observations[:, -ACTIONS:] > 0.5
        return (rng.random(masks.shape) * masks).argmax(axis=1)

    return act


def arrays(n):
    return {
        "observations": np.zeros((n, PLANES + ACTIONS), dtype=np.float32),
        "rewards": np.zeros(n, dtype=np.float32),
        "terminals": np.zeros(n, dtype=bool),
    }


def test_the_learner_is_to_move_after_every_step_and_its_rewards_sum_to_the_score():
    pool = OpponentPool(size=2, seed=1)
    pool.add(random_player(2))
    out = arrays(1)
    games = PoolGames(1, pool, seed=3, arrays=out, reward_shaping=1.0, reward_final=0.0)
    games.reset()
    learner = random_player(4)
    total, episodes, roles = 0.0, 0, set()
    for _ in range(400):
        mask = out["observations"][0, -ACTIONS:] > 0.5
        assert mask.any(), "the learner must be to move"
        order = bool(games.learner_order[0])
        games.step(learner(out["observations"]))
        total += float(out["rewards"][0])
        if out["terminals"][0]:
            score = games.env.stats()["score"]
            assert total == pytest.approx((1 if order else -1) * score / 25, abs=1e-4)
            total, episodes = 0.0, episodes + 1
            roles.add(order)
    assert episodes >= 4 and roles == {True, False}
    assert games.env.stats()["illegal"] == 0


def test_the_pool_keeps_its_newest_and_refuses_to_play_empty():
    pool = OpponentPool(size=2, seed=0)
    with pytest.raises(RuntimeError, match="empty"):
        pool.act(np.zeros((1, PLANES + ACTIONS), dtype=np.float32))
    players = [random_player(i) for i in range(3)]
    for player in players:
        pool.add(player)
    assert pool.policies == players[1:]
    assert pool.current in players[1:]


def test_the_pufferlib_environment_switches_to_the_pool_and_back():
    from hyle_entropy.pufferlib_env import EntropyPuffer

    env = EntropyPuffer(num_envs=4, opponent="greedy", seed=1)
    env.reset()
    pool = OpponentPool(size=1, seed=0)
    pool.add(random_player(5))
    env.set_opponent("self", 7, pool=pool)
    assert env.opponent == "self" and env.terminals.all()
    learner = random_player(6)
    for _ in range(120):
        assert (env.observations[:, -ACTIONS:] > 0.5).any(axis=1).all()
        env.step(learner(env.observations))
    env.set_opponent("greedy", 8)
    assert env.opponent == "greedy"
    env.step(learner(env.observations))
    with pytest.raises(ValueError, match="pool"):
        env.set_opponent("self", 9)
