//! `entropy bench`'s fixed workloads: their counts form a signature that changes only when move
//! generation, scoring or the bots change, and their times give the speeds on this machine.

use std::hint::black_box;
use std::time::Instant;

use entropy_core::notation::text::parse_position;
use entropy_core::perft::perft;
use entropy_core::score::{line_score, naive};
use entropy_core::{Board, Cell, Position, Size};
use entropy_engine::eval::{Evaluator, LinearEval};
use entropy_engine::learned::BotEval;
use entropy_engine::playout::random_playout;
use entropy_engine::search::reference::expectimax_nodes;
use entropy_engine::search::{Limits, Searcher, BENCH_DEPTH, BENCH_POSITIONS};
use entropy_engine::{make_bot, Budget};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::deal::shuffled_bag;

/// Positions for perft: the start, and positions from the checked-in perft vectors.
const PERFT_POSITIONS: [(&str, u32); 3] = [
    (".......", 5),
    (
        "...54../.2...../..2..74/......./....5../.55..../..6.... draw",
        3,
    ),
    (
        "1..54../.2...../..2..74/......./....5../.55..../..6.... slide",
        3,
    ),
];

/// A workload's count and the median of its times.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Timed<T> {
    /// What the workload counted.
    pub count: T,
    /// The median seconds of a run.
    pub seconds: f64,
}

/// Every workload's result.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// Lines scored by the table, with the sum of their scores.
    pub lines: usize,
    /// The table's line scores.
    pub line_table: Timed<u32>,
    /// The brute-force scorer's, on the same lines (the same sum).
    pub line_naive: Timed<u32>,
    /// Full boards scored 100 times each.
    pub boards: usize,
    /// Their scores summed.
    pub board_score: Timed<u32>,
    /// Random games played out.
    pub playouts: u64,
    /// Their scores summed.
    pub playout: Timed<u64>,
    /// Perft nodes over the fixed positions.
    pub perft: Timed<u64>,
    /// Greedy-against-greedy games.
    pub greedy_games: usize,
    /// Their scores summed.
    pub greedy: Timed<u32>,
    /// The search's depth.
    pub depth: u32,
    /// Search nodes with the hand weights (in the signature).
    pub search: Timed<u64>,
    /// Plain expectimax's nodes on the same positions.
    pub expectimax_nodes: u64,
    /// Search nodes with the default bot's leaves (not in the signature).
    pub search_tables: Timed<u64>,
}

impl BenchReport {
    /// The signature: the counts that change only when behaviour changes, together.
    pub fn signature(&self) -> u64 {
        self.perft.count ^ self.playout.count ^ u64::from(self.greedy.count) ^ self.search.count
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

/// Times `work` `runs` times; returns its result and the median seconds.
fn time<T>(runs: usize, mut work: impl FnMut() -> T) -> Timed<T> {
    let mut result = None;
    let mut seconds = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let started = Instant::now();
        result = Some(black_box(work()));
        seconds.push(started.elapsed().as_secs_f64());
    }
    Timed {
        count: result.expect("one run at least"),
        seconds: median(seconds),
    }
}

fn full_lines(count: usize) -> Vec<u32> {
    let deal = shuffled_bag(Size::SEVEN, 11);
    (0..count)
        .map(|i| {
            (0..7).fold(0u32, |key, j| {
                key | (deal[(i * 7 + j * 3) % 49].number() as u32) << (3 * j)
            })
        })
        .collect()
}

fn full_boards(count: usize) -> Vec<Board> {
    (0..count)
        .map(|i| {
            let mut board = Board::empty(Size::SEVEN);
            for (cell, colour) in Cell::all().zip(shuffled_bag(Size::SEVEN, i as u64)) {
                board.set(cell, Some(colour)).expect("on the board");
            }
            board
        })
        .collect()
}

/// Runs every workload `runs` times (a tenth of each, and one move shallower, when `quick`).
pub fn run(runs: usize, quick: bool) -> BenchReport {
    let scale = if quick { 10 } else { 1 };
    let lines = full_lines(100_000 / scale);
    let line_table = time(runs, || {
        lines.iter().map(|&k| line_score(black_box(k))).sum::<u32>()
    });
    let line_naive = time(runs, || {
        lines
            .iter()
            .map(|&k| naive::brute_force_score(&naive::decode_line(black_box(k))))
            .sum::<u32>()
    });
    assert_eq!(
        line_table.count, line_naive.count,
        "table and brute force disagree"
    );
    let boards = full_boards(1000 / scale);
    let board_score = time(runs, || {
        let mut total = 0;
        for _ in 0..100 {
            total += boards.iter().map(|b| black_box(b).score()).sum::<u32>();
        }
        total
    });
    let playouts = 200_000 / scale as u64;
    let playout = time(runs, || {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        (0..playouts)
            .map(|_| random_playout(Position::new(Size::SEVEN), &mut rng) as u64)
            .sum::<u64>()
    });
    let mut perft_total = Timed {
        count: 0,
        seconds: 0.0,
    };
    for (text, depth) in PERFT_POSITIONS {
        let position = if text.len() < 10 {
            Position::new(Size::SEVEN)
        } else {
            parse_position(text).expect("a valid bench position")
        };
        let depth = if quick { depth.min(4) } else { depth };
        let timed = time(runs, || perft(&position, depth));
        perft_total.count += timed.count;
        perft_total.seconds += timed.seconds;
    }
    let greedy_games = 20 / scale.min(10);
    let greedy = time(runs, || greedy_scores(greedy_games));
    let depth = if quick { BENCH_DEPTH - 1 } else { BENCH_DEPTH };
    BenchReport {
        lines: lines.len(),
        line_table,
        line_naive,
        boards: boards.len(),
        board_score,
        playouts,
        playout,
        perft: perft_total,
        greedy_games,
        greedy,
        depth,
        // The signature's search uses the hand weights, so that retraining does not change it.
        search: search(runs, depth, BotEval::Linear(LinearEval::hand())),
        expectimax_nodes: bench_positions()
            .iter()
            .map(|p| expectimax_nodes(p, depth))
            .sum(),
        search_tables: search(runs, depth, BotEval::shipped()),
    }
}

/// The fixed positions the search benches search.
fn bench_positions() -> Vec<Position> {
    BENCH_POSITIONS
        .iter()
        .map(|text| parse_position(text).expect("a valid bench position"))
        .collect()
}

/// Searches the fixed positions to `depth` with `eval`, each from a clean table.
fn search(runs: usize, depth: u32, eval: BotEval) -> Timed<u64> {
    let positions = bench_positions();
    // Build the evaluation's tables before timing.
    let _ = eval.evaluate(&positions[0]);
    let mut searcher = Searcher::new(eval, 16);
    time(runs, || {
        positions
            .iter()
            .map(|p| {
                searcher.clear();
                searcher.search(p, Limits::depth(depth)).nodes
            })
            .sum::<u64>()
    })
}

/// Greedy against greedy on fixed deals; returns the sum of the scores.
fn greedy_scores(games: usize) -> u32 {
    let mut total = 0;
    for game in 0..games {
        let mut bot = make_bot("greedy", game as u64).expect("greedy exists");
        let mut position = Position::new(Size::SEVEN);
        for chip in shuffled_bag(Size::SEVEN, game as u64) {
            position.play_unchecked(entropy_core::Move::Draw(chip));
            while !position.is_over() && position.to_move().is_some() {
                let mv = bot.choose(&position, Budget::UNLIMITED);
                position.play_unchecked(mv);
            }
        }
        total += position.score();
    }
    total
}
