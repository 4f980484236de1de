"""The placement network (`pnet`, experimental): where Chaos should place the chip it has drawn,
one forward pass per decision. A small convolutional network over the planes the Rust engine
writes (``placement_planes``: the chips, the drawn colour, the linear evaluation of each
placement, immediate gains, Order's threat map, the bag) gives one logit per cell; Chaos plays
the empty cell with the highest. Trained by imitation of the searcher's placements (the data of
``entropy policy-data``), with every sample turned by
a random symmetry of the board and its colours renamed at random.

Rows and columns matter whole in this game (palindromes run along them), so every block mixes
each cell with its whole row and column (1x13 and 13x1 convolutions) as well as its neighbours.
The logits start as the linear one-move lookahead's (a learned multiple of plane 9), so before
any training the network plays as ``search:depth=1`` does as Chaos.

    entropy policy-data --games 3000 --out /tmp/pl
    python -m hyle_entropy.placement_net train --data /tmp/pl --out pnet.onnx

``scripts/train_pnet.sh`` runs both.

Training needs torch and onnx.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Sequence

import numpy as np

SIDE = 7
CELLS = SIDE * SIDE
PLANES = 21
#: Planes holding one colour each (chips), and the bag's count of each colour.
CHIP_PLANES = slice(0, 7)
BAG_PLANES = slice(14, 21)
EMPTY = 7
LINEAR = 9

# Order's slide network (``--role order``, planes of ``slide_planes``): one output per start
# cell, direction (up, down, left, right) and distance, then the pass.
SLIDE_PLANES = 42
MOVE_PLANES = slice(8, 32)
PASS_PLANE = 33
SLIDE_BAG = slice(35, 42)
OUTPUTS = 4 * (SIDE - 1) * CELLS + 1


def load(prefix: Path, order: bool = False):
    """Planes (N, planes, 7, 7) and chosen moves (N,) of a data file pair PREFIX.x / PREFIX.y (a
    last game cut short by an interruption is dropped to whole samples)."""
    planes = SLIDE_PLANES if order else PLANES
    y = np.fromfile(f"{prefix}.y", dtype="<u2" if order else np.uint8)
    x = np.fromfile(f"{prefix}.x", dtype="<f4")
    n = min(len(y), len(x) // (planes * CELLS))
    return x[: n * planes * CELLS].reshape(n, planes, SIDE, SIDE), y[:n].astype(np.int64)


def _turn(t, k: int, flip: bool, directions: bool):
    """A board symmetry on the last two dimensions; with ``directions`` the dimension before
    the distances (up, down, left, right) follows it."""
    import torch

    # Each step is a transpose or a flip of columns; directions move with them.
    for step in ["t", "f"] * k + (["f"] if flip else []):
        if step == "t":
            t = t.transpose(-1, -2)
            if directions:
                t = t[..., [2, 3, 0, 1], :, :, :]
        else:
            t = torch.flip(t, dims=(-1,))
            if directions:
                t = t[..., [0, 1, 3, 2], :, :, :]
    return t


def augment_order(x, y, rng: np.random.Generator):
    """[`augment`] for Order's planes: the move planes and labels turn with their directions."""
    import torch

    k, flip = int(rng.integers(4)), bool(rng.integers(2))
    moves = x[:, MOVE_PLANES].reshape(-1, 4, SIDE - 1, SIDE, SIDE)
    moves = _turn(moves, k, flip, True).reshape(-1, 4 * (SIDE - 1), SIDE, SIDE)
    rest = _turn(x, k, flip, False)
    x = torch.cat([rest[:, :8], moves, rest[:, 32:]], dim=1)
    index = torch.arange(OUTPUTS - 1).reshape(4, SIDE - 1, SIDE, SIDE)
    index = _turn(index, k, flip, True).reshape(-1)
    where = torch.empty(OUTPUTS, dtype=torch.long)
    where[index] = torch.arange(OUTPUTS - 1)
    where[OUTPUTS - 1] = OUTPUTS - 1
    y = where[y]
    perm = torch.from_numpy(rng.permutation(7))
    x[:, CHIP_PLANES] = x[:, CHIP_PLANES][:, perm]
    x[:, SLIDE_BAG] = x[:, SLIDE_BAG][:, perm]
    return x, y


def augment(x, y, rng: np.random.Generator):
    """One random symmetry of the board and one random renaming of the colours, for a batch."""
    import torch

    k = int(rng.integers(4))
    flip = bool(rng.integers(2))
    cells = torch.arange(CELLS).reshape(SIDE, SIDE)
    x = torch.rot90(x, k, dims=(2, 3))
    cells = torch.rot90(cells, k, dims=(0, 1))
    if flip:
        x = torch.flip(x, dims=(3,))
        cells = torch.flip(cells, dims=(1,))
    # cells[r, c] is the old index of the cell now at (r, c): a label moves to where it went.
    where = torch.empty(CELLS, dtype=torch.long)
    where[cells.reshape(-1)] = torch.arange(CELLS)
    y = where[y]
    perm = torch.from_numpy(rng.permutation(7))
    x = x.clone()
    x[:, CHIP_PLANES] = x[:, CHIP_PLANES][:, perm]
    x[:, BAG_PLANES] = x[:, BAG_PLANES][:, perm]
    return x, y


def build(width: int, blocks: int, order: bool = False):
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.near = nn.Conv2d(width, width, 3, padding=1)
            self.row = nn.Conv2d(width, width, (1, 2 * SIDE - 1), padding=(0, SIDE - 1))
            self.column = nn.Conv2d(width, width, (2 * SIDE - 1, 1), padding=(SIDE - 1, 0))

        def forward(self, x):
            return x + torch.relu(self.near(x) + self.row(x) + self.column(x))

    class SlideNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(SLIDE_PLANES, width, 3, padding=1)
            self.blocks = nn.Sequential(*[Block() for _ in range(blocks)])
            self.head = nn.Conv2d(width, 4 * (SIDE - 1), 1)
            self.pass_head = nn.Linear(width, 1)
            for layer in [self.head, self.pass_head]:
                nn.init.zeros_(layer.weight)
                nn.init.zeros_(layer.bias)
            # The move planes are in tens of points below the best move: +20 per ten points
            # starts as the linear lookahead's choice.
            self.linear = nn.Parameter(torch.tensor(20.0))

        def forward(self, x):
            h = self.blocks(torch.relu(self.stem(x)))
            moves = self.head(h) + self.linear * x[:, MOVE_PLANES]
            passing = self.pass_head(h.mean(dim=(2, 3))) + self.linear * x[:, PASS_PLANE, :1, 0]
            return torch.cat([moves.reshape(-1, OUTPUTS - 1), passing], dim=1)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(PLANES, width, 3, padding=1)
            self.blocks = nn.Sequential(*[Block() for _ in range(blocks)])
            self.head = nn.Conv2d(width, 1, 1)
            nn.init.zeros_(self.head.weight)
            nn.init.zeros_(self.head.bias)
            # Plane 9 is in tens of points above the best placement: -20 per ten points starts
            # the network as the linear lookahead's (nearly) hard choice.
            self.linear = nn.Parameter(torch.tensor(-20.0))

        def forward(self, x):
            h = self.blocks(torch.relu(self.stem(x)))
            logits = self.head(h)[:, 0] + self.linear * x[:, LINEAR]
            return logits.reshape(-1, CELLS)

    return SlideNet() if order else Net()


def masked(logits, x):
    import torch

    if x.shape[1] == SLIDE_PLANES:
        legal = x[:, MOVE_PLANES].reshape(-1, OUTPUTS - 1) > -4.0
        legal = torch.cat([legal, torch.ones_like(legal[:, :1])], dim=1)
    else:
        legal = x[:, EMPTY].reshape(-1, CELLS) > 0.5
    return torch.where(legal, logits, torch.full_like(logits, -1e9))


def train(args: argparse.Namespace) -> None:
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    slides = args.role == "order"
    parts = [load(Path(prefix), slides) for prefix in args.data]
    x = np.concatenate([p[0] for p in parts]) if len(parts) > 1 else parts[0][0]
    y = np.concatenate([p[1] for p in parts]) if len(parts) > 1 else parts[0][1]
    del parts
    n = len(y)
    held = max(1, n // 10)
    xt, yt = torch.from_numpy(x[:-held].copy()), torch.from_numpy(y[:-held])
    xv, yv = torch.from_numpy(x[-held:].copy()), torch.from_numpy(y[-held:])
    print(f"{n} placements, {held} held out", file=sys.stderr)
    net = build(args.width, args.blocks, slides)
    if args.init:
        load_onnx_weights(net, args.init)
        print(f"weights from {args.init}", file=sys.stderr)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * ((n - held) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=max(steps, 1))

    def held_out():
        net.eval()
        with torch.no_grad():
            right, loss = 0, 0.0
            for i in range(0, held, 2048):
                xb, yb = xv[i : i + 2048], yv[i : i + 2048]
                logits = masked(net(xb), xb)
                loss += torch.nn.functional.cross_entropy(logits, yb, reduction="sum").item()
                right += (logits.argmax(1) == yb).sum().item()
        net.train()
        return loss / held, right / held

    base = (masked(build(1, 0, slides)(xv[:2048]), xv[:2048]).argmax(1) == yv[:2048]).float().mean().item()
    print(f"linear lookahead agrees with the teacher on {base:.3f} of held-out placements", file=sys.stderr)
    start = time.time()
    for epoch in range(args.epochs):
        order = torch.from_numpy(rng.permutation(n - held))
        total, count = 0.0, 0
        for i in range(0, n - held - args.batch + 1, args.batch):
            idx = order[i : i + args.batch]
            xb, yb = (augment_order if slides else augment)(xt[idx], yt[idx], rng)
            loss = torch.nn.functional.cross_entropy(masked(net(xb), xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
            count += len(idx)
        hl, acc = held_out()
        print(
            f"epoch {epoch + 1}: train loss {total / max(count, 1):.3f}, held-out loss {hl:.3f}, "
            f"agreement {acc:.3f} ({time.time() - start:.0f} s)",
            file=sys.stderr,
        )
        out = Path(args.out.replace("{epoch}", str(epoch + 1)))
        export(net, out, SLIDE_PLANES if slides else PLANES)


def load_onnx_weights(net, model: Path) -> None:
    """Starts `net` from the weights of a model this module exported (fine-tuning): ONNX keeps
    the parameters under their torch names; a model of another shape is an error."""
    import onnx
    import torch
    from onnx import numpy_helper

    weights = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(model)).graph.initializer}
    state = net.state_dict()
    missing = [name for name in state if name not in weights]
    wrong = [name for name in state if name in weights and tuple(weights[name].shape) != tuple(state[name].shape)]
    if missing or wrong:
        raise SystemExit(
            f"{model}: not a model of this shape (missing {missing[:3]}, other shapes {wrong[:3]}); "
            "give the same --role, --width and --blocks"
        )
    net.load_state_dict({name: torch.from_numpy(weights[name].copy()) for name in state})


def export(net, out: Path, planes: int) -> None:
    import torch

    net.eval()
    torch.onnx.export(
        net,
        torch.zeros(1, planes, SIDE, SIDE),
        str(out),
        input_names=["x"],
        output_names=["logits"],
        dynamic_axes={"x": {0: "n"}, "logits": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    net.train()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m hyle_entropy.placement_net", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="fit the network to the searcher's placements")
    t.add_argument("--data", required=True, nargs="+", metavar="PREFIX",
                   help="PREFIX of PREFIX.x and PREFIX.y (entropy policy-data --out PREFIX); several are joined in order, "
                   "and the last 10%% of the whole is held out")
    t.add_argument("--out", default="pnet.onnx",
                   help="the ONNX model to write after every epoch ({epoch} in the name: one file per epoch)")
    t.add_argument("--role", choices=["chaos", "order"], default="chaos",
                   help="Chaos's placements or Order's slides (entropy policy-data --role order)")
    t.add_argument("--epochs", type=int, default=10)
    t.add_argument("--batch", type=int, default=256)
    t.add_argument("--lr", type=float, default=2e-3)
    t.add_argument("--width", type=int, default=48, help="channels of every block")
    t.add_argument("--blocks", type=int, default=4)
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--seed", type=int, default=2026)
    t.add_argument("--init", type=Path, metavar="MODEL.onnx",
                   help="start from this model's weights (fine-tuning; the same role, width and blocks)")
    args = parser.parse_args(argv)
    if args.command == "train":
        train(args)


if __name__ == "__main__":
    main()
