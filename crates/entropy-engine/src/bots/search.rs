//! The searching bot: *-minimax with the linear evaluation, under the clock.

use std::time::Duration;

use entropy_core::{Move, Phase, Position, Role, Size};

use crate::eval::{Calibration, Evaluator, LinearEval};
use crate::learned::BotEval;
use crate::search::model::OpponentModel;
use crate::search::observer::Observer;
use crate::search::{calibration_offset, horizon, time, Limits, SearchResult, Searcher};
use crate::{Bot, Budget};

/// Default transposition table size: with the score and feature tables the bot stays well
/// under 64 MiB.
pub const DEFAULT_TABLE_MIB: usize = 16;

/// How a [`SearchBot`] limits each search and reads its opponent.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions {
    /// Fixed limits for every move (reproducible runs); `None` uses the clock.
    pub limits: Option<Limits>,
    /// Transposition table size in MiB.
    pub table_mib: usize,
    /// Watch the opponent: as Chaos, once Order plays like the greedy bot, search assuming it
    /// does; in both roles, once the opponent's moves cost enough, search it as weak. Off for
    /// a bot that others ask about positions it did not reach (a training opponent).
    pub watch: bool,
    /// The numbers SPSA tunes.
    pub tuning: Tuning,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            limits: None,
            table_mib: DEFAULT_TABLE_MIB,
            watch: true,
            tuning: Tuning::default(),
        }
    }
}

/// The searching bot's numbers that `entropy tune` adjusts by SPSA, in one typed struct: its
/// [`Default`] is what ships, and [`TUNABLES`] gives each its range and step beside it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Tuning {
    /// The mean regret per move, in tenths of a point (over the opponent's last 24 moves,
    /// once 12 are watched), above which the opponent counts as weak and the search assumes
    /// it often plays any move alike; 0: never. Random players give away about 2.3 points a
    /// move by the judge, the specification's bots 1.3 to 1.8, searchers 0.1 to 0.5.
    pub weak: u32,
    /// The mean regret per move, in tenths of a point (once 6 moves are watched), the opponent
    /// must reach before it reads as greedy, however many of its moves greedy could have
    /// played; 0: the share of greedy's moves alone decides. Greedy gives away 0.6 to 2.4
    /// points a move, a searching Chaos, which plays greedy's placements 80% of the time, 0.0
    /// to 0.3 (docs/search.md, "Reading the opponent").
    pub greedy: u32,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            weak: 20,
            greedy: 5,
        }
    }
}

impl Tuning {
    /// The weak-opponent threshold in points a move, if any.
    pub fn weak_regret(&self) -> Option<f64> {
        (self.weak > 0).then(|| f64::from(self.weak) / 10.0)
    }

    /// The greedy-opponent gate in points a move, if any.
    pub fn greedy_regret(&self) -> Option<f64> {
        (self.greedy > 0).then(|| f64::from(self.greedy) / 10.0)
    }
}

/// A number of [`Tuning`] that `entropy tune` may adjust, by its option's name
/// (`search:NAME=VALUE`): the range a player may be given and the perturbation SPSA ends with,
/// in the option's units.
#[derive(Copy, Clone, Debug)]
pub struct Tunable {
    /// The option's name (`search:weak=15`).
    pub name: &'static str,
    /// What it sets.
    pub help: &'static str,
    /// The least value worth trying.
    pub min: f64,
    /// The largest value worth trying.
    pub max: f64,
    /// SPSA's perturbation at its last iteration.
    pub step: f64,
    /// Whether the option takes whole numbers only.
    pub integer: bool,
    /// Reads it from a tuning.
    pub get: fn(&Tuning) -> f64,
    /// Writes it into a tuning.
    pub set: fn(&mut Tuning, f64),
}

impl Tunable {
    /// The shipped value ([`Tuning::default`]).
    pub fn default_value(&self) -> f64 {
        (self.get)(&Tuning::default())
    }
}

/// The searching bot's numbers that SPSA may tune, each with the default evaluation.
pub const TUNABLES: &[Tunable] = &[
    Tunable {
        name: "weak",
        help: "tenths of a point of mean regret a move above which the opponent counts weak \
               (0: never)",
        min: 1.0,
        max: 100.0,
        step: 4.0,
        integer: true,
        get: |t| f64::from(t.weak),
        set: |t, v| t.weak = v.round().max(0.0) as u32,
    },
    Tunable {
        name: "greedy",
        help: "tenths of a point of mean regret a move the opponent must reach before it reads \
               as greedy (0: its share of greedy's moves alone decides)",
        min: 1.0,
        max: 50.0,
        step: 2.0,
        integer: true,
        get: |t| f64::from(t.greedy),
        set: |t, v| t.greedy = v.round().max(0.0) as u32,
    },
];

/// The tunable option of this name.
pub fn tunable(name: &str) -> Option<&'static Tunable> {
    TUNABLES.iter().find(|t| t.name == name)
}

/// Searches every decision with iterative deepening, spending its clock by
/// [`time::allot`] unless given fixed limits.
pub struct SearchBot {
    name: String,
    searcher: Searcher<BotEval>,
    options: SearchOptions,
    last: Option<SearchResult>,
    /// What the evaluation's calibration adds to the last search's value.
    last_offset: f64,
    observer: Observer,
    hand: HandWeights,
}

/// The hand weights that stand in for a searcher's leaves as Chaos while Order reads as
/// greedy: they concede a greedy Order fewer points than the trained ones. Their values are
/// shown as expected scores too, corrected for what they mean there: play against a greedy
/// Order. The default bot and the teacher of the `policy` network (`entropy teacher-data`)
/// both switch them in and out.
pub struct HandWeights {
    /// The evaluation not in use: the hand weights while the leaves' own is searching, and the
    /// leaves' own while the hand weights stand in for it.
    other: Option<BotEval>,
    /// Whether the hand weights stand in for the leaves' evaluation now.
    in_use: bool,
}

impl HandWeights {
    /// The hand weights, not in use yet.
    pub fn new() -> HandWeights {
        let calibration = Some(Calibration::hand_vs_greedy());
        HandWeights {
            other: Some(BotEval::Linear(
                LinearEval::hand().with_calibration(calibration),
            )),
            in_use: false,
        }
    }

    /// Whether the hand weights stand in for `searcher`'s evaluation now.
    pub fn in_use(&self) -> bool {
        self.in_use
    }

    /// Puts the hand weights in for `searcher`'s evaluation (`hand`), or back out.
    pub fn set(&mut self, searcher: &mut Searcher<BotEval>, hand: bool) {
        if hand == self.in_use {
            return;
        }
        if let Some(other) = self.other.take() {
            self.other = Some(searcher.replace_eval(other));
            self.in_use = hand;
        }
    }
}

impl Default for HandWeights {
    fn default() -> HandWeights {
        HandWeights::new()
    }
}

impl SearchBot {
    /// A searching bot with this evaluation.
    pub fn new(name: impl Into<String>, eval: LinearEval, options: SearchOptions) -> SearchBot {
        SearchBot::with_eval(name, BotEval::Linear(eval.clone()), eval, options)
    }

    /// A searching bot with any evaluation; `judge` values the opponent's moves.
    pub fn with_eval(
        name: impl Into<String>,
        eval: BotEval,
        judge: LinearEval,
        options: SearchOptions,
    ) -> SearchBot {
        let searcher = Searcher::new(eval, options.table_mib);
        SearchBot {
            hand: HandWeights::new(),
            name: name.into(),
            observer: Observer::new(
                judge,
                options.tuning.weak_regret(),
                options.tuning.greedy_regret(),
            ),
            searcher,
            options,
            last: None,
            last_offset: 0.0,
        }
    }

    /// Whether the bot's last search assumed its opponent greedy or weak below the root.
    pub fn models_opponent(&self) -> bool {
        self.searcher.model() != OpponentModel::default()
    }

    /// Whether the bot read its opponent as greedy at its last decision: as Chaos it then
    /// searches Order as greedy ([`Self::opponent_model`]); as Order it searches Chaos as any
    /// other, and the reading only picks the table that corrects the expected score shown.
    pub fn reads_opponent_greedy(&self) -> bool {
        // The observer changes only when it observes, at the start of each decision.
        self.observer.opponent_is_greedy()
    }

    /// What the bot's last search assumed of its opponent below the root.
    pub fn opponent_model(&self) -> OpponentModel {
        self.searcher.model()
    }

    /// Whether the hand weights stand in for the leaves' evaluation now (as Chaos, while Order
    /// reads as greedy).
    pub fn uses_hand_weights(&self) -> bool {
        self.hand.in_use()
    }

    /// The opponent's mean regret per move over the moves watched, once enough are.
    pub fn opponent_regret(&self) -> Option<f64> {
        self.observer.mean_regret()
    }

    /// What turns `result`'s value into the expected final score shown: its evaluation's
    /// calibration, except as Order while Chaos is read as greedy, where the shipped
    /// evaluations have tables of their own ([`Calibration::vs_greedy_chaos`]): greedy's
    /// Chaos concedes far more than the searcher the values assume (the hand weights carry
    /// theirs for play against a greedy Order).
    fn shown_offset(&self, position: &Position, result: &SearchResult) -> f64 {
        let eval = self.searcher.eval();
        let order = position.to_move() == Some(Role::Order);
        let against_greedy = eval
            .calibration()
            .filter(|_| order && self.reads_opponent_greedy())
            .and_then(Calibration::vs_greedy_chaos);
        match against_greedy {
            Some(table) => {
                let moves_left = horizon(position, result.depth, result.solved);
                table.offset(position.size().side(), moves_left)
            }
            None => calibration_offset(eval, position, result.depth, result.solved),
        }
    }

    /// What the last search found (value, depth, nodes), for reports.
    pub fn last_search(&self) -> Option<&SearchResult> {
        self.last.as_ref()
    }
}

impl Bot for SearchBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _size: Size, _role: Role) {
        self.searcher.clear();
        self.searcher.set_model(OpponentModel::default());
        self.hand.set(&mut self.searcher, false);
        self.observer.reset();
    }

    fn choose(&mut self, position: &Position, budget: Budget) -> Move {
        let limits = match self.options.limits {
            Some(limits) => limits,
            None => {
                let allotted = time::allot(position, budget.game_left, budget.per_move);
                Limits {
                    unfinished: true,
                    ..Limits::time(allotted.max(Duration::from_millis(1)))
                }
            }
        };
        if self.options.watch {
            self.observer.observe(position);
            let greedy = self.observer.opponent_is_greedy();
            // The greedy model is exact against a greedy player; optimism is for the others.
            let weakness = self.observer.weakness().filter(|_| !greedy);
            let weak = weakness.is_some();
            let weakness = weakness.unwrap_or(0);
            let model = match position.phase() {
                Phase::Place(_) => OpponentModel {
                    greedy_order: greedy,
                    weak_order: weak,
                    weakness,
                    ..OpponentModel::default()
                },
                // As Order, a Chaos read as greedy is searched as any other: against greedy's
                // own Chaos the greedy model gained 0.5 points a game (its placements are
                // what a minimising Chaos mostly plays), and against a searching Chaos whose
                // placements are greedy's nine times in ten it cost about 2 a deal
                // (docs/search.md, "Reading the opponent").
                _ => OpponentModel {
                    weak_chaos: weak,
                    weakness,
                    ..OpponentModel::default()
                },
            };
            self.searcher.set_model(model);
            self.hand.set(&mut self.searcher, model.greedy_order);
        }
        let result = self.searcher.search(position, limits);
        let best = result.best;
        self.observer.played(position, best);
        self.last_offset = self.shown_offset(position, &result);
        self.last = Some(result);
        best
    }

    /// The last search's value, calibrated as analyses are.
    fn expected_score(&self) -> Option<f64> {
        self.last.as_ref().map(|r| r.value + self.last_offset)
    }
}
