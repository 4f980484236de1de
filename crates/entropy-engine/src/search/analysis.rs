//! Analysis for people: the best moves of a position with their values (multi-PV), the likely
//! line of play, the value of each colour at a chance node, and a move explained from the
//! search's own numbers.
//!
//! Multi-PV at the root: the moves are searched in order, each with a window that only a move
//! better than the K-th best found so far can pass (for Order, above it; for Chaos, below it),
//! so every value kept is exact and the rest are cut as cheaply as alpha-beta cuts. A move the
//! caller names (the move a player actually played) is always searched with a full window.

use std::time::{Duration, Instant};

use entropy_core::{Colour, IllegalMove, Move, Phase, Position, Role};

use super::ordering::ordered_moves;
use super::star::UPPER;
use super::{calibration_offset, moves_to_end, Limits, Searcher};
use crate::eval::{threats, Evaluator};

/// A move and Order's expected final score after it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Order's expected final score after it, searched to the analysis's depth and calibrated
    /// ([`crate::eval::Calibration`]) where the evaluation has a calibration.
    pub value: f64,
}

/// What the analysis of a decision found.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Who is to move in the position analysed.
    pub role: Role,
    /// The best moves for the player to move, best first (Order's highest values, Chaos's
    /// lowest), at most the number asked for.
    pub moves: Vec<MoveValue>,
    /// The move asked about and its value (whether or not it is among `moves`).
    pub asked: Option<MoveValue>,
    /// The likely line of play from the position, starting with the best move: decisions from
    /// the search, and at each draw the likeliest colour (`Move::Draw`).
    pub line: Vec<Move>,
    /// The depth of the deepest completed iteration, in moves (draws count).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Whether the values are exact (the search reached the end of the game).
    pub solved: bool,
    /// What the calibration added to every searched value (0 where exact or uncalibrated):
    /// the search's own value of a move is its `value` less this.
    pub offset: f64,
}

impl Analysis {
    /// The best move and its value.
    pub fn best(&self) -> MoveValue {
        self.moves[0]
    }

    /// The expected points the move asked about gives away against the best move, for the
    /// player who moves (never negative); `None` if no move was asked about.
    pub fn regret(&self) -> Option<f64> {
        let (best, asked) = (self.best().value, self.asked?.value);
        let loss = match self.role {
            Role::Order => best - asked,
            Role::Chaos => asked - best,
        };
        Some(loss.max(0.0))
    }

    /// The value of `mv` if the analysis has it.
    pub fn value_of(&self, mv: Move) -> Option<f64> {
        self.moves
            .iter()
            .chain(&self.asked)
            .find(|m| m.mv == mv)
            .map(|m| m.value)
    }
}

/// The value of one colour at a chance node.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ColourValue {
    /// The colour drawn.
    pub colour: Colour,
    /// The chance it is drawn.
    pub probability: f64,
    /// Order's expected final score once it is drawn (calibrated, as [`MoveValue::value`]).
    pub value: f64,
}

impl<E: Evaluator> Searcher<E> {
    /// The best `top` moves of a decision position (at least one) with their values, and the
    /// value of `asked` too if given (a legal move of the position), by iterative deepening
    /// until a limit is reached. Panics unless a player is to move.
    pub fn analyse(
        &mut self,
        position: &Position,
        limits: Limits,
        top: usize,
        asked: Option<Move>,
    ) -> Analysis {
        assert!(
            matches!(position.phase(), Phase::Slide | Phase::Place(_)),
            "analysis needs a player to move, not {:?}",
            position.phase()
        );
        let top = top.max(1);
        let started = Instant::now();
        self.table.new_search();
        let end = moves_to_end(position);
        let max_depth = limits.depth.unwrap_or(u32::MAX).min(end).max(1);
        let mut context = self.context(limits, started, false);
        let mut found: Vec<MoveValue> = Vec::new();
        let mut depth_done = 0;
        for depth in 1..=max_depth {
            let maximising = position.phase() == Phase::Slide;
            let first = found.first().map(|m| m.mv);
            let mut iteration: Vec<MoveValue> = Vec::new();
            for &mv in ordered_moves(position, first, [None; 2]).iter() {
                let named = Some(mv) == asked;
                let threshold = (iteration.len() >= top).then(|| iteration[top - 1].value);
                let (alpha, beta) = match threshold {
                    Some(t) if !named && maximising => (t, UPPER),
                    Some(t) if !named => (-UPPER, t),
                    _ => (-UPPER, UPPER),
                };
                let mut child = *position;
                child.play_unchecked(mv);
                let value = context.search(&child, depth - 1, 1, alpha, beta);
                if context.stopped.is_some() {
                    break;
                }
                let enters = match threshold {
                    None => true,
                    Some(t) => named || (maximising && value > t) || (!maximising && value < t),
                };
                if enters {
                    iteration.push(MoveValue { mv, value });
                    // Stable: among equal values the earlier-searched move stays first.
                    iteration.sort_by(|a, b| {
                        let order = a.value.total_cmp(&b.value);
                        if maximising {
                            order.reverse()
                        } else {
                            order
                        }
                    });
                }
            }
            // A stopped iteration is incomplete: keep the last complete one (or, with none,
            // whatever the first found).
            if context.stopped.is_some() && !found.is_empty() {
                break;
            }
            found = iteration;
            depth_done = depth;
            if context.stopped.is_some() {
                break;
            }
        }
        let nodes = context.nodes;
        if found.is_empty() {
            // Not even one move searched before the limit: fall back on the static order.
            let mv = ordered_moves(position, None, [None; 2])[0];
            let value = self
                .eval
                .evaluate(&position.after(mv).expect("a legal move"));
            found.push(MoveValue { mv, value });
        }
        let moves: Vec<MoveValue> = found.iter().take(top).copied().collect();
        let asked = asked.map(|asked| {
            // Searched in the last complete iteration, or else (a limit stopped the first
            // iteration before it) valued by the evaluation alone.
            let value = match found.iter().find(|m| m.mv == asked) {
                Some(m) => m.value,
                None => self
                    .eval
                    .evaluate(&position.after(asked).expect("a legal move")),
            };
            MoveValue { mv: asked, value }
        });
        let line = self.likely_line(position, moves[0].mv, depth_done.max(1));
        let solved = depth_done >= end;
        // Every value of one search has the same horizon, so one offset serves them all and
        // the differences between moves stay the search's own.
        let offset = calibration_offset(&self.eval, position, depth_done, solved);
        let floor = position.score() as f64;
        let calibrated = |m: MoveValue| MoveValue {
            mv: m.mv,
            value: (m.value + offset).max(floor),
        };
        Analysis {
            role: position.to_move().expect("checked above"),
            moves: moves.into_iter().map(calibrated).collect(),
            asked: asked.map(calibrated),
            line,
            depth: depth_done,
            nodes,
            elapsed: started.elapsed(),
            solved,
            offset,
        }
    }

    /// The value of each colour that can be drawn at a chance position, each searched with an
    /// equal share of the limits, likeliest first.
    pub fn analyse_chance(&mut self, position: &Position, limits: Limits) -> Vec<ColourValue> {
        assert_eq!(position.phase(), Phase::Draw, "a chance position");
        let colours: Vec<(Colour, u8)> = position.bag().colours().collect();
        let share = Limits {
            nodes: limits.nodes.map(|n| (n / colours.len() as u64).max(1)),
            time: limits.time.map(|t| t / colours.len() as u32),
            ..limits
        };
        let total = position.bag().total() as f64;
        let mut values: Vec<ColourValue> = colours
            .into_iter()
            .map(|(colour, count)| {
                let mut child = *position;
                child.play_unchecked(Move::Draw(colour));
                let result = self.search(&child, share);
                let offset = calibration_offset(&self.eval, &child, result.depth, result.solved);
                ColourValue {
                    colour,
                    probability: count as f64 / total,
                    value: (result.value + offset).max(child.score() as f64),
                }
            })
            .collect();
        values.sort_by(|a, b| b.probability.total_cmp(&a.probability));
        values
    }

    /// The line the table remembers after `first`: the best stored move at each decision, the
    /// likeliest colour at each draw, at most `length` moves in all.
    fn likely_line(&self, position: &Position, first: Move, length: u32) -> Vec<Move> {
        let mut line = vec![first];
        let mut pos = position.after(first).expect("a legal move");
        while line.len() < length as usize && !pos.is_over() {
            let mv = match pos.phase() {
                Phase::Draw => pos
                    .bag()
                    .colours()
                    .max_by_key(|&(colour, count)| (count, std::cmp::Reverse(colour)))
                    .map(|(colour, _)| Move::Draw(colour)),
                _ => self.table.probe(&pos).and_then(|e| e.best),
            };
            // A stored move may belong to another position with the same slot: check it.
            match mv.filter(|&mv| pos.check(mv).is_ok()) {
                Some(mv) => {
                    line.push(mv);
                    pos.play_unchecked(mv);
                }
                None => break,
            }
        }
        line
    }
}

/// One decision of a game, reviewed: the move played against the best move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Decision {
    /// The position's turn: the number of the chip being placed (Chaos) or just placed (Order),
    /// from 1.
    pub turn: usize,
    /// Who decided.
    pub role: Role,
    /// The move played and Order's expected final score after it.
    pub played: MoveValue,
    /// The best move by the analysis and its value.
    pub best: MoveValue,
    /// Expected points the move played gave away (never negative): the best value less the
    /// played one for Order, the played less the best for Chaos.
    pub loss: f64,
    /// The analysis's depth.
    pub depth: u32,
    /// Positions the analysis visited.
    pub nodes: u64,
    /// What the calibration added to the values (see [`Analysis::offset`]).
    pub offset: f64,
    /// Whether the values are exact.
    pub solved: bool,
}

/// A game reviewed: its decisions, up to the first illegal move if there is one.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// Every decision reviewed, in game order.
    pub decisions: Vec<Decision>,
    /// The first move that cannot be played, where the review stopped.
    pub bad_move: Option<BadMove>,
}

/// A move of a game that cannot be played: the game's moves are wrong from there on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMove {
    /// Its index in the game's moves, from 0 (draws count).
    pub index: usize,
    /// The move.
    pub mv: Move,
    /// Why it is not legal.
    pub problem: IllegalMove,
}

impl<E: Evaluator> Searcher<E> {
    /// Reviews a game: plays `moves` (draws included) from `start` and analyses every decision
    /// with `limits`, each from a clean table, calling `progress` after each. Stops at the
    /// first illegal move, keeping the decisions before it.
    pub fn review(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: Limits,
        mut progress: impl FnMut(&Decision),
    ) -> Review {
        let mut position = *start;
        let mut decisions = Vec::new();
        for (index, &mv) in moves.iter().enumerate() {
            if let Err(problem) = position.check(mv) {
                let bad_move = Some(BadMove { index, mv, problem });
                return Review {
                    decisions,
                    bad_move,
                };
            }
            if let Some(role) = position.to_move() {
                // From a clean table, as the web page and `entropy play` analyse a position, so
                // a decision's value does not depend on the decisions reviewed before it.
                self.clear();
                let analysis = self.analyse(&position, limits, 1, Some(mv));
                let decision = Decision {
                    turn: position.placed() + usize::from(role == Role::Chaos),
                    role,
                    played: analysis.asked.expect("the move asked about is valued"),
                    best: analysis.best(),
                    loss: analysis.regret().expect("a move was asked about"),
                    depth: analysis.depth,
                    nodes: analysis.nodes,
                    offset: analysis.offset,
                    solved: analysis.solved,
                };
                progress(&decision);
                decisions.push(decision);
            }
            position.play_unchecked(mv);
        }
        Review {
            decisions,
            bad_move: None,
        }
    }
}

/// Why a move is good or bad, in the search's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// The move explained.
    pub mv: Move,
    /// Order's expected final score after it.
    pub value: f64,
    /// The points the move scores at once (a slide's gain; a placement's points for Order).
    pub points_now: i32,
    /// The most Order's next slide could score before the move.
    pub threat_before: u32,
    /// The most Order's next slide could score after it (if Chaos does not block it).
    pub threat_after: u32,
    /// After a slide: Chaos's expected reply (for the likeliest colour) and the points of
    /// Order's threat it takes away.
    pub reply: Option<(Move, u32)>,
    /// The next best move and its value.
    pub next_best: Option<MoveValue>,
}

impl Explanation {
    /// Explains `mv` (a move in `analysis.moves`) of `position` from its analysis.
    pub fn of(position: &Position, analysis: &Analysis, mv: Move) -> Option<Explanation> {
        let value = analysis.value_of(mv)?;
        let after = position.after(mv).ok()?;
        let points_now = after.score() as i32 - position.score() as i32;
        let threat_before = threats(position).0;
        let threat_after = threats(&after).0;
        let reply = match (mv, analysis.line.as_slice()) {
            (Move::Slide { .. } | Move::Pass, [first, draw, place, ..]) if *first == mv => {
                let replied = after.after(*draw).and_then(|p| p.after(*place)).ok()?;
                Some((*place, threat_after.saturating_sub(threats(&replied).0)))
            }
            _ => None,
        };
        let next_best = analysis.moves.iter().find(|m| m.mv != mv).copied();
        Some(Explanation {
            mv,
            value,
            points_now,
            threat_before,
            threat_after,
            reply,
            next_best,
        })
    }

    /// The explanation in a sentence or two.
    pub fn text(&self) -> String {
        let mut parts = Vec::new();
        match self.mv {
            Move::Place { .. } => {
                if self.points_now > 0 {
                    parts.push(format!("gives Order {} points now", self.points_now));
                }
                if self.threat_after < self.threat_before {
                    parts.push(format!(
                        "cuts Order's best next slide from {} to {} points",
                        self.threat_before, self.threat_after
                    ));
                } else if self.threat_after > self.threat_before {
                    parts.push(format!(
                        "lets Order's best next slide grow from {} to {} points",
                        self.threat_before, self.threat_after
                    ));
                }
            }
            Move::Slide { .. } | Move::Pass => {
                if self.points_now != 0 {
                    parts.push(format!("scores {:+} points now", self.points_now));
                }
                if self.threat_after > 0 {
                    parts.push(format!(
                        "leaves a slide worth {} points next",
                        self.threat_after
                    ));
                }
                if let Some((reply, blocked)) = self.reply {
                    if blocked > 0 {
                        parts.push(format!(
                            "Chaos's likely reply {reply} takes {blocked} of it"
                        ));
                    } else {
                        parts.push(format!("Chaos's likely reply is {reply}"));
                    }
                }
            }
            Move::Draw(_) => {}
        }
        match self.next_best {
            Some(next) => parts.push(format!(
                "expected final score {:.1} (the next best move, {}: {:.1})",
                self.value, next.mv, next.value
            )),
            None => parts.push(format!("expected final score {:.1}", self.value)),
        }
        let mut text = parts.join("; ");
        if let Some(first) = text.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        text + "."
    }
}
/// A hint in words: the best move of `analysis` and why (`entropy play`'s `hint`).
pub fn hint_text(position: &Position, analysis: &Analysis) -> String {
    let best = analysis.best();
    let why = Explanation::of(position, analysis, best.mv)
        .map(|e| e.text())
        .unwrap_or_default();
    format!(
        "Hint: {}. {why}",
        entropy_core::notation::lenient::describe(best.mv)
    )
}

/// The expected final score and the best moves of `analysis` in words (`entropy play`'s
/// `eval`).
pub fn eval_text(position: &Position, analysis: &Analysis) -> String {
    let moves: Vec<String> = analysis
        .moves
        .iter()
        .map(|m| {
            format!(
                "{} {:.1}",
                entropy_core::notation::lenient::describe(m.mv),
                m.value
            )
        })
        .collect();
    format!(
        "Order's expected final score: {:.1} (score now {}; best moves: {}; {} moves deep{})",
        analysis.best().value,
        position.score(),
        moves.join(", "),
        analysis.depth,
        if analysis.solved { ", exact" } else { "" }
    )
}
