#!/usr/bin/env python3
"""Draws the learning curves written by `entropy train-net` (--curve CSV) as one PNG.

usage: python3 scripts/plot_net_curve.py OUT.png CURVE.csv [CURVE.csv ...]

Each curve is the agent's mean score as Order against greedy Chaos and conceded as Chaos
against greedy Order, by epoch (distill) or by self-play games (td).
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out, paths = sys.argv[1], sys.argv[2:]
    fig, axes = plt.subplots(1, len(paths), figsize=(5.5 * len(paths), 4), squeeze=False)
    for ax, path in zip(axes[0], paths):
        try:
            with open(path, newline="") as f:
                rows = list(csv.DictReader(f))
        except OSError as e:
            print(f"plot_net_curve: cannot read {path}: {e}", file=sys.stderr)
            return 2
        if not rows:
            print(f"plot_net_curve: {path} holds no rows", file=sys.stderr)
            return 2
        x_name = "epoch" if "epoch" in rows[0] else "games"
        x = [float(r[x_name]) for r in rows]
        ax.plot(x, [float(r["as_order_vs_greedy"]) for r in rows], "o-", label="as Order vs greedy Chaos")
        ax.plot(x, [float(r["conceded_vs_greedy"]) for r in rows], "s-", label="conceded as Chaos vs greedy Order")
        ax.set_xlabel(x_name)
        ax.set_ylabel("Order's final score")
        ax.set_title(path.rsplit("/", 1)[-1])
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    return 0


if __name__ == "__main__":
    sys.exit(main())
