//! Reviewing recorded games: every decision valued against the searcher's best move, and each
//! player's and role's expected points lost, with the largest mistakes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use entropy_core::{Position, Role};
use entropy_engine::learned::BotEval;
use entropy_engine::search::analysis::Decision;
use entropy_engine::search::{Limits, Searcher};
use serde_json::{json, Value};

use crate::games::RecordedGame;

/// What reviewing one game gave.
pub struct Reviewed {
    /// Every decision up to the end or to the first illegal move.
    pub decisions: Vec<Decision>,
    /// A move that could not be played, and where.
    pub problem: Option<String>,
}

/// Reviews a game, each decision from a clean state (so the figures do not depend on which
/// worker took the game); `on_decision` is called after each.
pub fn review(
    searcher: &mut Searcher<BotEval>,
    game: &RecordedGame,
    limits: Limits,
    on_decision: impl FnMut(&Decision),
) -> Reviewed {
    let review = searcher.review(&Position::new(game.size), &game.moves, limits, on_decision);
    Reviewed {
        decisions: review.decisions,
        // The legal part is reviewed; say where it went wrong.
        problem: review.bad_move.map(|bad| {
            format!(
                "{}: move {} ({}) is illegal: {}; reviewed up to it",
                game.source,
                bad.index + 1,
                bad.mv,
                bad.problem
            )
        }),
    }
}

/// Who played `role` in the game.
pub fn player(game: &RecordedGame, role: Role) -> &str {
    match role {
        Role::Order => &game.order,
        Role::Chaos => &game.chaos,
    }
}

/// A value to two decimals, as the JSON output writes them.
pub fn round(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// A game's decisions as a table, marking mistakes of 2 points (`?`) and 5 (`??`).
pub fn game_text(index: usize, game: &RecordedGame, decisions: &[Decision]) -> String {
    let mut text = format!(
        "game {}: {} ({} as Order, {} as Chaos)\n turn  role   played  value   best    value    loss\n",
        index + 1,
        game.source,
        game.order,
        game.chaos
    );
    for d in decisions {
        let mark = if d.loss >= 5.0 {
            "  ??"
        } else if d.loss >= 2.0 {
            "  ?"
        } else {
            ""
        };
        let _ = writeln!(
            text,
            " {:>4}  {:<5}  {:<6} {:>6.1}   {:<6} {:>6.1}  {:>6.1}{mark}",
            d.turn,
            d.role.name(),
            d.played.mv.to_string(),
            d.played.value,
            d.best.mv.to_string(),
            d.best.value,
            d.loss
        );
    }
    text
}

/// A decision as a JSON object (`entropy analyse --json`).
pub fn decision_json(index: usize, game: &RecordedGame, d: &Decision) -> Value {
    json!({
        "type": "decision", "game": index + 1, "source": game.source,
        "turn": d.turn, "role": d.role.name(), "player": player(game, d.role),
        "played": d.played.mv.to_string(), "played_value": round(d.played.value),
        "best": d.best.mv.to_string(), "best_value": round(d.best.value),
        "loss": round(d.loss), "depth": d.depth, "nodes": d.nodes,
        "calibration": round(d.offset),
    })
}

/// One side's review in a line: the expected points it gave away and its `largest` biggest
/// mistakes (`entropy play`'s review after a game).
pub fn side_review(decisions: &[Decision], role: Role, largest: usize) -> String {
    use entropy_core::notation::lenient::describe;
    let mut mistakes: Vec<&Decision> = decisions
        .iter()
        .filter(|d| d.role == role && d.loss > 0.05)
        .collect();
    let lost: f64 = mistakes.iter().map(|d| d.loss).sum();
    mistakes.sort_by(|a, b| b.loss.total_cmp(&a.loss));
    let worst: Vec<String> = mistakes
        .iter()
        .take(largest)
        .map(|d| {
            format!(
                "turn {}: {} instead of {} (-{:.1})",
                d.turn,
                describe(d.played.mv),
                describe(d.best.mv),
                d.loss
            )
        })
        .collect();
    format!(
        "{lost:.1} expected points given away{}{}",
        if worst.is_empty() { "" } else { "; biggest: " },
        worst.join("; ")
    )
}

/// Expected points lost per player and role, and the largest mistakes.
#[derive(Default)]
pub struct ReviewSummary {
    sides: BTreeMap<(String, &'static str), Side>,
    decisions: usize,
    games: usize,
}

/// The thirds of a game the review splits the points lost by: where in the game they go.
pub const STAGES: [&str; 3] = ["early", "middle", "late"];

/// The third of the game (an index into [`STAGES`]) of a decision at `turn` (from 1) on a
/// board of `cells` cells: turns 1-17, 18-33 and 34-49 on 7x7.
pub fn stage(turn: usize, cells: usize) -> usize {
    (turn.saturating_sub(1) * 3 / cells.max(1)).min(2)
}

#[derive(Default)]
struct Side {
    decisions: usize,
    games: usize,
    lost: f64,
    /// The points lost in each third of the game ([`STAGES`]).
    lost_by_stage: [f64; 3],
    /// (loss, game number, decision)
    mistakes: Vec<(f64, usize, Decision)>,
}

impl ReviewSummary {
    /// Counts a game (the `index`-th, from 0) and its decisions.
    pub fn add(&mut self, index: usize, game: &RecordedGame, decisions: &[Decision]) {
        self.games += 1;
        self.decisions += decisions.len();
        for role in [Role::Order, Role::Chaos] {
            let side = self
                .sides
                .entry((player(game, role).to_string(), role.name()))
                .or_default();
            side.games += 1;
            for d in decisions.iter().filter(|d| d.role == role) {
                side.decisions += 1;
                side.lost += d.loss;
                side.lost_by_stage[stage(d.turn, game.size.cells())] += d.loss;
                side.mistakes.push((d.loss, index + 1, *d));
            }
            // Largest first; equal losses in game order.
            side.mistakes
                .sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            side.mistakes.truncate(20);
        }
    }

    /// The summary as text: `mistakes` largest mistakes per player and role, and the time the
    /// review took on `jobs` cores.
    pub fn text(&self, mistakes: usize, elapsed: Duration, jobs: usize) -> String {
        let mut text = format!(
            "summary: {} game{}, {} decisions in {:.1} s ({:.1} ms per decision on {jobs} core{})\n",
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.decisions,
            elapsed.as_secs_f64(),
            elapsed.as_secs_f64() * 1000.0 * jobs as f64 / self.decisions.max(1) as f64,
            if jobs == 1 { "" } else { "s" }
        );
        text += "player                role   decisions  points lost  per game  \
                 early  middle   late  largest mistakes\n";
        for ((name, role), side) in &self.sides {
            let largest: Vec<String> = side
                .mistakes
                .iter()
                .take(mistakes)
                .filter(|m| m.0 > 0.0)
                .map(|(loss, game, d)| {
                    format!(
                        "game {game} turn {}: {} not {} (-{loss:.1})",
                        d.turn, d.played.mv, d.best.mv
                    )
                })
                .collect();
            let per_game = |lost: f64| lost / side.games.max(1) as f64;
            let [early, middle, late] = side.lost_by_stage.map(per_game);
            let _ = writeln!(
                text,
                "{:<21} {:<5}  {:>9}  {:>11.1}  {:>8.1}  {early:>5.1}  {middle:>6.1}  {late:>5.1}  {}",
                name,
                role,
                side.decisions,
                side.lost,
                per_game(side.lost),
                largest.join("; ")
            );
        }
        text
    }

    /// The summary as a JSON object (`entropy analyse --json`).
    pub fn json(&self, elapsed: Duration) -> Value {
        let sides: Vec<Value> = self
            .sides
            .iter()
            .map(|((name, role), side)| {
                let mistakes: Vec<Value> = side
                    .mistakes
                    .iter()
                    .filter(|m| m.0 > 0.0)
                    .take(10)
                    .map(|(loss, game, d)| {
                        json!({"game": game, "turn": d.turn, "played": d.played.mv.to_string(),
                               "best": d.best.mv.to_string(), "loss": round(*loss)})
                    })
                    .collect();
                let games = side.games.max(1) as f64;
                let by_stage: serde_json::Map<String, Value> = STAGES
                    .iter()
                    .zip(side.lost_by_stage)
                    .map(|(stage, lost)| (stage.to_string(), json!(round(lost / games))))
                    .collect();
                json!({"player": name, "role": role, "games": side.games,
                       "decisions": side.decisions, "points_lost": round(side.lost),
                       "per_game": round(side.lost / games),
                       "per_game_by_stage": by_stage, "mistakes": mistakes})
            })
            .collect();
        json!({"type": "summary", "games": self.games, "decisions": self.decisions,
               "seconds": round(elapsed.as_secs_f64()), "sides": sides})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_splits_in_thirds_by_turn() {
        let seven: Vec<usize> = [1, 17, 18, 33, 34, 49]
            .iter()
            .map(|&t| stage(t, 49))
            .collect();
        assert_eq!(seven, [0, 0, 1, 1, 2, 2]);
        let five: Vec<usize> = [1, 9, 10, 17, 18, 25]
            .iter()
            .map(|&t| stage(t, 25))
            .collect();
        assert_eq!(five, [0, 0, 1, 1, 2, 2]);
    }
}
