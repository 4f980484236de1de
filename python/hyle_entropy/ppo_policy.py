"""The PufferLib plan's CNN policy for Entropy, with the action mask and an action head laid
out like the actions (``train_ppo`` trains it with PuffeRL; the Rust bot ``ppo`` plays its
ONNX export).

Input: one row per decision, the plan's 402 planes (then the gains, the line patterns and the
evaluation changes, where the policy reads them: ``observation_size``) followed by the 638
mask values (the ``EntropyPuffer`` observation, ``mask_in_observation=True``); 7x7 only.
Output: the action logits (illegal actions at -1e9) and the value, the return expected from
here (with the trainer's rewards: the score still to come over 50, negated for Chaos).

The network is small on purpose (a few hundred thousand multiply-adds a decision), because
PuffeRL's speed on 2 cores is the point:

- **Inputs beyond the planes, computed inside the network** from them (so the ONNX export and
  the Rust bot need nothing else): for every cell and every other cell of its row and column,
  whether the two hold the same colour (24 planes: palindromes are nested equal pairs), whether
  the cell holds the drawn colour, and whether the cell at each offset does (24 planes: where
  the drawn chip would make pairs). The bag, the drawn colour, the phase and the progress enter
  as a bias of the first layer.
- **Trunk**: 1x1 convolutions with each row's and column's mean appended before each one (a
  cell sees its lines, which is all that scores).
- **Head**: a placement's logit is the placement map at the cell; a slide's is the sum of an
  *arrival* map at the destination and a *leaving* map at the origin, both for the colour of
  the chip that moves (gathered, not multiplied, so a decision costs 638 lookups); the pass has
  its own logit from the pooled features. The value reads the pooled features and the scalars.
- **Line tables** (the lines observation only): a placement's or slide's logit gains a table's
  values of the line patterns after it less those now, and the value a second table's sum over
  the lines now (tables per player to move, quarter of the game, class of line and pattern).
- **Evaluation changes** (the evals observation only): each action's logit gains a learned
  weight per player to move times what the action does to the engine's linear evaluation, or
  to the exact value when it leaves two empty cells or fewer (the environment computes it; the
  weight starts at 0, so the untrained policy is still the random bot, or at ``eval_start``
  logits per point, so that it plays as ``search:depth=1`` does).
- **Reading the opponent** (the read observation only): the environment watches the opponent
  as the Rust bot does and sets a flag while it plays as the greedy bot. The flag is one more
  scalar (the first layer's bias, the pass and the value see it), and while it is set, each
  placement's logit gains a learned weight times what the placement does to the same valuation
  once greedy Order has replied to it, and a second weight times its plain evaluation change
  (starting at ``eval_start`` against it: Chaos then plays its exact one-move lookahead against
  a greedy Order). One network for every opponent: the reading is an input, not a switch.
"""

from __future__ import annotations

import math
from typing import Any, Dict, Optional, Tuple

import numpy as np
import torch
from torch import nn

SIZE = 7
CELLS = SIZE * SIZE
COLOURS = SIZE
PLANES_SIZE = COLOURS * CELLS + CELLS + COLOURS + 3  # 402
TARGETS = 2 * (SIZE - 1)  # slide targets per cell
ACTIONS = CELLS + CELLS * TARGETS + 1  # 638
GAINS_SIZE = 3 * CELLS + CELLS * TARGETS  # 735: the gains observation after the planes
LINES = 2 * SIZE  # rows, then columns
LINE_SLOTS = 3  # lines an action changes (learned/observation.rs, changed_lines)
LINES_SIZE = LINES + LINE_SLOTS * (ACTIONS - 1)  # 1925: the lines observation after the gains
PATTERNS = 2152  # line patterns of seven cells (the n-tuple evaluation's)
CLASSES = (SIZE + 1) // 2  # lines by distance from the edge
STAGES = 4  # the game in quarters, for the line tables
# The line tables' values are their parameters times this. Adam moves every parameter by about
# the learning rate an update, and the tables need values of several points where the trunk's
# weights stay small: scaled, they get there in as many updates.
LINE_SCALE = 10.0
OBSERVATION_SIZE = PLANES_SIZE + ACTIONS  # 1040
EVALS_SIZE = ACTIONS  # the evals observation after the lines: each action's evaluation change
READ_SIZE = 1 + CELLS  # the read observation after the evals: the flag, each placement's change after greedy's reply
# The weight on each action's evaluation change is its parameter times this (as LINE_SCALE):
# one logit per point of the evaluation is a parameter of 1, reached in a few hundred updates.
EVAL_SCALE = 10.0


def observation_size(gains: bool, lines: bool = False, evals: bool = False, read: bool = False) -> int:
    """Values per row the policy reads: the planes, the gains if it reads them (the lines
    observation includes them), the lines if it reads them (the evals observation includes
    them), the evaluation changes if it reads them (the read observation includes them), the
    reading of the opponent if it reads it, the mask."""
    evals = evals or read
    lines = lines or evals
    return (
        PLANES_SIZE
        + (GAINS_SIZE if gains or lines else 0)
        + (LINES_SIZE if lines else 0)
        + (EVALS_SIZE if evals else 0)
        + (READ_SIZE if read else 0)
        + ACTIONS
    )


def observation_name(gains: bool, lines: bool = False, evals: bool = False, read: bool = False) -> str:
    """The environment's name for the observation a policy reads."""
    return "read" if read else "evals" if evals else "lines" if lines else "gains" if gains else "planes"
SCALARS = COLOURS + COLOURS + 2  # bag, drawn colour one-hot, phase, progress
ILLEGAL = -1e9


def slide_cells() -> Tuple[torch.Tensor, torch.Tensor]:
    """Each slide action's origin and destination cells (the action layout: slide target j of a
    cell is the j-th other cell of its row left to right, then of its column top to bottom)."""
    origin, destination = [], []
    for cell in range(CELLS):
        row, column = divmod(cell, SIZE)
        others = [row * SIZE + c for c in range(SIZE) if c != column]
        others += [r * SIZE + column for r in range(SIZE) if r != row]
        origin += [cell] * TARGETS
        destination += others
    return torch.tensor(origin), torch.tensor(destination)


def changed_lines() -> torch.Tensor:
    """``(actions - 1) x 3``: the lines (0-6 rows, 7-13 columns) each placement and slide
    changes, in the order the lines observation lists their patterns after it: a placement's
    row, column and row again (whose slot holds the pattern now); a slide along a row: the row,
    the origin's column, the destination's; along a column: the column, the origin's row, the
    destination's. As Rust's ``changed_lines``."""
    out = []
    for cell in range(CELLS):
        row, column = divmod(cell, SIZE)
        out.append([row, SIZE + column, row])
    origin, destination = slide_cells()
    for a, b in zip(origin.tolist(), destination.tolist()):
        (r, c), (r2, c2) = divmod(a, SIZE), divmod(b, SIZE)
        out.append([r, SIZE + c, SIZE + c2] if r == r2 else [SIZE + c, r, r2])
    return torch.tensor(out)


def offset_cells() -> torch.Tensor:
    """``(cells x 4 (SIZE-1))``: for every cell, the cell d = 1 .. SIZE-1 away to its right,
    left, below and above (in that order), or ``CELLS`` (a sentinel) off the board."""
    out = []
    for cell in range(CELLS):
        row, column = divmod(cell, SIZE)
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            for d in range(1, SIZE):
                r, c = row + dr * d, column + dc * d
                out.append(r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else CELLS)
    return torch.tensor(out)


class LineMix(nn.Module):
    """A layer over cell features ``(n, cells, width)`` in which every cell sees its row's and
    its column's mean: ``relu(A x + B rowmean + C colmean)``, the means' terms computed once
    per line and broadcast."""

    def __init__(self, inputs: int, outputs: int):
        super().__init__()
        self.cell = nn.Linear(inputs, outputs)
        self.row = nn.Linear(inputs, outputs, bias=False)
        self.column = nn.Linear(inputs, outputs, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = x.shape[0]
        grid = x.reshape(n, SIZE, SIZE, -1)
        rows = self.row(grid.mean(dim=2))[:, :, None, :]  # (n, row, 1, out)
        columns = self.column(grid.mean(dim=1))[:, None, :, :]  # (n, 1, column, out)
        return (self.cell(grid) + rows + columns).reshape(n, CELLS, -1)


class EntropyPolicy(nn.Module):
    """The CNN policy (see the module's doc). ``channels`` wide, ``blocks`` line-mixing
    layers deep; cell features are kept as ``(n, cells, channels)``, so every layer is one
    matrix product."""

    def __init__(
        self,
        channels: int = 32,
        blocks: int = 2,
        hidden: int = 64,
        gains: int = 0,
        lines: int = 0,
        evals: int = 0,
        eval_start: int = 0,
        read: int = 0,
    ):
        super().__init__()
        self.channels, self.blocks_count, self.hidden = channels, blocks, hidden
        self.eval_start = eval_start
        # The read observation holds the evals, the evals the lines, and the lines the gains.
        self.read = bool(read)
        self.evals = bool(evals or read)
        self.lines = bool(lines or self.evals)
        self.gains = bool(gains or self.lines)
        inputs = COLOURS + 1 + 1 + 8 * (SIZE - 1) + (3 if self.gains else 0)
        self.stem = nn.Linear(inputs, channels)
        # The read observation's flag is one more scalar: the trunk and the value see it too.
        scalars = SCALARS + (1 if self.read else 0)
        self.scalars = nn.Linear(scalars, channels)
        self.blocks = nn.ModuleList([LineMix(channels, channels) for _ in range(blocks)])
        self.heads = LineMix(channels, 1 + 2 * COLOURS)  # placement, arrival, leaving
        self.passing = nn.Linear(channels + scalars, 1)
        self.value = nn.Sequential(nn.Linear(channels + scalars, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        # With gains: a learned weight on each action's own gain (placement now, Order's best
        # reply to it, slide now), added to the logits the trunk gives.
        self.gain_weights = nn.Parameter(torch.zeros(3))
        # With evals: a learned weight (times EVAL_SCALE) on each action's change of the linear
        # evaluation, negated for Chaos by the weight's sign per player to move. From 0 the
        # untrained policy stays the random bot; from `eval_start` logits per point it plays
        # as `search:depth=1` does (softly), and PPO learns what that misses.
        if self.evals:
            self.eval_weights = nn.Parameter(torch.tensor([-float(eval_start), float(eval_start)]))
        # With read: Chaos's weights, while Order reads as greedy, on each placement's change
        # after greedy's reply and on its plain change: from `eval_start` the second cancels
        # the evals' term and the first puts the exact lookahead against greedy in its place.
        if self.read:
            self.read_weights = nn.Parameter(torch.tensor([-float(eval_start), float(eval_start)]))
        # With lines: a table per player to move, quarter of the game, class of line and line
        # pattern. A move's logit gains the table's values of its lines after it less their
        # values now (the n-tuple evaluation's afterstate difference, learned by PPO); the
        # value gains the sum over the lines now of a second table.
        if self.lines:
            self.line_policy = nn.Parameter(torch.zeros(2 * STAGES * CLASSES * PATTERNS))
            self.line_value = nn.Parameter(torch.zeros(2 * STAGES * CLASSES * PATTERNS))
            slots = changed_lines().reshape(-1)
            line_class = torch.tensor([min(i % SIZE, SIZE - 1 - i % SIZE) for i in range(LINES)])
            # How often each line is among an action's three changed lines (0 to 3), so that the
            # lines' values now enter every action's difference as one matrix product instead of
            # a gather of 1,911 values a row (a fifth less time for the line terms' forward and
            # backward pass together).
            counts = torch.zeros(LINES, ACTIONS - 1)
            counts.index_put_((slots, torch.arange(ACTIONS - 1).repeat_interleave(LINE_SLOTS)), torch.ones(len(slots)), accumulate=True)
            self.register_buffer("slot_counts", counts, persistent=False)
            self.register_buffer("line_offsets", line_class * PATTERNS, persistent=False)
            self.register_buffer("slot_offsets", line_class[slots] * PATTERNS, persistent=False)
        # The untrained policy is uniform over the legal actions (the random bot).
        for layer in (self.heads.cell, self.heads.row, self.heads.column, self.passing):
            nn.init.zeros_(layer.weight)
            if layer.bias is not None:
                nn.init.zeros_(layer.bias)
        origin, destination = slide_cells()
        self.register_buffer("origin", origin, persistent=False)
        self.register_buffer("destination", destination, persistent=False)
        self.register_buffer("offsets", offset_cells(), persistent=False)
        self.register_buffer("numbers", torch.arange(1, COLOURS + 1, dtype=torch.float32), persistent=False)

    def config(self) -> Dict[str, int]:
        """The constructor's arguments (saved beside the weights)."""
        return {
            "channels": self.channels,
            "blocks": self.blocks_count,
            "hidden": self.hidden,
            "gains": int(self.gains),
            "lines": int(self.lines),
            "evals": int(self.evals),
            "eval_start": self.eval_start,
            "read": int(self.read),
        }

    def observation(self) -> str:
        """The environment's name for the observation the policy reads."""
        return observation_name(self.gains, self.lines, self.evals, self.read)

    def observation_width(self) -> int:
        """Values per row the policy reads, the mask included."""
        return observation_size(self.gains, self.lines, self.evals, self.read)

    def logits_and_value(self, observations: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """``(n, observation_size(gains, lines))`` observations to ``(n, 638)`` masked logits and
        ``(n, 1)`` values."""
        n = observations.shape[0]
        obs = observations.float()
        colours = obs[:, : COLOURS * CELLS].reshape(n, COLOURS, CELLS).transpose(1, 2)  # (n, cells, colours)
        empty = obs[:, COLOURS * CELLS : COLOURS * CELLS + CELLS]
        tail = obs[:, COLOURS * CELLS + CELLS : PLANES_SIZE]
        bag, drawn_scalar, phase_progress = tail[:, :COLOURS], tail[:, COLOURS : COLOURS + 1], tail[:, COLOURS + 1 :]
        # Colours as numbers (0 empty), and the drawn colour's number (0 when none).
        number = colours @ self.numbers  # (n, cells)
        drawn_number = torch.round(drawn_scalar * SIZE)  # (n, 1)
        drawn = (drawn_number == self.numbers).float()  # one-hot (n, colours)
        scalars = torch.cat([bag, drawn, phase_progress], dim=1)
        if self.read:
            flag_at = PLANES_SIZE + GAINS_SIZE + LINES_SIZE + EVALS_SIZE
            scalars = torch.cat([scalars, obs[:, flag_at : flag_at + 1]], dim=1)
        holds_drawn = ((number == drawn_number) & (drawn_number > 0)).float()
        # Every cell's partners along its lines (off the board: -1, which no colour equals).
        padded = torch.cat([number, -torch.ones_like(number[:, :1])], dim=1)
        partners = padded.index_select(1, self.offsets).reshape(n, CELLS, 4 * (SIZE - 1))
        same = ((partners == number[:, :, None]) & (number[:, :, None] > 0)).float()
        drawn_pairs = ((partners == drawn_number[:, :, None]) & (drawn_number[:, :, None] > 0)).float() * empty[:, :, None]
        parts = [colours, empty[:, :, None], holds_drawn[:, :, None], same, drawn_pairs]
        if self.gains:
            gains = obs[:, PLANES_SIZE : PLANES_SIZE + GAINS_SIZE]
            per_cell = gains[:, : 3 * CELLS].reshape(n, 3, CELLS).transpose(1, 2)  # placement, reply, threat
            parts.append(per_cell)
        features = torch.cat(parts, dim=2)
        x = torch.relu(self.stem(features) + self.scalars(scalars)[:, None, :])
        for block in self.blocks:
            x = torch.relu(block(x)) + x
        pooled = torch.cat([x.mean(dim=1), scalars], dim=1)

        heads = self.heads(x)  # (n, cells, 1 + 2 colours)
        place = heads[:, :, 0]
        arrive = heads[:, :, 1 : 1 + COLOURS].reshape(n, CELLS * COLOURS)
        leave = heads[:, :, 1 + COLOURS :].reshape(n, CELLS * COLOURS)
        # The colour of the chip each slide moves (0 for an empty origin, whose slides are illegal).
        moving = (number.index_select(1, self.origin) - 1).clamp(min=0).long()
        slides = arrive.gather(1, self.destination * COLOURS + moving) + leave.gather(1, self.origin * COLOURS + moving)
        if self.gains:
            w = self.gain_weights
            place = place + w[0] * per_cell[:, :, 0] + w[1] * per_cell[:, :, 1]
            slides = slides + w[2] * gains[:, 3 * CELLS :]
        logits = torch.cat([place, slides, self.passing(pooled)], dim=1)
        value = self.value(pooled)
        if self.lines:
            moves, line_value = self.line_terms(obs[:, PLANES_SIZE + GAINS_SIZE :], phase_progress)
            logits = logits + torch.cat([moves, torch.zeros_like(moves[:, :1])], dim=1)
            value = value + line_value
        if self.evals:
            start = PLANES_SIZE + GAINS_SIZE + LINES_SIZE
            changes = obs[:, start : start + EVALS_SIZE]
            order = phase_progress[:, 0:1]  # 1 when Order is to move
            weight = order * self.eval_weights[1] + (1 - order) * self.eval_weights[0]
            logits = logits + EVAL_SCALE * weight * changes
            if self.read:
                flag = obs[:, start + EVALS_SIZE : start + EVALS_SIZE + 1]
                replies = obs[:, start + EVALS_SIZE + 1 : start + EVALS_SIZE + READ_SIZE]
                w = self.read_weights
                term = w[0] * replies + w[1] * changes[:, :CELLS]
                logits = torch.cat([logits[:, :CELLS] + EVAL_SCALE * flag * term, logits[:, CELLS:]], dim=1)
        start = self.observation_width() - ACTIONS
        mask = obs[:, start : start + ACTIONS] > 0.5
        logits = torch.where(mask, logits, torch.full_like(logits, ILLEGAL))
        return logits, value

    def line_terms(self, lines: torch.Tensor, phase_progress: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        """From the lines observation (patterns now, then after each move): every placement's
        and slide's logit term ``(n, actions - 1)`` and the value term ``(n, 1)``."""
        n = lines.shape[0]
        order = phase_progress[:, 0:1].round().long()  # 1 when Order is to move
        stage = (phase_progress[:, 1:2] * STAGES).floor().clamp(0, STAGES - 1).long()
        table = (order * STAGES + stage) * (CLASSES * PATTERNS)  # (n, 1)
        # The patterns are whole numbers, exact in float32.
        now = lines[:, :LINES].long()
        after = lines[:, LINES:LINES_SIZE].long()
        lines_now = table + self.line_offsets + now  # (n, lines): both tables' indices
        after_policy = self.line_policy[table + self.slot_offsets + after]  # (n, slots)
        moves = after_policy.reshape(n, ACTIONS - 1, LINE_SLOTS).sum(dim=2) - self.line_policy[lines_now] @ self.slot_counts
        value = self.line_value[lines_now].sum(dim=1, keepdim=True)
        return LINE_SCALE * moves, LINE_SCALE * value

    # PuffeRL's policy interface: forward (training) and forward_eval (collection).
    def forward(self, observations: torch.Tensor, state: Optional[Dict[str, Any]] = None):
        return self.logits_and_value(observations)

    def forward_eval(self, observations: torch.Tensor, state: Optional[Dict[str, Any]] = None):
        return self.logits_and_value(observations)


class ExportedPolicy(nn.Module):
    """The policy as the Rust bot runs it: observations in, masked logits and value out."""

    def __init__(self, policy: EntropyPolicy):
        super().__init__()
        self.policy = policy

    def forward(self, observations: torch.Tensor):
        return self.policy.logits_and_value(observations)


def export_onnx(policy: EntropyPolicy, path: str) -> None:
    """Writes the policy as ONNX (input ``observations`` (batch, 1040), or 1775 with gains,
    float32; outputs
    ``logits`` (batch, 638) and ``value`` (batch, 1)), for tract."""
    import warnings

    policy = policy.eval()
    example = torch.zeros(1, policy.observation_width())
    # The TorchScript exporter (dynamo=False) still writes what tract reads; torch 2.9 warns
    # that it is deprecated.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        _export(policy, example, path)


def _export(policy: EntropyPolicy, example: torch.Tensor, path: str) -> None:
    torch.onnx.export(
        ExportedPolicy(policy),
        (example,),
        path,
        input_names=["observations"],
        output_names=["logits", "value"],
        dynamic_axes={"observations": {0: "batch"}, "logits": {0: "batch"}, "value": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )


def export_weights(policy: EntropyPolicy, path: str, provenance: str = "") -> None:
    """Writes the policy for the Rust bot's own forward pass (``learned/policy_net.rs``, no
    tract): a text header (``entropy policy network 1``, the config, ``#`` provenance lines, a
    ``tensor NAME DIM...`` line per parameter in state-dict order, ``data``), then each tensor
    as little-endian float32."""
    state = policy.state_dict()
    lines = ["entropy policy network 1", "config " + " ".join(f"{key} {int(value)}" for key, value in policy.config().items())]
    lines += [f"# {line}" for line in provenance.splitlines()]
    lines += [f"tensor {name} " + " ".join(str(d) for d in tensor.shape) for name, tensor in state.items()]
    lines.append("data")
    with open(path, "wb") as f:
        f.write(("\n".join(lines) + "\n").encode())
        for tensor in state.values():
            f.write(tensor.detach().float().contiguous().numpy().astype("<f4").tobytes())


def evaluate(policy: "EntropyPolicy", games: int, opponent: str, seed: int) -> Dict[str, Tuple[float, float]]:
    """The policy's mean final score as Order and conceded as Chaos against ``opponent``, with
    the half-width of each mean's 95% interval, its most likely legal action played."""
    from hyle_entropy.vector import EntropyVecEnv

    out = {}
    for role in ("order", "chaos"):
        env = EntropyVecEnv(
            num_envs=games,
            role=role,
            opponent=opponent,
            seed=seed,
            autoreset=False,
            mask_in_observation=True,
            observation=policy.observation(),
            # The games on every core: the same results, sooner.
            threads=0,
        )
        obs = env.reset()
        done = np.zeros(games, dtype=bool)
        device = next(policy.parameters()).device
        while not done.all():
            with torch.no_grad():
                logits, _ = policy.logits_and_value(torch.from_numpy(obs).to(device))
            env.step(logits.argmax(dim=1).cpu().numpy())
            done |= env.terminals
        # Finished games keep their final board until a reset.
        scores = np.array([env.native.score(i) for i in range(games)], dtype=float)
        half = 1.96 * scores.std(ddof=1) / math.sqrt(games) if games > 1 else float("nan")
        out[role] = (float(scores.mean()), float(half))
    return out


def load_policy(path: str) -> EntropyPolicy:
    """A policy saved by ``train_ppo`` (its ``policy.pt``: config and weights)."""
    saved = torch.load(path, map_location="cpu", weights_only=True)
    policy = EntropyPolicy(**saved["config"])
    policy.load_state_dict(saved["weights"])
    return policy.eval()


def read_flags(policy: EntropyPolicy, observations: torch.Tensor) -> torch.Tensor:
    """``(n,)``: whether each row's opponent reads as greedy (the read observation's flag; all
    false for a policy that does not read it)."""
    if not policy.read:
        return torch.zeros(observations.shape[0], dtype=torch.bool)
    return observations[:, PLANES_SIZE + GAINS_SIZE + LINES_SIZE + EVALS_SIZE] > 0.5


def write_golden(policy: EntropyPolicy, path: str, games: int = 8, seed: int = 7) -> int:
    """Writes ``position<TAB>action<TAB>logit`` lines (then ``<TAB>greedy`` where the opponent
    read as greedy): the policy's most likely legal action and its logit in the positions of
    ``games`` games of the policy (sampling its moves) against the random bot in each role (and
    against greedy, for a policy that reads its opponent), leaving out near ties (the two best
    logits closer than 1e-3), for the Rust bot's same-move test. Returns the number of lines."""
    from hyle_entropy.vector import EntropyVecEnv

    generator = torch.Generator().manual_seed(seed)
    lines = []
    opponents = ("random", "greedy") if policy.read else ("random",)
    for role, opponent in [(role, opponent) for opponent in opponents for role in ("order", "chaos")]:
        env = EntropyVecEnv(
            num_envs=games,
            role=role,
            opponent=opponent,
            seed=seed,
            autoreset=False,
            mask_in_observation=True,
            observation=policy.observation(),
        )
        obs = env.reset()
        while not env.terminals.all():
            with torch.no_grad():
                logits, _ = policy.logits_and_value(torch.from_numpy(obs))
            top = logits.topk(2, dim=1)
            greedy = read_flags(policy, torch.from_numpy(obs))
            for i in range(games):
                if env.terminals[i]:
                    continue
                if float(top.values[i, 0] - top.values[i, 1]) >= 1e-3:
                    flag = "\tgreedy" if greedy[i] else ""
                    lines.append(f"{env.get_state(i)}\t{int(top.indices[i, 0])}\t{float(top.values[i, 0]):.6f}{flag}")
            probs = torch.softmax(logits, dim=1)
            actions = torch.multinomial(probs, 1, generator=generator).squeeze(1)
            env.step(actions.numpy())
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines)


def main(argv: Optional[list] = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m hyle_entropy.ppo_policy",
        description="Exports a policy saved by train_ppo (policy.pt) as ONNX for the Rust bot `ppo` or as weights for the Rust forward pass, and writes the same-move golden file.",
    )
    parser.add_argument("policy", help="policy.pt written by train_ppo")
    parser.add_argument("--onnx", help="write the ONNX model here (e.g. crates/entropy-engine/weights/ppo7.onnx)")
    parser.add_argument("--golden", help="write the same-move golden file here (e.g. crates/entropy-engine/weights/ppo7-golden.txt)")
    parser.add_argument("--weights", help="write the weights for the Rust bot's own forward pass here (learned/policy_net.rs)")
    args = parser.parse_args(argv)
    policy = load_policy(args.policy)
    if args.weights:
        export_weights(policy, args.weights, provenance=f"made by: python -m hyle_entropy.ppo_policy {args.policy} --weights")
        print(f"wrote {args.weights}")
    if args.onnx:
        export_onnx(policy, args.onnx)
        print(f"wrote {args.onnx}")
    if args.golden:
        print(f"wrote {args.golden}: {write_golden(policy, args.golden)} positions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
