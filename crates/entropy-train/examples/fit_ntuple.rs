//! Experiment: the n-tuple tables (per-line pattern weights and a linear correction, on top of
//! the shipped linear evaluation) fitted to the linear training's own targets (search values of
//! self-play decisions, a tenth from the final score), for the search's leaves.
//!
//! `fit_ntuple GAMES EPOCHS RATE OUT [SEED]`: plays GAMES self-play games as `entropy train`
//! does (3,000 nodes a move, lambda 0.1, the shipped weights), holds out one game in five, fits
//! by normalised least mean squares over EPOCHS passes (the step falling linearly from RATE to
//! a tenth of it), and writes the model of the pass with the least held-out error to OUT
//! (`search:net=OUT` plays it at the leaves).
use entropy_engine::eval::{Weights, FEATURES};
use entropy_engine::learned::NTupleModel;
use entropy_train::{generate, TrainConfig};
use rand::seq::SliceRandom;
use rand::SeedableRng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: fit_ntuple GAMES EPOCHS RATE OUT [SEED]");
        std::process::exit(2);
    }
    let games: usize = args[1].parse().expect("GAMES");
    let epochs: usize = args[2].parse().expect("EPOCHS");
    let rate: f32 = args[3].parse().expect("RATE");
    let out = &args[4];
    let seed: u64 = args.get(5).map_or(7, |s| s.parse().expect("SEED"));
    let config = TrainConfig {
        seed,
        games,
        lambda: 0.1,
        jobs: 2,
        ..TrainConfig::default()
    };
    let weights = Weights::trained();
    let started = std::time::Instant::now();
    let samples = generate(&weights, &config, 0, &|| {});
    eprintln!(
        "{} samples from {games} games in {:.0} s",
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    let (train, test): (Vec<_>, Vec<_>) = samples.iter().partition(|s| s.game % 5 != 0);

    let mut sum = [0f64; FEATURES];
    let mut squares = [0f64; FEATURES];
    for s in &train {
        for k in 0..FEATURES {
            sum[k] += s.features[k];
            squares[k] += s.features[k] * s.features[k];
        }
    }
    let n = train.len() as f64;
    let mut mean = [0f32; FEATURES];
    let mut scale = [1f32; FEATURES];
    for k in 0..FEATURES {
        let m = sum[k] / n;
        mean[k] = m as f32;
        scale[k] = (squares[k] / n - m * m).max(1e-6).sqrt() as f32;
    }
    let mut model = NTupleModel::zero(7, weights, mean, scale);
    let inputs = |set: &[&entropy_train::Sample], model: &NTupleModel| {
        set.iter()
            .map(|s| (model.inputs_with(&s.position, &s.features), s.target as f32))
            .collect::<Vec<_>>()
    };
    let train_inputs = inputs(&train, &model);
    let test_inputs = inputs(&test, &model);
    let mse = |model: &NTupleModel, set: &[(entropy_engine::learned::ntuple::Inputs, f32)]| {
        set.iter()
            .map(|(i, t)| {
                let e = f64::from(model.value_of(i) - t);
                e * e
            })
            .sum::<f64>()
            / set.len() as f64
    };
    // The error left once each bucket's mean error is taken out: what a search comparing
    // positions of one phase and turn sees.
    let test_buckets: Vec<usize> = test.iter().map(|s| s.bucket.0).collect();
    let within = |model: &NTupleModel| {
        let mut sum = vec![0f64; entropy_engine::eval::BUCKETS];
        let mut count = vec![0f64; entropy_engine::eval::BUCKETS];
        let errors: Vec<f64> = test_inputs
            .iter()
            .map(|(i, t)| f64::from(model.value_of(i) - t))
            .collect();
        for (e, &b) in errors.iter().zip(&test_buckets) {
            sum[b] += e;
            count[b] += 1.0;
        }
        errors
            .iter()
            .zip(&test_buckets)
            .map(|(e, &b)| (e - sum[b] / count[b]).powi(2))
            .sum::<f64>()
            / errors.len() as f64
    };
    let base = mse(&model, &test_inputs);
    let base_within = within(&model);
    eprintln!(
        "held out: {} samples, the base's mean squared error {base:.3}, {base_within:.3} within buckets",
        test.len()
    );
    let mut order: Vec<usize> = (0..train_inputs.len()).collect();
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut best = f64::INFINITY;
    for epoch in 0..epochs {
        let step = rate * (1.0 - 0.9 * epoch as f32 / (epochs.max(2) - 1) as f32);
        order.shuffle(&mut rng);
        for &i in &order {
            let (inputs, target) = &train_inputs[i];
            model.learn(inputs, *target, step);
        }
        let train_error = mse(&model, &train_inputs);
        let error = mse(&model, &test_inputs);
        let error_within = within(&model);
        eprintln!(
            "epoch {}: rate {step:.4}, train {train_error:.3}, held out {error:.3} ({:.1}% of the base's), within buckets {error_within:.3} ({:.1}%)",
            epoch + 1,
            100.0 * error / base,
            100.0 * error_within / base_within
        );
        if error < best {
            best = error;
            model.set_provenance(&format!(
                "fit_ntuple {games} {epochs} {rate} seed {seed}: epoch {} of {epochs}, held-out mean squared error {error:.3} against the base's {base:.3}",
                epoch + 1
            ));
            std::fs::write(out, model.to_bytes()).expect("write the model");
        }
    }
}
