"""Type stubs of the native module (Rust, PyO3)."""

from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

class VecEnv:
    """Many games of Entropy stepped together in Rust."""

    # The settings are EntropyVecEnv's (hyle_entropy.vector), by keyword, with its defaults.
    def __init__(self, **settings: Any) -> None: ...
    @property
    def num_agents(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def action_count(self) -> int: ...
    @property
    def observation_dtype(self) -> str: ...
    def bind(
        self,
        observations: npt.NDArray[Any],
        masks: npt.NDArray[np.bool_],
        rewards: npt.NDArray[np.float32],
        terminals: npt.NDArray[np.bool_],
        truncations: npt.NDArray[np.bool_],
    ) -> None: ...
    def reset(self, seed: Optional[int] = None) -> None: ...
    def step(self, actions: npt.NDArray[np.int64]) -> None: ...
    def stats(self) -> Dict[str, float]: ...
    def clear_stats(self) -> None: ...
    def legal_actions(self, i: int) -> List[int]: ...
    def chance_outcomes(self, i: int) -> List[Tuple[int, float]]: ...
    def get_state(self, i: int) -> str: ...
    def set_state(self, i: int, text: str, greedy: bool = False) -> None: ...
    def score(self, i: int) -> int: ...
    def agent_role(self, i: int) -> str: ...
    def to_move(self, i: int) -> str: ...
    def render_ansi(self, i: int) -> str: ...
    def render_rgb(self, i: int) -> npt.NDArray[np.uint8]: ...

def order_reward(score: int) -> float: ...

def play_game(
    a: str,
    b: str,
    deal: int,
    game: int,
    seed: int = 1,
    clock: float = 30.0,
    clock_b: Optional[float] = None,
    size: int = 7,
) -> str:
    """One game of a match (game 0: A is Order, 1: B is Order) as its JSON record line."""
    ...

def match_key(a: str, b: str, **settings: Any) -> str:
    """The ``match`` object (JSON) of the records of a match with these settings (``seed``,
    ``clock``, ``clock_b``, ``size``, as :func:`play_game` takes them)."""
    ...

class MatchSprt:
    """``entropy match --sprt``'s test on paired margins: H0 mean <= m0, H1 mean >= m1."""

    def __init__(self, m0: float, m1: float, alpha: float = 0.05, beta: float = 0.05) -> None: ...
    def add(self, record: str) -> Optional[str]:
        """Counts a game (its JSON record); returns the decision so far: "H0", "H1" or None."""
        ...
    def decision(self) -> Optional[str]: ...
    def status(self) -> str:
        """The test's status as JSON (what each record's ``sprt`` holds)."""
        ...
    def line(self) -> str:
        """The result line ``entropy match`` prints."""
        ...

def train_start(start: str) -> List[List[float]]:
    """Starting weights of ``entropy train``: "hand", "trained" or a weights file."""
    ...

def train_self_play(
    weights: List[List[float]],
    game: int,
    seed: int = 2023,
    nodes: int = 3000,
    lambda_: float = 0.0,
) -> str:
    """Self-play game ``game`` of ``entropy train``: its samples as text, one line each."""
    ...

def train_fit(
    weights: List[List[float]], samples: List[str], generation: int, ridge: float = 1e-3
) -> Tuple[List[List[float]], str]:
    """A generation's new weights from its games' samples (game order) and its report line."""
    ...

def weights_text(weights: List[List[float]], comment: str = "") -> str:
    """The weights as the text ``entropy train`` writes."""
    ...

#: The header of ``distill_fit``'s learning curve (``entropy train-net``'s CSV).
DISTILL_CURVE_HEADER: str

def distill_teacher_game(
    game: int,
    seed: int = 2026,
    nodes: int = 2000,
    candidates: int = 2,
    average_draws: bool = False,
    best_candidates: int = 0,
    consistent: bool = True,
) -> str:
    """Teacher game ``game`` of ``entropy train-net --method distill``: afterstates and targets
    as text, one line each (``consistent=False``: the played move takes its root search's
    value)."""
    ...

def distill_fit(
    games: List[str],
    on_epoch: Callable[[str, str, int, Optional[bytes]], None],
    made_by: str,
    seed: int = 2026,
    epochs: int = 4,
    rate: float = 0.05,
    rate_end: float = 0.005,
    eval_deals: int = 100,
    jobs: int = 1,
    seconds: float = 0.0,
    pairwise: float = 0.0,
) -> None:
    """Fits the learned agent's model to the teacher games' texts as ``entropy train-net``
    does, calling ``on_epoch(line, csv_line, epoch, model_bytes)`` before fitting and after
    each epoch."""
    ...

def board_inputs(positions: List[str]) -> npt.NDArray[np.float32]:
    """The whole-board network's inputs of each position (texts as ``entropy`` writes them), one
    row each (all of one board size)."""
    ...

def afterstates(position: str) -> List[Tuple[str, str]]:
    """Every legal move of a decision with the position after it, as ``(move, position)`` texts;
    empty where it is not a decision."""
    ...
