"""Fits the line-pattern tables, and the tables with a small NNUE-style network beside them, to
the same targets, and compares their held-out errors (issue 87: is a richer evaluation worth
its cost at the search's leaves?).

    python3 scripts/fit_richer.py RECORDS [--hidden 32] [--epochs 6] [--threads 1]

RECORDS is written by `cargo run --release -p entropy-train --example dump_tables_inputs`.
One game in five is held out, as `entropy train-tables` does. The errors are mean squared, and
"within" takes each bucket's mean error out: what a search comparing positions of one phase and
turn sees.
"""

import argparse
import time

import numpy as np
import torch
from torch import nn

COLUMNS = 96
ANCHORS = 13
PHASES = 2
STRIDE = 4 * 2152
LINEAR = 15


class Tables(nn.Module):
    """The shipped tables' form: per (phase, anchor) a weight per class and pattern and a linear
    correction, anchors interpolated, over the base linear evaluation."""

    def __init__(self, hidden, tables=True, over_reference=False, board=0):
        super().__init__()
        self.board = board
        if board:
            # A dense network over the board itself (cell colours, the bag's counts, the drawn
            # colour, phase and turn): what the canonical line patterns cannot see.
            self.cells = nn.Embedding(49 * 8, board)
            nn.init.normal_(self.cells.weight, std=0.05)
            self.bag = nn.Embedding(7 * 8, board)
            nn.init.normal_(self.bag.weight, std=0.05)
            self.drawn = nn.Embedding(8, board)
            nn.init.zeros_(self.drawn.weight)
            self.board_turn = nn.Embedding(PHASES * 50, board)
            nn.init.zeros_(self.board_turn.weight)
            self.board_out = nn.Embedding(PHASES * ANCHORS, board)
            nn.init.zeros_(self.board_out.weight)
        self.tables = tables
        self.over_reference = over_reference
        self.lines = nn.Embedding(PHASES * ANCHORS * STRIDE, 1)
        nn.init.zeros_(self.lines.weight)
        self.linear = nn.Embedding(PHASES * ANCHORS, LINEAR)
        nn.init.zeros_(self.linear.weight)
        self.hidden = hidden
        if hidden:
            # The accumulator: a vector per (phase, class, pattern), summed over the 14 lines,
            # plus one per (phase, turn); then a ReLU and a dot product per (phase, anchor).
            self.accumulator = nn.Embedding(PHASES * STRIDE, hidden)
            nn.init.normal_(self.accumulator.weight, std=0.05)
            self.turn = nn.Embedding(PHASES * 50, hidden)
            nn.init.zeros_(self.turn.weight)
            self.out = nn.Embedding(PHASES * ANCHORS, hidden)
            nn.init.zeros_(self.out.weight)

    def forward(self, batch):
        phase, anchor, t, placed, base, reference, lines, linear, cells, bag, drawn = batch
        slot = phase * ANCHORS + anchor
        nxt = phase * ANCHORS + torch.clamp(anchor + 1, max=ANCHORS - 1)
        value = (reference if self.over_reference else base).clone()
        for s, share in ((slot, 1 - t), (nxt, t)) if self.tables else ():
            idx = s.unsqueeze(1) * STRIDE + lines
            part = self.lines(idx).squeeze(-1).sum(1) + (self.linear(s) * linear).sum(1)
            value = value + share * part
        if self.hidden:
            acc = self.accumulator(phase.unsqueeze(1) * STRIDE + lines).sum(1)
            acc = acc + self.turn(phase * 50 + placed)
            h = torch.relu(acc)
            value = value + (1 - t) * (self.out(slot) * h).sum(1) + t * (self.out(nxt) * h).sum(1)
        if self.board:
            acc = self.cells(CELL_OFFSETS + cells).sum(1) + self.bag(BAG_OFFSETS + bag).sum(1)
            acc = acc + self.drawn(drawn) + self.board_turn(phase * 50 + placed)
            h = torch.relu(acc)
            out = self.board_out
            value = value + (1 - t) * (out(slot) * h).sum(1) + t * (out(nxt) * h).sum(1)
        return value


CELL_OFFSETS = torch.arange(49) * 8
BAG_OFFSETS = torch.arange(7) * 8


def tensors(rows):
    return (
        torch.from_numpy(rows[:, 4].astype(np.int64)),
        torch.from_numpy(rows[:, 5].astype(np.int64)),
        torch.from_numpy(rows[:, 6].copy()),
        torch.from_numpy(rows[:, 7].astype(np.int64)),
        torch.from_numpy(rows[:, 8].copy()),
        torch.from_numpy(rows[:, 9].copy()),
        torch.from_numpy(rows[:, 10:24].astype(np.int64)),
        torch.from_numpy(rows[:, 24:39].copy()),
        torch.from_numpy(rows[:, 39:88].astype(np.int64)),
        torch.from_numpy(rows[:, 88:95].astype(np.int64)),
        torch.from_numpy(rows[:, 95].astype(np.int64)),
    )


def errors(pred, target, buckets):
    e = pred - target
    overall = float(np.mean(e**2))
    means = np.zeros(64)
    counts = np.zeros(64)
    np.add.at(means, buckets, e)
    np.add.at(counts, buckets, 1)
    within = float(np.mean((e - means[buckets] / np.maximum(counts[buckets], 1)) ** 2))
    return overall, within


def predict(model, data, batch=65536):
    model.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(data[0]), batch):
            out.append(model(tuple(x[i : i + batch] for x in data)).numpy())
    model.train()
    return np.concatenate(out)


def fit(name, hidden, train, test, args, tables=True, board=0):
    torch.manual_seed(1)
    model = Tables(hidden, tables, args.over_reference, board)
    sparse = [model.lines.weight, model.linear.weight]
    dense = [p for p in model.parameters() if all(p is not q for q in sparse)]
    groups = [{"params": sparse, "lr": args.rate}]
    if dense:
        groups.append({"params": dense, "lr": args.rate / 3})
    optimiser = torch.optim.Adam(groups)
    x, y = tensors(train), torch.from_numpy(train[:, 1].copy())
    tx, ty, tb = tensors(test), test[:, 1], test[:, 3].astype(np.int64)
    n = len(y)
    best = None
    for epoch in range(args.epochs):
        started = time.time()
        scale = 1 - 0.9 * epoch / max(args.epochs - 1, 1)
        for g, base in zip(optimiser.param_groups, [args.rate, args.rate / 3]):
            g["lr"] = base * scale
        order = torch.randperm(n)
        for i in range(0, n, args.batch):
            take = order[i : i + args.batch]
            pred = model(tuple(v[take] for v in x))
            loss = ((pred - y[take]) ** 2).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        predicted = predict(model, tx)
        held = errors(predicted, ty, tb)
        by_turn = [
            errors(predicted[m], ty[m], tb[m])[1]
            for lo in range(0, 49, 8)
            for m in [(test[:, 7] >= lo) & (test[:, 7] < lo + 8)]
        ]
        print("  within buckets by turns 0-7, 8-15, ..: " + " ".join(f"{e:.2f}" for e in by_turn))
        best = held if best is None or held[0] < best[0] else best
        print(
            f"{name}: epoch {epoch + 1} held out {held[0]:.3f}, within buckets {held[1]:.3f} "
            f"({time.time() - started:.0f} s)",
            flush=True,
        )
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records")
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--rate", type=float, default=0.01)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--over-reference", action="store_true", help="fit corrections to the dumped model's values")
    parser.add_argument("--only", choices=["tables", "nnue", "both", "board"], default=None)
    parser.add_argument("--board", type=int, default=64, help="the board network's width")
    parser.add_argument("--games", type=int, default=0, help="use the first GAMES games only")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    rows = np.fromfile(args.records, dtype="<f4").reshape(-1, COLUMNS)
    if args.games:
        rows = rows[rows[:, 0] < args.games]
    held = rows[:, 0].astype(np.int64) % 5 == 0
    train, test = rows[~held], rows[held]
    print(f"{len(train)} samples fitted, {len(test)} held out")
    tb = test[:, 3].astype(np.int64)
    print("base linear evaluation: held out %.3f, within buckets %.3f" % errors(test[:, 8], test[:, 1], tb))
    print("the leaves' tables (fitted elsewhere): held out %.3f, within buckets %.3f" % errors(test[:, 9], test[:, 1], tb))
    print("  by turns: " + " ".join(
        "%.2f" % errors(test[m, 9], test[m, 1], tb[m])[1]
        for lo in range(0, 49, 8)
        for m in [(test[:, 7] >= lo) & (test[:, 7] < lo + 8)]))
    results = {}
    if args.only in (None, "tables"):
        results["tables"] = fit("tables", 0, train, test, args)
    if args.only in (None, "both"):
        results[f"tables+nnue{args.hidden}"] = fit(f"tables+nnue{args.hidden}", args.hidden, train, test, args)
    if args.only == "board":
        results[f"board{args.board}"] = fit(f"board{args.board}", 0, train, test, args, tables=False, board=args.board)
    if args.only == "nnue":
        results[f"nnue{args.hidden}"] = fit(f"nnue{args.hidden}", args.hidden, train, test, args, tables=False)
    for name, (overall, within) in results.items():
        print(f"{name}: best held out {overall:.3f}, within buckets {within:.3f}")


if __name__ == "__main__":
    main()
