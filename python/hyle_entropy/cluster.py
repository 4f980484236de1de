"""Matches on a Ray cluster: the games of an ``entropy match`` as Ray tasks.

    python -m hyle_entropy.cluster match A B --deals N [--sprt M0,M1] [--seed S]
        [--clock SECONDS] [--size 7] [--out FILE] [--address ADDR] [--workers K]
    python -m hyle_entropy.cluster train [--games N] [--generations G] [--out FILE] ...
    python -m hyle_entropy.cluster train-net [--teacher-games N] [--out FILE] ...

Each game (a deal, played once with A as Order and once with B) is a Ray task that calls
:func:`hyle_entropy.play_game`, so the players, deals, seeds, clocks and forfeits are those of
``entropy match``, and so is the record: each is appended to the JSON lines file as its task
ends. Running the command again resumes: recorded games are kept and only the missing ones
are played; ``entropy match`` reads, resumes and summarises the same file, and this command
reads files ``entropy match`` wrote.

Without ``--address`` Ray starts on this machine (the embedded default). With ``--address`` it
joins a running cluster (``ray start --head`` on one machine, ``ray start --address HEAD:6379``
on the others); the package is shipped to the workers with Ray's runtime environment, so they
need only Python and Ray. Ray is optional: ``pip install hyle-entropy[cluster]``.

A task whose worker dies is run again by Ray; a game is recorded once however often it was
played, so nothing is lost or doubled.

With ``--sprt M0,M1`` the match is ``entropy match --sprt``'s sequential probability ratio test
(the same test over the same records, deals counted in deal order): each record carries the
test's status, and once it decides no game starts and the games under way are cancelled.

``train`` is ``entropy train`` with each generation's self-play games as Ray tasks, and
``train-net`` is ``entropy train-net --method distill`` with the teacher's games as Ray tasks
(:mod:`hyle_entropy.cluster_train`): the same weights for the same seed, however many workers.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from hyle_entropy._native import MatchSprt, match_key, play_game
from hyle_entropy.ray_tasks import add_ray_arguments, init_ray, reporting_errors, stream

@dataclass(frozen=True)
class MatchSpec:
    """What makes games belong to the same match (``entropy match``'s match key)."""

    a: str
    b: str
    seed: int = 1
    clock: float = 30.0
    clock_b: Optional[float] = None
    size: int = 7
    #: The depth of the search valuing each game's luck in the draws, taken out of the
    #: margins the SPRT tests (``entropy match --luck``); None or 0: margins as played.
    luck: Optional[int] = None

    def key(self) -> dict:
        """The ``match`` object of the records of this match (ValueError if a player or
        setting is not valid)."""
        return json.loads(match_key(self.a, self.b, seed=self.seed, clock=self.clock,
                                    clock_b=self.clock_b, size=self.size, luck=self.luck))


def record_parts(out: Path) -> Tuple[Path, Path, bool]:
    """The two files of a record as ``entropy match`` keeps them: the compressed part
    (``X.jsonl.gz``, gzip members one after another), the plain part being written
    (``X.jsonl``), and whether the record was named compressed (and so is sealed when done)."""
    if out.name.endswith(".gz"):
        return out, out.with_name(out.name[:-3]), True
    return out.with_name(out.name + ".gz"), out, False


def read_sealed_lines(out: Path) -> List[str]:
    """The lines of a record's compressed part (none where it has none)."""
    sealed, _, _ = record_parts(out)
    if not sealed.exists():
        return []
    with gzip.open(sealed, "rt") as file:
        return file.read().splitlines()


def seal(out: Path) -> None:
    """Appends the plain part of a record named compressed to its compressed part, as one more
    gzip member, then removes the plain part (``entropy match`` does the same)."""
    sealed, plain, compressed = record_parts(out)
    if not compressed or not plain.exists():
        return
    text = plain.read_text()
    if text.strip():
        with open(sealed, "ab") as file:
            file.write(gzip.compress(text.encode(), compresslevel=9))
            file.flush()
            os.fsync(file.fileno())
    plain.unlink()


def parse_records(lines: List[str]) -> Tuple[List[dict], List[str]]:
    """The records of a file's lines and a problem per line that could not be read."""
    records, problems = [], []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as error:
            problems.append(f"line {number}: {error}")
    return records, problems


def _run_remote(ray, spec: MatchSpec, tasks: Iterable[Tuple[int, int]], workers: int,
                on_record: Callable[[str], bool]) -> None:
    """Plays the tasks as Ray tasks, calling ``on_record`` on each record line as it arrives
    until it returns True."""

    @ray.remote(max_retries=5, retry_exceptions=False)
    def game(deal: int, number: int) -> str:
        return play_game(spec.a, spec.b, deal, number, seed=spec.seed, clock=spec.clock,
                         clock_b=spec.clock_b, size=spec.size, luck=spec.luck)

    stream(ray, lambda task: game.remote(*task), tasks, workers,
           lambda _task, line: on_record(line))


def run_match(spec: MatchSpec, deals: int, out: Path, address: Optional[str] = None,
              workers: Optional[int] = None, quiet: bool = False,
              sprt: Optional[MatchSprt] = None) -> List[dict]:
    """Plays the missing games of a match on Ray, appending each record to ``out`` as it
    ends; returns every record of the match (those found in ``out`` included). With an SPRT
    (a fresh :class:`MatchSprt`), the test is run over the records found first, each new record
    carries its status, and no game starts once it decides."""
    import ray

    _, plain, _ = record_parts(out)
    records, problems = parse_records(read_sealed_lines(out))
    if problems:
        raise ValueError(f"{out}: unreadable lines in its compressed part "
                         f"({'; '.join(problems[:3])})")
    lines = plain.read_text().splitlines() if plain.exists() else []
    tail, problems = parse_records(lines)
    if len(problems) == 1 and problems[0].startswith(f"line {len(lines)}:"):
        # A driver killed while writing leaves half a last line: drop it, the game is replayed.
        plain.write_text("".join(line + "\n" for line in lines[:-1]))
        print(f"{plain}: dropped a half-written last line", file=sys.stderr)
        problems = []
    if problems:
        raise ValueError(f"{plain}: unreadable lines ({'; '.join(problems[:3])}); "
                         "remove them to resume")
    records += tail
    key = spec.key()
    for record in records:
        if record["match"] != key:
            raise ValueError(f"{out} holds games of another match ({record['match']}); "
                             "choose another --out")
    records = [r for r in records if r["deal"] < deals]
    if sprt is not None:
        for record in records:
            sprt.add(json.dumps(record))
        if sprt.decision() is not None:
            print(f"{out}: the SPRT had already decided; no game to play", file=sys.stderr)
            seal(out)
            return records
    done = {(r["deal"], r["game"]) for r in records}
    tasks = [(d, g) for d in range(deals) for g in (0, 1) if (d, g) not in done]
    if tasks:
        workers = init_ray(ray, address, workers)
        with plain.open("a") as file:
            def on_record(line: str) -> bool:
                record = json.loads(line)
                # A retried task can finish twice: each game is recorded once.
                if (record["deal"], record["game"]) in done:
                    return False
                done.add((record["deal"], record["game"]))
                if sprt is not None:
                    sprt.add(line)
                    record["sprt"] = json.loads(sprt.status())
                file.write(json.dumps(record, separators=(",", ":")) + "\n")
                file.flush()
                records.append(record)
                if not quiet:
                    test = f", SPRT LLR {record['sprt']['llr']:+.2f}" if sprt is not None else ""
                    print(f"\r{len(done)}/{2 * deals} games{test}  ", end="", file=sys.stderr,
                          flush=True)
                return sprt is not None and sprt.decision() is not None

            _run_remote(ray, spec, tasks, workers, on_record)
        if not quiet:
            print(file=sys.stderr)
    seal(out)
    return records


def paired_deals(records: List[dict]) -> List[Tuple[dict, dict]]:
    """The deals whose two games are both recorded: (game 0, A as Order; game 1, B as Order)."""
    by_deal: Dict[int, Dict[int, dict]] = {}
    for r in records:
        by_deal.setdefault(r["deal"], {})[r["game"]] = r
    return [(g[0], g[1]) for g in by_deal.values() if 0 in g and 1 in g]


def mean_interval(margins: List[float]) -> Tuple[float, float]:
    """The mean of ``margins`` and the half-width of its 95% interval (infinite for one)."""
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins)) \
        if len(margins) > 1 else math.inf
    return statistics.fmean(margins), half


def summary(records: List[dict]) -> str:
    """Each player's mean score as Order and the paired margin per deal with its 95% CI (and
    the margin less the draws' luck where the records measure it)."""
    pairs = paired_deals(records)
    if not pairs:
        return "no complete deal yet"

    def interval(margins: List[float]) -> str:
        mean, half = mean_interval(margins)
        return f"{mean:+.1f} ± {half:.1f}"

    played = interval([a["score"] - b["score"] for a, b in pairs])
    a_order = statistics.fmean(a["score"] for a, _ in pairs)
    b_order = statistics.fmean(b["score"] for _, b in pairs)
    forfeits = sum(1 for r in records if r["termination"] != "normal")
    text = (f"A as Order {a_order:.1f}, B as Order {b_order:.1f}; paired margin "
            f"(A's S as Order - B's S as Order, same chips): {played} "
            f"(95% CI, {len(pairs)} deals); {forfeits} forfeits")
    if all("luck" in r for pair in pairs for r in pair):
        less = interval([(a["score"] - a["luck"]) - (b["score"] - b["luck"]) for a, b in pairs])
        text += f"; less the draws' luck: {less}"
    return text


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hyle_entropy.cluster",
        description="Run entropy's matches and self-play training as Ray tasks, on this "
                    "machine or a cluster (see the module's help).")
    commands = parser.add_subparsers(dest="command", required=True)
    match = commands.add_parser("match", help="play a match on Ray, resumable")
    match.add_argument("a", help="player A: a built-in bot (with options) or cmd:PROGRAM")
    match.add_argument("b", help="player B")
    match.add_argument("--deals", type=int, default=None,
                       help="deals, each played twice [default: 100, or 1000 with --sprt]")
    match.add_argument("--sprt", metavar="M0,M1", default=None,
                       help="stop as soon as a sequential probability ratio test decides "
                            "between H0 (mean paired margin <= M0) and H1 (>= M1)")
    match.add_argument("--alpha", type=float, default=0.05,
                       help="the SPRT's chance of accepting H1 when H0 holds")
    match.add_argument("--beta", type=float, default=0.05,
                       help="the SPRT's chance of accepting H0 when H1 holds")
    match.add_argument("--seed", type=int, default=1, help="seed of the deals and bots")
    match.add_argument("--clock", type=float, default=30.0, help="seconds per game and player")
    match.add_argument("--clock-b", type=float, default=None, help="player B's clock")
    match.add_argument("--size", type=int, default=7, help="board side: 7 or 5")
    match.add_argument("--luck", type=int, default=None, metavar="DEPTH",
                       help="value each game's luck in the draws by a search this deep and take "
                            "it out of the margins the SPRT tests; 0: margins as played "
                            "[default: 2, or what the records file being resumed used]")
    match.add_argument("--out", type=Path, default=None,
                       help="JSON lines file of records [default: match-A-vs-B-sSEED.jsonl]; "
                            "a name ending in .gz is written plain beside it while the match "
                            "runs and compressed when it ends")
    add_ray_arguments(match)
    from hyle_entropy import cluster_train
    cluster_train.add_parser(commands)
    cluster_train.add_net_parser(commands)
    args = parser.parse_args(argv)
    if args.command in ("train", "train-net"):
        return cluster_train.run(args)
    sprt = None
    if args.sprt is not None:
        parts = args.sprt.split(",")
        try:
            if len(parts) != 2:
                raise ValueError(f"{len(parts)} number(s) where two are needed")
            m0, m1 = (float(part) for part in parts)
            sprt = MatchSprt(m0, m1, alpha=args.alpha, beta=args.beta)
        except ValueError as error:
            parser.error(f"--sprt {args.sprt}: {error}; give two margins M0,M1 (e.g. 0,5: H0 "
                         "mean margin <= 0, H1 >= 5)")
    deals = args.deals if args.deals is not None else (1000 if sprt is not None else 100)
    if deals < 1:
        parser.error("--deals must be at least 1")
    out = args.out or Path(f"match-{_file_label(args.a)}-vs-{_file_label(args.b)}"
                           f"-s{args.seed}.jsonl")
    luck = args.luck if args.luck is not None else _recorded_luck(out)
    spec = MatchSpec(args.a, args.b, seed=args.seed, clock=args.clock, clock_b=args.clock_b,
                     size=args.size, luck=luck or None)
    records = reporting_errors(lambda: run_match(spec, deals, out, address=args.address,
                                                 workers=args.workers, quiet=args.quiet,
                                                 sprt=sprt))
    if records is None:
        return 2
    print(summary(records))
    if sprt is not None:
        print(sprt.line())
    print(f"records: {out} ({len(records)} games)")
    return 0


def _recorded_luck(out: Path) -> Optional[int]:
    """The luck depth of the records in ``out`` (None: margins as played), or 2 (the default
    of ``entropy match``) when it holds none, so a resumed match keeps its statistic."""
    _, plain, _ = record_parts(out)
    lines = read_sealed_lines(out) + (plain.read_text().splitlines() if plain.exists() else [])
    records, _ = parse_records(lines)
    return records[0]["match"].get("luck") if records else 2


def _file_label(player: str) -> str:
    return "".join(c if c.isalnum() or c in "-_=." else "_" for c in player)[:40]


if __name__ == "__main__":
    sys.exit(main())
