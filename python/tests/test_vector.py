"""The native vectorised environment through its numpy front."""

import numpy as np
import pytest

from hyle_entropy import EntropyVecEnv, action_count, observation_size, order_reward


def random_legal(env: EntropyVecEnv, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per agent (0 for agents with no legal action)."""
    actions = np.zeros(env.num_agents, dtype=np.int64)
    for i in range(env.num_agents):
        legal = np.flatnonzero(env.masks[i])
        if len(legal):
            actions[i] = rng.choice(legal)
    return actions


@pytest.mark.parametrize("size", [7, 5])
@pytest.mark.parametrize("observation", ["planes", "gains", "read", "compact"])
def test_shapes_and_dtypes(size, observation):
    env = EntropyVecEnv(num_envs=3, size=size, observation=observation)
    obs = env.reset()
    assert obs.shape == (3, observation_size(size, observation))
    assert obs.dtype == (np.uint8 if observation == "compact" else np.float32)
    assert env.masks.shape == (3, action_count(size)) and env.masks.dtype == np.bool_
    assert env.rewards.dtype == np.float32
    assert env.terminals.dtype == np.bool_ and env.truncations.dtype == np.bool_
    assert action_count(7) == 638 and observation_size(7) == 402 and observation_size(7, "gains") == 1137


def test_mask_in_observation_appends_the_mask():
    env = EntropyVecEnv(num_envs=2, mask_in_observation=True)
    env.reset()
    assert env.observations.shape == (2, 402 + 638)
    np.testing.assert_array_equal(env.observations[:, 402:], env.masks.astype(np.float32))


def test_masks_equal_the_rust_legal_moves():
    env = EntropyVecEnv(num_envs=4, seed=3, opponent="greedy")
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(200):
        for i in range(4):
            assert sorted(env.legal_actions(i)) == list(np.flatnonzero(env.masks[i]))
        env.step(random_legal(env, rng))


def test_determinism_for_a_seed():
    def run(seed):
        env = EntropyVecEnv(num_envs=3, seed=seed)
        env.reset()
        rng = np.random.default_rng(1)
        trace = []
        for _ in range(150):
            env.step(random_legal(env, rng))
            trace.append((env.observations.copy(), env.rewards.copy(), env.terminals.copy()))
        return trace

    a, b, c = run(5), run(5), run(6)
    for x, y in zip(a, b):
        for u, v in zip(x, y):
            np.testing.assert_array_equal(u, v)
    assert any(not np.array_equal(x[0], z[0]) for x, z in zip(a, c))


def test_threads_change_no_result():
    """The games stepped on one thread, on every core or on three write the same."""

    def run(threads):
        env = EntropyVecEnv(num_envs=6, seed=2, opponent="greedy", observation="evals", reward_shaping=0.5, threads=threads)
        env.reset()
        rng = np.random.default_rng(1)
        trace = []
        for _ in range(60):
            env.step(random_legal(env, rng))
            trace.append((env.observations.copy(), env.masks.copy(), env.rewards.copy(), env.terminals.copy()))
        return trace, env.native.stats()

    serial, serial_stats = run(1)
    assert serial_stats["episodes"] > 0
    for threads in (0, 3):
        trace, stats = run(threads)
        assert stats == serial_stats
        for x, y in zip(serial, trace):
            for u, v in zip(x, y):
                np.testing.assert_array_equal(u, v)


@pytest.mark.parametrize("role,length", [("order", 48), ("chaos", 49)])
def test_episode_lengths_and_the_final_reward(role, length):
    env = EntropyVecEnv(num_envs=1, seed=2, role=role)
    env.reset()
    rng = np.random.default_rng(2)
    for _ in range(3):
        env.stats(clear=True)
        steps = 0
        while True:
            _, rewards, terminals, _ = env.step(random_legal(env, rng))
            steps += 1
            if terminals[0]:
                break
            assert rewards[0] == 0.0
        assert steps == length
        stats = env.stats()
        expected = order_reward(int(stats["score"]))
        assert rewards[0] == pytest.approx(expected if role == "order" else -expected)
        # Auto-reset: the flag stayed set and the observation is a fresh game's.
        assert env.terminals[0]
        assert env.native.score(0) == 0


def test_illegal_actions_are_refused():
    env = EntropyVecEnv(role="chaos", reward_illegal=-0.25)
    env.reset()
    before = env.get_state(0)
    env.step([637])  # the pass is an Order action
    assert env.rewards[0] == pytest.approx(-0.25) and not env.terminals[0]
    assert env.get_state(0) == before
    assert env.stats()["illegal"] == 1


def test_shaping_rewards_score_changes():
    env = EntropyVecEnv(role="order", opponent="random", reward_shaping=1.0, seed=4)
    env.reset()
    rng = np.random.default_rng(3)
    seen = False
    for _ in range(48):
        _, rewards, terminals, _ = env.step(random_legal(env, rng))
        if not terminals[0] and rewards[0] != 0:
            seen = True
    assert seen


def test_evaluation_shaping_pays_a_move_its_worth_and_sums_to_the_score():
    """With the engine's evaluation as the potential, each game's shaping rewards (Order's,
    the terminal one included) sum to (S - P0) / 25, P0 the empty board's potential, the same
    in every game: the score's return up to a constant. The rewards before the end differ."""
    settings = dict(role="order", opponent="greedy", reward_shaping=1.0, reward_final=0.0, seed=4)
    score_env = EntropyVecEnv(**settings)
    eval_env = EntropyVecEnv(**settings, reward_potential="eval")
    rng = np.random.default_rng(3)
    empties = []
    for env in (score_env, eval_env):
        env.reset()
    for _ in range(2):
        score_rewards, eval_rewards = [], []
        while True:
            # The same deal and the same moves in both.
            actions = random_legal(score_env, rng)
            assert (score_env.masks == eval_env.masks).all()
            _, score_reward, terminals, _ = score_env.step(actions)
            _, eval_reward, eval_terminals, _ = eval_env.step(actions)
            score_rewards.append(float(score_reward[0]))
            eval_rewards.append(float(eval_reward[0]))
            assert terminals[0] == eval_terminals[0]
            if terminals[0]:
                break
        assert score_rewards != pytest.approx(eval_rewards)
        empties.append(25 * (sum(score_rewards) - sum(eval_rewards)))
    assert 20 < empties[0] < 120, empties  # the empty board's expected final score
    assert empties[0] == pytest.approx(empties[1], abs=1e-2)
    with pytest.raises(ValueError, match="reward potential"):
        EntropyVecEnv(reward_shaping=1.0, reward_potential="points")


def test_self_play_agents_take_turns():
    env = EntropyVecEnv(num_envs=2, mode="selfplay", seed=1)
    env.reset()
    assert env.num_agents == 4
    rng = np.random.default_rng(4)
    for _ in range(200):
        for game in range(2):
            movers = env.masks[2 * game].any(), env.masks[2 * game + 1].any()
            assert movers.count(True) == 1
        _, rewards, terminals, _ = env.step(random_legal(env, rng))
        for game in range(2):
            if terminals[2 * game + 1]:
                assert rewards[2 * game] == -rewards[2 * game + 1]


def test_analysis_helpers_and_rendering():
    env = EntropyVecEnv()
    env.reset()
    outcomes = env.chance_outcomes(0)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    env.set_state(0, "1....../......./......./......./......./......./....... slide")
    assert len(env.legal_actions(0)) == 13
    with pytest.raises(ValueError):
        env.set_state(0, "not a board")
    assert "score" in env.render(0)
    image = env.render(0, "rgb_array")
    assert image.shape == (112, 112, 3) and image.dtype == np.uint8
    with pytest.raises(ValueError):
        EntropyVecEnv(role="king")
    with pytest.raises(ValueError):
        EntropyVecEnv(opponent="nobody")
