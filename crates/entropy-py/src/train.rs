//! `entropy train`'s and `entropy train-net`'s parts for Python drivers (the cluster's): one
//! self-play or teacher game, the fit of a generation or of the teacher's data, the weights. Weights cross as lists of floats (exact), samples as text (exact),
//! so games played on any worker and fitted by the driver give the weights `entropy train`
//! gives.

use entropy_core::Size;
use entropy_engine::eval::{Bucket, LinearEval, Weights, BUCKETS, FEATURES};
use entropy_engine::search::Searcher;
use entropy_train::distill::{
    fit_teacher_data, teacher_game, transitions_from_text, transitions_to_text, DistillConfig,
    FitConfig,
};
use entropy_train::{fit_generation, samples_from_text, samples_to_text, self_play, TrainConfig};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Weights as Python sees them: a list per bucket of the intercept and the feature weights.
type PyWeights = Vec<Vec<f64>>;

fn to_py(weights: &Weights) -> PyWeights {
    (0..BUCKETS)
        .map(|b| weights.bucket(Bucket(b)).to_vec())
        .collect()
}

fn from_py(weights: &PyWeights) -> PyResult<Weights> {
    if weights.len() != BUCKETS {
        return Err(PyValueError::new_err(format!(
            "weights need {BUCKETS} buckets, not {}",
            weights.len()
        )));
    }
    let mut out = Weights::hand();
    for (b, values) in weights.iter().enumerate() {
        let values: [f64; FEATURES + 1] = values.as_slice().try_into().map_err(|_| {
            PyValueError::new_err(format!(
                "bucket {b} has {} weights, not {}",
                values.len(),
                FEATURES + 1
            ))
        })?;
        out.set_bucket(Bucket(b), values);
    }
    Ok(out)
}

/// A search limit of no node is refused: it would play nothing.
fn check_nodes(nodes: u64) -> PyResult<()> {
    if nodes == 0 {
        return Err(PyValueError::new_err("nodes must be at least 1"));
    }
    Ok(())
}

fn config(seed: u64, nodes: u64, ridge: f64, lambda: f64) -> TrainConfig {
    TrainConfig {
        seed,
        nodes,
        ridge,
        lambda,
        ..TrainConfig::default()
    }
}

/// The weights to start training from: `hand`, `trained` or a weights file (ValueError if it
/// cannot be read).
#[pyfunction]
pub fn train_start(start: &str) -> PyResult<PyWeights> {
    entropy_train::start_weights(start)
        .map(|w| to_py(&w))
        .map_err(PyValueError::new_err)
}

/// Plays self-play game `game` of `entropy train` with these weights and settings; returns its
/// samples as text, one line each.
#[pyfunction]
#[pyo3(signature = (weights, game, seed = 2023, nodes = 3000, lambda_ = 0.0))]
pub fn train_self_play(
    py: Python<'_>,
    weights: PyWeights,
    game: usize,
    seed: u64,
    nodes: u64,
    lambda_: f64,
) -> PyResult<String> {
    check_nodes(nodes)?;
    let weights = from_py(&weights)?;
    let config = config(seed, nodes, 0.0, lambda_);
    Ok(py.detach(|| samples_to_text(&self_play(&weights, &config, game))))
}

/// Fits generation `generation` from the samples of its games in game order (texts of
/// `train_self_play`) and the weights that played them; returns the new weights and the
/// report line `entropy train` prints.
#[pyfunction]
#[pyo3(signature = (weights, samples, generation, ridge = 1e-3))]
pub fn train_fit(
    py: Python<'_>,
    weights: PyWeights,
    samples: Vec<String>,
    generation: usize,
    ridge: f64,
) -> PyResult<(PyWeights, String)> {
    let weights = from_py(&weights)?;
    let mut all = Vec::new();
    for (i, text) in samples.iter().enumerate() {
        all.extend(
            samples_from_text(text)
                .map_err(|e| PyValueError::new_err(format!("game text {i}: {e}")))?,
        );
    }
    let config = config(0, 1, ridge, 0.0);
    let (fitted, report) = py.detach(|| fit_generation(&weights, all, &config, generation.max(1)));
    Ok((to_py(&fitted), report.line()))
}

/// The weights as the text `entropy train` writes (each comment line after `# `).
#[pyfunction]
#[pyo3(signature = (weights, comment = ""))]
pub fn weights_text(weights: PyWeights, comment: &str) -> PyResult<String> {
    Ok(from_py(&weights)?.to_text(comment))
}

/// Plays teacher game `game` of `entropy train-net --method distill` (the searcher with the
/// shipped linear evaluation, `nodes` per search, `candidates` other afterstates valued per
/// decision, draw positions valued by the mean over the bag's colours with `average_draws`, the
/// played move valued by a search of its own unless `consistent` is false, every afterstate of
/// a decision searched to one depth with `same_depth`);
/// returns its afterstates and targets as text, one line each.
#[pyfunction]
#[pyo3(signature = (game, seed = 2026, nodes = 2000, candidates = 2, average_draws = false, best_candidates = 0, consistent = true, same_depth = false))]
// Python's keyword arguments, one per setting of the teacher.
#[allow(clippy::too_many_arguments)]
pub fn distill_teacher_game(
    py: Python<'_>,
    game: usize,
    seed: u64,
    nodes: u64,
    candidates: usize,
    average_draws: bool,
    best_candidates: usize,
    consistent: bool,
    same_depth: bool,
) -> PyResult<String> {
    check_nodes(nodes)?;
    let config = DistillConfig {
        seed,
        games: game + 1,
        nodes,
        candidates,
        average_draws,
        best_candidates,
        consistent,
        same_depth,
        candidate_model: None,
        jobs: 1,
        size: Size::SEVEN,
    };
    Ok(py.detach(|| {
        let mut searcher = Searcher::new(LinearEval::trained(), 4);
        transitions_to_text(&teacher_game(&mut searcher, &config, game))
    }))
}

/// Fits the learned agent's model to the teacher games' texts (game order), as `entropy
/// train-net --method distill` does after its games: `on_epoch(line, csv_line, epoch, model)`
/// is called before fitting (epoch 0, model None) and after each epoch with the report line,
/// the learning curve's CSV line (seconds counted from `seconds` ago) and the model file's
/// bytes (provenance: `made_by`, then the epochs done). The CSV's header is the module's
/// `DISTILL_CURVE_HEADER`.
#[pyfunction]
#[pyo3(signature = (games, on_epoch, made_by, seed = 2026, epochs = 4, rate = 0.05, rate_end = 0.005, eval_deals = 100, jobs = 1, seconds = 0.0, pairwise = 0.0))]
#[allow(clippy::too_many_arguments)]
pub fn distill_fit(
    py: Python<'_>,
    games: Vec<String>,
    on_epoch: Py<PyAny>,
    made_by: &str,
    seed: u64,
    epochs: usize,
    rate: f32,
    rate_end: f32,
    eval_deals: usize,
    jobs: usize,
    seconds: f64,
    pairwise: f32,
) -> PyResult<()> {
    let mut data = Vec::new();
    for (i, text) in games.iter().enumerate() {
        data.extend(
            transitions_from_text(text)
                .map_err(|e| PyValueError::new_err(format!("teacher game text {i}: {e}")))?,
        );
    }
    let config = FitConfig {
        seed,
        games: games.len(),
        epochs,
        rate,
        rate_end,
        eval_deals,
        jobs: jobs.max(1),
        size: Size::SEVEN,
        pairwise,
    };
    let started = std::time::Instant::now();
    py.detach(|| {
        fit_teacher_data(&data, &config, |report, model| -> PyResult<()> {
            let csv = report.csv_line(seconds + started.elapsed().as_secs_f64());
            let bytes = (report.epoch > 0).then(|| {
                let mut model = model.clone();
                model.set_provenance(&format!(
                    "made by: {made_by}\nepochs done: {}",
                    report.epoch
                ));
                model.to_bytes()
            });
            Python::attach(|py| {
                let bytes = bytes.map(|b| PyBytes::new(py, &b));
                on_epoch.call1(py, (report.line(), csv, report.epoch, bytes))?;
                Ok(())
            })
        })
        .map(|_| ())
    })
}
