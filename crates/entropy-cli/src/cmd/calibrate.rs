//! `entropy calibrate`: how far the expected final scores people read are from the final scores
//! of the games that followed, turn by turn, and the fit of the correction that closes the gap.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use entropy_arena::calibration::{
    complete_games, decision_samples, games_in, read_calibration, read_weighted_samples,
    samples_text, Report, Row,
};
use entropy_arena::games::{decisions_in, in_game_order, read_all};
use entropy_engine::eval::{Calibration, CalibrationSample, LinearEval};
use entropy_engine::learned::BotEval;
use entropy_engine::search::Limits;

/// Compare the expected final scores the analysis shows (the web page's evaluation graph and
/// Hint, `entropy play`'s eval, `/api/analyse`, `entropy analyse`) with the final scores of the
/// games they were shown for, turn by turn: per turn and player to move, the mean value shown,
/// the mean final score, their difference (the bias) and the mean squared error.
///
/// Every decision of every complete 7x7 game in the records is analysed afresh, as the web page
/// asks (`--nodes`, 20,000 by default: the evaluation graph's budget), with the analysis's
/// evaluation (`--eval`). `--fit FILE` writes the correction fitted to these games (what
/// crates/entropy-engine/weights/calibration-tables.txt holds for the tables, calibration.txt
/// for the linear evaluation),
/// `--csv` the per-turn table (`python3 scripts/plot_calibration.py` draws it), `--samples` every
/// decision's numbers, which `--from-samples` reads back instead of searching again.
#[derive(clap::Args)]
pub struct Args {
    /// Game records (`entropy match` JSON lines, web page downloads, transcripts), or with
    /// `--from-samples` files written by `--samples`, each as `FILE` or `FILE@WEIGHT` (its
    /// decisions count WEIGHT times in the fit: 1 by default).
    #[arg(required = true, value_name = "FILE")]
    inputs: Vec<PathBuf>,
    /// Positions the searcher may visit per decision (reproducible).
    #[arg(long, default_value_t = 20_000, value_name = "N")]
    nodes: u64,
    /// Seconds per decision instead of a node budget (the Hint takes 1).
    #[arg(long, value_name = "SECONDS")]
    time: Option<f64>,
    /// Analyse only every K-th decision of each game (for long budgets).
    #[arg(long, default_value_t = 1, value_name = "K")]
    every: usize,
    /// The leaves' evaluation: the line-pattern tables the analysis and the default bot search
    /// with, or the linear evaluation alone (`search:eval=linear`).
    #[arg(long, value_enum, default_value_t = EvalChoice::Tables)]
    eval: EvalChoice,
    /// The calibration to report on: a file written by `--fit`, or `none` for the search's own
    /// values [default: the one shipped for `--eval`].
    #[arg(long, value_name = "FILE|none")]
    calibration: Option<String>,
    /// Write a calibration fitted to these games to this file.
    #[arg(long, value_name = "FILE")]
    fit: Option<PathBuf>,
    /// Turns on each side of a horizon whose samples the fit pools (weighted by a triangle).
    #[arg(long, default_value_t = 2, value_name = "TURNS")]
    bandwidth: u32,
    /// Write the per-turn table as CSV.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Write every decision's numbers as CSV (for `--from-samples`).
    #[arg(long, value_name = "FILE")]
    samples: Option<PathBuf>,
    /// The inputs are `--samples` files: fit and report without searching.
    #[arg(long)]
    from_samples: bool,
    /// Games analysed at the same time [default: the number of CPUs].
    #[arg(short, long)]
    jobs: Option<usize>,
}

/// The evaluations `entropy calibrate` can search with.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum EvalChoice {
    /// The line-pattern tables over the shipped linear weights.
    Tables,
    /// The shipped linear weights alone.
    Linear,
}

impl EvalChoice {
    /// The evaluation, with its shipped calibration.
    fn eval(self) -> BotEval {
        match self {
            EvalChoice::Tables => BotEval::shipped(),
            EvalChoice::Linear => BotEval::Linear(LinearEval::trained()),
        }
    }

    /// The calibration shipped for the evaluation (the one [`EvalChoice::eval`] carries).
    fn shipped_calibration(self) -> &'static Calibration {
        match self {
            EvalChoice::Tables => Calibration::tables(),
            EvalChoice::Linear => Calibration::shipped(),
        }
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let calibration = chosen_calibration(args.eval, args.calibration.as_deref())?;
    if args.every == 0 {
        bail!("--every must be at least 1");
    }
    let started = Instant::now();
    let (rows, what) = if args.from_samples {
        let mut rows = Vec::new();
        for input in &args.inputs {
            rows.extend(read_weighted_samples(input).map_err(anyhow::Error::msg)?);
        }
        (rows, format!("samples from {}", names(&args.inputs)))
    } else {
        let limits = super::search_limits(args.nodes, args.time)?;
        let budget = match args.time {
            Some(s) => format!("{s} s"),
            None => format!("{} nodes", args.nodes),
        };
        let rows = analyse_games(&args, limits)?;
        let games = games_in(&rows);
        (rows, format!("{games} games, {budget} per decision"))
    };
    if rows.is_empty() {
        bail!("no decision of a complete 7x7 game to calibrate on");
    }
    if let Some(path) = &args.samples {
        std::fs::write(path, samples_text(&rows))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let report = Report::of(&rows, calibration);
    print!("{}", report.text(&what, started.elapsed().as_secs_f64()));
    if let Some(path) = &args.csv {
        std::fs::write(path, report.csv())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.fit {
        let samples: Vec<CalibrationSample> =
            rows.iter().filter_map(Row::calibration_sample).collect();
        let fitted = Calibration::fit(7, &samples, args.bandwidth);
        let made_by = format!(
            "Made by: entropy calibrate {} ({} decisions: {what}; bandwidth {})",
            // File names without their folders, so the same inputs write the same table.
            std::env::args()
                .skip(2)
                .map(|a| a.rsplit('/').next().unwrap_or(&a).to_owned())
                .collect::<Vec<_>>()
                .join(" "),
            rows.len(),
            args.bandwidth
        );
        std::fs::write(path, fitted.to_text(&made_by))
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("fitted calibration written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The calibration `--calibration` names: the one shipped for `eval`, none, or a file (kept for
/// the run).
fn chosen_calibration(
    eval: EvalChoice,
    name: Option<&str>,
) -> Result<Option<&'static Calibration>> {
    Ok(match name {
        None => Some(eval.shipped_calibration()),
        Some("none") => None,
        Some(file) => {
            let table = read_calibration(Path::new(file))
                .map_err(|e| anyhow::anyhow!("--calibration: {e}"))?;
            Some(Box::leak(Box::new(table)))
        }
    })
}

/// Analyses every `--every`-th decision of the complete 7x7 games of the records.
fn analyse_games(args: &Args, limits: Limits) -> Result<Vec<Row>> {
    let (games, unreadable) = read_all(&args.inputs).map_err(anyhow::Error::msg)?;
    for problem in &unreadable {
        eprintln!("entropy: skipped {problem}");
    }
    let (games, notes) = complete_games(games);
    for note in &notes {
        eprintln!("entropy: {note}");
    }
    let (games, finals): (Vec<_>, Vec<f64>) = games.into_iter().unzip();
    if games.is_empty() {
        bail!("no complete 7x7 game in {}", names(&args.inputs));
    }
    let decisions = decisions_in(&games) / args.every as u64;
    let bar = super::progress_bar(false, decisions, 0, "decisions");
    let mut rows = Vec::new();
    // The search's own values: the report adds the offsets.
    let eval = args.eval.eval().uncalibrated();
    in_game_order(
        &games,
        super::jobs_or_cpus(args.jobs).min(games.len()),
        &eval,
        |searcher, game| decision_samples(searcher, game, limits, args.every, || bar.inc(1)),
        |index, analysed| {
            rows.extend(analysed.into_iter().map(|mut row: Row| {
                row.sample.game = index + 1;
                row.sample.final_score = finals[index];
                row
            }))
        },
    );
    bar.finish_and_clear();
    Ok(rows)
}

/// The files' names, without their folders.
fn names(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths
        .iter()
        .map(|p| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
        .collect();
    names.join(", ")
}
