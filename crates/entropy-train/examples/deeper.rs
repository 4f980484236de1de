//! Per-phase breakdown of the static evaluation against a search two moves deeper, on
//! mid-game positions of self-play: `deeper [WEIGHTS]` (the shipped weights by default).
use entropy_core::Phase;
use entropy_engine::eval::{Evaluator, LinearEval, Weights};
use entropy_engine::search::Searcher;
use entropy_train::{generate, TrainConfig, MID_GAME};

fn main() {
    let weights = match std::env::args().nth(1) {
        Some(path) => Weights::read(path).unwrap_or_else(|problem| {
            eprintln!(
                "deeper: {problem} (the argument: a weights file, or none for the shipped ones)"
            );
            std::process::exit(2);
        }),
        None => Weights::trained(),
    };
    let config = TrainConfig {
        games: 40,
        jobs: 2,
        ..TrainConfig::default()
    };
    let samples = generate(&weights, &config, 100_000, &|| {});
    let eval = LinearEval::new(weights);
    let mut searcher = Searcher::new(eval.clone(), 4);
    for (name, want) in [("draw", 0), ("place", 1), ("slide", 2)] {
        let (mut s, mut d) = (Vec::new(), Vec::new());
        for sample in samples
            .iter()
            .filter(|s| MID_GAME.contains(&s.position.placed()))
        {
            let p = &sample.position;
            let phase = match p.phase() {
                Phase::Draw => 0,
                Phase::Place(_) => 1,
                _ => 2,
            };
            if phase != want {
                continue;
            }
            s.push(eval.evaluate(p));
            d.push(searcher.value(p, 2).0);
        }
        let n = s.len() as f64;
        let bias = d.iter().zip(&s).map(|(a, b)| a - b).sum::<f64>() / n;
        let r2 = entropy_train::fit::r_squared(&s, &d);
        // A bias common to one phase cancels inside a search (an iteration's leaves share
        // their phase), so the R^2 of the shifted evaluation says how well it ranks positions.
        let shifted: Vec<f64> = s.iter().map(|v| v + bias).collect();
        let ranked = entropy_train::fit::r_squared(&shifted, &d);
        println!(
            "{name}: {n} positions, deeper - static {bias:+.2}, R^2 {r2:.3}, {ranked:.3} without the bias"
        );
    }
}
