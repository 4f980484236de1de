//! The opponent observer: watches the other player's moves to tell a greedy or weak opponent
//! from a strong one, for the searching bot's opponent model ([`super::model`]) and the learned
//! agents' choice of model.

use std::collections::VecDeque;

use entropy_core::{Move, Phase, Position};

use super::model;
use super::{Limits, Searcher};
use crate::eval::LinearEval;

/// Opponent moves watched when deciding whether it plays greedily or weakly.
const WATCHED: usize = 12;
/// Observations needed before a model may switch on.
const MIN_OBSERVED: usize = 6;
/// Share of greedy moves among the watched ones that switches the greedy model on.
const GREEDY_SHARE: f64 = 0.9;
/// Opponent moves whose regrets are averaged: a longer window than the greedy test's, as one
/// move's regret varies much more (a late blunder costs ten points, an early one a few tenths).
const REGRET_WATCHED: usize = 24;
/// A strict observer's tied decisions watched before it may call the opponent greedy.
const MIN_TIES: usize = 3;
/// The largest share of tied decisions where the opponent played the evaluation's favourite
/// that still reads as greedy's random tie-breaks.
const FAVOURITE_SHARE: f64 = 0.5;
/// Positions searched to value each opponent decision (about a millisecond).
const REGRET_NODES: u64 = 3_000;

/// Watches the opponent's moves: were they what the greedy bot could have played, and how many
/// expected points did each give away against the best move by a short search (its regret)?
/// The regret separates skill from luck: a strong player's moves cost little whatever the chips.
pub(crate) struct Observer {
    /// The position right after our last move.
    after_ours: Option<Position>,
    /// The last few observations (greedy or not), newest last.
    greedy: VecDeque<bool>,
    /// The last few regrets, newest last.
    regrets: VecDeque<f64>,
    /// The searcher that values the opponent's decisions (its own small table, no model); only
    /// where regrets are wanted, so that watching for greedy alone allocates nothing.
    judge: Option<Searcher<LinearEval>>,
    /// Mean regret per move above which the opponent counts as weak; `None`: never.
    weak_regret: Option<f64>,
    /// Mean regret per move below which an opponent that plays greedy's moves still reads as
    /// strong (a searching Chaos plays mostly placements greedy could have played, and chooses
    /// among them); `None`: the share of greedy moves alone decides.
    greedy_regret: Option<f64>,
    /// Also tell greedy from a one-move lookahead that agrees with it (`search:depth=1` plays
    /// one of greedy's placements nearly always): greedy breaks its ties at random, the
    /// lookahead by its evaluation. Each watched decision with tied greedy moves records
    /// whether the move played was the linear evaluation's favourite among them; greedy's
    /// are, by chance, in about one of the tied moves' number. For an agent whose play against
    /// greedy is worse against others.
    strict: Option<VecDeque<bool>>,
}

impl Observer {
    pub(crate) fn new(
        eval: LinearEval,
        weak_regret: Option<f64>,
        greedy_regret: Option<f64>,
    ) -> Observer {
        Observer {
            after_ours: None,
            greedy: VecDeque::new(),
            regrets: VecDeque::new(),
            // Regrets are differences of the search's own values: no calibration, whose
            // floor at the score could squeeze them.
            judge: (weak_regret.is_some() || greedy_regret.is_some())
                .then(|| Searcher::new(eval.with_calibration(None), 1)),
            weak_regret,
            greedy_regret,
            strict: None,
        }
    }

    /// A watcher for greedy alone that tells it from a one-move lookahead (see `strict`).
    pub(crate) fn strict() -> Observer {
        Observer {
            strict: Some(VecDeque::new()),
            ..Observer::new(LinearEval::trained(), None, None)
        }
    }

    pub(crate) fn reset(&mut self) {
        self.after_ours = None;
        self.greedy.clear();
        self.regrets.clear();
        if let Some(judge) = &mut self.judge {
            judge.clear();
        }
    }

    /// Remembers our move `mv` in `position`, so that the next observation finds the
    /// opponent's decision after it.
    pub(crate) fn played(&mut self, position: &Position, mv: Move) {
        self.after_ours = position.after(mv).ok();
    }

    /// Records what the opponent did since `after_ours`.
    pub(crate) fn observe(&mut self, now: &Position) {
        let Some(before) = self.after_ours.take() else {
            return;
        };
        let Some((decision, played)) = opponent_decision(&before, now) else {
            return;
        };
        let moves = match decision.phase() {
            Phase::Slide => model::greedy_order_moves(&decision),
            _ => model::greedy_chaos_moves(&decision),
        };
        let greedy = moves.contains(&played);
        push_window(&mut self.greedy, greedy, WATCHED);
        if let Some(favourites) = &mut self.strict {
            if greedy && moves.len() >= 2 {
                let favourite = favourite(&decision, &moves);
                push_window(favourites, favourite == Some(played), WATCHED);
            }
        }
        if let Some(judge) = &mut self.judge {
            let analysis = judge.analyse(&decision, Limits::nodes(REGRET_NODES), 1, Some(played));
            let regret = analysis.regret().expect("a move was asked about");
            push_window(&mut self.regrets, regret, REGRET_WATCHED);
        }
    }

    pub(crate) fn opponent_is_greedy(&self) -> bool {
        let greedy = self.greedy.iter().filter(|&&g| g).count();
        let random_ties = self.strict.as_ref().is_none_or(|favourites| {
            let picked = favourites.iter().filter(|&&f| f).count();
            favourites.len() >= MIN_TIES
                && picked as f64 <= FAVOURITE_SHARE * favourites.len() as f64
        });
        let costly = self
            .greedy_regret
            .is_none_or(|least| self.regrets.len() >= MIN_OBSERVED && mean(&self.regrets) >= least);
        random_ties
            && costly
            && self.greedy.len() >= MIN_OBSERVED
            && greedy as f64 >= GREEDY_SHARE * self.greedy.len() as f64
    }

    /// The opponent's mean regret over the watched moves, once enough are watched.
    pub(crate) fn mean_regret(&self) -> Option<f64> {
        (self.regrets.len() >= 2 * MIN_OBSERVED).then(|| mean(&self.regrets))
    }

    /// When the opponent counts as weak, how weak, in percent: the share of its moves the
    /// search takes as chosen at random. A player that picks at random gives away about 2.3
    /// expected points a move by the judge's search (measured on random, both roles), a
    /// strong one 0.1 to 0.5; the share grows from 0 at 0.3 points to 100 at 2.0.
    pub(crate) fn weakness(&self) -> Option<u8> {
        match (self.weak_regret, self.mean_regret()) {
            (Some(threshold), Some(mean)) if mean > threshold => {
                Some(((mean - 0.3) / 1.7 * 100.0).clamp(0.0, 100.0).round() as u8)
            }
            _ => None,
        }
    }
}

/// Watches Order, for Chaos, for the greedy bot's play: for agents that read their opponent
/// without searching (the `policy` network's read observation, and the teacher that labels its
/// data). The share of Order's last moves that greedy could have played tells them apart
/// without a search: over 6 games against `search:depth=1`'s Chaos, greedy's share of its last
/// 12 moves was 1.00, `search:depth=1`'s 0.26, the searcher's at 3,000 nodes 0.28,
/// `expecti:depth=2`'s 0.37, `net`'s 0.18, `policy`'s 0.25; greedy read as greedy from its
/// seventh move on, the others never. (A Chaos is not watched: a searching Chaos plays greedy's
/// placements most of the time.) Call [`GreedyWatch::observe`] with the position at each of
/// one's own decisions and [`GreedyWatch::played`] with the move made there.
pub struct GreedyWatch(Box<Observer>);

impl GreedyWatch {
    /// A watcher that has seen nothing yet.
    pub fn new() -> GreedyWatch {
        GreedyWatch(Box::new(Observer::new(LinearEval::trained(), None, None)))
    }

    /// Forgets the last game.
    pub fn reset(&mut self) {
        self.0.reset();
    }

    /// Records Order's decision since one's own last placement (nothing at the first, nor
    /// while one plays Order).
    pub fn observe(&mut self, now: &Position) {
        if matches!(now.phase(), Phase::Place(_)) {
            self.0.observe(now);
        }
    }

    /// Remembers one's own move `mv` in `position`.
    pub fn played(&mut self, position: &Position, mv: Move) {
        self.0.played(position, mv);
    }

    /// Whether Order reads as greedy after what was observed (never while one plays Order).
    pub fn is_greedy(&self) -> bool {
        self.0.opponent_is_greedy()
    }
}

impl Default for GreedyWatch {
    fn default() -> GreedyWatch {
        GreedyWatch::new()
    }
}

/// The mean of a non-empty window.
fn mean(window: &VecDeque<f64>) -> f64 {
    window.iter().sum::<f64>() / window.len() as f64
}

/// Appends to a window of the last `capacity` observations.
fn push_window<T>(window: &mut VecDeque<T>, item: T, capacity: usize) {
    window.push_back(item);
    if window.len() > capacity {
        window.pop_front();
    }
}

/// The opponent's decision between `before` (just after our move) and `now` (our next
/// decision): the position it decided in and the move it played.
fn opponent_decision(before: &Position, now: &Position) -> Option<(Position, Move)> {
    match (before.phase(), now.phase()) {
        // We are Chaos: Order moved from `before`, then a chip was drawn.
        (Phase::Slide, Phase::Place(_)) => before
            .legal_moves()
            .iter()
            .find(|&&mv| before.after(mv).is_ok_and(|p| p.board() == now.board()))
            .map(|&mv| (*before, mv)),
        // We are Order: a chip was drawn and Chaos placed it.
        (Phase::Draw, Phase::Slide) => {
            let (cell, colour) = now
                .board()
                .chips()
                .find(|&(cell, _)| before.board().get(cell).is_none())?;
            let mut drawn = *before;
            drawn.play_unchecked(Move::Draw(colour));
            Some((drawn, Move::Place { colour, cell }))
        }
        _ => None,
    }
}

/// The move of `moves` whose afterstate the linear evaluation likes best for the player to
/// move in `decision` (the first of equals).
fn favourite(decision: &Position, moves: &[Move]) -> Option<Move> {
    use crate::eval::Evaluator;
    let eval = LinearEval::trained_ref();
    let order = decision.phase() == Phase::Slide;
    let valued = moves.iter().filter_map(|&mv| {
        let after = decision.after(mv).ok()?;
        Some((mv, eval.evaluate(&after)))
    });
    crate::eval::best_valued(order, valued).map(|(mv, _)| mv)
}
