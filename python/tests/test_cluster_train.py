"""``entropy train`` with its self-play games as Ray tasks: the weights ``entropy train``
writes, whatever the workers; resumed without replaying; and the cluster match's SPRT decides
as ``entropy match --sprt`` does on the same records."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from hyle_entropy import MatchSprt, train_fit, train_self_play  # noqa: E402
from hyle_entropy._native import train_start  # noqa: E402
from hyle_entropy.cluster import MatchSpec, main, run_match  # noqa: E402

SETTINGS = ["--games", "4", "--generations", "2", "--nodes", "200", "--seed", "11",
            "--lambda", "0.25"]


def entropy_binary():
    """The CLI built by ``cargo test`` (or $ENTROPY_BIN)."""
    root = Path(__file__).resolve().parents[2]
    for path in (os.environ.get("ENTROPY_BIN"), root / "target/debug/entropy",
                 root / "target/release/entropy"):
        if path and Path(path).exists():
            return str(path)
    return None


def weight_lines(path):
    return [line for line in Path(path).read_text().splitlines() if not line.startswith("#")]


@pytest.fixture(scope="module")
def local_ray():
    if ray.is_initialized():
        ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_training_on_ray_gives_entropy_trains_weights_and_resumes(local_ray, tmp_path, capsys):
    out = tmp_path / "w.txt"
    assert main(["train", *SETTINGS, "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "generation 2:" in printed and "R^2" in printed
    data = tmp_path / "w.txt.games.jsonl"
    entries = [json.loads(line) for line in data.read_text().splitlines()]
    assert sorted((e["generation"], e["game"]) for e in entries) == \
        [(1, 0), (1, 1), (1, 2), (1, 3), (2, 4), (2, 5), (2, 6), (2, 7)]

    # The same games played here, one by one, and fitted: the same weights.
    weights = train_start("hand")
    for generation in (1, 2):
        texts = [train_self_play(weights, g, seed=11, nodes=200, lambda_=0.25)
                 for g in range((generation - 1) * 4, generation * 4)]
        for g, text in enumerate(texts, (generation - 1) * 4):
            assert text == next(e["samples"] for e in entries if e["game"] == g)
        weights, _ = train_fit(weights, texts, generation)
    # The weights entropy train writes with the same settings, byte for byte but the comment.
    binary = entropy_binary()
    if binary:
        cli = tmp_path / "cli.txt"
        subprocess.run([binary, "train", *SETTINGS, "--jobs", "1", "--quiet", "--out",
                        str(cli)], check=True, capture_output=True)
        assert weight_lines(cli) == weight_lines(out)

    # Resumed: nothing played again (a lost game, removed from the data, alone is replayed).
    before = out.read_text()
    lines = data.read_text().splitlines()
    data.write_text("\n".join(lines[:5] + lines[6:]) + "\n" + lines[5][:30])
    assert main(["train", *SETTINGS, "--out", str(out), "--quiet"]) == 0
    assert out.read_text() == before
    assert len(data.read_text().splitlines()) == 8
    # Other settings are refused rather than mixed in.
    assert main(["train", *SETTINGS, "--ridge", "0.5", "--out", str(out), "--quiet"]) == 2
    assert "another training" in capsys.readouterr().err


def test_training_reports_bad_settings(local_ray, tmp_path, capsys):
    assert main(["train", "--games", "0", "--out", str(tmp_path / "w.txt")]) == 2
    assert "at least 1" in capsys.readouterr().err
    assert main(["train", "--start", str(tmp_path / "none.txt"),
                 "--out", str(tmp_path / "w.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_cluster_sprt_stops_the_match_where_entropy_match_would(local_ray, tmp_path, capsys):
    spec = MatchSpec("greedy", "random", seed=3, clock=5, size=5)
    out = tmp_path / "sprt.jsonl"
    records = run_match(spec, 60, out, quiet=True, sprt=MatchSprt(0, 5))
    assert len(records) < 120, "the test decided before the last deal"
    last = [r for r in records if "sprt" in r][-1]["sprt"]
    assert last["decision"] == "H1"
    # The same test over the same records, in any order, decides at the same deal.
    again = MatchSprt(0, 5)
    for record in reversed(records):
        again.add(json.dumps(record))
    assert again.decision() == "H1"
    assert json.loads(again.status())["deals"] == last["deals"]
    # Resumed once decided: nothing to play; the command line prints the decision.
    assert main(["match", "greedy", "random", "--size", "5", "--clock", "5", "--seed", "3",
                 "--deals", "60", "--sprt", "0,5", "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "H1 accepted" in printed
    assert len(out.read_text().splitlines()) == len(records)
    binary = entropy_binary()
    if binary:
        result = subprocess.run([binary, "match", "greedy", "random", "--size", "5", "--clock",
                                 "5", "--seed", "3", "--deals", "60", "--sprt", "0,5", "--out",
                                 str(out), "--quiet"], check=True, capture_output=True, text=True)
        sprt_line = next(line for line in printed.splitlines() if line.startswith("SPRT"))
        assert sprt_line in result.stdout


def test_bad_sprt_margins_are_refused(capsys):
    with pytest.raises(SystemExit):
        main(["match", "greedy", "random", "--sprt", "5,0"])
    assert "H1 margin" in capsys.readouterr().err
    with pytest.raises(ValueError, match="not a game record"):
        MatchSprt(0, 5).add("{}")


NET_SETTINGS = ["--teacher-games", "4", "--teacher-nodes", "100", "--candidates", "1",
                "--epochs", "1", "--eval-deals", "1", "--jobs", "1"]


def model_data(path):
    """A model file's weights: what follows its header and provenance."""
    data = Path(path).read_bytes()
    return data[data.index(b"\ndata\n"):]


def test_training_the_net_on_ray_gives_entropy_train_nets_model_and_resumes(local_ray, tmp_path,
                                                                            capsys):
    from hyle_entropy._native import distill_teacher_game

    out, curve = tmp_path / "net.bin", tmp_path / "curve.csv"
    args = ["train-net", *NET_SETTINGS, "--out", str(out), "--curve", str(curve), "--quiet"]
    assert main(args) == 0
    assert "epoch 1:" in capsys.readouterr().out
    assert curve.read_text().splitlines()[0].startswith("epoch,seconds,")
    assert len(curve.read_text().splitlines()) == 3
    data = tmp_path / "net.bin.games.jsonl"
    entries = [json.loads(line) for line in data.read_text().splitlines()]
    assert sorted(e["game"] for e in entries) == [0, 1, 2, 3]
    for entry in entries:
        assert entry["samples"] == distill_teacher_game(entry["game"], seed=2026, nodes=100,
                                                        candidates=1)
    binary = entropy_binary()
    if binary:
        cli = tmp_path / "cli.bin"
        subprocess.run([binary, "train-net", *NET_SETTINGS, "--quiet", "--out", str(cli),
                        "--curve", str(tmp_path / "cli.csv")], check=True, capture_output=True)
        assert model_data(cli) == model_data(out)
    # Resumed: no teacher game played again, the same model; more games play only the new ones.
    before = model_data(out)
    assert main(args) == 0
    assert "(0 played now" in capsys.readouterr().out
    assert model_data(out) == before
    more = ["train-net", *NET_SETTINGS, "--teacher-games", "5", "--out", str(out), "--curve",
            str(curve), "--quiet"]
    assert main(more) == 0
    assert "in 5 games (1 played now" in capsys.readouterr().out
    assert main(["train-net", "--epochs", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err
