"""Games per second through Ray against ``entropy match --jobs 1`` (docs/cluster.md).

    python python/benchmarks/bench_cluster.py [DEALS] [ENTROPY_BINARY]

Needs Ray and the package built (a release wheel for meaningful figures). Ray's start-up is not
counted.
"""

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ray

from hyle_entropy.cluster import MatchSpec, run_match


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    binary = sys.argv[2] if len(sys.argv) > 2 else "target/release/entropy"
    spec = MatchSpec("search:nodes=20000", "search:nodes=20000,weak=0", seed=9, clock=60, size=7)
    folder = Path(tempfile.mkdtemp())
    start = time.time()
    subprocess.run(
        [binary, "match", spec.a, spec.b, "--deals", str(deals), "--seed", "9", "--clock", "60",
         "--jobs", "1", "--quiet", "--out", str(folder / "entropy.jsonl")],
        check=True, capture_output=True,
    )
    alone = time.time() - start
    seconds = {}
    for workers in (1, 2):
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        start = time.time()
        run_match(spec, deals, folder / f"ray{workers}.jsonl", quiet=True)
        seconds[workers] = time.time() - start
        ray.shutdown()
    print(f"{2 * deals} games: entropy match --jobs 1 {alone:.1f} s; Ray 1 worker "
          f"{seconds[1]:.1f} s ({(seconds[1] / alone - 1) * 100:+.1f}%); Ray 2 workers "
          f"{seconds[2]:.1f} s: {seconds[1] / seconds[2]:.2f}x")


if __name__ == "__main__":
    main()
