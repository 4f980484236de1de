"""The searcher distilled into one policy network for both roles: ``EntropyPolicy`` (the PPO
policy, ``ppo_policy``) trained on ``entropy teacher-data``'s decisions, so that PPO can go on
from what it was taught (``train_ppo``).

Each decision of the teacher data gives the network's input (the learning environment's read
observation of the position, computed here through ``EntropyVecEnv.set_state``, its flag set
where the teacher read its opponent as greedy), a soft policy target and a value target:

- **policy**: the searcher's best moves, each weighted by ``exp(-(points it loses against the
  best) / temperature)`` (the searcher cannot tell apart moves a few hundredths of a point
  apart, so neither should the network), the other moves 0; the loss is the cross-entropy with
  the policy's masked softmax.
- **value**: what ``train_ppo``'s critic predicts with its rewards (the score still to come over
  50, negated for Chaos), from the searcher's expected final score moved ``--lambda`` of the way
  to the game's final score.

One game in ten is held out (game numbers ending in 0); after each pass the held-out decisions'
agreement with the searcher's best move, the policy loss, the value's error in points and the
policy's strength against greedy (``--eval-games`` in each role, on ``train_ppo``'s evaluation
deals) are printed and written to ``OUT/curve.csv``. The policy of the pass with the best held-out
agreement (the share of decisions where the policy's choice is one of the searcher's moves
within 0.1 points of its best) is saved as ``OUT/policy.pt`` (``train_ppo``'s format: its config and weights) and
``OUT/policy.bin`` (the Rust bot plays it as ``policy:model=OUT/policy.bin``).

    entropy teacher-data --games 3000 --out runs/teacher.txt
    python -m hyle_entropy.distill_policy --data runs/teacher.txt --out runs/distill
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

import numpy as np
import torch
from torch import nn

from hyle_entropy.ppo_policy import ACTIONS, EntropyPolicy, evaluate, export_weights

# The value is the score still to come over this (train_ppo's rewards: shaping 0.5 over 25).
VALUE_SCALE = 50.0
# Points within which the searcher's moves count as its choice in the agreement reported.
AGREE = 0.1
# The deals of the curve's games: train_ppo's evaluation seed (entropy.ini's eval.seed), so
# the distillation's and the fine-tuning's curves are played on the same deals.
EVAL_SEED = 12345


@dataclass
class TeacherData:
    """The decisions of a teacher-data file, one entry per decision."""

    games: np.ndarray  # (n,) game numbers
    finals: np.ndarray  # (n,) the games' final scores
    positions: List[str]  # position texts
    actions: List[np.ndarray]  # the best moves' actions, best first
    values: List[np.ndarray]  # Order's expected final score after each
    greedy: np.ndarray  # (n,) whether the teacher read its opponent as greedy there
    settings: str = ""  # the file's settings line (the teacher-data command's options)

    def __len__(self) -> int:
        return len(self.positions)

    def subset(self, index: Sequence[int]) -> "TeacherData":
        """The decisions ``index`` alone."""
        return TeacherData(
            self.games[index],
            self.finals[index],
            [self.positions[i] for i in index],
            [self.actions[i] for i in index],
            [self.values[i] for i in index],
            self.greedy[index],
            self.settings,
        )


def held_out(data: TeacherData) -> np.ndarray:
    """Which decisions are held out: those of one game in ten (game numbers ending in 0)."""
    return data.games % 10 == 0


def read_teacher(path: Path) -> TeacherData:
    """Reads ``entropy teacher-data``'s file (its settings line, decisions, ``end`` lines). A
    last game without its ``end`` line (an interrupted run) is left out."""
    games, finals, positions, actions, values, greedy = [], [], [], [], [], []
    pending: list = []
    settings = ""
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if number == 1:
                if not line.startswith("# entropy teacher-data"):
                    raise ValueError(f"{path}: not a teacher-data file (its first line is {line[:60]!r})")
                settings = line.lstrip("# ")
                continue
            if line.startswith("end "):
                for entry in pending:
                    for column, value in zip((games, finals, positions, actions, values, greedy), entry):
                        column.append(value)
                pending = []
                continue
            try:
                head, position = line.split(" | ")
                fields = head.split(" ")
                read = len(fields) == 5 and fields[4] == "greedy"
                if read:
                    fields = fields[:4]
                game, final, _played, moves = fields
                pairs = [pair.split(":") for pair in moves.split(",")]
                entry = (
                    int(game),
                    int(final),
                    position,
                    np.array([int(a) for a, _ in pairs], dtype=np.int64),
                    np.array([float(v) for _, v in pairs], dtype=np.float32),
                    read,
                )
            except ValueError as error:
                raise ValueError(f"{path} line {number}: not a teacher decision ({error}): {line[:80]!r}") from None
            pending.append(entry)
    return TeacherData(np.array(games), np.array(finals, dtype=np.float32), positions, actions, values, np.array(greedy, dtype=bool), settings)


def soft_targets(data: TeacherData, index: Sequence[int], temperature: float) -> torch.Tensor:
    """``(len(index), 638)`` policy targets: the best moves weighted by the points each loses."""
    target = torch.zeros(len(index), ACTIONS)
    for row, i in enumerate(index):
        values = data.values[i]
        loss = np.abs(values - values[0])
        weights = np.exp(-loss / temperature) if temperature > 0 else (loss == 0).astype(np.float32)
        target[row, data.actions[i]] = torch.from_numpy(weights / weights.sum()).float()
    return target


class Observations:
    """Every decision's observation (the learning environment's, through ``set_state``),
    Order's score then and whether Order was to move, computed once before training: the
    evaluations in the observation cost more than the network's pass over them."""

    def __init__(self, data: TeacherData, observation: str, batch: int = 256):
        from hyle_entropy.vector import EntropyVecEnv

        env = EntropyVecEnv(num_envs=batch, observation=observation, mask_in_observation=True, autoreset=False)
        env.reset()
        n = len(data)
        self.observations = np.zeros((n, env.observations.shape[1]), dtype=np.float32)
        self.scores = np.zeros(n, dtype=np.float32)
        self.order = np.zeros(n, dtype=bool)
        started = time.time()
        for start in range(0, n, batch):
            rows = range(start, min(start + batch, n))
            for slot, i in enumerate(rows):
                env.set_state(slot, data.positions[i], bool(data.greedy[i]))
                self.scores[i] = env.native.score(slot)
                self.order[i] = data.positions[i].endswith(" slide")
            self.observations[rows.start : rows.stop] = env.observations[: len(rows)]
            if (start // batch) % 100 == 0 or rows.stop == n:
                print(f"observations: {rows.stop}/{n} ({time.time() - started:.0f} s)", flush=True)

    def __call__(self, rows: np.ndarray) -> Tuple[torch.Tensor, np.ndarray, np.ndarray]:
        """The observations of decisions ``rows``, Order's score in each, and whether Order is
        to move."""
        return torch.from_numpy(self.observations[rows]), self.scores[rows], self.order[rows]


def value_targets(data: TeacherData, index: Sequence[int], scores: np.ndarray, order: np.ndarray, mix: float) -> torch.Tensor:
    """``(len(index), 1)`` value targets in ``train_ppo``'s units."""
    expected = np.array([data.values[i][0] for i in index], dtype=np.float32)
    final = data.finals[np.asarray(index)]
    target = (1 - mix) * expected + mix * final
    to_come = (target - scores) / VALUE_SCALE
    return torch.from_numpy(np.where(order, to_come, -to_come)[:, None].astype(np.float32))


def agrees(data: TeacherData, i: int, action: int) -> bool:
    """Whether ``action`` is one of the searcher's moves within ``AGREE`` points of its best in
    decision ``i`` (moves that close are ties to the search)."""
    values = data.values[i]
    close = data.actions[i][np.abs(values - values[0]) <= AGREE]
    return bool((close == action).any())


def run_pass(
    policy: EntropyPolicy,
    data: TeacherData,
    index: np.ndarray,
    observer: Observations,
    args: argparse.Namespace,
    optimizer: Optional[torch.optim.Optimizer] = None,
) -> Tuple[float, float, float]:
    """One pass over ``index`` (training when an optimizer is given): the mean policy loss, the
    agreement with the searcher's best move, and the value's root mean squared error in points."""
    policy.train(optimizer is not None)
    total_loss = agree = squared = 0.0
    for start in range(0, len(index), args.batch):
        rows = index[start : start + args.batch]
        observations, scores, order = observer(rows)
        target = soft_targets(data, rows, args.temperature)
        value_target = value_targets(data, rows, scores, order, args.mix)
        with torch.set_grad_enabled(optimizer is not None):
            logits, value = policy.logits_and_value(observations)
            policy_loss = -(target * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
            value_loss = ((value - value_target) ** 2).mean()
            if optimizer is not None:
                optimizer.zero_grad()
                (policy_loss + args.value_weight * value_loss).backward()
                optimizer.step()
        chosen = logits.argmax(dim=1).numpy()
        total_loss += float(policy_loss.detach()) * len(rows)
        agree += sum(agrees(data, i, int(action)) for i, action in zip(rows, chosen))
        squared += float(value_loss.detach()) * len(rows) * VALUE_SCALE**2
    n = max(len(index), 1)
    return total_loss / n, agree / n, math.sqrt(squared / n)


def arguments() -> argparse.ArgumentParser:
    """The command's options, whose defaults are the distillation's settings."""
    parser = argparse.ArgumentParser(
        prog="python -m hyle_entropy.distill_policy",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--data", type=Path, required=True, help="a file written by `entropy teacher-data`")
    parser.add_argument("--out", type=Path, default=Path("runs/distill"), help="directory of policy.pt, policy.bin and curve.csv (default runs/distill)")
    parser.add_argument("--epochs", type=int, default=10, help="passes over the training decisions (default 10)")
    parser.add_argument("--batch", type=int, default=256, help="decisions per step (default 256)")
    parser.add_argument("--rate", type=float, default=1e-3, help="Adam's learning rate (default 0.001)")
    parser.add_argument("--temperature", type=float, default=1.0, help="points a move may lose for its target weight to fall by e (default 1; 0: the best moves alone)")
    parser.add_argument("--mix", type=float, default=0.1, help="share of the game's final score in the value target, the rest the searcher's value (default 0.1)")
    parser.add_argument("--value-weight", type=float, default=1.0, help="weight of the value's loss beside the policy's (default 1)")
    parser.add_argument("--channels", type=int, default=16, help="the policy's width (default 16, as entropy.ini's)")
    parser.add_argument("--blocks", type=int, default=2, help="the policy's line-mixing layers (default 2)")
    parser.add_argument("--hidden", type=int, default=64, help="the value head's width (default 64)")
    parser.add_argument("--eval-start", type=int, default=2, help="logits per point of the engine's evaluation the policy starts from (default 2: the one-move lookahead)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the initial weights and the passes' order (default 1)")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    parser.add_argument("--eval-games", type=int, default=200, help="after each pass, games in each role against --eval-opponent for the curve, as train_ppo's evaluation plays them (default 200; 0: none)")
    parser.add_argument("--eval-opponent", default="greedy", help="the curve's fixed opponent (default greedy, as train_ppo's)")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    parser = arguments()
    args = parser.parse_args(argv)
    for name in ("epochs", "batch"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.eval_games < 0:
        parser.error("--eval-games must be 0 or more")
    if not 0 <= args.mix <= 1 or args.temperature < 0 or args.rate <= 0:
        parser.error("--mix must be in [0, 1], --temperature 0 or more and --rate above 0")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    data = read_teacher(args.data)
    if len(data) == 0:
        parser.error(f"{args.data} holds no whole game")
    held = held_out(data)
    train_index, test_index = np.flatnonzero(~held), np.flatnonzero(held)
    if len(train_index) == 0 or len(test_index) == 0:
        parser.error(f"{args.data}: too few games to hold one in ten out (games numbered 0 are held out)")
    policy = EntropyPolicy(channels=args.channels, blocks=args.blocks, hidden=args.hidden, read=1, eval_start=args.eval_start)
    observer = Observations(data, policy.observation())
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.rate)
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    rows = []
    loss, agreement, value_error = run_pass(policy, data, test_index, observer, args)
    print(f"{len(train_index)} decisions to fit, {len(test_index)} held out; before training: agreement {agreement:.3f}, policy loss {loss:.3f}, value error {value_error:.2f} points", flush=True)
    best = -1.0
    started = time.time()
    evaluating = 0.0
    for epoch in range(1, args.epochs + 1):
        fit_loss, fit_agreement, _ = run_pass(policy, data, rng.permutation(train_index), observer, args, optimizer)
        loss, agreement, value_error = run_pass(policy, data, test_index, observer, args)
        row = dict(epoch=epoch, seconds=round(time.time() - started - evaluating, 1), fit_loss=round(fit_loss, 4), fit_agreement=round(fit_agreement, 4), loss=round(loss, 4), agreement=round(agreement, 4), value_error=round(value_error, 3))
        if args.eval_games:
            # Strength against a fixed opponent, the curve's other axis (its time left out of
            # the pass's seconds, as train_ppo leaves its evaluations out).
            t = time.time()
            strength = evaluate(policy.eval(), args.eval_games, args.eval_opponent, EVAL_SEED)
            evaluating += time.time() - t
            row.update(score_as_order=round(strength["order"][0], 2), conceded_as_chaos=round(strength["chaos"][0], 2))
        rows.append(row)
        kept = agreement > best
        versus = f"; against {args.eval_opponent} {row['score_as_order']:.1f} as Order, {row['conceded_as_chaos']:.1f} conceded as Chaos" if args.eval_games else ""
        print(f"epoch {epoch}: held out agreement {agreement:.3f}, policy loss {loss:.3f}, value error {value_error:.2f} points (fitted: {fit_agreement:.3f}, {fit_loss:.3f}){versus}{' kept' if kept else ''}", flush=True)
        if kept:
            best = agreement
            torch.save({"config": policy.config(), "weights": policy.state_dict()}, args.out / "policy.pt")
            provenance = f"made by: python -m hyle_entropy.distill_policy {' '.join(argv if argv is not None else sys.argv[1:])}\nteacher data: {data.settings}\nepoch {epoch}: held-out agreement with the searcher {agreement:.3f}, value error {value_error:.2f} points"
            export_weights(policy, str(args.out / "policy.bin"), provenance)
        with open(args.out / "curve.csv", "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    print(f"wrote {args.out / 'policy.pt'} and {args.out / 'policy.bin'} (held-out agreement {best:.3f}); play it as policy:model={args.out / 'policy.bin'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
