"""The whole-board network's Python side: its numpy twin plays the moves and values of the golden
file (the same file the Rust side, tract over the ONNX model, is tested against), and its
inputs and data helpers."""

from pathlib import Path

import numpy as np
import pytest

from hyle_entropy import board_net
from hyle_entropy._native import afterstates, board_inputs

WEIGHTS = Path(__file__).resolve().parents[2] / "crates" / "entropy-engine" / "weights"


def test_numpy_twin_plays_the_golden_moves_and_values():
    model = board_net.Numpy(WEIGHTS / "wnet7.npz")
    lines = (WEIGHTS / "wnet7-golden.txt").read_text().splitlines()
    assert len(lines) >= 150
    for line in lines:
        position, mv, value = line.split("\t")
        best, best_value = model.best_move(position)
        assert best == mv, line
        assert abs(best_value - float(value)) < 2e-3, line


def test_inputs_follow_the_board_and_reject_bad_positions():
    empty = "/".join(["......."] * 7) + " draw"
    x = board_inputs([empty])
    assert x.shape == (1, board_net.INPUTS)
    assert x[0, : board_net.CELLS * 7].sum() == 0
    assert list(x[0, board_net.CELLS * 7 : board_net.CELLS * 7 + 7]) == [7.0] * 7
    with pytest.raises(ValueError, match="bad position"):
        board_inputs(["not a position"])
    assert afterstates(empty) == []
    moves = afterstates("/".join(["......."] * 7) + " 3")
    assert len(moves) == 49 and all(after.endswith(" slide") for _, after in moves)


def test_augmentation_keeps_chips_and_bag_consistent():
    positions = board_net.random_decisions(20, seed=3)
    x = board_inputs(positions)
    y = board_net.augment(x, np.random.default_rng(1))
    cells = board_net.CELLS * 7
    # The same chips; each colour's chips on the board and in the bag renamed together (a chip
    # in Chaos's hand is in neither, so the sums are 6 or 7, the same multiset before and after).
    assert (y[:, :cells].sum(axis=1) == x[:, :cells].sum(axis=1)).all()

    def totals(z):
        board = z[:, :cells].reshape(len(z), board_net.CELLS, 7).sum(axis=1)
        return board + z[:, cells : cells + 7]

    assert (np.sort(totals(y), axis=1) == np.sort(totals(x), axis=1)).all()
    assert (y[:, cells + 7 :] == x[:, cells + 7 :]).all()


def test_decisions_group_consecutive_afterstates_of_one_turn():
    keys = board_net.decision_keys(
        ["1....../......./......./......./......./......./....... slide"] * 2
        + ["1....../......./......./......./......./......./....... draw"]
        + ["11...../......./......./......./......./......./....... slide"]
    )
    assert list(keys) == [0, 0, 1, 2]
    assert board_net.pair_mse(np.array([1.0, 2.0, 0, 0]), np.array([1.0, 3.0, 0, 0]), keys) == 1.0
