"""The one-command training of the ``policy`` network (``train_policy``): teacher data kept,
distillation, PPO from it and the side-by-side matches, on a tiny scale, with one curve over
the run; run again, it resumes without redoing what is done. Skipped where torch,
pufferlib-core or the ``entropy`` program (``cargo build``, or $ENTROPY_BIN) is missing."""

import csv
import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pufferlib.pufferl")

from hyle_entropy import train_policy  # noqa: E402
from test_distill_policy import teacher_file  # noqa: E402
from test_train_ppo import SMALL  # noqa: E402


def entropy_binary():
    """The CLI built by ``cargo test`` (or $ENTROPY_BIN)."""
    root = Path(__file__).resolve().parents[2]
    for path in (os.environ.get("ENTROPY_BIN"), root / "target/debug/entropy", root / "target/release/entropy"):
        if path and Path(path).exists():
            return str(path)
    pytest.skip("no entropy binary (cargo build, or set ENTROPY_BIN)")


def test_one_command_distils_fine_tunes_measures_and_resumes(tmp_path, capsys):
    binary = entropy_binary()
    out = tmp_path / "run"
    out.mkdir()
    # Teacher data already whole: the program is not asked for more.
    teacher_file(out / "teacher.txt", games=20)
    ppo = [s for s in SMALL if not s.startswith("policy.")] + ["env.subenvs=2", "curriculum.0.0=greedy self", "train.total_timesteps=4096", "eval.games=4"]
    args = ["--out", str(out), "--entropy", binary, "--games", "20", "--epochs", "1", "--ppo-minutes", "5", "--deals", "1", "--jobs", "1", "--threads", "1"]
    for setting in ppo:
        args += ["--ppo-set", setting]
    assert train_policy.main(args) == 0
    printed = capsys.readouterr().out
    assert "teacher data:" not in printed
    for name in ("distill/policy.bin", "ppo/policy.bin", "curve.csv", "strength.csv"):
        assert (out / name).exists(), name
    curve = list(csv.DictReader(open(out / "curve.csv")))
    assert curve[0]["phase"] == "distill 1" and curve[-1]["phase"].startswith("ppo ")
    minutes = [float(row["minutes"]) for row in curve]
    assert minutes == sorted(minutes)
    # Agreement at the distillation's pass and for the fine-tuned network at the end.
    assert curve[0]["agreement"] and curve[-1]["agreement"]
    assert all(float(row["score_as_order"]) > 0 for row in curve)
    strength = list(csv.DictReader(open(out / "strength.csv")))
    assert [(row["network"], row["opponent"]) for row in strength] == [
        ("distill", "search:depth=1"), ("distill", "greedy"), ("ppo", "search:depth=1"), ("ppo", "greedy")]
    assert all(int(row["deals"]) == 1 for row in strength)
    # Again: the distillation is not redone, and the curve is the same up to PPO's.
    distilled = (out / "distill" / "policy.bin").read_bytes()
    assert train_policy.main(args) == 0
    assert "distillation:" not in capsys.readouterr().out
    assert (out / "distill" / "policy.bin").read_bytes() == distilled


def test_bad_settings_are_refused(tmp_path):
    with pytest.raises(SystemExit):
        train_policy.main(["--out", str(tmp_path), "--deals", "0"])
    with pytest.raises(SystemExit):
        train_policy.main(["--out", str(tmp_path), "--entropy", "/no/such/entropy", "--games", "1"])


def test_the_paired_margin_is_read_from_the_records(tmp_path):
    record = tmp_path / "m.jsonl"
    games = [
        '{"match":{"players":[]}}',
        '{"deal":0,"game":0,"score":100,"termination":"normal"}',
        '{"deal":0,"game":1,"score":90,"termination":"normal"}',
        '{"deal":1,"game":0,"score":80,"termination":"normal"}',
        '{"deal":1,"game":1,"score":60,"termination":"normal"}',
        # A deal cut off by an interruption is left out.
        '{"deal":2,"game":0,"score":50,"termination":"normal"}',
    ]
    record.write_text("\n".join(games) + "\n")
    margin, half, deals, order, conceded = train_policy.paired_margin(record)
    assert (margin, deals, order, conceded) == (15.0, 2, 90.0, 75.0)
    assert half == pytest.approx(1.96 * 7.0710678 / 2 ** 0.5, rel=1e-6)
