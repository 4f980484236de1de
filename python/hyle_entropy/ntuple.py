"""The n-tuple evaluation of the learned agent ``net`` in numpy: the slow, obviously correct twin
of ``crates/entropy-engine/src/learned/ntuple/``, reading the same model files
(``entropy train-net`` writes them; the shipped ones are ``crates/entropy-engine/weights/net7*.bin``).

A position's value is the base linear evaluation (ridge weights per bucket of the game, stored in
the model), plus one table weight per line (its pattern: colours renamed in order of first
appearance, the smaller of both reading directions; per class of line, phase and stage anchor),
plus a linear correction over the standardised features, the last two interpolated between the
stage anchors around the position; never below the score now. The features come from the Rust
engine (``board_inputs``, the same numbers the model was trained on); everything else is here.

``crates/entropy-engine/tests/ntuple_golden.rs`` keeps ``weights/net7-golden.txt`` (Rust's best
moves and values on decisions of random games); ``python/tests/test_ntuple.py`` checks this twin
plays them.

    python -m hyle_entropy.ntuple crates/entropy-engine/weights/net7.bin "POSITION"
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Dict, List, Tuple

import numpy as np

from hyle_entropy._native import afterstates, board_inputs

MAGIC = "entropy n-tuple model 1"
COLOURS = 7
#: Linear features (the first is the score now).
FEATURES = 15
#: Chips placed between two stage anchors, and the anchors (0, 4, .., 48).
STAGE_STEP = 4
ANCHORS = 48 // STAGE_STEP + 1
#: Phases with weights of their own: after Order's move, after Chaos's placement.
PHASES = 2
#: The base linear evaluation's buckets: phase (draw, place, slide) x group of 4 turns.
TURN_GROUP = 4
GROUPS = 48 // TURN_GROUP + 1
BUCKETS = 3 * GROUPS

_PATTERNS: Dict[int, Tuple[np.ndarray, int]] = {}


def canonical_lines(side: int) -> np.ndarray:
    """The canonical key of every line key of ``side`` cells (3 bits a cell, the first cell
    lowest, 0 empty): colours renamed 1, 2, .. in order of first appearance, the smaller of the
    two reading directions."""
    keys = np.arange(1 << (3 * side), dtype=np.int64)
    cells = np.stack([(keys >> (3 * i)) & 7 for i in range(side)], axis=1).astype(np.int8)

    def relabelled(order: range) -> np.ndarray:
        rows = np.arange(len(keys))
        names = np.zeros((len(keys), 8), dtype=np.int8)
        following = np.ones(len(keys), dtype=np.int8)
        out = np.zeros(len(keys), dtype=np.int64)
        for position, i in enumerate(order):
            cell = cells[:, i]
            new = (cell > 0) & (names[rows, cell] == 0)
            names[rows[new], cell[new]] = following[new]
            following += new
            # names[:, 0] is never set: an empty cell stays 0.
            out |= names[rows, cell].astype(np.int64) << (3 * position)
        return out

    return np.minimum(relabelled(range(side)), relabelled(range(side - 1, -1, -1)))


def line_patterns(side: int) -> Tuple[np.ndarray, int]:
    """The dense pattern id of every line key of ``side`` cells (the canonical keys numbered in
    increasing order, as Rust numbers them) and how many patterns there are (2,152 for 7)."""
    if side not in _PATTERNS:
        distinct, ids = np.unique(canonical_lines(side), return_inverse=True)
        _PATTERNS[side] = (ids.astype(np.int32), len(distinct))
    return _PATTERNS[side]


def line_keys(board: str) -> List[int]:
    """The keys of a board text's rows, then its columns' (a row's cells left to right, a
    column's top to bottom, the first lowest; ``.`` is 0, colour digits 1-7)."""
    grid = [[0 if c == "." else int(c) for c in row] for row in board.split("/")]
    n = len(grid)
    rows = [sum(grid[r][c] << (3 * c) for c in range(n)) for r in range(n)]
    columns = [sum(grid[r][c] << (3 * r) for r in range(n)) for c in range(n)]
    return rows + columns


class NTuple:
    """An n-tuple model read from its file (``to_bytes`` in Rust): the header, then
    little-endian float32 means, scales, line weights and linear weights, then the base
    linear weights as float64, bucket by bucket."""

    def __init__(self, path: str | Path):
        data = Path(path).read_bytes()
        lines: List[str] = []
        at = 0
        while True:
            end = data.find(b"\n", at)
            if end < 0:
                raise ValueError(f"{path}: not an n-tuple model (the header ends early)")
            line = data[at:end].decode()
            at = end + 1
            lines.append(line)
            if line == "data":
                break
        if lines[0] != MAGIC:
            raise ValueError(f"{path}: not an n-tuple model (first line {lines[0]!r})")
        shape = lines[1].split()
        fields = dict(zip(shape[::2], shape[1::2]))
        try:
            self.side = int(fields["side"])
            self.patterns = int(fields["patterns"])
            anchors, phases = int(fields["anchors"]), int(fields["phases"])
        except (KeyError, ValueError):
            raise ValueError(f"{path}: not an n-tuple model (shape line {lines[1]!r})") from None
        if self.side not in (5, 7):
            raise ValueError(f"{path}: side {self.side} (5 or 7)")
        ids, count = line_patterns(self.side)
        self.pattern_ids = ids
        if self.patterns != count or anchors != ANCHORS or phases != PHASES:
            raise ValueError(f"{path}: a model of another shape ({lines[1]})")
        if len(fields["features"].split(",")) != FEATURES:
            raise ValueError(f"{path}: {fields['features']} are not the {FEATURES} features")
        self.classes = (self.side + 1) // 2
        line_count = PHASES * ANCHORS * self.classes * self.patterns
        linear_count = PHASES * ANCHORS * FEATURES
        float_count = 2 * FEATURES + line_count + linear_count
        if len(data) - at != 4 * float_count + 8 * BUCKETS * (FEATURES + 1):
            raise ValueError(f"{path}: the model holds {len(data) - at} bytes of weights, not what its shape needs")
        floats = np.frombuffer(data, dtype="<f4", count=float_count, offset=at)
        self.mean = floats[:FEATURES]
        self.scale = floats[FEATURES : 2 * FEATURES]
        self.lines = floats[2 * FEATURES : 2 * FEATURES + line_count].reshape(PHASES, ANCHORS, self.classes, self.patterns)
        self.linear = floats[2 * FEATURES + line_count :].reshape(PHASES, ANCHORS, FEATURES)
        at += 4 * len(floats)
        self.base = np.frombuffer(data, dtype="<f8", offset=at).reshape(BUCKETS, FEATURES + 1)

    def values(self, positions: List[str]) -> np.ndarray:
        """Order's expected final score from each position (texts as ``entropy`` writes them),
        at least its score now; a finished game's is its score."""
        inputs = board_inputs(positions)
        features = inputs[:, self.side * self.side * COLOURS + COLOURS + 2 :][:, :FEATURES].astype(np.float64)
        placed_column = self.side * self.side * COLOURS + COLOURS + 1
        n = self.side
        # Each line's class (distance from the edge): rows, then columns.
        classes = [min(k, n - 1 - k) for k in range(n)] * 2
        out = np.empty(len(positions))
        for i, text in enumerate(positions):
            board, phase = text.split(" ", 1)
            f = features[i]
            score = f[0]
            if phase == "over":
                out[i] = score
                continue
            placed = int(inputs[i, placed_column])
            turn = min(placed * 49 // (n * n), 48)
            bucket = (0 if phase == "draw" else 2 if phase == "slide" else 1) * GROUPS + turn // TURN_GROUP
            w = self.base[bucket]
            base = np.float32(w[0] + w[1:] @ f)
            slot = int(phase == "slide")
            anchor, t = turn // STAGE_STEP, np.float32((turn % STAGE_STEP) / STAGE_STEP)
            following = min(anchor + 1, ANCHORS - 1)
            ids = [self.pattern_ids[key] for key in line_keys(board)]
            linear_inputs = np.concatenate([[1.0], (f[1:] - self.mean[1:]) / self.scale[1:]]).astype(np.float32)

            def at(a: int) -> np.float32:
                lines = self.lines[slot, a, classes, ids].sum(dtype=np.float32)
                return lines + np.float32(self.linear[slot, a] @ linear_inputs)

            value = base + (np.float32(1) - t) * at(anchor) + t * at(following)
            out[i] = max(float(value), score)
        return out

    def value(self, position: str) -> float:
        """Order's expected final score from one position."""
        return float(self.values([position])[0])

    def best_move(self, position: str) -> Tuple[str, float]:
        """The move whose afterstate the model values best for the player to move (Order the
        highest, Chaos the lowest, the first of equals), with that value, as ``net`` plays."""
        moves = afterstates(position)
        if not moves:
            raise ValueError(f"not a decision: {position!r}")
        values = self.values([after for _, after in moves])
        order = position.split(" ", 1)[1].startswith("slide")
        best = int(np.argmax(values) if order else np.argmin(values))
        return moves[best][0], float(values[best])


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Value a position with an n-tuple model (the numpy twin of `net`'s evaluation) "
        "and, at a decision, name the move it plays."
    )
    parser.add_argument("model", help="a model file written by `entropy train-net` (e.g. weights/net7.bin)")
    parser.add_argument("position", help='a position text, e.g. "1....../......./......./......./......./......./....... slide"')
    args = parser.parse_args()
    model = NTuple(args.model)
    print(f"value {model.value(args.position):.4f}")
    if afterstates(args.position):
        move, value = model.best_move(args.position)
        print(f"best {move} {value:.4f}")


if __name__ == "__main__":
    main()
