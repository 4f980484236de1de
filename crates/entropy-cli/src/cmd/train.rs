//! `entropy train`: fit the evaluation weights by self-play.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use entropy_train::{train, TrainConfig};

/// Fit the evaluation weights by self-play of the searching bot.
///
/// Each generation plays `--games` games of the node-limited search against itself with the
/// current weights, takes every decision's search value as the target for the position's
/// features (chance positions take the value of the decision that follows them), and fits a
/// ridge regression per bucket of the game (phase of the turn x group of 4 turns). One game in
/// five is held out to report R^2. The weights are written after every generation.
///
/// With the defaults this reproduces the weights shipped in the binary
/// (crates/entropy-engine/weights/trained.txt), whatever `--jobs` is.
#[derive(clap::Args)]
pub struct Args {
    /// Seed of the self-play chip orders and opening randomisation.
    #[arg(long, default_value_t = 2023)]
    seed: u64,
    /// Self-play games per generation.
    #[arg(long, default_value_t = 300)]
    games: usize,
    /// Generations; each plays with the weights the one before fitted.
    #[arg(long, default_value_t = 4)]
    generations: usize,
    /// Positions each search may visit.
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    /// Ridge penalty, relative to each feature's variance.
    #[arg(long, default_value_t = 1e-3)]
    ridge: f64,
    /// Weight of the final score in each target (0: the search value alone, 1: the final
    /// score alone); docs/search.md says why a little of it helps.
    #[arg(long, default_value_t = 0.1)]
    lambda: f64,
    /// Weights to start from: `hand`, `trained`, or a weights file.
    #[arg(long, default_value = "hand")]
    start: String,
    /// Games played at once [default: the number of CPUs].
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Where to write the weights.
    #[arg(long, default_value = "weights.txt")]
    out: PathBuf,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if args.games == 0 || args.generations == 0 || args.nodes == 0 {
        bail!("--games, --generations and --nodes must be at least 1");
    }
    let start = entropy_train::start_weights(&args.start).map_err(anyhow::Error::msg)?;
    // Before minutes of self-play, not after: a folder that does not exist yet is made.
    super::make_folder_of(&args.out)?;
    let config = TrainConfig {
        seed: args.seed,
        games: args.games,
        generations: args.generations,
        nodes: args.nodes,
        jobs: super::jobs_or_cpus(args.jobs),
        ridge: args.ridge,
        lambda: args.lambda,
        ..TrainConfig::default()
    };
    let total = (config.games * config.generations) as u64;
    let bar = super::progress_bar(args.quiet, total, 0, "self-play games");
    let command = format!(
        "entropy train --seed {} --games {} --generations {} --nodes {} --ridge {} --lambda {} --start {}",
        args.seed, args.games, args.generations, args.nodes, args.ridge, args.lambda, args.start
    );
    let mut history = String::new();
    let mut write_error = None;
    let progress = || bar.inc(1);
    let (_, reports) = train(
        start,
        &config,
        |report, weights| {
            let line = report.line();
            bar.suspend(|| println!("{line}"));
            history.push_str(&line);
            history.push('\n');
            let text = weights.to_text(&format!("made by: {command}\n{history}"));
            if let Err(e) = std::fs::write(&args.out, text) {
                write_error.get_or_insert(e);
            }
        },
        &progress,
    );
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e).with_context(|| format!("cannot write {}", args.out.display()));
    }
    println!(
        "weights written to {} after {} generations",
        args.out.display(),
        reports.len()
    );
    Ok(ExitCode::SUCCESS)
}
