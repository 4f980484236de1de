//! `entropy bench`: fixed workloads, their counts (a signature that changes only when behaviour
//! changes) and their speed on one core.

use std::process::ExitCode;

use anyhow::Result;
use entropy_engine::search::BENCH_POSITIONS;

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

pub fn run(args: Args) -> Result<ExitCode> {
    let r = entropy_arena::bench::run(args.runs, args.quick);
    let per_line = |s: f64| s / r.lines as f64 * 1e9;
    println!(
        "line score     table {:>7.2} ns  brute force {:>7.2} ns  ratio {:>6.1}x  (sum {})",
        per_line(r.line_table.seconds),
        per_line(r.line_naive.seconds),
        r.line_naive.seconds / r.line_table.seconds,
        r.line_table.count
    );
    println!(
        "board score    {:>7.2} ns from scratch (sum {})",
        r.board_score.seconds / (r.boards * 100) as f64 * 1e9,
        r.board_score.count
    );
    println!(
        "playouts       {:>9.0} games/s random vs random 7x7 ({} games, score sum {})",
        r.playouts as f64 / r.playout.seconds,
        r.playouts,
        r.playout.count
    );
    println!(
        "perft          {:>9} nodes  {:>7.1} M nodes/s",
        r.perft.count,
        r.perft.count as f64 / r.perft.seconds / 1e6
    );
    println!(
        "greedy         {:>9.0} decisions/s over {} games (score sum {})",
        (r.greedy_games * 97) as f64 / r.greedy.seconds,
        r.greedy_games,
        r.greedy.count
    );
    println!(
        "search         {:>9} nodes at depth {} on {} positions  {:>6.2} M nodes/s  \
         (expectimax: {} nodes, {:.1}x more)",
        r.search.count,
        r.depth,
        BENCH_POSITIONS.len(),
        r.search.count as f64 / r.search.seconds / 1e6,
        r.expectimax_nodes,
        r.expectimax_nodes as f64 / r.search.count as f64
    );
    println!(
        "search, tables {:>9} nodes on the same positions  {:>6.2} M nodes/s  \
         (the default bot's leaves; not in the signature)",
        r.search_tables.count,
        r.search_tables.count as f64 / r.search_tables.seconds / 1e6
    );
    println!("signature      {}", r.signature());
    Ok(ExitCode::SUCCESS)
}
