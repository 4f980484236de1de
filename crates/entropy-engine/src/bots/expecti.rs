//! `expecti`: an opponent that is not us, built from the course assignment's description
//! (`seeds/course-assignment-entropy-n.txt`: "expecti-minimax search with cutoff and alpha-beta
//! pruning" and "a rudimentary evaluation function").
//!
//! It shares nothing with our searcher but the rules crate: no transposition table, no
//! *-minimax bounds, no trained or hand-tuned evaluation of ours, no opponent model. A
//! fixed-depth expectiminimax: alpha-beta at Chaos's and Order's nodes, the exact odds of the
//! bag at chance nodes, and a small evaluation of its own at the cutoff. Self-play hides what a
//! change is worth against other bots; this is the first of the others we can run in CI.

use std::time::{Duration, Instant};

use entropy_core::score::BITS_PER_CELL;
use entropy_core::{Move, Phase, Position};

use crate::{Bot, Budget};

/// The depth when `expecti` is named without one: three decisions ahead.
pub const DEFAULT_DEPTH: u32 = 3;

/// The deepest search the bot accepts (depth 5 already takes minutes a game on 7x7).
pub const MAX_DEPTH: u32 = 6;

/// How many nodes go by between two looks at the clock.
const CLOCK_EVERY: u64 = 1024;

/// The cutoff evaluation's weights, set by hand (the assignment allows either).
mod weight {
    /// Two chips of one colour in a line with one empty cell between them: any chip placed or
    /// slid there makes a palindrome of three (3 points), and a slide next to either makes two.
    pub const GAPPED: f64 = 1.5;
    /// Two chips of one colour in a line with two or more empty cells between them: a slide
    /// can bring them together for a pair (2 points) while the cells stay empty.
    pub const OPEN: f64 = 0.75;
}

/// Fixed-depth expectiminimax with alpha-beta pruning over decisions and exact bag odds at
/// chance nodes. Depth counts decisions (placements and slides); a chance draw is free. Under
/// a clock it deepens one decision at a time and keeps the deepest finished search when the
/// move's share of the time runs out, so it never forfeits on time.
pub struct ExpectiBot {
    name: String,
    depth: u32,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

impl ExpectiBot {
    /// A bot that searches `depth` decisions ahead (clamped to 1..=[`MAX_DEPTH`]).
    pub fn new(name: &str, depth: u32) -> ExpectiBot {
        ExpectiBot {
            name: name.to_owned(),
            depth: depth.clamp(1, MAX_DEPTH),
            nodes: 0,
            deadline: None,
            stopped: false,
        }
    }

    /// The move and its value after a search `depth` decisions deep from the player to move;
    /// `None` when the clock stopped it first.
    fn search_root(&mut self, position: &Position, depth: u32) -> Option<(Move, f64)> {
        let maximise = position.phase() == Phase::Slide;
        let mut best: Option<(Move, f64)> = None;
        let (mut alpha, mut beta) = (f64::NEG_INFINITY, f64::INFINITY);
        for mv in ordered_moves(position) {
            let mut child = *position;
            child.play_unchecked(mv);
            let value = self.value(&child, depth - 1, alpha, beta)?;
            let better = match best {
                None => true,
                Some((_, b)) if maximise => value > b,
                Some((_, b)) => value < b,
            };
            if better {
                best = Some((mv, value));
                if maximise {
                    alpha = value;
                } else {
                    beta = value;
                }
            }
        }
        best
    }

    /// The expectiminimax value of a position with `depth` decisions left to search, within
    /// the window (alpha, beta) at decision nodes; `None` once the clock has stopped the search.
    fn value(&mut self, position: &Position, depth: u32, alpha: f64, beta: f64) -> Option<f64> {
        self.nodes += 1;
        if self.nodes % CLOCK_EVERY == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
        }
        if self.stopped {
            return None;
        }
        match position.phase() {
            Phase::Over => Some(position.score() as f64),
            _ if depth == 0 => Some(evaluate(position)),
            // Chance: every colour still in the bag, weighted by its share of the chips.
            Phase::Draw => {
                let total = position.bag().total() as f64;
                let mut sum = 0.0;
                for (colour, count) in position.bag().colours() {
                    let mut child = *position;
                    child.play_unchecked(Move::Draw(colour));
                    let v = self.value(&child, depth, f64::NEG_INFINITY, f64::INFINITY)?;
                    sum += count as f64 * v;
                }
                Some(sum / total)
            }
            Phase::Slide => self.decide(position, depth, alpha, beta, true),
            Phase::Place(_) => self.decide(position, depth, alpha, beta, false),
        }
    }

    /// A decision node: Order maximises, Chaos minimises, alpha-beta cutting the rest of the
    /// moves once one falls outside the window.
    fn decide(
        &mut self,
        position: &Position,
        depth: u32,
        mut alpha: f64,
        mut beta: f64,
        maximise: bool,
    ) -> Option<f64> {
        let mut best = if maximise {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        for mv in ordered_moves(position) {
            let mut child = *position;
            child.play_unchecked(mv);
            let value = self.value(&child, depth - 1, alpha, beta)?;
            if maximise {
                best = best.max(value);
                alpha = alpha.max(value);
            } else {
                best = best.min(value);
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }
}

/// The moves of a decision node, the most promising for the mover first (by the score right
/// after the move), so that alpha-beta cuts early: Order's slides and pass, Chaos's
/// placements.
fn ordered_moves(position: &Position) -> Vec<Move> {
    let mut keyed: Vec<(i64, Move)> = Vec::new();
    match position.phase() {
        Phase::Slide => {
            position.for_each_slide(|from, to| {
                let gain = position.score_after_slide(from, to) as i64;
                keyed.push((-gain, Move::Slide { from, to }));
            });
            keyed.push((-(position.score() as i64), Move::Pass));
        }
        Phase::Place(colour) => {
            for cell in position.board().vacant_cells() {
                let score = position.score_after_place(cell, colour) as i64;
                keyed.push((score, Move::Place { colour, cell }));
            }
        }
        _ => {}
    }
    // A stable sort: equal keys keep the rules' move order, so the search is deterministic.
    keyed.sort_by_key(|&(key, _)| key);
    keyed.into_iter().map(|(_, mv)| mv).collect()
}

/// The rudimentary evaluation at the cutoff, in Order's points: the score now, plus a little
/// for each pair of same-coloured chips that nothing but empty cells separate in a row or a
/// column (chips Order can still bring together, or Chaos fill between).
pub fn evaluate(position: &Position) -> f64 {
    let board = position.board();
    let side = position.size().side();
    let mut promise = 0.0;
    for i in 0..side {
        promise += line_promise(board.row_key(i), side) + line_promise(board.column_key(i), side);
    }
    position.score() as f64 + promise
}

/// What a line's separated same-coloured neighbours promise: each pair of consecutive chips
/// of one colour with empty cells between them.
fn line_promise(key: u32, side: usize) -> f64 {
    let mut promise = 0.0;
    let mut last: Option<(usize, u32)> = None;
    for i in 0..side {
        let colour = (key >> (BITS_PER_CELL * i as u32)) & 7;
        if colour == 0 {
            continue;
        }
        if let Some((j, previous)) = last {
            if previous == colour {
                match i - j {
                    1 => {}
                    2 => promise += weight::GAPPED,
                    _ => promise += weight::OPEN,
                }
            }
        }
        last = Some((i, colour));
    }
    promise
}

/// The time one move may take: an even share of what is left over the bot's remaining moves,
/// within the protocol's limit for one move.
fn allotment(position: &Position, budget: Budget) -> Duration {
    let moves_left = position.board().vacant_count().max(1) as u32;
    let share = budget.game_left / moves_left;
    match budget.per_move {
        Some(limit) => share.min(limit.mul_f64(0.8)),
        None => share,
    }
}

impl Bot for ExpectiBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn choose(&mut self, position: &Position, budget: Budget) -> Move {
        let start = Instant::now();
        let allot = allotment(position, budget);
        let mut choice = None;
        for depth in 1..=self.depth {
            // Depth 1 always finishes; deeper ones stop at the move's deadline.
            self.deadline = (depth > 1).then(|| start + allot);
            self.stopped = false;
            match self.search_root(position, depth) {
                Some((mv, _)) => choice = Some(mv),
                None => break,
            }
            // Each decision deeper costs several times the last: do not start one that cannot
            // finish.
            if start.elapsed() * 4 > allot {
                break;
            }
        }
        choice.unwrap_or_else(|| {
            // Only a chance node or a finished game has no decision to search.
            position
                .legal_moves()
                .first()
                .copied()
                .unwrap_or(Move::Pass)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_core::notation::text::parse_position;
    use entropy_core::Size;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The slow twin: expectiminimax without pruning or move ordering.
    fn plain(position: &Position, depth: u32) -> f64 {
        match position.phase() {
            Phase::Over => position.score() as f64,
            _ if depth == 0 => evaluate(position),
            Phase::Draw => {
                let total = position.bag().total() as f64;
                let mut sum = 0.0;
                for (colour, count) in position.bag().colours() {
                    sum +=
                        count as f64 * plain(&position.after(Move::Draw(colour)).unwrap(), depth);
                }
                sum / total
            }
            phase => {
                let values = position
                    .legal_moves()
                    .iter()
                    .map(|&mv| plain(&position.after(mv).unwrap(), depth - 1))
                    .collect::<Vec<_>>();
                if phase == Phase::Slide {
                    values.into_iter().fold(f64::NEG_INFINITY, f64::max)
                } else {
                    values.into_iter().fold(f64::INFINITY, f64::min)
                }
            }
        }
    }

    /// A 5x5 game played at random until `empty` cells are left, Chaos to place.
    fn random_position(seed: u64, empty: usize) -> Position {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut position = Position::new(Size::new(5).unwrap());
        loop {
            let moves = position.legal_moves();
            if matches!(position.phase(), Phase::Place(_))
                && position.board().vacant_count() <= empty
            {
                return position;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            position.play_unchecked(mv);
        }
    }

    #[test]
    fn alpha_beta_finds_the_plain_expectiminimax_value() {
        for seed in 0..12 {
            let position = random_position(seed, 4 + seed as usize % 5);
            for depth in 1..=3 {
                let mut bot = ExpectiBot::new("expecti", depth);
                let (mv, value) = bot.search_root(&position, depth).unwrap();
                let want = plain(&position, depth);
                assert!(
                    (value - want).abs() < 1e-9,
                    "seed {seed} depth {depth}: {value} vs {want}"
                );
                // The move chosen has the root's value.
                assert!((plain(&position.after(mv).unwrap(), depth - 1) - want).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn the_evaluation_counts_separated_pairs() {
        assert_eq!(line_promise(0, 7), 0.0);
        // Colour 1 at columns 0 and 2, colour 2 at 3 and 6: one gapped pair, one open pair.
        let key = 1 | 1 << 6 | 2 << 9 | 2 << 18;
        assert_eq!(line_promise(key, 7), weight::GAPPED + weight::OPEN);
        // Adjacent chips are the score's business; a chip between breaks a pair.
        let key = 1 | 1 << 3 | 2 << 6 | 1 << 9;
        assert_eq!(line_promise(key, 7), 0.0);
    }

    #[test]
    fn order_takes_an_immediate_palindrome() {
        // Sliding the lone 1 left makes 111 (7 points) at once.
        let position =
            parse_position("11.1.../......./......./......./......./......./....... slide")
                .unwrap();
        let mv = ExpectiBot::new("expecti", 2).choose(&position, Budget::UNLIMITED);
        assert_eq!(position.after(mv).unwrap().score(), 7, "{mv}");
    }

    #[test]
    fn chaos_avoids_giving_points() {
        // Colour 1 next to the 1 on row A, or one cell apart, would give Order points.
        let position =
            parse_position("1....../......./......./......./......./......./....... 1").unwrap();
        let mv = ExpectiBot::new("expecti", 2).choose(&position, Budget::UNLIMITED);
        let after = position.after(mv).unwrap();
        assert_eq!(after.score(), 0, "{mv}");
        assert_eq!(
            evaluate(&after),
            0.0,
            "{mv} leaves a pair to bring together"
        );
    }

    #[test]
    fn shares_only_the_rules_with_our_searcher() {
        let source = include_str!("expecti.rs");
        let code = source.split("#[cfg(test)]").next().unwrap();
        for other in ["crate::eval", "crate::search", "super::", "entropy_engine"] {
            assert!(!code.contains(other), "expecti uses {other}");
        }
    }
}
