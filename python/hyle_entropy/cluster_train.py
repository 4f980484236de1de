"""``entropy train`` and ``entropy train-net`` on Ray: their self-play games as Ray tasks.

    python -m hyle_entropy.cluster train [--seed 2023] [--games 300] [--generations 4]
        [--nodes 3000] [--ridge 0.001] [--lambda 0.1] [--start hand]
        [--out weights.txt] [--data FILE] [--address ADDR] [--workers K]

A generation plays ``--games`` self-play games of the node-limited searcher with the weights
the generation before fitted; each game is a Ray task (:func:`hyle_entropy.train_self_play`)
that returns its samples as text. The driver appends each game's samples to the data file as
the task ends, and once a generation's games are all in, fits the new weights in game order
(:func:`hyle_entropy.train_fit`) and writes them. Games depend only on the seed, the settings
and the weights, so the weights are those ``entropy train`` writes with the same settings,
however many workers played and in whatever order they finished.

Run again with the same settings, it resumes: games in the data file are not played again, and
finished generations are fitted again from their samples (seconds) instead of replayed.

    python -m hyle_entropy.cluster train-net [--teacher-games 1200] [--teacher-nodes 2000] ...

does the same for the learned agent (``entropy train-net --method distill``): the teacher's
games are Ray tasks (:func:`hyle_entropy._native.distill_teacher_game`), the model is fitted
here as ``entropy train-net`` fits it and written after every epoch.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from hyle_entropy._native import (
    DISTILL_CURVE_HEADER,
    distill_fit,
    distill_teacher_game,
    train_fit,
    train_self_play,
    train_start,
    weights_text,
)
from hyle_entropy.ray_tasks import add_ray_arguments, init_ray, reporting_errors, stream


Weights = List[List[float]]


def train_key(args: argparse.Namespace, start: Weights) -> dict:
    """What makes two runs' games the same: every setting that changes a game or a fit, and
    the starting weights themselves (a start file may change between runs)."""
    digest = hashlib.sha256(json.dumps(start).encode()).hexdigest()[:16]
    return {"seed": args.seed, "games": args.games, "nodes": args.nodes, "ridge": args.ridge,
            "lambda": args.lambda_, "start": digest}


def read_data(path: Path, key: dict) -> Dict[Tuple[int, int], str]:
    """The games' samples already in the data file, by (generation, game)."""
    games: Dict[Tuple[int, int], str] = {}
    if not path.exists():
        return games
    lines = path.read_text().splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as error:
            if number == len(lines):
                # A driver killed while writing: the game is played again.
                print(f"{path}: dropped a half-written last line", file=sys.stderr)
                path.write_text("".join(line + "\n" for line in lines[:-1]))
                break
            raise ValueError(f"{path}: line {number} is not JSON ({error}); "
                             "remove it to resume") from error
        if entry.get("train") != key:
            raise ValueError(f"{path} holds self-play games of another training "
                             f"({entry.get('train')}); choose another --data")
        games[(entry["generation"], entry["game"])] = entry["samples"]
    return games


def write_atomically(path: Path, data: bytes) -> None:
    """Writes a file whole or not at all (a kill mid-write leaves the previous one)."""
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    partial.replace(path)


def command_line(args: argparse.Namespace) -> str:
    """The command that reproduces the weights, for the weights file's comment."""
    return (f"python -m hyle_entropy.cluster train --seed {args.seed} --games {args.games} "
            f"--generations {args.generations} --nodes {args.nodes} --ridge {args.ridge} "
            f"--lambda {args.lambda_} --start {args.start}")


def train(args: argparse.Namespace) -> Tuple[Weights, List[str]]:
    """Runs (or resumes) every generation; returns the final weights and the report lines."""
    start = train_start(args.start)
    data = args.data or args.out.with_name(args.out.name + ".games.jsonl")
    key = train_key(args, start)
    games = read_data(data, key)
    weights = start
    history: List[str] = []
    ray = None
    workers = 1
    with data.open("a") as file:
        for generation in range(1, args.generations + 1):
            first = (generation - 1) * args.games
            numbers = range(first, first + args.games)
            missing = [g for g in numbers if (generation, g) not in games]
            if missing:
                if ray is None:
                    ray, workers = start_ray(args)
                play(ray, workers, weights, generation, missing, args, key, games, file)
            texts = [games[(generation, g)] for g in numbers]
            weights, line = train_fit(weights, texts, generation, ridge=args.ridge)
            history.append(line)
            print(line, flush=True)
            comment = "made by: " + command_line(args) + "\n" + "\n".join(history)
            write_atomically(args.out, weights_text(weights, comment).encode())
    return weights, history


def play(ray, workers: int, weights: Weights, generation: int, numbers: List[int],
         args: argparse.Namespace, key: dict, games: Dict[Tuple[int, int], str], file) -> None:
    """Plays these self-play games of a generation as Ray tasks, recording each as it ends."""

    @ray.remote(max_retries=5, retry_exceptions=False)
    def game(weights: Weights, number: int) -> str:
        return train_self_play(weights, number, seed=args.seed, nodes=args.nodes,
                               lambda_=args.lambda_)

    shared = ray.put(weights)
    label = f"generation {generation}/{args.generations}: {{}}/{args.games} self-play games"
    collect(ray, workers, lambda number: game.remote(shared, number), numbers, generation,
            key, games, file, None if args.quiet else label)


def collect(ray, workers: int, submit, numbers: List[int], generation: int, key: dict,
            games: Dict[Tuple[int, int], str], file, label: Optional[str]) -> None:
    """Runs ``submit(number)`` for these games and appends each game's text to the data file
    as it ends (once, however often a retried task finished), with a progress line."""
    have = sum(1 for (g, _) in games if g == generation)

    def on_result(number: int, text: str) -> bool:
        nonlocal have
        if (generation, number) in games:
            return False
        games[(generation, number)] = text
        have += 1
        entry = {"train": key, "generation": generation, "game": number, "samples": text}
        file.write(json.dumps(entry, separators=(",", ":")) + "\n")
        file.flush()
        if label is not None:
            print("\r" + label.format(have), end="", file=sys.stderr, flush=True)
        return False

    stream(ray, submit, numbers, workers, on_result)
    if label is not None:
        print(file=sys.stderr)


def start_ray(args: argparse.Namespace) -> Tuple[object, int]:
    """Ray, started here or joined (``--address``), and the workers to keep busy."""
    import ray

    return ray, init_ray(ray, args.address, args.workers)


def train_net(args: argparse.Namespace) -> List[str]:
    """``entropy train-net --method distill`` with the teacher's games as Ray tasks: plays (or
    resumes) the games, then fits and writes the model after every epoch; returns the learning
    curve's lines."""
    data = args.data or args.out.with_name(args.out.name + ".games.jsonl")
    key = {"method": "distill", "seed": args.seed, "teacher_nodes": args.teacher_nodes,
           "candidates": args.candidates, "average_draws": args.average_draws}
    if args.best_candidates:
        key["best_candidates"] = args.best_candidates
    if args.consistent:
        key["consistent"] = True
    games = read_data(data, key)
    numbers = range(args.teacher_games)
    missing = [g for g in numbers if (1, g) not in games]
    started = time.time()
    if missing:
        ray, workers = start_ray(args)

        @ray.remote(max_retries=5, retry_exceptions=False)
        def teacher(number: int) -> str:
            return distill_teacher_game(number, seed=args.seed, nodes=args.teacher_nodes,
                                        candidates=args.candidates,
                                        average_draws=args.average_draws,
                                        best_candidates=args.best_candidates,
                                        consistent=args.consistent)

        label = f"{{}}/{args.teacher_games} teacher games"
        with data.open("a") as file:
            collect(ray, workers, teacher.remote, missing, 1, key, games, file,
                    None if args.quiet else label)
    texts = [games[(1, g)] for g in numbers]
    print(f"{sum(t.count(chr(10)) for t in texts)} afterstates valued by the teacher in "
          f"{len(texts)} games ({len(missing)} played now, {time.time() - started:.0f} s)",
          flush=True)
    made_by = (f"python -m hyle_entropy.cluster train-net --seed {args.seed} "
               f"--teacher-games {args.teacher_games} --teacher-nodes {args.teacher_nodes} "
               f"--candidates {args.candidates} --epochs {args.epochs} --rate {args.rate} "
               f"--rate-end {args.rate_end}" + (" --average-draws" if args.average_draws else "")
               + (f" --best-candidates {args.best_candidates}" if args.best_candidates else "")
               + ("" if args.consistent else " --no-consistent")
               + (f" --pairwise {args.pairwise}" if args.pairwise > 0 else ""))
    curve: List[str] = []

    def on_epoch(line: str, csv: str, epoch: int, model: Optional[bytes]) -> None:
        print(line, flush=True)
        curve.append(csv)
        args.curve.write_text("\n".join([DISTILL_CURVE_HEADER, *curve]) + "\n")
        if model is not None:
            write_atomically(args.out, model)

    distill_fit(texts, on_epoch, made_by, seed=args.seed, epochs=args.epochs, rate=args.rate,
                rate_end=args.rate_end, eval_deals=args.eval_deals,
                jobs=args.jobs or os.cpu_count() or 1, seconds=time.time() - started,
                pairwise=args.pairwise)
    return curve


def add_parser(commands) -> None:
    """The ``train`` subcommand's arguments."""
    parser = commands.add_parser(
        "train", help="entropy train with the self-play games as Ray tasks, resumable",
        description="Fit the evaluation weights by self-play of the searching bot, as "
                    "`entropy train` does (the same weights for the same settings), with each "
                    "generation's games played as Ray tasks. Resumes from --data.")
    parser.add_argument("--seed", type=int, default=2023,
                        help="seed of the self-play chip orders and opening randomisation")
    parser.add_argument("--games", type=int, default=300, help="self-play games per generation")
    parser.add_argument("--generations", type=int, default=4,
                        help="generations; each plays with the weights the one before fitted")
    parser.add_argument("--nodes", type=int, default=3000, help="positions each search may visit")
    parser.add_argument("--ridge", type=float, default=1e-3,
                        help="ridge penalty, relative to each feature's variance")
    parser.add_argument("--lambda", dest="lambda_", type=float, default=0.1,
                        help="weight of the final score in each target (0: the search value)")
    parser.add_argument("--start", default="hand",
                        help="weights to start from: hand, trained, or a weights file")
    parser.add_argument("--out", type=Path, default=Path("weights.txt"),
                        help="where to write the weights (after every generation)")
    parser.add_argument("--data", type=Path, default=None,
                        help="JSON lines file of the self-play games' samples, for resuming "
                             "[default: OUT.games.jsonl]")
    add_ray_arguments(parser)


def add_net_parser(commands) -> None:
    """The ``train-net`` subcommand's arguments (``entropy train-net --method distill``'s)."""
    parser = commands.add_parser(
        "train-net", help="entropy train-net (distill) with the teacher's games as Ray tasks",
        description="Train the learned agent's n-tuple evaluation as `entropy train-net "
                    "--method distill` does (the same model for the same settings), with the "
                    "teacher's self-play games played as Ray tasks. Resumes from --data.")
    parser.add_argument("--seed", type=int, default=2026,
                        help="seed of the chip orders, the opening randomness and the fit")
    parser.add_argument("--teacher-games", type=int, default=1200,
                        help="self-play games of the teacher (the searcher)")
    parser.add_argument("--teacher-nodes", type=int, default=2000,
                        help="positions each of the teacher's searches visits")
    parser.add_argument("--candidates", type=int, default=2,
                        help="other afterstates of each decision valued by a search of their own")
    parser.add_argument("--best-candidates", type=int, default=0,
                        help="other afterstates valued per decision, chosen as the linear "
                             "evaluation's favourites after the teacher's choice")
    parser.add_argument("--average-draws", action="store_true",
                        help="value draw positions by the mean over the bag's colours of a "
                             "search after each, not one search after a random chip")
    parser.add_argument("--consistent", action=argparse.BooleanOptionalAction, default=True,
                        help="value the teacher's played move by a search after it, like the "
                             "other afterstates (--no-consistent: by its shallower, biased "
                             "root search value)")
    parser.add_argument("--pairwise", type=float, default=0.0,
                        help="step size of a pass of pairwise (ranking) steps after each epoch")
    parser.add_argument("--epochs", type=int, default=4, help="passes over the teacher's data")
    parser.add_argument("--rate", type=float, default=0.05, help="step size at the start")
    parser.add_argument("--rate-end", type=float, default=0.005,
                        help="step size at the end (it falls linearly)")
    parser.add_argument("--eval-deals", type=int, default=100,
                        help="deals played against greedy after each epoch (both roles)")
    parser.add_argument("--jobs", "-j", type=int, default=None,
                        help="threads of the fit and its evaluations [default: all CPUs]")
    parser.add_argument("--out", type=Path, default=Path("net.bin"),
                        help="where to write the model (after every epoch)")
    parser.add_argument("--curve", type=Path, default=Path("net-curve.csv"),
                        help="the learning curve, one CSV line per epoch")
    parser.add_argument("--data", type=Path, default=None,
                        help="JSON lines file of the teacher's games, for resuming "
                             "[default: OUT.games.jsonl]")
    add_ray_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """The ``train`` and ``train-net`` subcommands."""
    net = args.command == "train-net"
    counts = (args.teacher_games, args.teacher_nodes, args.epochs) if net else \
        (args.games, args.generations, args.nodes)
    if min(counts) < 1:
        names = "--teacher-games, --teacher-nodes and --epochs" if net else \
            "--games, --generations and --nodes"
        print(f"error: {names} must be at least 1", file=sys.stderr)
        return 2
    if reporting_errors(lambda: train_net(args) if net else train(args)) is None:
        return 2
    if net:
        print(f"model written to {args.out}, learning curve to {args.curve}")
    else:
        print(f"weights written to {args.out} after {args.generations} generations")
    return 0
