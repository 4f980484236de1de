"""The whole-board network (`wnet`): a small multilayer perceptron over every cell's chip, the bag,
the phase and the linear evaluation's features, trained on the searcher's values of afterstates
(the teacher data of ``python -m hyle_entropy.cluster train-net``) and exported as ONNX for
``entropy`` (which runs it with tract).

The network outputs a correction added to the linear evaluation's value (the inputs' last
column), so before any training it plays as one move ahead over the linear evaluation does.
Inputs come from the Rust engine (``hyle_entropy.board_inputs``), so Python and Rust always see
the same numbers.

Training needs torch and onnx (``pip install ".[train]"``); playing it (``value``,
``best_move``) needs numpy only.

    python -m hyle_entropy.board_net train --data net.bin.games.jsonl --out wnet.onnx

"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import numpy as np

from hyle_entropy._native import afterstates, board_inputs

SIDE = 7
COLOURS = 7
CELLS = SIDE * SIDE
#: Inputs per position: one-hot chips, the bag, draw-next and chips placed, 15 linear features,
#: the linear value.
INPUTS = CELLS * COLOURS + COLOURS + 2 + 15 + 1
#: The column of Order's current score (the first linear feature).
SCORE = CELLS * COLOURS + COLOURS + 2


def read_games(path: Path) -> List[str]:
    """The teacher games' texts (``TARGET POSITION`` lines) of a cluster train-net data file, in
    game order (the last record of each game wins, as on resuming)."""
    games: Dict[int, str] = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
                games[int(record["game"])] = record["samples"]
            except (ValueError, KeyError, TypeError) as e:
                # A line cut short by an interruption: its game is simply missing.
                print(f"{path}:{number}: skipped a bad record ({e})", file=sys.stderr)
    return [games[g] for g in sorted(games)]


def decision_keys(positions: Sequence[str]) -> np.ndarray:
    """A decision number per afterstate: consecutive afterstates with the same chips placed and
    phase come from one decision (as the Rust ``distill::decisions``)."""
    keys = np.zeros(len(positions), dtype=np.int64)
    current, previous = 0, None
    for i, text in enumerate(positions):
        board, phase = text.split(" ", 1)
        key = (sum(c.isdigit() for c in board), phase)
        if previous is not None and key != previous:
            current += 1
        keys[i] = current
        previous = key
    return keys


def dataset(
    games: Sequence[str], threat_map: bool = False
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Inputs (with the threat map if asked), targets, decision numbers and game numbers of the
    games' afterstates (finished boards left out: their value is their score)."""
    positions: List[str] = []
    targets: List[float] = []
    game_of: List[int] = []
    for g, text in enumerate(games):
        for line in text.splitlines():
            if not line.strip():
                continue
            target, position = line.strip().split(" ", 1)
            if position.endswith(" over"):
                continue
            positions.append(position)
            targets.append(float(target))
            game_of.append(g)
    x = np.zeros((len(positions), INPUTS + CELLS * threat_map), dtype=np.float32)
    for start in range(0, len(positions), 20000):
        x[start : start + 20000] = board_inputs(positions[start : start + 20000], threat_map)
    return (
        x,
        np.asarray(targets, dtype=np.float32),
        decision_keys(positions),
        np.asarray(game_of, dtype=np.int64),
    )


def symmetries() -> np.ndarray:
    """The 8 symmetries of the square as permutations of the cells (``new[i] = old[perm[i]]``)."""
    out = []
    for k in range(4):
        for flip in (False, True):
            grid = np.arange(CELLS).reshape(SIDE, SIDE)
            grid = np.rot90(grid, k)
            if flip:
                grid = grid[:, ::-1]
            out.append(grid.reshape(-1).copy())
    return np.stack(out)


def augment(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random symmetry of the board and a random renaming of the colours per row: the value
    of a position does not change under either (the features and the linear value do not)."""
    n = len(x)
    cells = x[:, : CELLS * COLOURS].reshape(n, CELLS, COLOURS)
    bag = x[:, CELLS * COLOURS : CELLS * COLOURS + COLOURS]
    sym = symmetries()[rng.integers(0, 8, n)]
    cells = np.take_along_axis(cells, sym[:, :, None], axis=1)
    perm = np.argsort(rng.random((n, COLOURS)), axis=1)
    cells = np.take_along_axis(cells, perm[:, None, :], axis=2)
    bag = np.take_along_axis(bag, perm, axis=1)
    out = x.copy()
    out[:, : CELLS * COLOURS] = cells.reshape(n, -1)
    out[:, CELLS * COLOURS : CELLS * COLOURS + COLOURS] = bag
    if x.shape[1] == INPUTS + CELLS:
        # The threat map (one number per cell before the linear value) turns with the board.
        start = INPUTS - 1
        out[:, start : start + CELLS] = np.take_along_axis(x[:, start : start + CELLS], sym, axis=1)
    return out


def decision_order(keys: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The afterstates' indices with the decisions in a random order and each decision's
    afterstates together, so that a batch holds whole decisions."""
    starts = np.flatnonzero(np.r_[True, np.diff(keys) != 0])
    ends = np.r_[starts[1:], len(keys)]
    perm = rng.permutation(len(starts))
    return np.concatenate([np.arange(starts[i], ends[i]) for i in perm])


def within_mse(pred, target, keys: np.ndarray):
    """Mean squared error of the values centred on their decision's mean against the targets
    centred the same way: only the differences within a decision, what a one-move lookahead
    compares, count."""
    import torch

    _, group = np.unique(keys, return_inverse=True)
    group_t = torch.from_numpy(group.astype(np.int64))
    count = torch.zeros(int(group.max()) + 1).index_add_(0, group_t, torch.ones(len(group)))
    error = pred - target
    mean = torch.zeros_like(count).index_add_(0, group_t, error) / count
    return ((error - mean[group_t]) ** 2).mean()


def pair_mse(values: np.ndarray, targets: np.ndarray, keys: np.ndarray) -> float:
    """Mean squared error of the differences between afterstates of one decision (what a
    one-move lookahead compares) against the targets' differences."""
    total, pairs = 0.0, 0
    order = np.argsort(keys, kind="stable")
    k, v, t = keys[order], values[order], targets[order]
    bounds = np.flatnonzero(np.diff(k)) + 1
    for idx in np.split(np.arange(len(k)), bounds):
        if len(idx) < 2:
            continue
        dv = v[idx][:, None] - v[idx][None, :]
        dt = t[idx][:, None] - t[idx][None, :]
        e = np.triu(dt - dv, 1)
        total += float((e**2).sum())
        pairs += len(idx) * (len(idx) - 1) // 2
    return total / max(pairs, 1)


class Numpy:
    """The exported network's twin in numpy: the same layers read from the ``.npz`` the trainer
    writes beside the ONNX file (for tests and for players without tract)."""

    def __init__(self, path: Path):
        data = np.load(path)
        self.mean = data["mean"]
        self.scale = data["scale"]
        self.layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(len(data.files) // 2 - 1)]
        #: Whether the model takes the threat map among its inputs (told by their number, as
        #: the Rust side tells it).
        self.threat_map = len(self.mean) == INPUTS + CELLS

    def value(self, x: np.ndarray) -> np.ndarray:
        """Order's expected final score for each row of inputs."""
        h = (x - self.mean) * self.scale
        for i, (w, b) in enumerate(self.layers):
            h = h @ w.T + b
            if i + 1 < len(self.layers):
                h = np.maximum(h, 0.0)
        # Never below the score: Order may always pass from here on (as the Rust side).
        return np.maximum(h[:, 0] + x[:, -1], x[:, SCORE])

    def best_move(self, position: str) -> Tuple[str, float]:
        """The move whose afterstate the network values best for the player to move (Order the
        highest, Chaos the lowest, the first of equals), with that value."""
        moves = afterstates(position)
        if not moves:
            raise ValueError(f"not a decision: {position!r}")
        x = board_inputs([after for _, after in moves], self.threat_map)
        values = self.value(x)
        order = position.split(" ", 1)[1].startswith("slide")
        best = int(np.argmax(values) if order else np.argmin(values))
        return moves[best][0], float(values[best])


def random_decisions(count: int, seed: int) -> List[str]:
    """``count`` decision positions (Chaos's placements and Order's slides) from random games,
    seeded: the positions of the Rust/Python same-move test."""
    rng = np.random.default_rng(seed)
    out: List[str] = []
    while len(out) < count:
        board = "/".join(["." * SIDE] * SIDE)
        position = f"{board} draw"
        while not position.endswith(" over") and len(out) < count:
            board, phase = position.split(" ", 1)
            if phase == "draw":
                bag = [COLOURS - board.count(str(c)) for c in range(1, COLOURS + 1)]
                colour = rng.choice(COLOURS, p=np.asarray(bag) / sum(bag)) + 1
                position = f"{board} {colour}"
                continue
            out.append(position)
            moves = afterstates(position)
            position = moves[rng.integers(len(moves))][1]
    return out


def golden(model: Numpy, count: int, seed: int) -> List[str]:
    """Lines ``POSITION<TAB>MOVE<TAB>VALUE`` of the network's best move and its value on random
    decisions, leaving out those whose best two afterstates are within 0.01 of each other (where
    rounding could pick either)."""
    lines = []
    for position in random_decisions(count, seed):
        moves = afterstates(position)
        values = model.value(board_inputs([after for _, after in moves]))
        ranked = np.sort(values)
        if len(values) > 1 and abs(ranked[-1] - ranked[-2]) < 0.01 and position.endswith("slide"):
            continue
        if len(values) > 1 and abs(ranked[1] - ranked[0]) < 0.01 and not position.endswith("slide"):
            continue
        mv, value = model.best_move(position)
        lines.append(f"{position}\t{mv}\t{value:.4f}")
    return lines


def train(args: argparse.Namespace) -> None:
    """Fits the network to the teacher data and writes the ONNX model, its numpy twin and the
    learning curve."""
    import torch
    from torch import nn

    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    torch.set_num_threads(args.threads)
    games = read_games(Path(args.data))
    if args.games:
        games = games[: args.games]
    held = max(len(games) // 10, 1)
    print(f"{len(games)} teacher games, the last {held} held out", flush=True)
    x, y, keys, game_of = dataset(games, args.threat_map)
    test = game_of >= len(games) - held
    xt, yt, kt = x[~test], y[~test], keys[~test]
    xh, yh, kh = x[test], y[test], keys[test]
    lin_mse = float(((xh[:, -1] - yh) ** 2).mean())
    lin_pair = pair_mse(xh[:, -1], yh, kh)
    print(
        f"{len(xt)} training afterstates, {len(xh)} held out; linear evaluation: "
        f"held-out error {lin_mse:.2f}, of the differences within a decision {lin_pair:.2f}",
        flush=True,
    )
    mean = xt.mean(axis=0)
    std = xt.std(axis=0)
    scale = np.where(std > 1e-3, 1.0 / np.maximum(std, 1e-3), 0.0).astype(np.float32)
    widths = [x.shape[1]] + [int(w) for w in args.hidden.split(",")] + [1]
    layers: List[nn.Module] = []
    for i in range(len(widths) - 1):
        layers.append(nn.Linear(widths[i], widths[i + 1]))
        if i + 2 < len(widths):
            layers.append(nn.ReLU())
    body = nn.Sequential(*layers)
    # The correction starts at zero: before training the network is the linear evaluation.
    with torch.no_grad():
        body[-1].weight.zero_()
        body[-1].bias.zero_()
    mean_t, scale_t = torch.from_numpy(mean), torch.from_numpy(scale)

    def forward(batch: torch.Tensor) -> torch.Tensor:
        return body((batch - mean_t) * scale_t)[:, 0] + batch[:, -1]

    optimiser = torch.optim.AdamW(body.parameters(), lr=args.rate, weight_decay=args.decay)
    steps = args.epochs * math.ceil(len(xt) / args.batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, args.rate, total_steps=steps)
    curve = open(args.curve, "w", newline="")
    writer = csv.writer(curve)
    writer.writerow(["epoch", "seconds", "train_mse", "heldout_mse", "heldout_pair_mse"])
    started = time.time()
    xh_t = torch.from_numpy(xh)
    for epoch in range(1, args.epochs + 1):
        body.train()
        order = decision_order(kt, rng) if args.within > 0 else rng.permutation(len(xt))
        total = 0.0
        for start in range(0, len(order), args.batch):
            idx = order[start : start + args.batch]
            batch = xt[idx]
            if args.augment:
                batch = augment(batch, rng)
            pred = forward(torch.from_numpy(batch))
            target = torch.from_numpy(yt[idx])
            loss = ((pred - target) ** 2).mean()
            if args.within > 0:
                loss = (1 - args.within) * loss + args.within * within_mse(pred, target, kt[idx])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += float(loss) * len(idx)
        body.eval()
        with torch.no_grad():
            vh = forward(xh_t).numpy()
        heldout = float(((vh - yh) ** 2).mean())
        pair = pair_mse(vh, yh, kh)
        seconds = time.time() - started
        writer.writerow([epoch, f"{seconds:.1f}", f"{total / len(xt):.3f}", f"{heldout:.3f}", f"{pair:.3f}"])
        curve.flush()
        print(
            f"epoch {epoch}: training error {total / len(xt):.2f}, held-out error {heldout:.2f}, "
            f"of the differences within a decision {pair:.2f} ({seconds:.0f} s)",
            flush=True,
        )
    export(body, mean, scale, Path(args.out))


def export(body, mean: np.ndarray, scale: np.ndarray, out: Path) -> None:
    """Writes the network as ONNX (inputs ``x``: rows of inputs; output ``value``: Order's
    expected final score per row) and its weights as ``.npz`` for the numpy twin."""
    import torch

    class Exported(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.body = body
            self.register_buffer("mean", torch.from_numpy(mean))
            self.register_buffer("scale", torch.from_numpy(scale))

        def forward(self, x):
            return self.body((x - self.mean) * self.scale)[:, 0] + x[:, -1]

    model = Exported().eval()
    tmp = out.with_suffix(out.suffix + ".tmp")
    torch.onnx.export(
        model,
        (torch.zeros(1, len(mean)),),
        str(tmp),
        input_names=["x"],
        output_names=["value"],
        dynamic_axes={"x": {0: "n"}, "value": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    tmp.replace(out)
    weights = {"mean": mean, "scale": scale}
    linear = [m for m in body if isinstance(m, torch.nn.Linear)]
    for i, layer in enumerate(linear):
        weights[f"w{i}"] = layer.weight.detach().numpy()
        weights[f"b{i}"] = layer.bias.detach().numpy()
    np.savez(out.with_suffix(".npz"), **weights)
    print(f"wrote {out} and {out.with_suffix('.npz')}", flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m hyle_entropy.board_net", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="fit the network to teacher data and export it")
    t.add_argument("--data", required=True, help="teacher games (cluster train-net's JSON lines)")
    t.add_argument("--games", type=int, default=0, help="use only the first N games [default: all]")
    t.add_argument("--out", default="wnet.onnx", help="the ONNX model to write (and .npz beside it)")
    t.add_argument("--curve", default="wnet-curve.csv", help="learning curve, one CSV line per epoch")
    t.add_argument("--hidden", default="256,128", help="hidden layer widths, comma-separated")
    t.add_argument("--epochs", type=int, default=20)
    t.add_argument("--batch", type=int, default=512)
    t.add_argument("--rate", type=float, default=2e-3, help="peak learning rate (one-cycle)")
    t.add_argument("--decay", type=float, default=1e-4, help="AdamW weight decay")
    t.add_argument("--no-augment", dest="augment", action="store_false", help="no symmetries or colour renamings")
    t.add_argument(
        "--within",
        type=float,
        default=0.0,
        help="share of the loss on the differences within a decision (batches of whole decisions)",
    )
    t.add_argument(
        "--threat-map",
        action="store_true",
        help="add each cell's best slide gain to the inputs (the Rust bot tells by the model's width)",
    )
    t.add_argument("--seed", type=int, default=2026)
    t.add_argument("--threads", type=int, default=2)
    g = sub.add_parser("golden", help="the network's moves on random decisions (the same-move test's file)")
    g.add_argument("--model", required=True, help="the .npz written beside the ONNX model")
    g.add_argument("--positions", type=int, default=200)
    g.add_argument("--seed", type=int, default=7)
    g.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    if args.command == "train":
        train(args)
    else:
        lines = golden(Numpy(Path(args.model)), args.positions, args.seed)
        Path(args.out).write_text("".join(line + "\n" for line in lines))
        print(f"wrote {len(lines)} decisions to {args.out}")


if __name__ == "__main__":
    main()
