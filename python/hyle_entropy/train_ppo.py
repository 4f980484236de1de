"""Trains the PufferLib plan's CNN policy for Entropy by PPO with PufferLib's own trainer
(``pufferlib.pufferl.PuffeRL``) on the Rust environment, on the CPU (``--set
train.device=cuda`` on a GPU).

    pip install "hyle-entropy[puffer]"      # pufferlib-core, torch, onnx, matplotlib
    python -m hyle_entropy.train_ppo --out runs/ppo      # 30 M steps (entropy.ini says how long)

By default the untrained policy plays as ``search:depth=1`` does (``policy.eval_start``), holds
its logits while the value learns (``warmup.critic_steps``) and trains against greedy and the
one-move lookahead (``entropy.ini``'s [curriculum]); ``--config plan.ini`` is the plan's own
run, from the random bot with its curriculum from random to greedy opponents; ``--init
POLICY.pt`` starts from a saved policy instead, such as the searcher distilled by
``distill_policy``. One policy for both roles. Every ``eval.interval`` seconds it plays ``eval.games`` games in each
role against greedy (the plan's benchmark: > 100 as Order, < 50 conceded as Chaos), prints a
progress line, appends the learning curve to ``OUT/curve.csv`` (and redraws ``OUT/curve.png``),
and saves ``OUT/checkpoint.pt`` (weights, optimizer, steps, curve), ``OUT/policy.pt`` and
``OUT/policy.bin`` (the Rust bot plays it as ``policy:model=OUT/policy.bin``) and ``OUT/ppo.onnx``
(the bot ``ppo`` of a build with the ``onnx`` feature plays it). Run the same command again to resume an
interrupted run from its checkpoint (``--fresh`` starts over).

Steps per second count agent decisions (each with the opponent's reply, played in Rust),
collection and learning together, over the training's wall time (evaluations excluded, and
reported apart).
"""

from __future__ import annotations

import argparse
import ast
import configparser
import csv
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from hyle_entropy.puffer_patches import (
    ensure_advantage_kernel,
    install_sampler,
    keep_freed_memory,
    sample_actions,
    trainer_class,
)

CONFIG = Path(__file__).with_name("entropy.ini")
CURVE_FIELDS = [
    "steps",
    "train_seconds",
    "wall_seconds",
    "stage",
    "score_as_order",
    "order_ci",
    "conceded_as_chaos",
    "chaos_ci",
    "steps_per_second",
]


def literal(text: str) -> Any:
    """An ini value as Python reads it (numbers, booleans), else the text."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def load_config(path: Path, overrides: List[str]) -> Dict[str, Dict[str, Any]]:
    """The ini file as nested dicts, with ``section.key=value`` overrides applied. A file
    whose ``[base]`` names ``inherit = FILE`` (beside it) holds only what differs from that
    file's settings; a bare name not found here is one of the package's configs
    (``plan.ini``)."""
    path = Path(path)
    if not path.exists() and path.parent == Path(".") and CONFIG.with_name(path.name).exists():
        path = CONFIG.with_name(path.name)
    parser = ini_parser()
    if not parser.read(path):
        raise SystemExit(f"train_ppo: cannot read the config {path}")
    inherit = parser.get("base", "inherit", fallback=None)
    if inherit:
        base = path.parent / inherit
        parser = ini_parser()
        if parser.read([base, path]) != [str(base), str(path)]:
            raise SystemExit(f"train_ppo: cannot read {base}, which the config {path} inherits")
    config = {section: {k: literal(v) for k, v in parser[section].items()} for section in parser.sections()}
    for item in overrides:
        key, sep, value = item.partition("=")
        section, dot, name = key.partition(".")
        if not sep or not dot or section not in config:
            raise SystemExit(f"train_ppo: --set {item!r}: use SECTION.KEY=VALUE with a section of {path.name}")
        config[section][name] = literal(value)
    return config


def ini_parser() -> configparser.ConfigParser:
    """A parser for train_ppo's configs: ``#`` comments after values, keys as written."""
    parser = configparser.ConfigParser(inline_comment_prefixes=("#",))
    parser.optionxform = str  # keys keep their case ("0.03" stays a key)
    return parser


def curriculum(config: Dict[str, Dict[str, Any]]) -> List[Tuple[float, List[str]]]:
    """The stages: (share of total_timesteps from which it applies, opponent per sub-env)."""
    subenvs = int(config["env"]["subenvs"])
    stages = []
    for start, names in config["curriculum"].items():
        opponents = str(names).split()
        if len(opponents) != subenvs:
            raise SystemExit(f"train_ppo: curriculum stage {start} names {len(opponents)} opponents for {subenvs} sub-environments")
        stages.append((float(start), opponents))
    stages.sort()
    if not stages or stages[0][0] != 0.0:
        raise SystemExit("train_ppo: the curriculum needs a stage from 0.0")
    return stages


def stage_at(stages: List[Tuple[float, List[str]]], share: float) -> int:
    """The index of the stage that applies at this share of the run."""
    return max(i for i, (start, _) in enumerate(stages) if share >= start)


class Run:
    """One training run's files under ``out``: the checkpoint, the curve, the exports."""

    def __init__(self, out: Path):
        self.out = out
        out.mkdir(parents=True, exist_ok=True)
        self.checkpoint = out / "checkpoint.pt"
        self.curve_csv = out / "curve.csv"
        self.curve_png = out / "curve.png"

    def save(self, trainer: Any, policy: Any, rows: List[Dict[str, Any]], train_seconds: float, stage: int, provenance: str = "") -> None:
        """The checkpoint (written to a temporary file, then renamed), the policy, its weights
        for the Rust bot ``policy`` (``provenance`` in their header) and ONNX."""
        import torch

        from hyle_entropy.ppo_policy import export_onnx, export_weights

        state = {
            "config": policy.config(),
            "weights": policy.state_dict(),
            "optimizer": trainer.optimizer.state_dict(),
            "scheduler": trainer.scheduler.state_dict(),
            "global_step": trainer.global_step,
            "epoch": trainer.epoch,
            "train_seconds": train_seconds,
            "stage": stage,
            "rows": rows,
            "torch_rng": torch.get_rng_state(),
        }
        torch.save(state, str(self.checkpoint) + ".tmp")
        Path(str(self.checkpoint) + ".tmp").replace(self.checkpoint)
        torch.save({"config": policy.config(), "weights": policy.state_dict()}, self.out / "policy.pt")
        export_weights(cpu_copy(policy), str(self.out / "policy.bin"), provenance)
        export_onnx(cpu_copy(policy), str(self.out / "ppo.onnx"))

    def write_curve(self, rows: List[Dict[str, Any]]) -> None:
        """The learning curve as CSV, and as PNG where matplotlib is installed."""
        with open(self.curve_csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=CURVE_FIELDS)
            writer.writeheader()
            writer.writerows(rows)
        plot_curve(rows, self.curve_png)


def plot_curve(rows: List[Dict[str, Any]], path: Path, trainer: str = "PuffeRL") -> None:
    """Score as Order and conceded as Chaos against the evaluation opponent, by minute; the
    title names the trainer that made the curve."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    minutes = [r["train_seconds"] / 60 for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, ci, label in (("score_as_order", "order_ci", "as Order (higher is better)"), ("conceded_as_chaos", "chaos_ci", "conceded as Chaos (lower is better)")):
        y = np.array([r[key] for r in rows])
        e = np.array([r[ci] for r in rows])
        ax.plot(minutes, y, marker="o", label=label)
        ax.fill_between(minutes, y - e, y + e, alpha=0.2)
    ax.axhline(100, color="grey", linestyle=":", linewidth=1)
    ax.axhline(50, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("training minutes")
    ax.set_ylabel("final score against greedy")
    ax.set_title(f"PPO ({trainer}) on Entropy: the plan's benchmark lines at 100 and 50")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def policy_settings(config: Dict[str, Dict[str, Any]]) -> Dict[str, int]:
    """The policy's constructor arguments: [policy], and which of the gains, the lines, the
    evaluation changes and the reading of the opponent it reads (each holds the ones before)."""
    observation = str(config["env"]["observation"])
    if observation not in ("planes", "gains", "lines", "evals", "read"):
        raise SystemExit(f"train_ppo: env.observation {observation!r}: use planes, gains, lines, evals or read")
    for key, value in config["policy"].items():
        if not isinstance(value, int):
            raise SystemExit(f"train_ppo: policy.{key} {value!r}: use a whole number")
    settings = dict(config["policy"])
    return dict(
        settings,
        gains=int(observation != "planes"),
        lines=int(observation in ("lines", "evals", "read")),
        evals=int(observation in ("evals", "read")),
        read=int(observation == "read"),
    )


def critic_steps(config: Dict[str, Dict[str, Any]]) -> int:
    """The critic's warm-up, in steps: ``warmup.critic_steps`` (0 where a config written before
    it has no [warmup])."""
    steps = config.get("warmup", {}).get("critic_steps", 0)
    if not isinstance(steps, int) or steps < 0:
        raise SystemExit(f"train_ppo: warmup.critic_steps {steps!r}: use a whole number of steps (0: no warm-up)")
    return steps


def policy_parameters(policy: Any) -> Dict[str, Any]:
    """The parameters that shape only the logits: the heads, the pass, the gains', evaluation's
    and line tables' weights. The heads start at zero, so while these stay as they started the
    trunk and the value learn and the policy plays as it started."""
    names = ("heads.", "passing.", "gain_weights", "eval_weights", "read_weights", "line_policy")
    return {name: p for name, p in policy.named_parameters() if name.startswith(names)}


def make_vecenv(config: Dict[str, Dict[str, Any]], opponents: List[str], seed: int) -> Any:
    """PufferLib's Serial vector over ``subenvs`` EntropyPuffer environments, one opponent each."""
    import pufferlib.vector

    from hyle_entropy.pufferlib_env import EntropyPuffer

    env = config["env"]
    subenvs = int(env["subenvs"])
    if int(env["num_envs"]) % subenvs:
        raise SystemExit(f"train_ppo: env.num_envs {env['num_envs']} is not a multiple of env.subenvs {subenvs}")
    # A sub-environment against the pool ("self") starts against a built-in bot: set_stage
    # gives it the pool.
    kwargs = [
        dict(
            num_envs=int(env["num_envs"]) // subenvs,
            role=env["role"],
            opponent="random" if opponent == "self" else opponent,
            reward_illegal=float(env["reward_illegal"]),
            reward_shaping=float(env["reward_shaping"]),
            reward_potential=str(env.get("reward_potential", "score")),
            reward_final=float(env["reward_final"]),
            observation=str(env["observation"]),
            threads=int(env.get("threads", 1)),
        )
        for opponent in opponents
    ]
    return pufferlib.vector.make(
        [EntropyPuffer] * subenvs, env_args=[[]] * subenvs, env_kwargs=kwargs, backend=pufferlib.vector.Serial, num_envs=subenvs, seed=seed
    )


def set_stage(vecenv: Any, opponents: List[str], seed: int, pool: Any) -> None:
    """Gives each sub-environment its opponent of the stage (games restart where it changes);
    ``"self"`` plays the pool of past selves."""
    for i, (env, opponent) in enumerate(zip(vecenv.envs, opponents, strict=True)):
        if env.opponent != opponent:
            env.set_opponent(opponent, seed + 7919 * i, pool=pool)


def cpu_copy(policy: Any) -> Any:
    """The policy's copy on the CPU, in evaluation mode (what the pool plays and ONNX holds,
    wherever the training runs)."""
    from hyle_entropy.ppo_policy import EntropyPolicy, load_policy

    copy = EntropyPolicy(**policy.config())
    copy.load_state_dict(policy.state_dict())
    return copy.eval()


def frozen_player(policy: Any, seed: int) -> Any:
    """A frozen copy of the policy as the pool plays it: observations in, actions sampled from
    its distribution out (so that past selves vary their play as the learner does), drawn as
    collection draws them (:func:`sample_actions`)."""
    import torch

    frozen = cpu_copy(policy)
    generator = torch.Generator().manual_seed(seed)

    def act(observations: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            logits, _ = frozen.logits_and_value(torch.from_numpy(observations))
            return sample_actions(logits, generator)[0].long().numpy()

    return act


def timer_totals(trainer: Any) -> Dict[str, float]:
    """PuffeRL's own timers (``trainer.profile``, sampled every fifth epoch): seconds by part."""
    profile = getattr(trainer, "profile", None)
    return {name: float(timer["elapsed"]) for name, timer in profile} if profile is not None else {}


def time_split(totals: Dict[str, float], before: Dict[str, float]) -> str:
    """Where the training time went since ``before`` (PuffeRL's timers, :func:`timer_totals`):
    collection ("eval": the environment, the policy's forward pass) and learning ("train": the
    forward pass with gradients, then backward and the optimizer's step), in percent of both
    together. Taking ``before`` after the first epoch leaves out torch.compile's start."""
    spent = {name: seconds - before.get(name, 0.0) for name, seconds in totals.items()}
    whole = spent.get("eval", 0.0) + spent.get("train", 0.0)
    if whole <= 0:
        return ""

    def share(name: str) -> str:
        return f"{100 * spent.get(name, 0.0) / whole:.0f}%"

    return (
        f"collection {share('eval')} (environment {share('env')}, policy {share('eval_forward')}), "
        f"learning {share('train')} (forward {share('train_forward')}, backward and step {share('learn')})"
    )


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hyle_entropy.train_ppo",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--out", type=Path, default=Path("runs/ppo"), help="directory of the run's files (default runs/ppo)")
    parser.add_argument("--minutes", type=float, default=120.0, help="stop after this much training wall time (default 120); the run also ends at train.total_timesteps")
    parser.add_argument("--config", type=Path, default=CONFIG, help="the ini file (default: the package's entropy.ini)")
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE", help="override one config value (repeatable), e.g. --set train.learning_rate=0.001")
    parser.add_argument("--fresh", action="store_true", help="start over even where OUT holds a checkpoint")
    parser.add_argument("--threads", type=int, default=2, help="torch threads (default 2: the machine's cores)")
    parser.add_argument("--init", type=Path, metavar="POLICY.pt", help="start a new run from this policy (its own config and weights, e.g. distill_policy's policy.pt) instead of the config's untrained one; a run that resumes from its checkpoint ignores it")
    args = parser.parse_args(argv)

    try:
        import torch
        import pufferlib.pufferl  # noqa: F401
    except ImportError as e:
        print(f"train_ppo: {e}; install the training extra: pip install \"hyle-entropy[puffer]\"", file=sys.stderr)
        return 2

    from hyle_entropy.ppo_policy import EntropyPolicy, evaluate, load_policy

    # PuffeRL enters CPU autocast with float32, which torch declines with a warning each time.
    warnings.filterwarnings("ignore", message="In CPU autocast")
    config = load_config(args.config, args.set)
    stages = curriculum(config)
    seed = int(config["base"]["seed"])
    # PuffeRL's own checkpoints (at the end of train.total_timesteps) go beside ours.
    train = dict(config["train"], env="entropy", seed=seed, data_dir=str(args.out / "pufferl"))
    total = int(train["total_timesteps"])
    torch.set_num_threads(args.threads)
    torch.manual_seed(seed)

    ensure_advantage_kernel()
    install_sampler()
    keep_freed_memory()
    run = Run(args.out)
    if args.init is not None:
        if not args.init.exists():
            print(f"train_ppo: --init {args.init}: no such file", file=sys.stderr)
            return 2
        policy = load_policy(str(args.init)).train()
        # The environment writes the observation the policy reads, whatever the config says.
        config["env"]["observation"] = policy.observation()
    else:
        policy = EntropyPolicy(**policy_settings(config))
    warmup = critic_steps(config)
    resumed = None
    if run.checkpoint.exists() and not args.fresh:
        resumed = torch.load(run.checkpoint, map_location="cpu", weights_only=False)
        # Read through the constructor, so that a checkpoint written before a setting existed
        # holds that setting's default.
        if EntropyPolicy(**resumed["config"]).config() != policy.config():
            raise SystemExit(f"train_ppo: {run.checkpoint} holds a policy {resumed['config']}, the config asks for {policy.config()}: use --fresh or another --out")
        policy.load_state_dict(resumed["weights"])
        torch.set_rng_state(resumed["torch_rng"])
    # PuffeRL keeps its buffers on train.device and expects the policy there.
    policy = policy.to(train["device"])

    # The stage for the steps played (a resumed run's config may have other stages).
    stage = stage_at(stages, resumed["global_step"] / total) if resumed else 0
    # Each resume draws new deals (the seed moves on with the steps already played).
    env_seed = seed * 1_000_003 + (resumed["global_step"] if resumed else 0)
    vecenv = make_vecenv(config, stages[stage][1], env_seed)
    # Past selves: a snapshot at every evaluation (a resumed run starts the pool afresh).
    from hyle_entropy.selfplay import OpponentPool

    pool = OpponentPool(int(config["selfplay"]["pool"]), seed)
    pool.add(frozen_player(policy, seed))
    set_stage(vecenv, stages[stage][1], env_seed, pool)
    trainer = trainer_class()(train, vecenv, policy)
    rows: List[Dict[str, Any]] = []
    train_seconds = 0.0
    if resumed:
        trainer.optimizer.load_state_dict(resumed["optimizer"])
        trainer.scheduler.load_state_dict(resumed["scheduler"])
        trainer.global_step, trainer.epoch = resumed["global_step"], resumed["epoch"]
        rows, train_seconds = resumed["rows"], resumed["train_seconds"]
        print(f"train_ppo: resuming {run.checkpoint} at {trainer.global_step:,} steps, {train_seconds / 60:.1f} training minutes", flush=True)

    eval_cfg = config["eval"]
    interval = float(eval_cfg["interval"])
    started = time.time()
    wall_before = rows[-1]["wall_seconds"] if rows else 0.0

    def checkpoint() -> None:
        policy.eval()
        t = time.time()
        result = evaluate(policy, int(eval_cfg["games"]), str(eval_cfg["opponent"]), int(eval_cfg["seed"]))
        policy.train()
        (order, order_ci), (chaos, chaos_ci) = result["order"], result["chaos"]
        sps = trainer.global_step / train_seconds if train_seconds else 0.0
        row = {
            "steps": trainer.global_step,
            "train_seconds": round(train_seconds, 1),
            "wall_seconds": round(wall_before + time.time() - started, 1),
            "stage": stage,
            "score_as_order": round(order, 2),
            "order_ci": round(order_ci, 2),
            "conceded_as_chaos": round(chaos, 2),
            "chaos_ci": round(chaos_ci, 2),
            "steps_per_second": round(sps),
        }
        rows.append(row)
        pool.add(frozen_player(policy, seed + len(rows)))
        run.write_curve(rows)
        made_by = " ".join(argv if argv is not None else sys.argv[1:])
        provenance = (
            f"made by: python -m hyle_entropy.train_ppo {made_by}\n"
            f"{trainer.global_step} steps, {train_seconds / 60:.1f} training minutes: against {eval_cfg['opponent']} "
            f"{order:.1f} as Order, {chaos:.1f} conceded as Chaos"
        )
        run.save(trainer, policy, rows, train_seconds, stage, provenance)
        print(
            f"{train_seconds / 60:6.1f} min  {trainer.global_step:>11,} steps  {sps:>7,.0f} steps/s  stage {stage}  "
            f"vs {eval_cfg['opponent']}: as Order {order:6.1f} ± {order_ci:.1f}  conceded as Chaos {chaos:6.1f} ± {chaos_ci:.1f}  "
            f"(evaluation {time.time() - t:.1f} s)",
            flush=True,
        )

    if not rows:
        checkpoint()
    next_eval = train_seconds + interval
    # The critic's warm-up: the policy's own parameters held while the value learns first.
    # (Restored after every update rather than frozen: the compiled graphs keep the gradients
    # they were traced with, so a parameter frozen at the start would stay frozen.)
    held = [(p, p.detach().clone()) for p in policy_parameters(policy).values()] if trainer.global_step < warmup else []
    deadline = args.minutes * 60
    # PuffeRL's timers once the first epoch (which compiles the policy) is over.
    timers_from: Optional[Dict[str, float]] = None
    while trainer.global_step < total and train_seconds < deadline:
        wanted = stage_at(stages, trainer.global_step / total)
        if wanted != stage:
            stage = wanted
            set_stage(vecenv, stages[stage][1], env_seed + stage, pool)
            print(f"train_ppo: stage {stage} from {trainer.global_step:,} steps: opponents {' '.join(stages[stage][1])}", flush=True)
        t = time.time()
        trainer.evaluate()
        trainer.train()
        train_seconds += time.time() - t
        if timers_from is None:
            timers_from = timer_totals(trainer)
        if held:
            with torch.no_grad():
                for p, start in held:
                    p.copy_(start)
        if held and trainer.global_step >= warmup:
            held = []
            print(f"train_ppo: the critic's warm-up ends at {trainer.global_step:,} steps", flush=True)
        if train_seconds >= next_eval:
            checkpoint()
            next_eval = train_seconds + interval
    if rows[-1]["steps"] != trainer.global_step:
        checkpoint()
    trainer.utilization.stop()
    split = time_split(timer_totals(trainer), timers_from or {})
    print(f"train_ppo: {trainer.global_step:,} steps in {train_seconds / 60:.1f} training minutes ({trainer.global_step / max(train_seconds, 1e-9):,.0f} steps/s); files in {run.out}", flush=True)
    if split:
        print(f"train_ppo: after the first epoch, {split}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
