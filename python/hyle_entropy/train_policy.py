"""Trains the ``policy`` bot's network from scratch in one command: the searcher's decisions,
the network distilled from them, then PPO from the distilled network, with one learning curve
over the whole run and the two networks measured side by side.

    python -m hyle_entropy.train_policy --out runs/policy

1. **Teacher data**: ``entropy teacher-data --games GAMES --opponent greedy --opponent
   expecti:depth=2`` (the binary from ``--entropy``) into ``OUT/teacher.txt``.
2. **Distillation**: ``distill_policy`` into ``OUT/distill`` (``policy.pt``, ``policy.bin``).
3. **PPO**: ``train_ppo --config finetune.ini --init OUT/distill/policy.pt`` into ``OUT/ppo``
   for ``--ppo-minutes`` of training.
4. **Strength**: each network against ``search:depth=1`` and greedy on the same ``--deals``
   paired deals (``entropy match``, records in ``OUT/matches/``), summarised in
   ``OUT/strength.csv``.

``OUT/curve.csv`` (and ``OUT/curve.png`` where matplotlib is installed) is the learning curve by
minutes of the run (the teacher data's, then each pass's and each PPO evaluation's): the
held-out agreement with the searcher and the value's error in points (the distillation's
passes, and the fine-tuned network once at the end), and the score as Order and conceded as
Chaos against greedy (200 games a role, the same deals at every point). Every step keeps its
work as it goes: the same command resumes an interrupted run where it stopped. About 25 minutes
for the data, 6 for the distillation, ``--ppo-minutes`` (45) plus evaluations for PPO and 5 for
the matches on 2 cores.
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

# The curve's columns.
CURVE_FIELDS = ["phase", "minutes", "agreement", "value_error", "score_as_order", "conceded_as_chaos"]
# The fixed opponents of the side-by-side measure.
OPPONENTS = ["search:depth=1", "greedy"]


def entropy_binary(given: Optional[str]) -> str:
    """The ``entropy`` program: ``--entropy``, else the one on PATH, else this checkout's
    release build."""
    if given:
        if shutil.which(given) is None:
            raise SystemExit(f"train_policy: --entropy {given}: no such program")
        return given
    found = shutil.which("entropy")
    if found:
        return found
    built = Path(__file__).resolve().parents[2] / "target" / "release" / "entropy"
    if built.exists():
        return str(built)
    raise SystemExit("train_policy: no `entropy` program: build it (cargo build --release) or name it with --entropy")


def finished_games(path: Path) -> int:
    """Games a teacher-data file holds whole (its ``end`` lines)."""
    if not path.exists():
        return 0
    with open(path) as f:
        return sum(1 for line in f if line.startswith("end "))


def read_rows(path: Path) -> List[Dict[str, str]]:
    """A CSV file's rows, none where it does not exist."""
    if not path.exists():
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def teacher_step(args: argparse.Namespace, entropy: str) -> float:
    """Writes the teacher data unless it is there whole; returns the minutes spent on it, over
    every run that added to it (kept in ``OUT/teacher.minutes``)."""
    data = args.out / "teacher.txt"
    spent = args.out / "teacher.minutes"
    minutes = float(spent.read_text()) if spent.exists() else 0.0
    if finished_games(data) < args.games:
        command = [entropy, "teacher-data", "--games", str(args.games), "--opponent", "greedy", "--opponent", "expecti:depth=2", "--out", str(data)]
        print(f"train_policy: teacher data: {' '.join(command)}", flush=True)
        started = time.time()
        run = subprocess.run(command)
        minutes += (time.time() - started) / 60
        spent.write_text(f"{minutes:.2f}\n")
        if run.returncode != 0:
            raise SystemExit(f"train_policy: `entropy teacher-data` failed (exit {run.returncode}); run again to resume")
    return minutes


def distill_step(args: argparse.Namespace) -> None:
    """Distils the network unless every pass is in its curve."""
    from hyle_entropy import distill_policy

    out = args.out / "distill"
    if len(read_rows(out / "curve.csv")) >= args.epochs and (out / "policy.pt").exists():
        return
    argv = ["--data", str(args.out / "teacher.txt"), "--out", str(out), "--epochs", str(args.epochs), "--threads", str(args.threads)]
    print(f"train_policy: distillation: python -m hyle_entropy.distill_policy {' '.join(argv)}", flush=True)
    if distill_policy.main(argv) != 0:
        raise SystemExit("train_policy: the distillation failed")


def ppo_step(args: argparse.Namespace) -> None:
    """PPO from the distilled network (``train_ppo`` resumes from its own checkpoint)."""
    from hyle_entropy import train_ppo

    argv = ["--config", "finetune.ini", "--init", str(args.out / "distill" / "policy.pt"), "--out", str(args.out / "ppo")]
    argv += ["--minutes", str(args.ppo_minutes), "--threads", str(args.threads)] + sum((["--set", s] for s in args.ppo_set), [])
    print(f"train_policy: PPO: python -m hyle_entropy.train_ppo {' '.join(argv)}", flush=True)
    if train_ppo.main(argv) != 0:
        raise SystemExit("train_policy: PPO failed")


def paired_margin(records: Path) -> Tuple[float, float, int, float, float]:
    """From an ``entropy match`` record: player A's mean paired margin (its score as Order less
    B's on the same chips), its 95% half-width, the deals, A's mean score as Order and what it
    conceded as Chaos."""
    from hyle_entropy.cluster import mean_interval, paired_deals, parse_records

    games, problems = parse_records(records.read_text().splitlines())
    if problems:
        raise SystemExit(f"train_policy: {records}: {problems[0]}")
    pairs = paired_deals([game for game in games if "deal" in game])
    if not pairs:
        raise SystemExit(f"train_policy: {records} holds no whole deal")
    margin, half = mean_interval([a["score"] - b["score"] for a, b in pairs])
    n = len(pairs)
    return margin, half, n, sum(a["score"] for a, _ in pairs) / n, sum(b["score"] for _, b in pairs) / n


def strength_step(args: argparse.Namespace, entropy: str) -> None:
    """Each network against the fixed opponents on the same deals; ``OUT/strength.csv``."""
    matches = args.out / "matches"
    matches.mkdir(exist_ok=True)
    rows = []
    for network in ("distill", "ppo"):
        model = args.out / network / "policy.bin"
        for opponent in OPPONENTS:
            record = matches / f"{network}-vs-{opponent.replace(':', '_')}.jsonl"
            command = [entropy, "match", f"policy:model={model}", opponent, "--deals", str(args.deals), "--seed", "1", "--jobs", str(args.jobs), "--quiet", "--out", str(record)]
            run = subprocess.run(command, stdout=subprocess.DEVNULL)
            if run.returncode != 0:
                raise SystemExit(f"train_policy: {' '.join(command)} failed (exit {run.returncode})")
            margin, half, deals, order, conceded = paired_margin(record)
            rows.append(dict(network=network, opponent=opponent, deals=deals, margin=round(margin, 2), ci=round(half, 2), score_as_order=round(order, 2), conceded_as_chaos=round(conceded, 2)))
            print(f"train_policy: {network} against {opponent}: {margin:+.1f} ± {half:.1f} a deal over {deals} deals ({order:.1f} as Order, {conceded:.1f} conceded as Chaos)", flush=True)
    with open(args.out / "strength.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def final_agreement(args: argparse.Namespace) -> Tuple[float, float]:
    """The fine-tuned network's held-out agreement with the searcher and value error, as the
    distillation measures its own."""
    import numpy as np

    from hyle_entropy import distill_policy
    from hyle_entropy.ppo_policy import load_policy, observation_name

    data = distill_policy.read_teacher(args.out / "teacher.txt")
    held_out = data.subset(np.flatnonzero(distill_policy.held_out(data)))
    policy = load_policy(str(args.out / "ppo" / "policy.pt"))
    observer = distill_policy.Observations(held_out, policy.observation())
    # The distillation's own settings: the same targets as its held-out figures.
    settings = distill_policy.arguments().parse_args(["--data", str(args.out / "teacher.txt")])
    _, agreement, value_error = distill_policy.run_pass(policy, held_out, np.arange(len(held_out)), observer, settings)
    return agreement, value_error


def write_curve(args: argparse.Namespace, teacher_minutes: float, agreement: Tuple[float, float]) -> None:
    """The whole run's curve by minutes: the distillation's passes, then PPO's evaluations."""
    rows: List[Dict[str, object]] = []
    distill = read_rows(args.out / "distill" / "curve.csv")
    for row in distill:
        rows.append(dict(phase=f"distill {row['epoch']}", minutes=round(teacher_minutes + float(row["seconds"]) / 60, 1), agreement=row["agreement"], value_error=row["value_error"], score_as_order=row.get("score_as_order", ""), conceded_as_chaos=row.get("conceded_as_chaos", "")))
    after = teacher_minutes + (float(distill[-1]["seconds"]) / 60 if distill else 0.0)
    ppo = read_rows(args.out / "ppo" / "curve.csv")
    for row in ppo:
        rows.append(dict(phase=f"ppo {row['steps']}", minutes=round(after + float(row["train_seconds"]) / 60, 1), agreement="", value_error="", score_as_order=row["score_as_order"], conceded_as_chaos=row["conceded_as_chaos"]))
    if rows and ppo:
        rows[-1]["agreement"], rows[-1]["value_error"] = round(agreement[0], 4), round(agreement[1], 3)
    with open(args.out / "curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CURVE_FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    plot(rows, args.out / "curve.png", teacher_minutes)


def plot(rows: Sequence[Dict[str, object]], path: Path, teacher_minutes: float) -> None:
    """The curve as a PNG, where matplotlib is installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    minutes = [float(r["minutes"]) for r in rows]
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    top.plot(minutes, [float(r["score_as_order"]) for r in rows], label="as Order")
    top.plot(minutes, [float(r["conceded_as_chaos"]) for r in rows], label="conceded as Chaos")
    top.set_ylabel("points against greedy")
    top.legend()
    with_agreement = [(m, float(r["agreement"])) for m, r in zip(minutes, rows) if r["agreement"] != ""]
    bottom.plot([m for m, _ in with_agreement], [a for _, a in with_agreement], "o-")
    bottom.set_ylabel("held-out agreement with the searcher")
    bottom.set_xlabel(f"minutes of the run (the first {teacher_minutes:.0f}: the teacher data)")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hyle_entropy.train_policy",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--out", type=Path, default=Path("runs/policy"), help="directory of the run's files (default runs/policy)")
    parser.add_argument("--entropy", help="the entropy program [default: entropy on PATH, else target/release/entropy]")
    parser.add_argument("--games", type=int, default=3000, help="teacher-data games (default 3000)")
    parser.add_argument("--epochs", type=int, default=10, help="distillation passes (default 10)")
    parser.add_argument("--ppo-minutes", type=float, default=45.0, help="PPO's training minutes (default 45)")
    parser.add_argument("--ppo-set", action="append", default=[], metavar="SECTION.KEY=VALUE", help="a train_ppo --set (repeatable)")
    parser.add_argument("--deals", type=int, default=200, help="paired deals of each side-by-side match (default 200)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games at once in the matches [default: the CPUs]")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    args = parser.parse_args(argv)
    if min(args.games, args.epochs, args.deals, args.jobs, args.threads) < 1 or args.ppo_minutes <= 0:
        parser.error("--games, --epochs, --deals, --jobs and --threads must be at least 1, --ppo-minutes above 0")
    entropy = entropy_binary(args.entropy)
    args.out.mkdir(parents=True, exist_ok=True)
    teacher_minutes = teacher_step(args, entropy)
    distill_step(args)
    ppo_step(args)
    strength_step(args, entropy)
    write_curve(args, teacher_minutes, final_agreement(args))
    print(f"train_policy: {args.out / 'curve.csv'}, {args.out / 'strength.csv'}; play the fine-tuned network as policy:model={args.out / 'ppo' / 'policy.bin'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
