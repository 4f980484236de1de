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

/// The mean regret per move above which the default bot counts its opponent weak: random
/// players give away about 2.3 expected points a move by the judge, the spoiler and heuristic
/// bots 1.3 to 1.8, searchers 0.1 to 0.5 (docs/search.md, "Reading the opponent").
pub const DEFAULT_WEAK_REGRET: f64 = 2.0;

/// The mean regret per move the opponent must reach before the default bot reads it as greedy:
/// greedy gives away 0.6 to 2.4 points a move by the judge, a searching Chaos, which plays
/// greedy's placements 80% of the time, 0.0 to 0.3 (docs/search.md, "Reading the opponent"). Passed
/// the ladder's STC and LTC (docs/testing.md).
pub const DEFAULT_GREEDY_REGRET: f64 = 0.5;

/// How a [`SearchBot`] limits each search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions {
    /// Fixed limits for every move (reproducible runs); `None` uses the clock.
    pub limits: Option<Limits>,
    /// Transposition table size in MiB.
    pub table_mib: usize,
    /// Watch the opponent: as Chaos, once Order plays like the greedy bot, search assuming it
    /// does; in both roles, once the opponent's moves cost enough, search it as weak.
    pub model_opponent: bool,
    /// Mean regret per move (expected points given away against a short search's best move,
    /// over its last 24 moves, once 12 are watched) above which the opponent counts as weak
    /// and the search assumes it often plays any move alike (optimistic mode); `None` never
    /// does.
    pub weak_regret: Option<f64>,
    /// Mean regret per move (over the opponent's last 24 moves, once 6 are watched) it must
    /// reach before it reads as greedy, however many of its moves greedy could have played;
    /// `None`: the share of greedy moves alone decides. As Chaos the search then assumes Order
    /// greedy; as Order it searches Chaos as any other.
    pub greedy_regret: Option<f64>,
    /// With the clock: keep a stopped iteration's best finished root move
    /// ([`Limits::unfinished`]).
    pub unfinished: bool,
    /// With the clock: the hard limit of a move as a multiple of its allotted time (within
    /// [`time::cap`]); an iteration under way may run until it.
    pub hard_share: f64,
    /// With the clock: how sharply the time profile peaks mid-game ([`time::allot`]).
    pub peak: f64,
    /// As Chaos, while the greedy model holds Order greedy, value the leaves with the hand
    /// weights ([`LinearEval::hand`]), which concede fewer points to greedy's Order than the
    /// trained ones: +5.4 ± 2.6 points a deal against greedy at 30 s, +5.6 ± 2.4 at 3 s, on the
    /// same 100 deals each; against every other built-in Order it never switches on
    /// (docs/search.md, "Reading the opponent").
    pub hand_vs_greedy: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            limits: None,
            table_mib: DEFAULT_TABLE_MIB,
            model_opponent: true,
            weak_regret: Some(DEFAULT_WEAK_REGRET),
            greedy_regret: Some(DEFAULT_GREEDY_REGRET),
            unfinished: true,
            hard_share: 1.0,
            peak: 1.0,
            hand_vs_greedy: true,
        }
    }
}

/// A numeric option of the searching bot that `entropy tune` may adjust by SPSA: its name as
/// `search:NAME=VALUE` takes it, its default, the range a player may be given, and the
/// perturbation SPSA ends with (in the option's units).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Tunable {
    /// The option's name (`search:peak=1.5`).
    pub name: &'static str,
    /// What it sets.
    pub help: &'static str,
    /// The value when the option is not given.
    pub default: f64,
    /// The least value worth trying.
    pub min: f64,
    /// The largest value worth trying.
    pub max: f64,
    /// SPSA's perturbation at its last iteration.
    pub step: f64,
    /// Whether the option takes whole numbers only.
    pub integer: bool,
}

/// The searching bot's numeric options that SPSA may tune; `entropy tune` tunes `peak` and
/// `hard` unless told otherwise (`weak` matters only against weak opponents).
pub const TUNABLES: &[Tunable] = &[
    Tunable {
        name: "peak",
        help: "the time profile's mid-game bump: turn x of the game weighs \
               0.5 / peak + sin(pi x)^peak",
        default: 1.0,
        min: 0.25,
        max: 8.0,
        step: 0.4,
        integer: false,
    },
    Tunable {
        name: "hard",
        help: "percent of its allotted time a move's last iteration may run to",
        default: 100.0,
        min: 40.0,
        max: 400.0,
        step: 20.0,
        integer: false,
    },
    evaluation_scale(
        "early",
        "percent of the linear evaluation's weights but the score's, turns 0-15",
    ),
    evaluation_scale(
        "mid",
        "percent of the linear evaluation's weights but the score's, turns 16-31",
    ),
    evaluation_scale(
        "late",
        "percent of the linear evaluation's weights but the score's, turns 32-48",
    ),
    evaluation_scale("threat", "percent of the threat features' weights, on top"),
    evaluation_scale(
        "pot",
        "percent of the potential features' weights (potential, sandwiches, open_windows, \
         gap_pairs), on top",
    ),
    evaluation_scale("holes", "percent of holes1's and holes2's weights, on top"),
    evaluation_scale(
        "rings",
        "percent of ring1's, ring2's and centre_distance's weights, on top",
    ),
    evaluation_scale("bag", "percent of bag_max's weight, on top"),
    evaluation_scale(
        "mob",
        "percent of mobility's and idle_mobility's weights, on top",
    ),
    Tunable {
        name: "weak",
        help: "tenths of a point of mean regret a move above which the opponent counts weak",
        default: DEFAULT_WEAK_REGRET * 10.0,
        min: 1.0,
        max: 100.0,
        step: 4.0,
        integer: true,
    },
];

/// A correction to the linear evaluation's fit, in percent of it.
const fn evaluation_scale(name: &'static str, help: &'static str) -> Tunable {
    Tunable {
        name,
        help,
        default: 100.0,
        min: 25.0,
        max: 400.0,
        step: 15.0,
        integer: false,
    }
}

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
    /// The evaluation not in use: the hand weights while the leaves' own is searching, and the
    /// leaves' own while the hand weights stand in for it ([`SearchOptions::hand_vs_greedy`]).
    other_eval: Option<BotEval>,
    /// Whether the hand weights stand in for the leaves' evaluation now.
    hand_in_use: bool,
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
        let other_eval = options.hand_vs_greedy.then(|| {
            // Its values are shown as expected scores too, corrected for what they mean
            // here: play against an Order read as greedy.
            let calibration = Some(Calibration::hand_vs_greedy());
            BotEval::Linear(LinearEval::hand().with_calibration(calibration))
        });
        SearchBot {
            other_eval,
            hand_in_use: false,
            name: name.into(),
            observer: Observer::new(judge, options.weak_regret, options.greedy_regret),
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

    /// Whether the hand weights stand in for the leaves' evaluation now
    /// ([`SearchOptions::hand_vs_greedy`]).
    pub fn uses_hand_weights(&self) -> bool {
        self.hand_in_use
    }

    /// The opponent's mean regret per move over the moves watched, once enough are.
    pub fn opponent_regret(&self) -> Option<f64> {
        self.observer.mean_regret()
    }

    /// Puts the hand weights in for the leaves' evaluation (`hand`), or back out; a no-op
    /// unless [`SearchOptions::hand_vs_greedy`] is set.
    fn use_hand_weights(&mut self, hand: bool) {
        if hand == self.hand_in_use {
            return;
        }
        if let Some(other) = self.other_eval.take() {
            self.other_eval = Some(self.searcher.replace_eval(other));
            self.hand_in_use = hand;
        }
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
        self.use_hand_weights(false);
        self.observer.reset();
    }

    fn choose(&mut self, position: &Position, budget: Budget) -> Move {
        let limits = match self.options.limits {
            Some(limits) => limits,
            None => {
                let allotted = time::allot(
                    position,
                    budget.game_left,
                    budget.per_move,
                    self.options.peak,
                );
                let cap = time::cap(budget.game_left, budget.per_move);
                let hard = allotted.mul_f64(self.options.hard_share).min(cap);
                Limits {
                    unfinished: self.options.unfinished,
                    ..Limits::time(hard.max(Duration::from_millis(1)))
                }
            }
        };
        if self.options.model_opponent {
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
            self.use_hand_weights(model.greedy_order);
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
