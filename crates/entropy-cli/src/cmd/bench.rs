//! `entropy bench`: fixed workloads, their counts (a signature that changes only when behaviour
//! changes) and their speed on one core.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use entropy_arena::deal::shuffled_bag;
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

/// Run fixed workloads and print their counts and speed (median of several runs, one core).
///
/// The counts (perft nodes, playout score sum, greedy choices, search nodes) form the signature: it changes
/// only when move generation, scoring or the bots change. Speeds vary with the machine and its
/// load; compare medians on the same machine.
#[derive(clap::Args)]
pub struct Args {
    /// Smaller workloads (for a smoke test).
    #[arg(long)]
    quick: bool,
    /// Runs per workload; the median is printed.
    #[arg(long, default_value_t = 5)]
    runs: usize,
}

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

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

/// Times `work` `runs` times; returns its result and the median seconds.
fn time<T>(runs: usize, mut work: impl FnMut() -> T) -> (T, f64) {
    let mut result = None;
    let mut seconds = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let started = Instant::now();
        result = Some(black_box(work()));
        seconds.push(started.elapsed().as_secs_f64());
    }
    (result.expect("one run at least"), median(seconds))
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

pub fn run(args: Args) -> Result<ExitCode> {
    let scale = if args.quick { 10 } else { 1 };
    let runs = args.runs;

    let lines = full_lines(100_000 / scale);
    let (table_sum, table_s) = time(runs, || {
        lines.iter().map(|&k| line_score(black_box(k))).sum::<u32>()
    });
    let (naive_sum, naive_s) = time(runs, || {
        lines
            .iter()
            .map(|&k| naive::brute_force_score(&naive::decode_line(black_box(k))))
            .sum::<u32>()
    });
    assert_eq!(table_sum, naive_sum, "table and brute force disagree");
    let per_line = |s: f64| s / lines.len() as f64 * 1e9;
    println!(
        "line score     table {:>7.2} ns  brute force {:>7.2} ns  ratio {:>6.1}x  (sum {table_sum})",
        per_line(table_s),
        per_line(naive_s),
        naive_s / table_s
    );

    let boards = full_boards(1000 / scale);
    let (board_sum, board_s) = time(runs, || {
        let mut total = 0;
        for _ in 0..100 {
            total += boards.iter().map(|b| black_box(b).score()).sum::<u32>();
        }
        total
    });
    println!(
        "board score    {:>7.2} ns from scratch (sum {board_sum})",
        board_s / (boards.len() * 100) as f64 * 1e9
    );

    let games = 200_000 / scale as u64;
    let (playout_sum, playout_s) = time(runs, || {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        (0..games)
            .map(|_| random_playout(Position::new(Size::SEVEN), &mut rng) as u64)
            .sum::<u64>()
    });
    println!(
        "playouts       {:>9.0} games/s random vs random 7x7 ({games} games, score sum {playout_sum})",
        games as f64 / playout_s
    );

    let mut perft_nodes = 0u64;
    let mut perft_s = 0.0;
    for (text, depth) in PERFT_POSITIONS {
        let position = if text.len() < 10 {
            Position::new(Size::SEVEN)
        } else {
            parse_position(text).expect("a valid bench position")
        };
        let depth = if args.quick { depth.min(4) } else { depth };
        let (nodes, seconds) = time(runs, || perft(&position, depth));
        perft_nodes += nodes;
        perft_s += seconds;
    }
    println!(
        "perft          {perft_nodes:>9} nodes  {:>7.1} M nodes/s",
        perft_nodes as f64 / perft_s / 1e6
    );

    let decisions = 20 / scale.min(10);
    let (greedy_sum, greedy_s) = time(runs, || greedy_games(decisions));
    println!(
        "greedy         {:>9.0} decisions/s over {decisions} games (score sum {greedy_sum})",
        (decisions * 97) as f64 / greedy_s
    );
    let (search_nodes, search_s) =
        search_bench(runs, args.quick, BotEval::Linear(LinearEval::hand()));
    let reference_nodes = expectimax_bench(args.quick);
    println!(
        "search         {search_nodes:>9} nodes at depth {} on {} positions  {:>6.2} M nodes/s  \
         (expectimax: {reference_nodes} nodes, {:.1}x more)",
        bench_depth(args.quick),
        BENCH_POSITIONS.len(),
        search_nodes as f64 / search_s / 1e6,
        reference_nodes as f64 / search_nodes as f64
    );
    // The default bot's leaves, outside the signature as the shipped weights are: how fast the
    // search the default bot plays runs.
    let (tables_nodes, tables_s) = search_bench(runs, args.quick, BotEval::shipped());
    println!(
        "search, tables {tables_nodes:>9} nodes on the same positions  {:>6.2} M nodes/s  \
         (the default bot's leaves; not in the signature)",
        tables_nodes as f64 / tables_s / 1e6
    );
    println!(
        "signature      {}",
        perft_nodes ^ playout_sum ^ greedy_sum as u64 ^ search_nodes
    );
    Ok(ExitCode::SUCCESS)
}

/// The depth the search benches search to: one less with `--quick`.
fn bench_depth(quick: bool) -> u32 {
    if quick {
        BENCH_DEPTH - 1
    } else {
        BENCH_DEPTH
    }
}

/// The fixed positions the search benches search.
fn bench_positions() -> Vec<Position> {
    BENCH_POSITIONS
        .iter()
        .map(|text| parse_position(text).expect("a valid bench position"))
        .collect()
}

/// Searches the fixed positions to the fixed depth with `eval` from a clean table: (nodes,
/// median seconds). The signature's search uses the hand weights, so that retraining does not
/// change it.
fn search_bench(runs: usize, quick: bool, eval: BotEval) -> (u64, f64) {
    let positions = bench_positions();
    let depth = bench_depth(quick);
    // Build the evaluation's tables before timing.
    let _ = eval.evaluate(&positions[0]);
    let mut searcher = Searcher::new(eval, 16);
    let (nodes, seconds) = time(runs, || {
        positions
            .iter()
            .map(|p| {
                searcher.clear();
                searcher.search(p, Limits::depth(depth)).nodes
            })
            .sum::<u64>()
    });
    (nodes, seconds)
}

/// Plain expectimax's nodes on the same positions to the same depth (no pruning).
fn expectimax_bench(quick: bool) -> u64 {
    let depth = bench_depth(quick);
    bench_positions()
        .iter()
        .map(|p| expectimax_nodes(p, depth))
        .sum()
}

/// Greedy against greedy on fixed deals; returns the sum of the scores.
fn greedy_games(games: usize) -> u32 {
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
