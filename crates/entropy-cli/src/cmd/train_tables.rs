//! `entropy train-tables`: fit the n-tuple tables the searching bot can value its leaves with.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use entropy_engine::eval::LinearEval;
use entropy_engine::learned::{load_model, BotEval, NTupleEval};
use entropy_train::saved::generate_saved;
use entropy_train::tables::{fit_tables, TablesConfig};
use entropy_train::{start_weights, TrainConfig};

/// Fit n-tuple tables over the linear evaluation for the search's leaves (`search:net=FILE`).
///
/// Plays `--games` self-play games of the node-limited search with the linear weights, as
/// `entropy train` does, and takes the same targets (each decision's search value, `--lambda`
/// of the way to the game's final score). Over the linear evaluation it then fits per-line
/// pattern weights and a linear correction by phase and stage (the model `net` plays with) by
/// normalised least mean squares, `--epochs` passes with the step falling from `--rate` to a
/// tenth of it. One game in five is held out; the model of the pass with the least held-out
/// error is written to `--out` after each pass that improves it.
///
/// With `--leaves`, the games are searched with earlier tables at the leaves instead: their
/// targets are what the searcher with those tables finds, the next generation of the data.
///
/// Each game's samples are appended to `--data` as it ends, so an interrupted run resumes with
/// the same command, and a run with more `--games` plays only the new ones.
///
/// With the defaults this reproduces the default `search` bot's tables,
/// crates/entropy-engine/weights/tables7.bin, whatever `--jobs` is: about 40 minutes on 2 cores.
#[derive(clap::Args)]
pub struct Args {
    /// Seed of the self-play chip orders and opening randomisation, and of the passes' order.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Self-play games.
    #[arg(long, default_value_t = 30000)]
    games: usize,
    /// Positions each search may visit.
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    /// Weight of the final score in each target, as `entropy train --lambda`.
    #[arg(long, default_value_t = 0.1)]
    lambda: f64,
    /// Passes over the samples.
    #[arg(long, default_value_t = 6)]
    epochs: usize,
    /// The step of the first pass (the share of each error corrected).
    #[arg(long, default_value_t = 0.05)]
    rate: f32,
    /// The linear weights that play the games and that the tables correct: `trained` (the
    /// shipped ones), `hand`, or a weights file from `entropy train`.
    #[arg(long, default_value = "trained")]
    weights: String,
    /// Tables from an earlier run at the self-play searches' leaves, over their own linear
    /// weights (the next generation: games and targets searched by the model the new tables
    /// improve on) [default: the linear weights alone].
    #[arg(long, value_name = "FILE")]
    leaves: Option<PathBuf>,
    /// Games played at once [default: the number of CPUs].
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Where to write the model.
    #[arg(long, default_value = "tables.bin")]
    out: PathBuf,
    /// Where the self-play games' samples are kept as they are made, so that an interrupted
    /// run resumes [default: OUT.games].
    #[arg(long, value_name = "FILE")]
    data: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if args.games < 2 || args.nodes == 0 || args.epochs == 0 {
        bail!("--games must be at least 2 (one game in five is held out), --nodes and --epochs at least 1");
    }
    let valid = (0.0..=1.0).contains(&args.lambda) && args.rate > 0.0 && args.rate <= 1.0;
    if !valid {
        bail!("--lambda must be in [0, 1] and --rate in (0, 1]");
    }
    let weights = start_weights(&args.weights).map_err(anyhow::Error::msg)?;
    // The searches' leaves: earlier tables (checked before minutes of self-play), or the
    // linear weights alone.
    let leaves = match &args.leaves {
        Some(path) => {
            let model = load_model(&path.to_string_lossy())
                .map_err(|e| anyhow::anyhow!("--leaves: {e}"))?;
            if model.side() != 7 {
                bail!(
                    "--leaves: {} is a model for {}x{0} boards: the tables are fitted on 7x7",
                    path.display(),
                    model.side()
                );
            }
            BotEval::NTuple(NTupleEval::new(model))
        }
        None => BotEval::Linear(LinearEval::new(weights.clone())),
    };
    // Only a run with leaves names them: the files of runs before the option still resume.
    let leaves_arg = args
        .leaves
        .as_ref()
        .map(|path| format!(" --leaves {}", path.display()))
        .unwrap_or_default();
    // Before minutes of self-play, not after: a folder that does not exist yet is made.
    super::make_folder_of(&args.out)?;
    let config = TrainConfig {
        seed: args.seed,
        games: args.games,
        nodes: args.nodes,
        lambda: args.lambda,
        jobs: super::jobs_or_cpus(args.jobs),
        ..TrainConfig::default()
    };
    let command = format!(
        "entropy train-tables --seed {} --games {} --nodes {} --lambda {} --epochs {} --rate {} --weights {}{leaves_arg}",
        args.seed, args.games, args.nodes, args.lambda, args.epochs, args.rate, args.weights
    );
    let bar = super::progress_bar(args.quiet, args.games as u64, 0, "self-play games");
    let started = std::time::Instant::now();
    let data = args.data.clone().unwrap_or_else(|| {
        let mut name = args.out.clone().into_os_string();
        name.push(".games");
        PathBuf::from(name)
    });
    // What the games depend on: the fit's settings may change without playing them again.
    let games_settings = format!(
        "entropy train-tables --seed {} --nodes {} --lambda {} --weights {}{leaves_arg}",
        args.seed, args.nodes, args.lambda, args.weights
    );
    let samples = generate_saved(&leaves, &config, &data, &games_settings, &|| bar.inc(1))
        .map_err(anyhow::Error::msg)?;
    bar.finish_and_clear();
    println!(
        "{} positions from {} games in {:.0} s",
        samples.len(),
        args.games,
        started.elapsed().as_secs_f64()
    );
    let tables = TablesConfig {
        seed: args.seed,
        epochs: args.epochs,
        rate: args.rate,
        ..TablesConfig::default()
    };
    let mut history = String::new();
    let mut write_error = None;
    fit_tables(&weights, &samples, &tables, |report, best| {
        let line = report.line();
        println!("{line}");
        history.push_str(&line);
        history.push('\n');
        if report.best && write_error.is_none() {
            let mut model = best.clone();
            model.set_provenance(&format!("made by: {command}\n{history}"));
            if let Err(e) = super::write_atomically(&args.out, &model.to_bytes()) {
                write_error = Some(e);
            }
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    println!("model written to {} (search:net={0})", args.out.display());
    Ok(ExitCode::SUCCESS)
}
