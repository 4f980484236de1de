//! *-minimax (Ballard): alpha-beta at Order and Chaos nodes and Star2 at chance nodes, with a
//! transposition table and move ordering. Fail-soft: a value at or below alpha is an upper bound
//! on the true value, one at or above beta a lower bound, anything between exact.

use std::time::Instant;

use entropy_core::{Move, MoveList, Phase, Position};

use super::cache::EvalCache;
use super::model::{modelled_moves, OpponentModel};
use super::ordering::{ordered_moves, Killers};
use super::tt::{Bound, Table};
use crate::eval::{BoardMemo, Evaluator};

/// Larger than any score (a 7x7 board scores at most 14 x 77): the upper bound of values.
pub const UPPER: f64 = 10_000.0;

/// Tolerance for comparing weighted sums with the window: sums of the same values taken in
/// another order can differ in their last bits.
const EPSILON: f64 = 1e-9;

/// A chance node's upper bound `ceiling`, found at most [`EPSILON`] above `alpha`, as a fail-low
/// value: at most `alpha`, so that the caller reads it as the bound it is. Handed back as it is,
/// a ceiling a rounding error above alpha would read as an exact value and be stored as one;
/// values here are weighted means of whole scores, so they often tie with alpha exactly, and
/// such a false exact value made the search's "exact" endgame values depend on the table's
/// size (off by up to 0.2 points).
#[inline]
fn fail_low(ceiling: f64, alpha: f64) -> f64 {
    ceiling.min(alpha)
}

/// A chance node's lower bound `floor`, found at most [`EPSILON`] below `beta`, as a fail-high
/// value (at least `beta`): the twin of [`fail_low`].
#[inline]
fn fail_high(floor: f64, beta: f64) -> f64 {
    floor.max(beta)
}

/// Why a search stopped early.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The node limit was reached.
    Nodes,
    /// The deadline passed.
    Time,
}

/// The state of one search: the evaluation, the table, counters and limits.
pub struct Context<'a, E: Evaluator> {
    pub(super) eval: &'a E,
    pub(super) table: &'a mut Table,
    pub(super) cache: &'a mut EvalCache,
    /// What consecutive leaf evaluations share: a chance node's draws their board's
    /// features, a node's children its line entries.
    pub(super) memo: BoardMemo,
    pub(super) killers: Killers,
    /// Positions visited.
    pub nodes: u64,
    pub(super) node_limit: u64,
    pub(super) deadline: Option<Instant>,
    pub(super) stopped: Option<Stop>,
    pub(super) model: OpponentModel,
    /// Leave the pass out at the root (protocols without a pass).
    pub(super) no_pass_at_root: bool,
    /// When stopped, the root hands back its best move among those it finished
    /// ([`super::Limits::unfinished`]).
    pub(super) unfinished_root: bool,
}

impl<E: Evaluator> Context<'_, E> {
    fn out_of_budget(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.stopped = Some(Stop::Nodes);
        } else if self.nodes % 512 == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.stopped = Some(Stop::Time);
                }
            }
        }
        self.stopped.is_some()
    }

    /// The value of `position` searched `depth` moves deep within the window (alpha, beta).
    /// After a stop the value is meaningless and callers must discard it.
    pub fn search(
        &mut self,
        position: &Position,
        depth: u32,
        ply: usize,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        if let Some(value) = self.enter(position) {
            return value;
        }
        if depth == 0 {
            let (eval, memo) = (self.eval, &mut self.memo);
            return self
                .cache
                .get_or_insert(position, || eval.evaluate_with(position, memo));
        }
        let mut first = None;
        if let Some(entry) = self.table.probe(position) {
            first = entry.best;
            if entry.depth >= depth {
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => entry.value >= beta,
                    Bound::Upper => entry.value <= alpha,
                };
                if usable {
                    return entry.value;
                }
            }
        }
        let (value, best) = match position.phase() {
            Phase::Draw => (self.chance(position, depth, ply, alpha, beta), None),
            Phase::Slide | Phase::Place(_) => {
                self.decision(position, depth, ply, alpha, beta, first)
            }
            Phase::Over => unreachable!("handled above"),
        };
        if self.stopped.is_none() {
            let bound = if value <= alpha {
                Bound::Upper
            } else if value >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table.store(position, depth, value, bound, best);
        }
        value
    }

    /// Counts a visit to `position`, and its value where the search ends there whatever the
    /// depth: 0 once out of budget (callers discard it), the score of a full board.
    #[inline]
    fn enter(&mut self, position: &Position) -> Option<f64> {
        self.nodes += 1;
        if self.out_of_budget() {
            return Some(0.0);
        }
        position.is_over().then(|| position.score() as f64)
    }

    /// [`Context::search`] of `child`, which `parent` becomes by `mv`, at depth 0: its
    /// evaluation updated from the parent's by the move.
    fn leaf_child(&mut self, parent: &Position, mv: Move, child: &Position) -> f64 {
        if let Some(value) = self.enter(child) {
            return value;
        }
        let (eval, memo) = (self.eval, &mut self.memo);
        self.cache
            .get_or_insert(child, || eval.evaluate_child(parent, mv, child, memo))
    }

    /// Alpha-beta at a decision node: Order maximises, Chaos minimises.
    pub(super) fn decision(
        &mut self,
        position: &Position,
        depth: u32,
        ply: usize,
        mut alpha: f64,
        mut beta: f64,
        first: Option<Move>,
    ) -> (f64, Option<Move>) {
        let maximising = position.phase() == Phase::Slide;
        if ply > 0 && self.model.weak_at(position.phase()) {
            return (self.average(position, depth, ply), None);
        }
        // Below the root a modelled player has only the moves its model would play.
        let modelled = if ply > 0 {
            modelled_moves(self.model, position)
        } else {
            None
        };
        let mut moves =
            modelled.unwrap_or_else(|| ordered_moves(position, first, self.killers.at(ply)));
        if ply == 0 && self.no_pass_at_root && moves.len() > 1 {
            let mut real = MoveList::new();
            for &mv in moves.iter().filter(|&&m| m != Move::Pass) {
                real.push(mv);
            }
            moves = real;
        }
        let mut best_value = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut best_move = None;
        for &mv in moves.iter() {
            let mut child = *position;
            child.play_unchecked(mv);
            let value = if depth == 1 {
                self.leaf_child(position, mv, &child)
            } else {
                self.search(&child, depth - 1, ply + 1, alpha, beta)
            };
            if self.stopped.is_some() {
                return if ply == 0 && self.unfinished_root {
                    (best_value, best_move)
                } else {
                    (0.0, None)
                };
            }
            let better = if maximising {
                value > best_value
            } else {
                value < best_value
            };
            if better {
                best_value = value;
                best_move = Some(mv);
            }
            if maximising {
                alpha = alpha.max(value);
            } else {
                beta = beta.min(value);
            }
            if alpha >= beta {
                self.killers.record(ply, mv);
                break;
            }
        }
        (best_value, best_move)
    }

    /// The optimistic value of a weak player's node: its best move's value mixed with the
    /// average over its moves (the model's weakness is the average's share), each move
    /// searched with a full window (exact values, so no cut).
    fn average(&mut self, position: &Position, depth: u32, ply: usize) -> f64 {
        let maximising = position.phase() == Phase::Slide;
        let moves = position.legal_moves();
        let mut sum = 0.0;
        let mut best = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for &mv in moves.iter() {
            let mut child = *position;
            child.play_unchecked(mv);
            let value = self.search(&child, depth - 1, ply + 1, -UPPER, UPPER);
            if self.stopped.is_some() {
                return 0.0;
            }
            sum += value;
            best = if maximising {
                best.max(value)
            } else {
                best.min(value)
            };
        }
        let weakness = f64::from(self.model.weakness.min(100)) / 100.0;
        (1.0 - weakness) * best + weakness * sum / moves.len() as f64
    }

    /// Star2 at a chance node: probe one Chaos move per colour for upper bounds, then search
    /// each colour with the window its neighbours' bounds allow, cutting off as soon as the
    /// weighted bounds settle the node against the window.
    fn chance(
        &mut self,
        position: &Position,
        depth: u32,
        ply: usize,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        // Chaos's placement never lowers the score and Order may always pass, so no colour is
        // worth less than the score now.
        let floor = position.score() as f64;
        if floor >= beta {
            return floor;
        }
        let total = position.bag().total() as f64;
        // Up to seven colours, on the stack: chance nodes are frequent.
        let mut outcomes = [(0.0f64, *position); 7];
        let mut k = 0;
        for (colour, count) in position.bag().colours() {
            let mut child = *position;
            child.play_unchecked(Move::Draw(colour));
            outcomes[k] = (count as f64 / total, child);
            k += 1;
        }
        let outcomes = &mut outcomes[..k];
        // Likely colours first: their bounds move the weighted sums most.
        outcomes.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut lower = [floor; 7];
        let mut upper = [UPPER; 7];
        let weighted = |bounds: &[f64]| {
            outcomes
                .iter()
                .zip(bounds)
                .map(|((p, _), b)| p * b)
                .sum::<f64>()
        };
        let others = |bounds: &[f64], i: usize| weighted(bounds) - outcomes[i].0 * bounds[i];
        let window = |lower: &[f64], upper: &[f64], i: usize| {
            let p = outcomes[i].0;
            let a = ((alpha - others(upper, i)) / p).max(lower[i]);
            let b = ((beta - others(lower, i)) / p).min(upper[i]);
            (a, b.max(a + 1e-9))
        };

        // Probing: one Chaos move per colour gives an upper bound on that colour (not when
        // Chaos is assumed weak: an average is not bounded by any one of its moves).
        if depth >= 2 && !self.model.weak_chaos {
            for i in 0..k {
                let (a, b) = window(&lower, &upper, i);
                let child = outcomes[i].1;
                let probe = match modelled_moves(self.model, &child) {
                    Some(moves) => moves[0],
                    None => self
                        .table
                        .probe(&child)
                        .and_then(|e| e.best)
                        .unwrap_or_else(|| {
                            ordered_moves(&child, None, self.killers.at(ply + 1))[0]
                        }),
                };
                let mut grandchild = child;
                grandchild.play_unchecked(probe);
                let value = if depth == 2 {
                    self.leaf_child(&child, probe, &grandchild)
                } else {
                    self.search(&grandchild, depth - 2, ply + 2, a, b)
                };
                if self.stopped.is_some() {
                    return 0.0;
                }
                if value < b {
                    upper[i] = value.max(lower[i]);
                }
                let ceiling = weighted(&upper);
                if ceiling <= alpha + EPSILON {
                    return fail_low(ceiling, alpha);
                }
            }
        }

        for i in 0..k {
            let (a, b) = window(&lower, &upper, i);
            let child = outcomes[i].1;
            let value = self.search(&child, depth - 1, ply + 1, a, b);
            if self.stopped.is_some() {
                return 0.0;
            }
            if value <= a {
                upper[i] = value.max(lower[i]);
            } else if value >= b {
                lower[i] = value.min(upper[i]);
            } else {
                lower[i] = value;
                upper[i] = value;
            }
            let floor = weighted(&lower);
            if floor >= beta - EPSILON {
                return fail_high(floor, beta);
            }
            let ceiling = weighted(&upper);
            if ceiling <= alpha + EPSILON {
                return fail_low(ceiling, alpha);
            }
        }
        weighted(&lower)
    }
}
