//! Scratch study: self-play samples as CSV, one line each: game, turn, bucket, the features,
//! the search value (the target), the final score.
//!
//! `cargo run --release -p entropy-train --example dump_samples -- GAMES NODES [SEED] > FILE.csv`
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
        let f: Vec<String> = s.features.iter().map(|v| format!("{v}")).collect();
        writeln!(
            out,
            "{},{},{},{},{},{}",
            s.game,
            s.position.placed(),
            s.bucket.0,
            f.join(","),
            s.target,
            s.outcome
        )
        .expect("stdout is writable");
    }
}
