"""The whole-board network's Python side: its numpy twin plays the moves and values of the golden
file Rust wrote (tract over the ONNX model) and of the one it wrote itself (which the Rust side
is tested against), and its inputs and data helpers."""

from pathlib import Path

import numpy as np
import pytest

from hyle_entropy import board_net
from hyle_entropy._native import afterstates, board_inputs

WEIGHTS = Path(__file__).resolve().parents[2] / "crates" / "entropy-engine" / "weights"


# wnet7-golden.txt was written by numpy (the Rust side checks tract against it);
# wnet7-golden-rust.txt by tract (crates/entropy-engine/tests/wnet.rs), so each side is checked
# against the other's output.
@pytest.mark.parametrize("golden", ["wnet7-golden.txt", "wnet7-golden-rust.txt"])
def test_numpy_twin_plays_the_golden_moves_and_values(golden):
    model = board_net.Numpy(WEIGHTS / "wnet7.npz")
    lines = (WEIGHTS / golden).read_text().splitlines()
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


def test_decision_order_keeps_each_decision_together():
    keys = np.array([0, 0, 0, 1, 2, 2, 3])
    order = board_net.decision_order(keys, np.random.default_rng(4))
    assert sorted(order) == list(range(len(keys)))
    runs = [keys[order][0]] + [k for a, k in zip(keys[order], keys[order][1:]) if k != a]
    assert sorted(runs) == [0, 1, 2, 3]


def test_within_decision_loss_ignores_each_decisions_offset():
    torch = pytest.importorskip("torch")
    keys = np.array([0, 0, 1, 1, 1])
    target = torch.tensor([1.0, 2.0, 5.0, 6.0, 9.0])
    shifted = target + torch.tensor([3.0, 3.0, -2.0, -2.0, -2.0])
    assert float(board_net.within_mse(shifted, target, keys)) < 1e-9
    swapped = torch.tensor([2.0, 1.0, 5.0, 6.0, 9.0])
    # Decision 0's two values swapped: errors +1 and -1 around a mean of 0, 2 over 5 rows.
    assert abs(float(board_net.within_mse(swapped, target, keys)) - 2 / 5) < 1e-6


def test_threat_map_inputs_turn_with_the_board():
    positions = board_net.random_decisions(20, seed=5)
    plain = board_inputs(positions)
    x = board_inputs(positions, True)
    assert x.shape == (20, board_net.INPUTS + board_net.CELLS)
    start = board_net.INPUTS - 1
    assert (x[:, :start] == plain[:, :start]).all() and (x[:, -1] == plain[:, -1]).all()
    threats = x[:, start : start + board_net.CELLS]
    assert (threats >= 0).all() and threats.max() > 0
    y = board_net.augment(x, np.random.default_rng(2))
    moved = y[:, start : start + board_net.CELLS]
    assert (np.sort(moved, axis=1) == np.sort(threats, axis=1)).all()
    # A threat is on an empty cell, before and after the board turns.
    cells = y[:, : board_net.CELLS * 7].reshape(20, board_net.CELLS, 7).sum(axis=2)
    assert (moved[cells > 0] == 0).all()
