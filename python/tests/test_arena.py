"""One game of a match from Python: the same record as ``entropy match`` writes."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from hyle_entropy import play_game

ROOT = Path(__file__).resolve().parents[2]


def without_timings(record: dict) -> dict:
    """A record without the seconds each side used (the only part that varies by run)."""
    record = dict(record)
    for side in ("order", "chaos"):
        record[side] = {k: v for k, v in record[side].items() if k != "seconds"}
    return record


def test_a_game_is_recorded_with_roles_and_a_score():
    record = json.loads(play_game("greedy", "random", deal=2, game=1, seed=7, clock=5, size=5))
    assert record["deal"] == 2 and record["game"] == 1
    assert record["order"]["player"] == "B" and record["chaos"]["player"] == "A"
    assert record["match"]["players"] and record["match"]["size"] == 5
    assert record["termination"] == "normal"
    assert len(record["moves"]) >= 25
    # Node-limited bots make it reproducible.
    again = json.loads(play_game("greedy", "random", deal=2, game=1, seed=7, clock=5, size=5))
    assert without_timings(again) == without_timings(record)


def test_bad_arguments_raise_value_errors():
    with pytest.raises(ValueError, match="game must be 0"):
        play_game("greedy", "random", deal=0, game=2)
    with pytest.raises(ValueError, match="player a"):
        play_game("bot:nonsense", "random", deal=0, game=0)
    with pytest.raises(ValueError, match="clock"):
        play_game("greedy", "random", deal=0, game=0, clock=0)
    with pytest.raises(ValueError, match="board size"):
        play_game("greedy", "random", deal=0, game=0, size=9)
    # As `entropy match`: CodeCup programs play 7x7 only.
    with pytest.raises(ValueError, match="7x7 only"):
        play_game("cmd:exit 3", "greedy", deal=0, game=0, size=5)


def test_a_crashing_program_forfeits_and_the_game_is_still_recorded():
    record = json.loads(play_game("cmd:exit 3", "greedy", deal=0, game=0, clock=5, size=7))
    assert record["termination"] == "forfeit"
    assert record["forfeits"][0]["role"] == "order"
    assert record["order"]["points"] == 0


def test_the_records_equal_entropy_match(tmp_path):
    binary = Path(os.environ.get("ENTROPY_BIN", ROOT / "target" / "debug" / "entropy"))
    if not binary.exists():
        pytest.skip(f"no entropy binary at {binary} (set ENTROPY_BIN)")
    out = tmp_path / "m.jsonl"
    subprocess.run(
        [binary, "match", "greedy", "search:nodes=300", "--deals", "2", "--seed", "4",
         "--size", "5", "--clock", "10", "--quiet", "--jobs", "1", "--out", out],
        check=True,
    )
    for line in out.read_text().splitlines():
        theirs = json.loads(line)
        ours = json.loads(play_game("greedy", "search:nodes=300", deal=theirs["deal"],
                                    game=theirs["game"], seed=4, clock=10, size=5, luck=2))
        assert without_timings(ours) == without_timings(theirs)
