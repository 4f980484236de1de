"""A match on a Ray cluster of a head and two worker nodes (separate processes on this
machine) loses a worker node in the middle: every game is still recorded exactly once, with the
scores the same games give when played here."""

import json
import threading
import time

import pytest

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")

from hyle_entropy import play_game  # noqa: E402
from hyle_entropy.cluster import MatchSpec, run_match  # noqa: E402


def _busy(node) -> bool:
    """Whether the node's one CPU is taken (it is running a game)."""
    from ray._private.state import available_resources_per_node

    free = available_resources_per_node().get(node.node_id, {})
    return free.get("CPU", 0.0) < 1.0


def test_a_worker_node_lost_in_the_middle_loses_no_game(tmp_path):
    if ray.is_initialized():
        ray.shutdown()
    cluster = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    doomed = cluster.add_node(num_cpus=1)
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    try:
        assert not _busy(doomed), "an idle node reads as idle"
        spec = MatchSpec("search:nodes=4000", "greedy", seed=5, clock=30, size=7)
        out = tmp_path / "faults.jsonl"
        result = {}
        runner = threading.Thread(
            target=lambda: result.update(records=run_match(spec, 6, out, quiet=True)))
        runner.start()
        # Remove the node once two games are recorded and it is playing one (its only CPU
        # taken), so that a game under way is lost with it and must be played again.
        deadline = time.time() + 120
        while time.time() < deadline and not (
                out.exists() and len(out.read_text().splitlines()) >= 2
                and _busy(doomed)):
            time.sleep(0.02)
        assert _busy(doomed), "the node holds a running game when it goes"
        recorded_before = len(out.read_text().splitlines())
        cluster.remove_node(doomed)
        runner.join(timeout=300)
        assert recorded_before < 12, "the node was removed in the middle of the match"
        assert not runner.is_alive(), "the match finished on the surviving node"
        lines = [json.loads(line) for line in out.read_text().splitlines()]
        keys = sorted((r["deal"], r["game"]) for r in lines)
        assert keys == [(d, g) for d in range(6) for g in (0, 1)], "each game exactly once"
        for record in lines:
            here = json.loads(play_game(spec.a, spec.b, record["deal"], record["game"],
                                        seed=5, clock=30, size=7))
            assert record["score"] == here["score"] and record["moves"] == here["moves"]
    finally:
        ray.shutdown()
        cluster.shutdown()


def test_a_driver_killed_in_the_middle_resumes_without_replaying(tmp_path):
    import os
    import signal
    import subprocess
    import sys

    if ray.is_initialized():
        ray.shutdown()
    out = tmp_path / "killed.jsonl"
    command = [sys.executable, "-m", "hyle_entropy.cluster", "match", "search:nodes=4000",
               "greedy", "--deals", "5", "--seed", "8", "--workers", "2", "--quiet",
               "--out", str(out)]
    driver = subprocess.Popen(command, start_new_session=True)
    deadline = time.time() + 120
    while time.time() < deadline and (not out.exists() or
                                       len(out.read_text().splitlines()) < 2):
        time.sleep(0.05)
    os.killpg(driver.pid, signal.SIGKILL)
    driver.wait()
    before = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    assert 2 <= len(before) < 10, "killed in the middle"
    finished = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    after = [json.loads(line) for line in out.read_text().splitlines()]
    keys = sorted((r["deal"], r["game"]) for r in after)
    assert keys == [(d, g) for d in range(5) for g in (0, 1)], "each game exactly once"
    # The games recorded before the kill were kept as they were, not played again.
    assert after[:len(before)] == before
