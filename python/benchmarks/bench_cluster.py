"""Throughput through Ray against the ``entropy`` CLI on one core (docs/cluster.md).

    python python/benchmarks/bench_cluster.py match [DEALS] [ENTROPY_BINARY] [ROUNDS]
    python python/benchmarks/bench_cluster.py train [GAMES] [ENTROPY_BINARY] [ROUNDS]

``match``: a CPU-bound match (search at a fixed node count) through Ray with 1 and 2 workers
against ``entropy match --jobs 1``. ``train``: one generation of ``entropy train`` self-play
against ``entropy train --jobs 1``. Needs Ray and the package built (a release wheel for
meaningful figures). Ray's start-up, its worker processes' included, is not counted: each
worker runs a warm-up task first. The three runs are repeated ROUNDS times (default 1), in
turn, and the medians of each round's ratios are printed: a shared machine's speed drifts by
more than Ray's overhead from one minute to the next.
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ray

from hyle_entropy.cluster import MatchSpec, run_match
from hyle_entropy.cluster_train import add_parser, train


def warm_up(workers: int) -> None:
    """Starts every worker process (tasks long enough to land on different workers)."""
    @ray.remote
    def nap() -> None:
        import hyle_entropy  # noqa: F401
        time.sleep(1.0)

    ray.get([nap.remote() for _ in range(workers)])


def timed(workers: int, work) -> float:
    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        warm_up(workers)
        start = time.time()
        work()
        return time.time() - start
    finally:
        ray.shutdown()


def report(what: str, alone: float, seconds: dict) -> tuple:
    print(f"{what}: CLI on one core {alone:.1f} s; Ray 1 worker {seconds[1]:.1f} s "
          f"({(seconds[1] / alone - 1) * 100:+.1f}%); Ray 2 workers {seconds[2]:.1f} s: "
          f"{seconds[1] / seconds[2]:.2f}x", flush=True)
    return seconds[1] / alone - 1, seconds[1] / seconds[2]


def bench_match(deals: int, binary: str, folder: Path) -> None:
    spec = MatchSpec("search:nodes=20000", "search:nodes=20000,weak=0", seed=9, clock=60, size=7)
    start = time.time()
    subprocess.run(
        [binary, "match", spec.a, spec.b, "--deals", str(deals), "--seed", "9", "--clock", "60",
         "--jobs", "1", "--quiet", "--out", str(folder / "entropy.jsonl")],
        check=True, capture_output=True,
    )
    alone = time.time() - start
    seconds = {w: timed(w, lambda w=w: run_match(spec, deals, folder / f"ray{w}.jsonl",
                                                 quiet=True))
               for w in (1, 2)}
    return report(f"{2 * deals} games of {spec.a} against {spec.b}", alone, seconds)


def bench_train(games: int, binary: str, folder: Path) -> None:
    settings = ["--games", str(games), "--generations", "1", "--nodes", "3000"]
    start = time.time()
    subprocess.run([binary, "train", *settings, "--jobs", "1", "--quiet", "--out",
                    str(folder / "entropy.txt")], check=True, capture_output=True)
    alone = time.time() - start
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    seconds = {}
    for w in (1, 2):
        args = parser.parse_args(["train", *settings, "--quiet", "--out",
                                  str(folder / f"ray{w}.txt")])
        seconds[w] = timed(w, lambda args=args: train(args))
    return report(f"{games} self-play games of entropy train", alone, seconds)


def main() -> None:
    what = sys.argv[1] if len(sys.argv) > 1 else "match"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    binary = sys.argv[3] if len(sys.argv) > 3 else "target/release/entropy"
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    bench = {"match": bench_match, "train": bench_train}[what]
    results = [bench(count, binary, Path(tempfile.mkdtemp())) for _ in range(rounds)]
    overheads = sorted(r[0] for r in results)
    speedups = sorted(r[1] for r in results)
    print(f"median of {rounds} rounds: Ray's overhead on one worker "
          f"{statistics.median(overheads) * 100:+.1f}% (range {overheads[0] * 100:+.1f}% to "
          f"{overheads[-1] * 100:+.1f}%); 2 workers against 1: {statistics.median(speedups):.2f}x "
          f"(range {speedups[0]:.2f}x to {speedups[-1]:.2f}x)")


if __name__ == "__main__":
    main()
