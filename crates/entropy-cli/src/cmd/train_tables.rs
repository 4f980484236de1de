//! `entropy train-tables`: fit the n-tuple tables the searching bot can value its leaves with.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Result};
use entropy_engine::eval::{LinearEval, Weights};
use entropy_engine::learned::{load_model, BotEval, NTupleEval, NTupleModel};
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
/// Then `--generations` less one times again, each time with the last tables at the self-play
/// searches' leaves: the next generation's games and targets are what the searcher with those
/// tables finds. Earlier generations' tables go next to `--out` (`tables.gen1.bin`). With
/// `--leaves`, the first generation's games are searched with earlier tables already.
///
/// Each game's samples are appended to `--data` (an earlier generation's next to its tables)
/// as it ends, so an interrupted run resumes with the same command, and a run with more
/// `--games` plays only the new ones of its first generation.
///
/// With the defaults this reproduces the default `search` bot's tables,
/// crates/entropy-engine/weights/tables7.bin, whatever `--jobs` is: about six hours on 2 cores
/// (40 minutes for the first generation, about an hour for each later one, whose searches read
/// the tables).
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
    /// Tables from an earlier run at the first generation's self-play searches' leaves, over
    /// their own linear weights [default: the linear weights alone].
    #[arg(long, value_name = "FILE")]
    leaves: Option<PathBuf>,
    /// Generations: each after the first plays its games with the one before's tables at the
    /// leaves (each of 2 to 6 passed both rungs of the ladder against the one before).
    #[arg(long, default_value_t = 6)]
    generations: usize,
    /// Games played at once [default: the number of CPUs].
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Where to write the model.
    #[arg(long, default_value = "tables.bin")]
    out: PathBuf,
    /// Where the last generation's self-play samples are kept as they are made, so that an
    /// interrupted run resumes [default: OUT.games].
    #[arg(long, value_name = "FILE")]
    data: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if args.games < 2 || args.nodes == 0 || args.epochs == 0 || args.generations == 0 {
        bail!("--games must be at least 2 (one game in five is held out), --nodes, --epochs and --generations at least 1");
    }
    let valid = (0.0..=1.0).contains(&args.lambda) && args.rate > 0.0 && args.rate <= 1.0;
    if !valid {
        bail!("--lambda must be in [0, 1] and --rate in (0, 1]");
    }
    let weights = start_weights(&args.weights).map_err(anyhow::Error::msg)?;
    // The first generation's leaves: earlier tables (checked before minutes of self-play), or
    // the linear weights alone.
    let mut leaves = match &args.leaves {
        Some(path) => BotEval::NTuple(NTupleEval::new(read_leaves(path)?)),
        None => BotEval::Linear(LinearEval::new(weights.clone())),
    };
    // Before minutes of self-play, not after: a folder that does not exist yet is made.
    super::make_folder_of(&args.out)?;
    for generation in 1..=args.generations {
        let last = generation == args.generations;
        let out = if last {
            args.out.clone()
        } else {
            generation_path(&args.out, generation)
        };
        let data = match (&args.data, last) {
            (Some(data), true) => data.clone(),
            _ => with_suffix(&out, ".games"),
        };
        if args.generations > 1 {
            println!(
                "generation {generation} of {}: {}",
                args.generations,
                out.display()
            );
        }
        let model = fit_generation(&args, generation, &weights, &leaves, &out, &data)?;
        leaves = BotEval::NTuple(NTupleEval::new(model));
    }
    println!("model written to {} (search:net={0})", args.out.display());
    Ok(ExitCode::SUCCESS)
}

/// Earlier tables for the first generation's leaves, refused unless made for 7x7.
fn read_leaves(path: &Path) -> Result<NTupleModel> {
    let model =
        load_model(&path.to_string_lossy()).map_err(|e| anyhow::anyhow!("--leaves: {e}"))?;
    if model.side() != 7 {
        bail!(
            "--leaves: {} is a model for {}x{0} boards: the tables are fitted on 7x7",
            path.display(),
            model.side()
        );
    }
    Ok(model)
}

/// Where an earlier generation's tables go: OUT with `.genN` before its extension
/// (`tables.bin` -> `tables.gen1.bin`).
fn generation_path(out: &Path, generation: usize) -> PathBuf {
    let stem = out.file_stem().unwrap_or_default().to_string_lossy();
    let name = match out.extension() {
        Some(ext) => format!("{stem}.gen{generation}.{}", ext.to_string_lossy()),
        None => format!("{stem}.gen{generation}"),
    };
    out.with_file_name(name)
}

/// `path` with `suffix` appended to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// One generation: self-play games searched with `leaves` (kept in `data` as they end), then
/// the tables fitted to their targets, written to `out` after each pass that improves them.
fn fit_generation(
    args: &Args,
    generation: usize,
    weights: &Weights,
    leaves: &BotEval,
    out: &Path,
    data: &Path,
) -> Result<NTupleModel> {
    let common = format!(
        "--seed {} --nodes {} --lambda {} --weights {}",
        args.seed, args.nodes, args.lambda, args.weights
    );
    // Only a run with leaves names them: the files of runs before the option still resume.
    let leaves_arg = args
        .leaves
        .as_ref()
        .map(|path| format!(" --leaves {}", path.display()))
        .unwrap_or_default();
    let fit = format!("--epochs {} --rate {}", args.epochs, args.rate);
    // What the games depend on (the fit's settings may change without playing them again): a
    // later generation's leaves are the earlier generations' tables, so their games and fit
    // too, and the generation it is.
    let games_settings = if generation == 1 {
        format!("entropy train-tables {common}{leaves_arg}")
    } else {
        format!(
            "entropy train-tables {common} --games {} {fit}{leaves_arg} --generation {generation}",
            args.games
        )
    };
    // What made the model: the command that writes it (a single generation's as before).
    let generations_arg = if generation > 1 {
        format!(" --generations {generation}")
    } else {
        String::new()
    };
    let command = format!(
        "entropy train-tables --seed {} --games {} --nodes {} --lambda {} {fit} --weights {}{leaves_arg}{generations_arg}",
        args.seed, args.games, args.nodes, args.lambda, args.weights
    );
    let config = TrainConfig {
        seed: args.seed,
        games: args.games,
        nodes: args.nodes,
        lambda: args.lambda,
        jobs: super::jobs_or_cpus(args.jobs),
        ..TrainConfig::default()
    };
    let bar = super::progress_bar(args.quiet, args.games as u64, 0, "self-play games");
    let started = std::time::Instant::now();
    let samples = generate_saved(leaves, &config, data, &games_settings, &|| bar.inc(1))
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
    let best = fit_tables(weights, &samples, &tables, |report, best| {
        let line = report.line();
        println!("{line}");
        history.push_str(&line);
        history.push('\n');
        if report.best && write_error.is_none() {
            let mut model = best.clone();
            model.set_provenance(&format!("made by: {command}\n{history}"));
            if let Err(e) = super::write_atomically(out, &model.to_bytes()) {
                write_error = Some(e);
            }
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    // The model written to `out` (its provenance aside): the next generation's leaves.
    Ok(best)
}
