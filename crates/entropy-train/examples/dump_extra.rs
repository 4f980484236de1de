//! Study (kept in its commit, then reverted): self-play samples as CSV, as `entropy train` makes
//! them, with five candidates from the bag: `pot_bag`, `bag_pairs`, `min_add`, `min2`,
//! `zero_cells` (docs/search.md). Usage: dump_extra GAMES NODES [SEED] > FILE.csv
use entropy_engine::eval::Weights;
use entropy_train::{generate, TrainConfig};
use std::io::Write;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let nodes: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2023);
    let config = TrainConfig {
        games,
        nodes,
        seed,
        jobs: 2,
        ..TrainConfig::default()
    };
    let samples = generate(&Weights::trained(), &config, 0, &|| {});
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for s in &samples {
        let p = &s.position;
        let bag = p.bag();
        let total = bag.total() as f64;
        let score = p.score();
        let colours: Vec<_> = p.size().game_colours().collect();
        let probs: Vec<f64> = colours
            .iter()
            .map(|&c| {
                if total > 0.0 {
                    bag.count(c) as f64 / total
                } else {
                    0.0
                }
            })
            .collect();
        let empties: Vec<_> = p.board().vacant_cells().collect();
        let mut pot_bag = 0.0;
        let mut min_add = 0.0;
        let mut zero_cells = 0.0;
        let mut min2 = 0.0;
        for (k, &c) in colours.iter().enumerate() {
            let mut adds: Vec<u32> = empties
                .iter()
                .map(|&cell| p.score_after_place(cell, c) - score)
                .collect();
            adds.sort();
            let sum: u32 = adds.iter().sum();
            pot_bag += probs[k] * sum as f64;
            if let Some(&m) = adds.first() {
                min_add += probs[k] * m as f64;
            }
            if adds.len() >= 2 {
                min2 += probs[k] * adds[1] as f64;
            }
            zero_cells += probs[k] * adds.iter().filter(|&&a| a == 0).count() as f64;
        }
        let n_tot = total.max(2.0);
        let bag_pairs: f64 = colours
            .iter()
            .map(|&c| {
                let n = bag.count(c) as f64;
                n * (n - 1.0)
            })
            .sum::<f64>()
            / (n_tot * (n_tot - 1.0));
        let f: Vec<String> = s.features.to_vec().iter().map(|v| format!("{v}")).collect();
        writeln!(
            out,
            "{},{},{},{},{},{},{pot_bag},{bag_pairs},{min_add},{min2},{zero_cells}",
            s.game,
            p.placed(),
            s.bucket.0,
            f.join(","),
            s.target,
            s.outcome
        )
        .unwrap();
    }
}
