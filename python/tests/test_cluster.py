"""Matches as Ray tasks: records as ``entropy match`` writes them, each game exactly once,
resumed without replaying, and a worker node lost in the middle loses nothing."""

import json

import pytest

ray = pytest.importorskip("ray")

from hyle_entropy import play_game  # noqa: E402
from hyle_entropy.cluster import MatchSpec, main, run_match, summary  # noqa: E402


def without_timings(record):
    record = dict(record)
    for side in ("order", "chaos"):
        record[side] = {k: v for k, v in record[side].items() if k != "seconds"}
    return record


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_a_match_on_ray_equals_the_games_played_here_and_resumes(local_ray, tmp_path):
    spec = MatchSpec("greedy", "search:nodes=300", seed=3, clock=10, size=5)
    out = tmp_path / "m.jsonl"
    records = run_match(spec, 3, out, quiet=True)
    keys = sorted((r["deal"], r["game"]) for r in records)
    assert keys == [(d, g) for d in range(3) for g in (0, 1)]
    lines = out.read_text().splitlines()
    assert len(lines) == 6
    for record in map(json.loads, lines):
        here = json.loads(play_game("greedy", "search:nodes=300", record["deal"],
                                    record["game"], seed=3, clock=10, size=5))
        assert without_timings(record) == without_timings(here)
    # Resumed: nothing played again; more deals play only the new ones.
    assert len(run_match(spec, 3, out, quiet=True)) == 6
    assert len(out.read_text().splitlines()) == 6
    assert len(run_match(spec, 4, out, quiet=True)) == 8
    assert len(out.read_text().splitlines()) == 8
    assert "paired margin" in summary(records)
    # A half-written last line (a driver killed while writing) is dropped and its game replayed.
    text = out.read_text()
    out.write_text(text + text.splitlines()[0][:40])
    assert len(run_match(spec, 4, out, quiet=True)) == 8
    assert len(out.read_text().splitlines()) == 8
    # Another match's file is refused.
    with pytest.raises(ValueError, match="another match"):
        run_match(MatchSpec("greedy", "random", seed=3, clock=10, size=5), 1, out, quiet=True)


def test_the_command_line_plays_and_reports_bad_input(local_ray, tmp_path, capsys):
    out = tmp_path / "c.jsonl"
    assert main(["match", "greedy", "random", "--deals", "2", "--size", "5", "--clock", "5",
                 "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "paired margin" in printed
    # As `entropy match`: each game's luck in the draws measured at depth 2 by default.
    first = json.loads(out.read_text().splitlines()[0])
    assert first["match"]["luck"] == 2 and isinstance(first["luck"], float)
    assert "less the draws' luck" in printed
    assert main(["match", "bot:nonsense", "random", "--deals", "1", "--out", str(out)]) == 2
    assert "player a" in capsys.readouterr().err


def test_a_record_named_compressed_is_sealed_when_done_and_extended(local_ray, tmp_path):
    import gzip

    spec = MatchSpec("greedy", "random", seed=3, clock=10, size=5)
    out = tmp_path / "m.jsonl.gz"
    plain = tmp_path / "m.jsonl"
    assert len(run_match(spec, 2, out, quiet=True)) == 4
    assert out.exists() and not plain.exists()
    # A second sitting appends a gzip member, which gzip reads as one stream.
    assert len(run_match(spec, 3, out, quiet=True)) == 6
    assert not plain.exists()
    lines = gzip.open(out, "rt").read().splitlines()
    assert sorted((json.loads(l)["deal"], json.loads(l)["game"]) for l in lines) == [
        (d, g) for d in range(3) for g in (0, 1)]
    assert len(run_match(spec, 3, out, quiet=True)) == 6
