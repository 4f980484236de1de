"""The searcher distilled into the PPO policy (``distill_policy``): the teacher data read back,
the soft and value targets, and a short training that learns a teacher's choice and writes the
files ``train_ppo`` and the Rust bot read. Skipped where torch is missing."""

import csv

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from hyle_entropy import distill_policy  # noqa: E402
from hyle_entropy.ppo_policy import ACTIONS, load_policy  # noqa: E402
from hyle_entropy.vector import EntropyVecEnv  # noqa: E402


def teacher_file(path, games=20, seed=5):
    """A teacher-data file over random games whose teacher plays as the untrained policy (the
    one-move lookahead) does as Order and as it least would as Chaos; its next moves are
    valued a point worse each. Game 1's Chaos decisions read their opponent as greedy."""
    from hyle_entropy.ppo_policy import EVALS_SIZE, GAINS_SIZE, LINES_SIZE, PLANES_SIZE

    start = PLANES_SIZE + GAINS_SIZE + LINES_SIZE
    env = EntropyVecEnv(num_envs=1, role="random", opponent="random", seed=seed, autoreset=False, observation="evals")
    rng = np.random.default_rng(seed)
    lines = ["# entropy teacher-data --seed 1 --nodes 1 --top 3 --explore 0 --temperature 1"]
    for game in range(games):
        obs = env.reset()
        decisions = []
        while not env.terminals[0]:
            position = env.get_state(0)
            legal = np.flatnonzero(env.masks[0])
            order = position.endswith(" slide")
            # Both roles take the move that raises the engine's evaluation most: Order as the
            # lookahead does, Chaos as the lookahead would least (one weight's sign to learn).
            changes = obs[0, start : start + EVALS_SIZE]
            top = legal[np.argsort(-changes[legal], kind="stable")][:3].tolist()
            values = [70.0 + (-k if order else k) for k in range(len(top))]
            decisions.append((position, top, values))
            obs, _, _, _ = env.step(np.array([rng.choice(legal)]))
        final = int(env.native.score(0))
        for position, top, values in decisions:
            moves = ",".join(f"{a}:{v:.2f}" for a, v in zip(top, values))
            greedy = " greedy" if game == 1 and not position.endswith(" slide") else ""
            lines.append(f"{game} {final} {top[0]} {moves}{greedy} | {position}")
        lines.append(f"end {game}")
    path.write_text("\n".join(lines) + "\n")


def test_teacher_lines_read_back_and_give_soft_and_value_targets(tmp_path):
    data_path = tmp_path / "teacher.txt"
    teacher_file(data_path, games=2)
    # A last game cut off by an interruption is left out.
    with open(data_path, "a") as f:
        f.write("2 70 0 0:70.00 | " + "./" * 6 + ". 1\n")
    data = distill_policy.read_teacher(data_path)
    assert set(data.games.tolist()) == {0, 1}
    target = distill_policy.soft_targets(data, [0], temperature=1.0)
    assert target.shape == (1, ACTIONS)
    weights = target[0, data.actions[0]].numpy()
    assert np.allclose(weights, np.exp(-np.arange(len(weights))) / np.exp(-np.arange(len(weights))).sum(), atol=1e-6)
    hard = distill_policy.soft_targets(data, [0], temperature=0.0)
    assert float(hard[0, data.actions[0][0]]) == 1.0
    observer = distill_policy.Observations(data, "evals", batch=4)
    obs, scores, order = observer(np.arange(3))
    assert obs.shape[0] == 3 and scores.shape == (3,)
    # The reading: game 1's placements, and the read observation's flag set where it is.
    from hyle_entropy.ppo_policy import EVALS_SIZE, GAINS_SIZE, LINES_SIZE, PLANES_SIZE

    chaos = np.array([not p.endswith(" slide") for p in data.positions])
    assert np.array_equal(data.greedy, (data.games == 1) & chaos)
    read = distill_policy.Observations(data, "read", batch=4)
    flags, _, _ = read(np.arange(len(data)))
    assert np.array_equal(flags[:, PLANES_SIZE + GAINS_SIZE + LINES_SIZE + EVALS_SIZE].numpy() == 1.0, data.greedy)
    values = distill_policy.value_targets(data, [0, 1, 2], scores, order, mix=0.0)
    expected = (np.array([data.values[i][0] for i in range(3)]) - scores) / distill_policy.VALUE_SCALE
    assert np.allclose(values[:, 0].numpy(), np.where(order, expected, -expected), atol=1e-5)
    bad = tmp_path / "bad.txt"
    bad.write_text("# entropy teacher-data\nnot a decision\n")
    with pytest.raises(ValueError, match="line 2: not a teacher decision"):
        distill_policy.read_teacher(bad)


def test_a_short_distillation_learns_the_teachers_choice_and_writes_its_files(tmp_path, capsys):
    data_path = tmp_path / "teacher.txt"
    teacher_file(data_path, games=20)
    out = tmp_path / "distill"
    args = ["--data", str(data_path), "--out", str(out), "--epochs", "4", "--batch", "64"]
    args += ["--channels", "8", "--hidden", "8", "--rate", "0.01", "--threads", "1", "--eval-games", "4"]
    assert distill_policy.main(args) == 0
    printed = capsys.readouterr().out
    before = float(printed.split("before training: agreement ")[1].split(",")[0])
    rows = list(csv.DictReader(open(out / "curve.csv")))
    assert len(rows) == 4
    best = max(float(row["agreement"]) for row in rows)
    assert best > before + 0.2, printed
    # Each pass's strength against greedy, the curve's other axis.
    assert all(0 < float(row["score_as_order"]) and 0 < float(row["conceded_as_chaos"]) for row in rows)
    assert "against greedy" in printed
    policy = load_policy(str(out / "policy.pt"))
    assert policy.config()["read"] == 1
    assert (out / "policy.bin").read_bytes().startswith(b"entropy policy network 1\n")
    with pytest.raises(SystemExit):
        distill_policy.main(["--data", str(data_path), "--epochs", "0"])
    with pytest.raises(SystemExit):
        distill_policy.main(["--data", str(data_path), "--eval-games", "-1"])
