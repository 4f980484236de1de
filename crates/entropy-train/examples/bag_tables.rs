//! Does the bag help the line-pattern tables? Fits the tables (as `entropy train-tables` does)
//! on a samples file (`entropy train-tables --data FILE`), then the same tables with a second
//! table per line that also reads how many chips of the line's first two colours are left in
//! the bag, and prints both held-out errors. A pattern renames the colours, so the tables
//! cannot tell `R.R` with no red left from `R.R` with four.
//!
//!   cargo run --release -p entropy-train --example bag_tables -- DATA [EPOCHS]

use entropy_core::{Position, MAX_SIDE};
use entropy_engine::eval::Weights;
use entropy_engine::learned::ntuple::line_patterns;
use entropy_engine::learned::ntuple::{classes, Inputs};
use entropy_engine::learned::NTupleModel;
use entropy_train::linear::Sample;
use entropy_train::saved::read_saved;
use entropy_train::tables::{fit_tables, TablesConfig};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Count buckets per colour: 0, 1, 2, 3 or more (2: none left, or some).
const LEVELS: usize = 4;

/// The actual colours (1-7, 0 for none) renamed 1 and 2 in the line's canonical reading.
fn first_two(key: u32, side: usize) -> (u32, u32) {
    let cell = |i: usize| (key >> (3 * i)) & 7;
    let read = |order: &mut dyn Iterator<Item = usize>| {
        let mut names = [0u32; 8];
        let mut seen = Vec::new();
        let mut relabelled = 0u32;
        for (j, i) in order.enumerate() {
            let c = cell(i);
            let name = if c == 0 {
                0
            } else {
                if names[c as usize] == 0 {
                    seen.push(c);
                    names[c as usize] = seen.len() as u32;
                }
                names[c as usize]
            };
            relabelled |= name << (3 * j);
        }
        (
            relabelled,
            seen.first().copied().unwrap_or(0),
            seen.get(1).copied().unwrap_or(0),
        )
    };
    let forward = read(&mut (0..side));
    let backward = read(&mut (0..side).rev());
    let pick = if backward.0 < forward.0 {
        backward
    } else {
        forward
    };
    (pick.1, pick.2)
}

/// The bag's count of each colour by line-key value (1-7; 0, no colour, counts 0).
fn bag_counts(position: &Position) -> [usize; 8] {
    let mut counts = [0; 8];
    for (colour, n) in position.bag().colours() {
        counts[usize::from(colour.number())] = usize::from(n);
    }
    counts
}

/// The bag table's index of each line: `[phase][class][pattern][level1][level2]`.
fn bag_lines(position: &Position) -> [u32; 2 * MAX_SIDE] {
    let side = position.size().side();
    let patterns = line_patterns(side);
    let board = position.board();
    let phase = usize::from(position.phase() == entropy_core::Phase::Slide);
    let counts = bag_counts(position);
    let level = |colour: u32| counts[colour as usize].min(LEVELS - 1);
    let mut out = [0u32; 2 * MAX_SIDE];
    for i in 0..side {
        let class = i.min(side - 1 - i);
        for (slot, key) in [(i, board.row_key(i)), (side + i, board.column_key(i))] {
            let (a, b) = first_two(key, side);
            let index = (((phase * classes(side) + class) * patterns.count() + patterns.id(key))
                * LEVELS
                + level(a))
                * LEVELS
                + level(b);
            out[slot] = index as u32;
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = std::path::Path::new(args.get(1).expect("usage: bag_tables DATA [EPOCHS]"));
    let epochs: usize = args.get(2).map_or(6, |e| e.parse().expect("EPOCHS"));
    let text = std::fs::read_to_string(path).expect("readable data");
    let settings = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# "))
        .expect("a settings line")
        .to_owned();
    drop(text);
    let samples: Vec<Sample> = read_saved(path, &settings)
        .expect("a samples file")
        .into_values()
        .flatten()
        .collect();
    eprintln!("{} samples", samples.len());
    let weights = Weights::trained();
    let config = TablesConfig {
        epochs,
        ..TablesConfig::default()
    };
    let plain = fit_tables(&weights, &samples, &config, |r, _| {
        eprintln!("plain {}", r.line())
    });
    drop(plain);

    // The same fit with the bag table added.
    let every = config.holdout_every;
    let (train, test): (Vec<&Sample>, Vec<&Sample>) =
        samples.iter().partition(|s| s.game % every != 0);
    let (mean, scale) = entropy_train::fit::feature_moments(train.iter().map(|s| s.features));
    let mut model = NTupleModel::zero(7, weights, mean, scale);
    let side = 7;
    let size = 2 * classes(side) * line_patterns(side).count() * LEVELS * LEVELS;
    let mut bag = vec![0f32; size];
    let set = |list: &[&Sample]| -> Vec<(Inputs, [u32; 2 * MAX_SIDE], f32)> {
        list.iter()
            .map(|s| {
                (
                    model.inputs_with(&s.position, &s.features),
                    bag_lines(&s.position),
                    s.target as f32,
                )
            })
            .collect()
    };
    let train = set(&train);
    let test = set(&test);
    let value = |model: &NTupleModel, bag: &[f32], i: &Inputs, b: &[u32; 2 * MAX_SIDE]| {
        model.value_of(i)
            + b[..i.line_count]
                .iter()
                .map(|&k| bag[k as usize])
                .sum::<f32>()
    };
    let mse = |model: &NTupleModel, bag: &[f32], set: &[(Inputs, [u32; 2 * MAX_SIDE], f32)]| {
        set.iter()
            .map(|(i, b, t)| f64::from(value(model, bag, i, b) - t).powi(2))
            .sum::<f64>()
            / set.len() as f64
    };
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.seed);
    for epoch in 0..epochs {
        let rate = config.rate * (1.0 - 0.9 * epoch as f32 / (epochs.max(2) - 1) as f32);
        order.shuffle(&mut rng);
        for &k in &order {
            let (inputs, lines, target) = &train[k];
            let error = target - value(&model, &bag, inputs, lines);
            let norm = model.norm(inputs) + inputs.line_count as f32;
            let g = rate * error / norm;
            model.step(inputs, g);
            for &l in &lines[..inputs.line_count] {
                bag[l as usize] += g;
            }
        }
        eprintln!(
            "bag epoch {}: step {rate:.4}, mean squared error {:.3} fitted, {:.3} held out",
            epoch + 1,
            mse(&model, &bag, &train),
            mse(&model, &bag, &test)
        );
    }
}
