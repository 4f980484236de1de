//! The searching bot: *-minimax with the linear evaluation, under the clock.

use std::time::Duration;

use entropy_core::{Move, Phase, Position, Role, Size};

use crate::eval::LinearEval;
use crate::search::model::{self, OpponentModel};
use crate::search::{time, Limits, SearchResult, Searcher};
use crate::{Bot, Budget};

/// Default transposition table size: with the score and feature tables the bot stays well
/// under 64 MiB.
pub const DEFAULT_TABLE_MIB: usize = 16;

/// How a [`SearchBot`] limits each search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions {
    /// Fixed limits for every move (reproducible runs); `None` uses the clock.
    pub limits: Option<Limits>,
    /// Transposition table size in MiB.
    pub table_mib: usize,
    /// Watch the opponent and, once it plays like the greedy bot, search assuming it does.
    pub model_opponent: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            limits: None,
            table_mib: DEFAULT_TABLE_MIB,
            model_opponent: true,
        }
    }
}

/// Opponent moves watched when deciding whether it plays greedily.
const WATCHED: usize = 12;
/// Observations needed before the model may switch on.
const MIN_OBSERVED: usize = 6;
/// Share of greedy moves among the watched ones that switches the model on.
const GREEDY_SHARE: f64 = 0.9;

/// Watches the opponent's moves: were they what the greedy bot could have played?
#[derive(Default)]
struct Observer {
    /// The position right after our last move.
    after_ours: Option<Position>,
    /// The last few observations, newest last.
    greedy: std::collections::VecDeque<bool>,
}

impl Observer {
    /// Records whether the opponent's moves since `after_ours` were greedy.
    fn observe(&mut self, now: &Position) {
        let Some(before) = self.after_ours.take() else {
            return;
        };
        let verdict = match (before.phase(), now.phase()) {
            // We are Chaos: Order moved from `before`, then a chip was drawn.
            (Phase::Slide, Phase::Place(_)) => model::greedy_order_moves(&before)
                .iter()
                .any(|&mv| before.after(mv).is_ok_and(|p| p.board() == now.board())),
            // We are Order: a chip was drawn and Chaos placed it.
            (Phase::Draw, Phase::Slide) => {
                let Some((cell, colour)) = now
                    .board()
                    .chips()
                    .find(|&(cell, _)| before.board().get(cell).is_none())
                else {
                    return;
                };
                let mut drawn = before;
                drawn.play_unchecked(Move::Draw(colour));
                model::greedy_chaos_moves(&drawn).contains(&Move::Place { colour, cell })
            }
            _ => return,
        };
        self.greedy.push_back(verdict);
        if self.greedy.len() > WATCHED {
            self.greedy.pop_front();
        }
    }

    fn opponent_is_greedy(&self) -> bool {
        let greedy = self.greedy.iter().filter(|&&g| g).count();
        self.greedy.len() >= MIN_OBSERVED
            && greedy as f64 >= GREEDY_SHARE * self.greedy.len() as f64
    }
}

/// Searches every decision with iterative deepening, spending its clock by
/// [`time::allot`] unless given fixed limits.
pub struct SearchBot {
    name: String,
    searcher: Searcher<LinearEval>,
    options: SearchOptions,
    last: Option<SearchResult>,
    observer: Observer,
}

impl SearchBot {
    /// A searching bot with this evaluation.
    pub fn new(name: impl Into<String>, eval: LinearEval, options: SearchOptions) -> SearchBot {
        SearchBot {
            name: name.into(),
            searcher: Searcher::new(eval, options.table_mib),
            options,
            last: None,
            observer: Observer::default(),
        }
    }

    /// Whether the bot currently assumes its opponent greedy.
    pub fn models_opponent(&self) -> bool {
        self.searcher.model() != OpponentModel::default()
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
        self.observer = Observer::default();
    }

    fn choose(&mut self, position: &Position, budget: Budget) -> Move {
        let limits = match self.options.limits {
            Some(limits) => limits,
            None => {
                let time = time::allot(position, budget.game_left, budget.per_move);
                Limits::time(time.max(Duration::from_millis(1)))
            }
        };
        if self.options.model_opponent {
            self.observer.observe(position);
            let greedy = self.observer.opponent_is_greedy();
            let model = match position.phase() {
                Phase::Place(_) => OpponentModel {
                    greedy_order: greedy,
                    greedy_chaos: false,
                },
                _ => OpponentModel {
                    greedy_order: false,
                    greedy_chaos: greedy,
                },
            };
            self.searcher.set_model(model);
        }
        let result = self.searcher.search(position, limits);
        let best = result.best;
        self.observer.after_ours = position.after(best).ok();
        self.last = Some(result);
        best
    }

    fn expected_score(&self) -> Option<f64> {
        self.last.as_ref().map(|r| r.value)
    }
}
