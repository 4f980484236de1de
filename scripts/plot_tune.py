#!/usr/bin/env python3
"""Draws an `entropy tune` trajectory as a PNG.

usage: python3 scripts/plot_tune.py TRAJECTORY.csv [OUT.png]

One panel per tuned option: its estimate after each iteration, with the two perturbed players'
values around it; a last panel: each iteration's paired margin (plus player over minus player)
and its running mean over 50 iterations. OUT.png defaults to the CSV's name with .png. Needs
matplotlib.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    rows = list(csv.DictReader(lines))
    if not rows or "margin" not in rows[0]:
        raise ValueError(f"{path}: not an `entropy tune` trajectory (or no iteration yet)")
    return rows


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    path = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else path.rsplit(".", 1)[0] + ".png"
    try:
        rows = read(path)
    except (OSError, ValueError) as e:
        print(f"plot_tune.py: {e}", file=sys.stderr)
        return 1
    names = [c[len("plus_"):] for c in rows[0] if c.startswith("plus_")]
    k = [int(r["iteration"]) for r in rows]
    fig, axes = plt.subplots(len(names) + 1, 1, figsize=(8, 2.4 * (len(names) + 1)), sharex=True)
    for ax, name in zip(axes, names):
        ax.plot(k, [float(r["plus_" + name]) for r in rows], lw=0.5, color="tab:green", label="plus")
        ax.plot(k, [float(r["minus_" + name]) for r in rows], lw=0.5, color="tab:red", label="minus")
        ax.plot(k, [float(r[name]) for r in rows], lw=1.5, color="black", label="estimate")
        ax.set_ylabel(name)
        ax.legend(loc="upper right", fontsize="small")
    margins = [float(r["margin"]) for r in rows]
    window = 50
    running = [sum(margins[max(0, i - window + 1):i + 1]) / (i - max(0, i - window + 1) + 1)
               for i in range(len(margins))]
    axes[-1].plot(k, margins, ".", ms=2, color="grey", label="margin")
    axes[-1].plot(k, running, color="black", label=f"mean of {window}")
    axes[-1].axhline(0, color="grey", lw=0.5)
    axes[-1].set_ylabel("plus - minus (points)")
    axes[-1].set_xlabel("iteration")
    axes[-1].legend(loc="upper right", fontsize="small")
    fig.suptitle(f"entropy tune: {path}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
