//! The n-tuple tables at the search's leaves (`entropy train-tables`): per-line pattern weights
//! and a linear correction by phase and stage ([`NTupleModel`], the model `net` plays with)
//! over a linear evaluation, fitted to the targets the linear training makes ([`crate::linear`]:
//! the search values of self-play decisions, part of the way to the game's final score) by
//! normalised least mean squares.
//!
//! `net`'s own tables, learned from afterstates by distillation or temporal differences, added
//! nothing at the search's leaves; fitted to these targets, over the shipped linear weights,
//! they passed the test ladder's short clock (docs/testing.md).

use entropy_engine::eval::{Weights, BUCKETS};
use entropy_engine::learned::ntuple::Inputs;
use entropy_engine::learned::NTupleModel;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::linear::Sample;

/// How to fit the tables.
#[derive(Clone, Debug)]
pub struct TablesConfig {
    /// Seed of the order of the samples in each pass.
    pub seed: u64,
    /// Passes over the samples.
    pub epochs: usize,
    /// The step at the first pass (the share of each error corrected); it falls linearly to a
    /// tenth of this at the last.
    pub rate: f32,
    /// One game in this many is held out to measure the error.
    pub holdout_every: usize,
}

impl Default for TablesConfig {
    fn default() -> Self {
        TablesConfig {
            seed: 7,
            epochs: 6,
            rate: 0.05,
            holdout_every: 5,
        }
    }
}

/// How one pass left the fit.
#[derive(Clone, Debug, PartialEq)]
pub struct TablesReport {
    /// The pass, from 1.
    pub epoch: usize,
    /// Its step.
    pub rate: f32,
    /// Mean squared error on the samples fitted.
    pub train_error: f64,
    /// Mean squared error on the held-out games' samples.
    pub held_out: f64,
    /// The same with each bucket's mean error taken out: the error a search comparing
    /// positions of one phase and turn sees.
    pub held_out_within: f64,
    /// The linear evaluation's own held-out errors, overall and within buckets.
    pub base: (f64, f64),
    /// Whether this pass has the least held-out error so far (the model kept).
    pub best: bool,
}

impl TablesReport {
    /// One line for people.
    pub fn line(&self) -> String {
        format!(
            "epoch {}: step {:.4}, mean squared error {:.3} fitted, {:.3} held out ({:.1}% of the linear evaluation's {:.3}), {:.3} within buckets ({:.1}% of {:.3}){}",
            self.epoch,
            self.rate,
            self.train_error,
            self.held_out,
            100.0 * self.held_out / self.base.0,
            self.base.0,
            self.held_out_within,
            100.0 * self.held_out_within / self.base.1,
            self.base.1,
            if self.best { "" } else { "; not kept" }
        )
    }
}

/// The samples as the model reads them, with their targets and buckets.
struct Set {
    inputs: Vec<(Inputs, f32)>,
    buckets: Vec<usize>,
}

impl Set {
    fn new(model: &NTupleModel, samples: &[&Sample]) -> Set {
        Set {
            inputs: samples
                .iter()
                .map(|s| (model.inputs_with(&s.position, &s.features), s.target as f32))
                .collect(),
            buckets: samples.iter().map(|s| s.bucket.0).collect(),
        }
    }

    fn errors(&self, model: &NTupleModel) -> Vec<f64> {
        self.inputs
            .iter()
            .map(|(i, t)| f64::from(model.value_of(i) - t))
            .collect()
    }

    /// Mean squared error, overall and with each bucket's mean error taken out.
    fn error(&self, model: &NTupleModel) -> (f64, f64) {
        let errors = self.errors(model);
        let n = errors.len().max(1) as f64;
        let mut sum = vec![0f64; BUCKETS];
        let mut count = vec![0f64; BUCKETS];
        for (e, &b) in errors.iter().zip(&self.buckets) {
            sum[b] += e;
            count[b] += 1.0;
        }
        let overall = errors.iter().map(|e| e * e).sum::<f64>() / n;
        let within = errors
            .iter()
            .zip(&self.buckets)
            .map(|(e, &b)| (e - sum[b] / count[b]).powi(2))
            .sum::<f64>()
            / n;
        (overall, within)
    }
}

/// Fits tables over the linear evaluation `weights` to the samples' targets (7x7 positions),
/// holding out one game in `config.holdout_every`; calls `report` after each pass with the
/// model as it stands, and returns the model of the pass with the least held-out error.
pub fn fit_tables(
    weights: &Weights,
    samples: &[Sample],
    config: &TablesConfig,
    mut report: impl FnMut(&TablesReport, &NTupleModel),
) -> NTupleModel {
    let every = config.holdout_every.max(2);
    let (train, test): (Vec<&Sample>, Vec<&Sample>) =
        samples.iter().partition(|s| s.game % every != 0);
    let (mean, scale) = crate::fit::feature_moments(train.iter().map(|s| s.features));
    let mut model = NTupleModel::zero(7, weights.clone(), mean, scale);
    let train = Set::new(&model, &train);
    let test = Set::new(&model, &test);
    let base = test.error(&model);
    let mut best = (f64::INFINITY, model.clone());
    let mut order: Vec<usize> = (0..train.inputs.len()).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    let epochs = config.epochs.max(1);
    for epoch in 0..epochs {
        let rate = config.rate * (1.0 - 0.9 * epoch as f32 / (epochs.max(2) - 1) as f32);
        order.shuffle(&mut rng);
        for &i in &order {
            let (inputs, target) = &train.inputs[i];
            model.learn(inputs, *target, rate);
        }
        let (held_out, held_out_within) = test.error(&model);
        let improved = held_out < best.0;
        if improved {
            best = (held_out, model.clone());
        }
        let line = TablesReport {
            epoch: epoch + 1,
            rate,
            train_error: train.error(&model).0,
            held_out,
            held_out_within,
            base,
            best: improved,
        };
        report(&line, &best.1);
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::{generate, TrainConfig};
    use entropy_engine::eval::FEATURES;

    fn samples(games: usize) -> Vec<Sample> {
        let config = TrainConfig {
            games,
            nodes: 300,
            lambda: 0.1,
            jobs: 2,
            ..TrainConfig::default()
        };
        generate(&Weights::trained(), &config, 0, &|| {})
    }

    #[test]
    fn the_tables_fit_their_samples_better_than_the_linear_evaluation() {
        let samples = samples(10);
        let config = TablesConfig {
            epochs: 2,
            ..TablesConfig::default()
        };
        let mut reports = Vec::new();
        let model = fit_tables(&Weights::trained(), &samples, &config, |r, _| {
            reports.push(r.clone())
        });
        assert_eq!(reports.len(), 2);
        let (train, _): (Vec<&Sample>, Vec<&Sample>) =
            samples.iter().partition(|s| s.game % 5 != 0);
        let zero = NTupleModel::zero(7, Weights::trained(), [0.0; FEATURES], [1.0; FEATURES]);
        let base = Set::new(&zero, &train).error(&zero).0;
        assert!(
            reports[1].train_error < base,
            "{} against {base}",
            reports[1].train_error
        );
        // The model returned is the pass with the least held-out error.
        let least = reports
            .iter()
            .map(|r| r.held_out)
            .fold(f64::INFINITY, f64::min);
        let test: Vec<&Sample> = samples.iter().filter(|s| s.game % 5 == 0).collect();
        let kept = Set::new(&model, &test).error(&model).0;
        assert!((kept - least).abs() < 1e-9, "{kept} against {least}");
    }

    #[test]
    fn a_fit_depends_on_its_seed_alone() {
        let samples = samples(5);
        let config = TablesConfig {
            epochs: 1,
            ..TablesConfig::default()
        };
        let a = fit_tables(&Weights::trained(), &samples, &config, |_, _| {});
        let b = fit_tables(&Weights::trained(), &samples, &config, |_, _| {});
        assert_eq!(a.to_bytes(), b.to_bytes());
    }
}
