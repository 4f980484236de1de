//! The searcher: iterative deepening over *-minimax with a transposition table, under node,
//! depth and time limits. It never prints; callers read its [`SearchResult`].
//!
//! - [`star`]: the *-minimax node search (alpha-beta at decisions, Star2 at chance nodes).
//! - [`mod@reference`]: plain expectimax, the slow twin the tests compare against.
//! - [`tt`]: the transposition table.
//! - [`ordering`]: move ordering and killer moves.
//! - [`time`]: how much of the clock a move may use.
//! - [`model`]: assuming a greedy opponent below the root.
//! - [`analysis`]: multi-PV, likely lines and explanations for people.

pub mod analysis;
mod cache;
pub mod model;
pub(crate) mod observer;
pub mod ordering;
pub mod reference;
pub mod star;
pub mod time;
pub mod tt;

use std::time::{Duration, Instant};

use entropy_core::{Move, Phase, Position};

use crate::eval::{BoardMemo, Evaluator};
use cache::EvalCache;
use model::OpponentModel;
pub use observer::GreedyWatch;
use ordering::Killers;
use star::{Context, Stop, UPPER};
use tt::Table;

/// Positions for the search benchmark (`entropy bench`, whose signature counts its nodes):
/// decisions of greedy self-play at turns 8 to 32.
pub const BENCH_POSITIONS: [&str; 7] = [
    "..7..../.3...../......2/....7../.....1./..52..4/....... slide",
    "..7..../.3...../......2/....7../.....1./..52..4/....... 6",
    "..4..../..1.2.6/..571../..1..../..17..1/....2.5/.22...4 slide",
    "..4..../..1.2.6/..571../..1.2../..17..1/......5/.22...4 2",
    "127..66/.33..../..16..2/2...735/.....16/7752..4/3.6...3 slide",
    "127..66/.33..../..16..2/2...735/.....16/7752..4/3.6...3 4",
    "234..../7.1.226/.65.167/..17245/..17.31/3.5.6.2/6221.54 slide",
];

/// Depth of the search benchmark, in moves (chance draws count).
pub const BENCH_DEPTH: u32 = 4;

/// Limits for one search; the first reached stops it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in moves (chance draws count).
    pub depth: Option<u32>,
    /// Most positions to visit.
    pub nodes: Option<u64>,
    /// Most time to spend.
    pub time: Option<Duration>,
    /// Keep what a stopped iteration found: the root searches the previous iteration's best
    /// move first, and any move it then finishes with a higher value is better by a deeper
    /// search. Off, a stopped iteration is thrown away.
    pub unfinished: bool,
}

impl Limits {
    /// Search exactly this deep.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search until this many positions have been visited (reproducible).
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Search for this long.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play.
    pub best: Move,
    /// Order's expected final score after it, by the deepest completed iteration.
    pub value: f64,
    /// The depth of the deepest completed iteration.
    pub depth: u32,
    /// Positions visited, all iterations together.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Whether the search saw every line to the end of the game (the value is exact).
    pub solved: bool,
}

/// The number of moves (chance draws included) until the board is full.
pub fn moves_to_end(position: &Position) -> u32 {
    let empty = position.board().vacant_count() as u32;
    match position.phase() {
        Phase::Slide => 3 * empty,
        Phase::Place(_) => 3 * empty - 2,
        Phase::Draw => 3 * empty - 1,
        Phase::Over => 0,
    }
}

/// What the calibration of `eval` ([`crate::eval::Calibration`]) adds to the values of a search
/// of `position` whose deepest completed iteration went `depth` moves deep (`solved`: it saw the
/// end of every line, so its values are exact): 0 where the evaluation has none.
pub fn calibration_offset<E: Evaluator>(
    eval: &E,
    position: &Position,
    depth: u32,
    solved: bool,
) -> f64 {
    match eval.calibration() {
        Some(calibration) => {
            calibration.offset(position.size().side(), horizon(position, depth, solved))
        }
        None => 0.0,
    }
}

/// The moves (draws included) left in the game at the horizon of a search of `position` whose
/// deepest completed iteration went `depth` moves deep (at least 1: a search that finished no
/// iteration valued the children); 0 when it saw the end (`solved`).
pub fn horizon(position: &Position, depth: u32, solved: bool) -> u32 {
    if solved {
        0
    } else {
        moves_to_end(position).saturating_sub(depth.max(1))
    }
}

/// An engine: an evaluation and a transposition table kept from search to search.
pub struct Searcher<E: Evaluator> {
    eval: E,
    table: Table,
    cache: EvalCache,
    model: OpponentModel,
}

impl<E: Evaluator> Searcher<E> {
    /// A searcher with this evaluation and a table of `table_mib` MiB.
    pub fn new(eval: E, table_mib: usize) -> Searcher<E> {
        Searcher {
            eval,
            table: Table::new(table_mib),
            cache: EvalCache::default(),
            model: OpponentModel::default(),
        }
    }

    /// Assumes these players greedy below the root from now on. Stored results made under
    /// another model are forgotten.
    pub fn set_model(&mut self, model: OpponentModel) {
        if model != self.model {
            self.model = model;
            self.table.clear();
        }
    }

    /// The opponent model in use.
    pub fn model(&self) -> OpponentModel {
        self.model
    }

    /// The evaluation.
    pub fn eval(&self) -> &E {
        &self.eval
    }

    /// Puts `eval` in place of the evaluation and returns the one it replaces; stored results
    /// and cached values, made by the old one, are forgotten.
    pub fn replace_eval(&mut self, eval: E) -> E {
        self.clear();
        std::mem::replace(&mut self.eval, eval)
    }

    /// Forgets what earlier searches stored (for reproducible runs from a clean state).
    pub fn clear(&mut self) {
        self.table.clear();
        self.cache.clear();
    }

    /// Searches a decision position (Order or Chaos to move) by iterative deepening until a
    /// limit is reached or the game is solved, and returns the best move of the deepest
    /// completed iteration. Panics unless a player is to move.
    pub fn search(&mut self, position: &Position, limits: Limits) -> SearchResult {
        self.search_with(position, limits, false)
    }

    /// [`Searcher::search`] for protocols without a pass: Order's pass is not considered at the
    /// root (a slide always exists while a cell is empty).
    pub fn search_without_pass(&mut self, position: &Position, limits: Limits) -> SearchResult {
        self.search_with(position, limits, true)
    }

    /// A search's state over this searcher's evaluation and tables.
    fn context<'a>(
        &'a mut self,
        limits: Limits,
        started: Instant,
        no_pass: bool,
    ) -> Context<'a, E> {
        Context {
            eval: &self.eval,
            table: &mut self.table,
            cache: &mut self.cache,
            memo: BoardMemo::default(),
            killers: Killers::new(256),
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.map(|t| started + t),
            stopped: None,
            model: self.model,
            no_pass_at_root: no_pass,
            unfinished_root: limits.unfinished,
        }
    }

    fn search_with(&mut self, position: &Position, limits: Limits, no_pass: bool) -> SearchResult {
        assert!(
            matches!(position.phase(), Phase::Slide | Phase::Place(_)),
            "search needs a player to move, not {:?}",
            position.phase()
        );
        let started = Instant::now();
        self.table.new_search();
        let mut context = self.context(limits, started, no_pass);
        let end = moves_to_end(position);
        let max_depth = limits.depth.unwrap_or(u32::MAX).min(end).max(1);
        let legal = position.legal_moves();
        let mut result = SearchResult {
            best: legal[0],
            value: context.eval.evaluate(position),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            solved: false,
        };
        let mut previous_best = None;
        for depth in 1..=max_depth {
            let (value, best) = context.decision(position, depth, 0, -UPPER, UPPER, previous_best);
            if context.stopped.is_some() && depth > 1 {
                if let (true, Some(best)) = (limits.unfinished, best) {
                    result.best = best;
                    result.value = value;
                }
                break;
            }
            // Even a stopped first iteration beats no search: keep its move if it has one.
            if let Some(best) = best {
                result.best = best;
                result.value = value;
                result.depth = depth;
                previous_best = Some(best);
            }
            if context.stopped.is_some() {
                break;
            }
            if depth >= end {
                result.solved = true;
                break;
            }
        }
        let _ = Stop::Nodes;
        result.nodes = context.nodes;
        result.elapsed = started.elapsed();
        result
    }

    /// The value of a position searched to a fixed depth with a full window (chance positions
    /// allowed), from a clean table: for tests against [`reference::expectimax`].
    pub fn value(&mut self, position: &Position, depth: u32) -> (f64, u64) {
        self.window_value(position, depth, -UPPER, UPPER)
    }

    /// The fail-soft value of a position within a window, from a clean table.
    pub fn window_value(
        &mut self,
        position: &Position,
        depth: u32,
        alpha: f64,
        beta: f64,
    ) -> (f64, u64) {
        self.table.clear();
        let mut context = self.context(Limits::default(), Instant::now(), false);
        let value = context.search(position, depth, 0, alpha, beta);
        (value, context.nodes)
    }
}
