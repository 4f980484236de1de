"""The n-tuple evaluation's numpy twin (``hyle_entropy.ntuple``) against Rust: the values and
moves of ``weights/net7-golden.txt``, which crates/entropy-engine/tests/ntuple_golden.rs keeps
equal to what Rust computes; and the line patterns against their definition."""

from pathlib import Path

import numpy as np
import pytest

from hyle_entropy import ntuple

WEIGHTS = Path(__file__).resolve().parents[2] / "crates" / "entropy-engine" / "weights"


def test_the_twin_plays_rusts_moves_with_rusts_values():
    lines = (WEIGHTS / "net7-golden.txt").read_text().splitlines()
    assert len(lines) >= 150
    models = {}
    for line in lines:
        name, position, value, move, best_value = line.split("\t")
        model = models.setdefault(name, ntuple.NTuple(WEIGHTS / name))
        assert abs(model.value(position) - float(value)) < 2e-3, line
        best, twin_value = model.best_move(position)
        assert best == move, line
        assert abs(twin_value - float(best_value)) < 2e-3, line
    assert sorted(models) == ["net7-order.bin", "net7.bin"]


def test_line_patterns_follow_their_definition():
    ids, count = ntuple.line_patterns(5)
    canonical = ntuple.canonical_lines(5)
    # "R.RG" and "GB.B" (cells lowest first) promise the same: renamed and read backwards.
    key = lambda cells: sum(c << (3 * i) for i, c in enumerate(cells))  # noqa: E731
    assert canonical[key([1, 0, 1, 2, 0])] == canonical[key([0, 3, 4, 0, 4])]
    assert ids[key([1, 0, 1, 2, 0])] == ids[key([0, 5, 6, 0, 6])]
    assert ids[key([1, 2, 0, 0, 0])] != ids[key([1, 1, 0, 0, 0])]
    # Numbered in increasing order of their canonical keys, every number used.
    assert count == len(np.unique(canonical))
    assert set(np.unique(ids)) == set(range(count))
    assert ntuple.line_patterns(7)[1] == 2152


def test_a_bad_model_file_is_named(tmp_path):
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"something else\nside 7\ndata\n")
    with pytest.raises(ValueError, match="not an n-tuple model"):
        ntuple.NTuple(bad)
    bad.write_bytes(f"{ntuple.MAGIC}\ndata\n".encode())
    with pytest.raises(ValueError, match="shape line"):
        ntuple.NTuple(bad)
    good = (WEIGHTS / "net7.bin").read_bytes()
    bad.write_bytes(good[:-8])
    with pytest.raises(ValueError, match="bytes of weights"):
        ntuple.NTuple(bad)
    with pytest.raises(ValueError, match="not a decision"):
        ntuple.NTuple(WEIGHTS / "net7.bin").best_move("/".join(["......."] * 7) + " draw")
