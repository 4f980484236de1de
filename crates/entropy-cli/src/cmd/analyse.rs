//! `entropy analyse`: reviews recorded games move by move with the searcher.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use entropy_arena::games::{decisions_in, in_game_order, read_all, RecordedGame};
use entropy_arena::review::{decision_json, game_text, review, ReviewSummary, Reviewed};
use entropy_engine::learned::BotEval;
use serde_json::json;

/// Review recorded games: for every decision, the best move by the searcher, its expected final
/// score, the expected final score of the move played and what the difference cost.
///
/// Reads `entropy match` records and the web page's downloads (JSON lines, one game per line),
/// and CodeCup transcripts or plain move lists (one game per file: `> 6Fe`, `< FeFe` lines as
/// the CodeCup tests write them, or moves as `entropy match` records them: `3Bc`, `BcBg`, `pass`).
/// Prints a table per game and a summary of each player's and role's expected points lost (per
/// game, and in each third of the game: turns 1-17, 18-33 and 34-49 on 7x7) and largest
/// mistakes; `--json` writes JSON lines instead. Values are Order's expected final
/// score; a loss is what the move gave away to the opponent in expected points.
#[derive(clap::Args)]
pub struct Args {
    /// Game files to review.
    #[arg(required = true, value_name = "RECORD")]
    records: Vec<PathBuf>,
    /// Positions the searcher may visit per decision (reproducible).
    #[arg(long, default_value_t = 20_000, value_name = "N")]
    nodes: u64,
    /// Seconds per decision instead of a node budget (not reproducible).
    #[arg(long, value_name = "SECONDS")]
    time: Option<f64>,
    /// Write JSON lines (one per decision, one per unreadable game, a summary last).
    #[arg(long)]
    json: bool,
    /// Print only the summary, not every decision.
    #[arg(long)]
    summary_only: bool,
    /// Largest mistakes listed per player and role.
    #[arg(long, default_value_t = 3, value_name = "K")]
    mistakes: usize,
    /// Games analysed at the same time [default: the number of CPUs].
    #[arg(short, long)]
    jobs: Option<usize>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let limits = super::search_limits(args.nodes, args.time)?;
    let (games, unreadable) = read_all(&args.records).map_err(anyhow::Error::msg)?;
    for problem in &unreadable {
        if args.json {
            println!("{}", json!({"type": "error", "problem": problem}));
        } else {
            eprintln!("entropy: skipped {problem}");
        }
    }
    let jobs = super::jobs_or_cpus(args.jobs).min(games.len().max(1));
    let bar = super::progress_bar(args.json, decisions_in(&games), 0, "decisions");
    let started = Instant::now();
    let mut summary = ReviewSummary::default();
    let mut failed = 0;
    in_game_order(
        &games,
        jobs,
        &BotEval::shipped(),
        |searcher, game| review(searcher, game, limits, |_| bar.inc(1)),
        |index, reviewed| {
            let game = &games[index];
            bar.suspend(|| print_game(&args, index, game, &reviewed));
            failed += usize::from(reviewed.problem.is_some());
            summary.add(index, game, &reviewed.decisions);
        },
    );
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    if args.json {
        println!("{}", summary.json(elapsed));
    } else {
        print!("{}", summary.text(args.mistakes, elapsed, jobs));
    }
    Ok(if failed + unreadable.len() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn print_game(args: &Args, index: usize, game: &RecordedGame, reviewed: &Reviewed) {
    if args.json {
        for d in &reviewed.decisions {
            println!("{}", decision_json(index, game, d));
        }
        if let Some(problem) = &reviewed.problem {
            println!(
                "{}",
                json!({"type": "error", "game": index + 1, "problem": problem})
            );
        }
        return;
    }
    if let Some(problem) = &reviewed.problem {
        eprintln!("entropy: {problem}");
    }
    if !args.summary_only {
        println!("{}", game_text(index, game, &reviewed.decisions));
    }
}
