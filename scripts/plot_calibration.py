#!/usr/bin/env python3
"""Draws the calibration reports written by `entropy calibrate --csv` as one PNG.

usage: python3 scripts/plot_calibration.py OUT.png LABEL=REPORT.csv [LABEL=REPORT.csv ...]

For each report: above, per turn, the mean expected final score shown (calibrated), the
search's own value before calibration, and the mean final score of the games; below, the root
mean squared error of the value shown against the final score. Needs matplotlib.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or "mean_value" not in rows[0]:
        raise ValueError(f"{path}: not an `entropy calibrate --csv` report")
    return rows


def main() -> int:
    if len(sys.argv) < 3 or any("=" not in a for a in sys.argv[2:]):
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    reports = [a.split("=", 1) for a in sys.argv[2:]]
    fig, axes = plt.subplots(
        2, len(reports), figsize=(6 * len(reports), 6.5), squeeze=False,
        gridspec_kw={"height_ratios": [2, 1]}, sharex=True,
    )
    for column, (label, path) in enumerate(reports):
        try:
            rows = read(path)
        except (OSError, ValueError) as e:
            print(f"plot_calibration: {e}", file=sys.stderr)
            return 2
        top, bottom = axes[0][column], axes[1][column]
        for role, style in (("chaos", "-"), ("order", "--")):
            mine = [r for r in rows if r["role"] == role]
            turns = [int(r["turn"]) for r in mine]
            shown = [float(r["mean_value"]) for r in mine]
            raw = [float(r["mean_raw"]) for r in mine]
            final = [float(r["mean_final"]) for r in mine]
            rmse = [float(r["mse"]) ** 0.5 for r in mine]
            who = "Chaos to move" if role == "chaos" else "Order to move"
            top.plot(turns, shown, style, color="tab:blue", label=f"shown (calibrated), {who}")
            top.plot(turns, raw, style, color="tab:gray", label=f"search's own value, {who}")
            if role == "chaos":
                top.plot(turns, final, ":", color="black", lw=2, label="final score of the games")
            bottom.plot(turns, rmse, style, color="tab:red", label=who)
        games = rows[0]["decisions"]
        top.set_title(f"{label} ({games} games)")
        top.set_ylabel("Order's score (mean over games)")
        top.legend(fontsize=7, loc="lower right")
        top.grid(alpha=0.3)
        bottom.set_xlabel("turn (chip number)")
        bottom.set_ylabel("RMSE of the value shown")
        bottom.legend(fontsize=7)
        bottom.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
