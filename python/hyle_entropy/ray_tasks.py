"""What the Ray commands share (:mod:`hyle_entropy.cluster` and
:mod:`hyle_entropy.cluster_train`): starting or joining Ray, streaming tasks through a bounded
number in flight, the common arguments and the error report."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Optional

#: Tasks kept in flight per worker: enough to keep every worker busy, few enough that an
#: interrupted driver has little work under way.
IN_FLIGHT_PER_WORKER = 2


def init_ray(ray, address: Optional[str], workers: Optional[int]) -> int:
    """Starts Ray on this machine, or joins the cluster at ``address`` shipping this package to
    its workers, unless Ray is already up; returns the number of workers to keep busy."""
    if not ray.is_initialized():
        if address:
            package = str(Path(__file__).resolve().parent)
            ray.init(address=address, runtime_env={"py_modules": [package]},
                     log_to_driver=False)
        else:
            ray.init(num_cpus=workers or os.cpu_count(), log_to_driver=False,
                     include_dashboard=False)
    return workers or int(ray.cluster_resources().get("CPU", 1))


def stream(ray, submit: Callable[[Any], Any], tasks: Iterable[Any], workers: int,
           on_result: Callable[[Any, Any], bool]) -> None:
    """Runs ``submit(task)`` (which returns a Ray object reference) for each task, keeping
    ``IN_FLIGHT_PER_WORKER`` per worker under way, and calls ``on_result(task, value)`` as each
    finishes. When ``on_result`` returns True nothing more starts and the tasks under way are
    cancelled."""
    pending = list(tasks)
    pending.reverse()
    running: Dict = {}
    limit = max(1, workers) * IN_FLIGHT_PER_WORKER
    while pending or running:
        while pending and len(running) < limit:
            task = pending.pop()
            running[submit(task)] = task
        done, _ = ray.wait(list(running), num_returns=1)
        for ref in done:
            task = running.pop(ref)
            if on_result(task, ray.get(ref)):
                for other in running:
                    ray.cancel(other, force=True)
                return


def add_ray_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments every subcommand shares: where Ray runs, and the progress line."""
    parser.add_argument("--address", default=None, help="a running Ray cluster to join")
    parser.add_argument("--workers", type=int, default=None,
                        help="CPUs for a local Ray [default: all]")
    parser.add_argument("--quiet", action="store_true", help="no progress line")


def reporting_errors(work: Callable[[], Any]) -> Any:
    """``work()``'s result, or None after printing what was wrong: bad settings or files
    (ValueError), or Ray missing."""
    try:
        return work()
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
    except ImportError:
        print("error: Ray is not installed: pip install 'hyle-entropy[cluster]'",
              file=sys.stderr)
    return None
