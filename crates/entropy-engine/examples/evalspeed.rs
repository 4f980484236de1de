//! Times feature extraction and evaluation on positions from random games.
use entropy_core::{Position, Size};
use entropy_engine::bots::random_move;
use entropy_engine::eval::{
    changed_lines, features, threats, ChildFeatures, Evaluator, LinearEval,
};
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
    // The children of Slide positions (Order's moves, the most common leaves), from scratch and
    // updated from their parent's by the move.
    let parents: Vec<&Position> = positions
        .iter()
        .filter(|p| p.phase() == entropy_core::Phase::Slide)
        .take(400)
        .collect();
    let mut memo = ChildFeatures::default();
    let (mut scratch, mut updated, mut children, mut sum) = (0.0, 0.0, 0usize, 0.0);
    for parent in parents {
        let moves = parent.legal_moves();
        let start = std::time::Instant::now();
        for &mv in moves.iter() {
            let mut child = *parent;
            child.play_unchecked(mv);
            sum += features(&child)[1];
        }
        scratch += start.elapsed().as_secs_f64();
        let start = std::time::Instant::now();
        memo.set_parent(parent);
        for &mv in moves.iter() {
            let mut child = *parent;
            child.play_unchecked(mv);
            sum += memo.of_child(&child, changed_lines(mv))[1];
        }
        updated += start.elapsed().as_secs_f64();
        children += moves.len();
    }
    println!(
        "children of slide positions: {:.0} ns from scratch, {:.0} ns updated by the move ({children} children, {sum:.0})",
        scratch * 1e9 / children as f64,
        updated * 1e9 / children as f64
    );
}
