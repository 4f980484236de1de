//! Times feature extraction and evaluation on positions from random games.
use entropy_core::{Position, Size};
use entropy_engine::bots::random_move;
use entropy_engine::eval::{features, threats, Evaluator, LinearEval};
use rand::SeedableRng;

fn main() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
    let mut positions = Vec::new();
    for _ in 0..200 {
        let mut pos = Position::new(Size::SEVEN);
        while !pos.is_over() {
            positions.push(pos);
            let mv = random_move(&pos, &mut rng);
            pos.play_unchecked(mv);
        }
    }
    let eval = LinearEval::hand();
    let _ = features(&positions[0]);
    for (name, f) in [
        (
            "threats",
            &(|p: &Position| threats(p).0 as f64) as &dyn Fn(&Position) -> f64,
        ),
        ("features", &|p: &Position| features(p)[3]),
        ("evaluate", &|p: &Position| eval.evaluate(p)),
    ] {
        let start = std::time::Instant::now();
        let mut sum = 0.0;
        for _ in 0..5 {
            for p in &positions {
                sum += f(p);
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / (5 * positions.len()) as f64;
        println!("{name:>9}: {ns:.0} ns per position ({sum:.0})");
    }
}
