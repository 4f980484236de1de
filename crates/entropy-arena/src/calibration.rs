//! How far the expected final scores people read are from the final scores of the games that
//! followed: every decision of recorded games analysed afresh ([`decision_samples`]), and the
//! per-turn report of the bias ([`Report`]), from which `entropy calibrate` fits the correction
//! ([`entropy_engine::eval::Calibration::fit`]).

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

use entropy_core::{Position, Role, Size};
use entropy_engine::eval::{Calibration, CalibrationSample, DecisionSample, SAMPLES_HEADER};
use entropy_engine::learned::BotEval;
use entropy_engine::search::{horizon, Limits, Searcher};

use crate::games::RecordedGame;

/// One analysed decision, and how much it counts in a fit (`FILE@WEIGHT`; not written to
/// samples files).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Row {
    /// The decision's numbers.
    pub sample: DecisionSample,
    /// Its weight in a fit.
    pub weight: f64,
}

impl Row {
    /// What [`Calibration::fit`] takes of it, where the search was not exact.
    pub fn calibration_sample(&self) -> Option<CalibrationSample> {
        (!self.sample.solved).then_some(CalibrationSample {
            horizon: self.sample.horizon,
            raw: self.sample.raw,
            final_score: self.sample.final_score,
            weight: self.weight,
        })
    }
}

/// The finished 7x7 games with their final scores, each game once (a deterministic player meets
/// itself in the same game twice per deal, roles swapped, same chips), and a note for each game
/// left out.
pub fn complete_games(games: Vec<RecordedGame>) -> (Vec<(RecordedGame, f64)>, Vec<String>) {
    let mut notes = Vec::new();
    let mut seen = HashSet::new();
    let mut repeats = 0;
    let mut kept = Vec::new();
    for game in games {
        let score = if game.size == Size::SEVEN {
            game.final_score()
        } else {
            Err("not a 7x7 game (the calibration is for 7x7)".into())
        };
        match score {
            Err(why) => notes.push(format!("skipped {}: {why}", game.source)),
            Ok(_) if !seen.insert(game.moves.clone()) => repeats += 1,
            Ok(score) => kept.push((game, f64::from(score))),
        }
    }
    if repeats > 0 {
        notes.push(format!(
            "{repeats} games repeat an earlier one move for move; each counts once"
        ));
    }
    (kept, notes)
}

/// Every `every`-th decision of a game, each analysed from a clean table as the web page does;
/// `on_decision` is called after each. The rows' game and final score are left for the caller.
pub fn decision_samples(
    searcher: &mut Searcher<BotEval>,
    game: &RecordedGame,
    limits: Limits,
    every: usize,
    mut on_decision: impl FnMut(),
) -> Vec<Row> {
    let mut position = Position::new(game.size);
    let mut rows = Vec::new();
    let mut decision = 0;
    for &mv in &game.moves {
        if let Some(role) = position.to_move() {
            if decision % every.max(1) == 0 {
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
                on_decision();
            }
            decision += 1;
        }
        position.play_unchecked(mv);
    }
    rows
}

/// The number of distinct games among the rows.
pub fn games_in(rows: &[Row]) -> usize {
    let mut games: Vec<usize> = rows.iter().map(|r| r.sample.game).collect();
    games.sort_unstable();
    games.dedup();
    games.len()
}

/// The rows as a samples file's text (for `--from-samples`).
pub fn samples_text(rows: &[Row]) -> String {
    let mut out = format!("{SAMPLES_HEADER}\n");
    for r in rows {
        let _ = writeln!(out, "{}", r.sample);
    }
    out
}

/// Reads a samples file back, each row at `weight`.
pub fn read_samples(path: &Path, weight: f64) -> Result<Vec<Row>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, header)) if header.trim() == SAMPLES_HEADER => {}
        _ => {
            return Err(format!(
                "{}: not a samples file (its first line should be {SAMPLES_HEADER})",
                path.display()
            ))
        }
    }
    lines
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            let sample = line
                .parse()
                .map_err(|e| format!("{} line {}: {line:?}: {e}", path.display(), i + 1))?;
            Ok(Row { sample, weight })
        })
        .collect()
}

/// Reads a samples file named `FILE` or `FILE@WEIGHT` (its decisions count WEIGHT times in a
/// fit; 1 by default).
pub fn read_weighted_samples(input: &Path) -> Result<Vec<Row>, String> {
    let text = input.to_string_lossy();
    match text.rsplit_once('@') {
        Some((path, weight)) => match weight.parse::<f64>() {
            Ok(w) if w.is_finite() && w > 0.0 => read_samples(Path::new(path), w),
            _ => Err(format!(
                "{text}: the weight after @ must be a positive number, not {weight:?}"
            )),
        },
        None => read_samples(input, 1.0),
    }
}

/// Reads a calibration table written by `entropy calibrate --fit`.
pub fn read_calibration(path: &Path) -> Result<Calibration, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    text.parse()
        .map_err(|e| format!("{}: not a calibration table: {e}", path.display()))
}

/// Sums for one turn and player to move.
#[derive(Copy, Clone, Debug, Default)]
pub struct Cell {
    /// Decisions counted.
    pub decisions: usize,
    value: f64,
    raw: f64,
    final_score: f64,
    squared_error: f64,
}

impl Cell {
    fn mean(&self, sum: f64) -> f64 {
        sum / self.decisions.max(1) as f64
    }

    /// The mean value shown less the mean final score.
    pub fn bias(&self) -> f64 {
        self.mean(self.value - self.final_score)
    }

    /// The mean squared error of the value shown.
    pub fn mse(&self) -> f64 {
        self.mean(self.squared_error)
    }
}

/// The per-turn comparison: `cells[turn][role]`, role 0 Chaos (placing chip `turn`), 1 Order
/// (sliding after it).
pub struct Report {
    /// By turn, Chaos's cell then Order's.
    pub cells: Vec<[Cell; 2]>,
    decisions: usize,
    calibrated: bool,
}

impl Report {
    /// The report on the rows, their values corrected by `calibration` (none: as searched).
    pub fn of(rows: &[Row], calibration: Option<&Calibration>) -> Report {
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

    /// The table as text, with the largest bias last; `what` says what was analysed.
    pub fn text(&self, what: &str, seconds: f64) -> String {
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

    /// The table as CSV (`scripts/plot_calibration.py` draws it).
    pub fn csv(&self) -> String {
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

    fn row(role: Role, raw: f64, final_score: f64) -> Row {
        Row {
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
        }
    }

    #[test]
    fn samples_read_back_as_written() {
        let rows = [row(Role::Order, 41.25, 80.0), row(Role::Chaos, 22.0, 80.0)];
        let path = std::env::temp_dir().join(format!("calibrate-{}.csv", std::process::id()));
        std::fs::write(&path, samples_text(&rows)).unwrap();
        assert_eq!(read_samples(&path, 1.0).unwrap(), rows);
        assert!(read_samples(&path, 2.0)
            .unwrap()
            .iter()
            .all(|r| r.weight == 2.0));
        std::fs::write(&path, "game,turn\n1,2\n").unwrap();
        assert!(read_samples(&path, 1.0).is_err());
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn the_report_compares_means_per_turn_and_role() {
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
