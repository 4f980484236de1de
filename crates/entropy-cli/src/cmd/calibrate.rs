//! `entropy calibrate`: how far the expected final scores people read are from the final scores
//! of the games that followed, turn by turn, and the fit of the correction that closes the gap.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use entropy_core::{Position, Role, Size};
use entropy_engine::eval::{
    Calibration, CalibrationSample, DecisionSample, LinearEval, SAMPLES_HEADER,
};
use entropy_engine::learned::BotEval;
use entropy_engine::search::{horizon, Limits, Searcher};
use indicatif::ProgressBar;

use super::analyse::{decisions_in, in_game_order, jobs, limits, read_all, Game};

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

/// One analysed decision, and how much it counts in a fit (`FILE@WEIGHT`; not written to
/// samples files).
#[derive(Copy, Clone, Debug, PartialEq)]
struct Row {
    sample: DecisionSample,
    weight: f64,
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
            let (path, weight) = weighted(input)?;
            rows.extend(
                read_samples(&path)?
                    .into_iter()
                    .map(|r| Row { weight, ..r }),
            );
        }
        (rows, format!("samples from {}", names(&args.inputs)))
    } else {
        let limits = limits(args.nodes, args.time)?;
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
        write_samples(path, &rows)?;
    }
    let report = Report::of(&rows, calibration);
    print!("{}", report.text(&what, started.elapsed().as_secs_f64()));
    if let Some(path) = &args.csv {
        std::fs::write(path, report.csv())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.fit {
        let samples: Vec<CalibrationSample> = rows
            .iter()
            .filter(|r| !r.sample.solved)
            .map(|r| CalibrationSample {
                horizon: r.sample.horizon,
                raw: r.sample.raw,
                final_score: r.sample.final_score,
                weight: r.weight,
            })
            .collect();
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

/// A samples file and its weight, from `FILE` or `FILE@WEIGHT`.
fn weighted(input: &Path) -> Result<(PathBuf, f64)> {
    let text = input.to_string_lossy();
    match text.rsplit_once('@') {
        Some((path, weight)) => match weight.parse::<f64>() {
            Ok(w) if w.is_finite() && w > 0.0 => Ok((PathBuf::from(path), w)),
            _ => bail!("{text}: the weight after @ must be a positive number, not {weight:?}"),
        },
        None => Ok((input.to_path_buf(), 1.0)),
    }
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
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("cannot read --calibration {file}"))?;
            let table: Calibration = text
                .parse()
                .with_context(|| format!("--calibration {file}: not a calibration table"))?;
            Some(Box::leak(Box::new(table)))
        }
    })
}

/// Analyses every `--every`-th decision of the complete 7x7 games of the records.
fn analyse_games(args: &Args, limits: Limits) -> Result<Vec<Row>> {
    let (games, unreadable) = read_all(&args.inputs)?;
    for problem in &unreadable {
        eprintln!("entropy: skipped {problem}");
    }
    let games: Vec<(Game, f64)> = games
        .into_iter()
        .filter_map(|game| match final_score(&game) {
            Ok(score) => Some((game, score)),
            Err(why) => {
                eprintln!("entropy: skipped {}: {why}", game.source);
                None
            }
        })
        .collect();
    // A deterministic player meets itself in the same game twice per deal (roles swapped, same
    // chips): count each game once.
    let mut seen = std::collections::HashSet::new();
    let before = games.len();
    let games: Vec<(Game, f64)> = games
        .into_iter()
        .filter(|(game, _)| seen.insert(game.moves.clone()))
        .collect();
    if games.len() < before {
        eprintln!(
            "entropy: {} games repeat an earlier one move for move; each counts once",
            before - games.len()
        );
    }
    let (games, finals): (Vec<Game>, Vec<f64>) = games.into_iter().unzip();
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
        jobs(args.jobs, games.len()),
        &eval,
        |searcher, game| analyse_game(searcher, game, limits, args.every, &bar),
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

/// Order's final score, for a complete 7x7 game whose moves are all legal.
fn final_score(game: &Game) -> Result<f64, String> {
    if game.size != Size::SEVEN {
        return Err("not a 7x7 game (the calibration is for 7x7)".into());
    }
    let mut position = Position::new(game.size);
    for (i, &mv) in game.moves.iter().enumerate() {
        position
            .play(mv)
            .map_err(|e| format!("move {} ({mv}) is illegal: {e}", i + 1))?;
    }
    if !position.is_over() {
        return Err("the game is not finished".into());
    }
    Ok(position.score() as f64)
}

/// Every `every`-th decision of a game, each analysed from a clean table as the web page does.
fn analyse_game(
    searcher: &mut Searcher<BotEval>,
    game: &Game,
    limits: Limits,
    every: usize,
    bar: &ProgressBar,
) -> Vec<Row> {
    let mut position = Position::new(game.size);
    let mut rows = Vec::new();
    let mut decision = 0;
    for &mv in &game.moves {
        if let Some(role) = position.to_move() {
            if decision % every == 0 {
                searcher.clear();
                let analysis = searcher.analyse(&position, limits, 1, None);
                let sample = DecisionSample {
                    game: 0,
                    turn: position.placed() + usize::from(role == Role::Chaos),
                    role,
                    depth: analysis.depth,
                    solved: analysis.solved,
                    horizon: horizon(&position, analysis.depth, analysis.solved),
                    score: position.score() as f64,
                    raw: analysis.best().value,
                    final_score: 0.0,
                };
                rows.push(Row {
                    sample,
                    weight: 1.0,
                });
                bar.inc(1);
            }
            decision += 1;
        }
        position.play_unchecked(mv);
    }
    rows
}

fn games_in(rows: &[Row]) -> usize {
    let mut games: Vec<usize> = rows.iter().map(|r| r.sample.game).collect();
    games.sort_unstable();
    games.dedup();
    games.len()
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

fn write_samples(path: &Path, rows: &[Row]) -> Result<()> {
    let write = || -> std::io::Result<()> {
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        writeln!(out, "{SAMPLES_HEADER}")?;
        for r in rows {
            writeln!(out, "{}", r.sample)?;
        }
        out.flush()
    };
    write().with_context(|| format!("cannot write {}", path.display()))
}

fn read_samples(path: &Path) -> Result<Vec<Row>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, header)) if header.trim() == SAMPLES_HEADER => {}
        _ => bail!(
            "{}: not a samples file (its first line should be {SAMPLES_HEADER})",
            path.display()
        ),
    }
    lines
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            row_of(line).with_context(|| format!("{} line {}: {line:?}", path.display(), i + 1))
        })
        .collect()
}

fn row_of(line: &str) -> Result<Row> {
    let sample = line.parse().map_err(anyhow::Error::msg)?;
    Ok(Row {
        sample,
        weight: 1.0,
    })
}

/// Sums for one turn and player to move.
#[derive(Copy, Clone, Debug, Default)]
struct Cell {
    decisions: usize,
    value: f64,
    raw: f64,
    final_score: f64,
    squared_error: f64,
}

impl Cell {
    fn mean(&self, sum: f64) -> f64 {
        sum / self.decisions.max(1) as f64
    }

    fn bias(&self) -> f64 {
        self.mean(self.value - self.final_score)
    }

    fn mse(&self) -> f64 {
        self.mean(self.squared_error)
    }
}

/// The per-turn comparison: `cells[turn][role]`, role 0 Chaos (placing chip `turn`), 1 Order
/// (sliding after it).
struct Report {
    cells: Vec<[Cell; 2]>,
    decisions: usize,
    calibrated: bool,
}

impl Report {
    fn of(rows: &[Row], calibration: Option<&Calibration>) -> Report {
        let mut cells = vec![[Cell::default(); 2]; 50];
        for r in rows {
            let offset = calibration.map_or(0.0, |c| c.offset(7, r.sample.horizon));
            // As the analysis shows it: never below the score now.
            let value = (r.sample.raw + offset).max(r.sample.score);
            let cell = &mut cells[r.sample.turn.min(49)][usize::from(r.sample.role == Role::Order)];
            cell.decisions += 1;
            cell.value += value;
            cell.raw += r.sample.raw;
            cell.final_score += r.sample.final_score;
            cell.squared_error += (value - r.sample.final_score).powi(2);
        }
        Report {
            cells,
            decisions: rows.len(),
            calibrated: calibration.is_some(),
        }
    }

    fn text(&self, what: &str, seconds: f64) -> String {
        let mut out = format!(
            "{} decisions: {what} ({:.0} s); values {}\n\
             value: the mean expected final score shown; final: the mean final score; bias: their \
             difference; rmse: root mean squared error\n\
             turn | Chaos to place: n  value  final   bias  rmse | Order to slide: n  value  final   bias  rmse\n",
            self.decisions,
            seconds,
            if self.calibrated { "calibrated" } else { "as searched (no calibration)" }
        );
        let mut worst: Option<(f64, usize, &str)> = None;
        for (turn, pair) in self.cells.iter().enumerate() {
            if pair.iter().all(|c| c.decisions == 0) {
                continue;
            }
            let _ = write!(out, "{turn:>4} |");
            for (cell, role) in pair.iter().zip(["Chaos", "Order"]) {
                if cell.decisions == 0 {
                    let _ = write!(out, "{:>40} |", "");
                    continue;
                }
                let _ = write!(
                    out,
                    "{:>15} {:>6.1} {:>6.1} {:>+6.1} {:>5.1} |",
                    cell.decisions,
                    cell.mean(cell.value),
                    cell.mean(cell.final_score),
                    cell.bias(),
                    cell.mse().sqrt()
                );
                if worst.is_none_or(|(b, ..)| cell.bias().abs() > b) {
                    worst = Some((cell.bias().abs(), turn, role));
                }
            }
            out.pop();
            out.push('\n');
        }
        if let Some((bias, turn, role)) = worst {
            let _ = writeln!(
                out,
                "largest |bias|: {bias:.2} points ({role} to move at turn {turn})"
            );
        }
        out
    }

    fn csv(&self) -> String {
        let mut out = String::from("turn,role,decisions,mean_value,mean_raw,mean_final,bias,mse\n");
        for (turn, pair) in self.cells.iter().enumerate() {
            for (cell, role) in pair.iter().zip(["chaos", "order"]) {
                if cell.decisions > 0 {
                    let _ = writeln!(
                        out,
                        "{turn},{role},{},{:.3},{:.3},{:.3},{:.3},{:.3}",
                        cell.decisions,
                        cell.mean(cell.value),
                        cell.mean(cell.raw),
                        cell.mean(cell.final_score),
                        cell.bias(),
                        cell.mse()
                    );
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_read_back_as_written() {
        // The line format itself is DecisionSample's (entropy_engine::eval); here, the file.
        let rows: Vec<Row> = [
            "3,12,order,7,0,104,20,41.25,80",
            "3,13,chaos,6,1,0,22,22,80",
        ]
        .into_iter()
        .map(|line| row_of(line).unwrap())
        .collect();
        let path = std::env::temp_dir().join(format!("calibrate-{}.csv", std::process::id()));
        write_samples(&path, &rows).unwrap();
        assert_eq!(read_samples(&path).unwrap(), rows);
        std::fs::write(&path, "game,turn\n1,2\n").unwrap();
        assert!(read_samples(&path).is_err());
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn the_report_compares_means_per_turn_and_role() {
        let row = |role, raw, final_score| Row {
            sample: DecisionSample {
                game: 1,
                turn: 5,
                role,
                depth: 3,
                solved: false,
                horizon: 120,
                score: 10.0,
                raw,
                final_score,
            },
            weight: 1.0,
        };
        let rows = [row(Role::Chaos, 40.0, 80.0), row(Role::Chaos, 50.0, 70.0)];
        let report = Report::of(&rows, None);
        let cell = report.cells[5][0];
        assert_eq!(cell.decisions, 2);
        assert_eq!(cell.bias(), -30.0);
        assert_eq!(cell.mse(), (1600.0 + 400.0) / 2.0);
        assert!(report
            .csv()
            .contains("5,chaos,2,45.000,45.000,75.000,-30.000,1000.000"));
    }
}
