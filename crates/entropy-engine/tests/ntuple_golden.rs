//! The n-tuple evaluation (`net`'s) against its Python twin (`hyle_entropy.ntuple`, numpy over
//! the same model files): Rust writes `weights/net7-golden.txt`, each line a model, a decision of
//! a random 7x7 game, the model's value of it, the move `net` plays there over that model and
//! that move's value; this test checks the file still holds what Rust computes, and
//! python/tests/test_ntuple.py checks the twin against it. `ENTROPY_WRITE_GOLDEN=1` rewrites the
//! file instead of checking it.

use entropy_core::notation::text::format_position;
use entropy_core::{Phase, Position, Size};
use entropy_engine::eval::best_afterstate;
use entropy_engine::learned::NTupleModel;
use rand::SeedableRng;

const GOLDEN: &str = "weights/net7-golden.txt";

/// Decisions of random 7x7 games (every fifth), valued by each shipped model, where the model's
/// best move leads the next by more than the two sides' float differences.
fn golden_lines() -> Vec<String> {
    let models = [
        ("net7.bin", NTupleModel::trained()),
        ("net7-order.bin", NTupleModel::trained_order()),
    ];
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(2026);
    let mut lines = Vec::new();
    for game in 0..12 {
        let (name, model) = &models[game % models.len()];
        let mut position = Position::new(Size::SEVEN);
        let mut decisions = 0;
        while !position.is_over() {
            let deciding = matches!(position.phase(), Phase::Slide | Phase::Place(_));
            decisions += usize::from(deciding);
            if deciding && decisions % 5 == 0 {
                if let Some(line) = golden_line(name, model, &position) {
                    lines.push(line);
                }
            }
            let mv = entropy_engine::bots::random_move(&position, &mut rng);
            position.play_unchecked(mv);
        }
    }
    lines
}

/// One golden line, unless the best move's value is within 1e-3 of another's (Python's floats
/// might pick the other).
fn golden_line(name: &str, model: &NTupleModel, position: &Position) -> Option<String> {
    let (best, best_value) = best_afterstate(position, |p| model.value(p))?;
    let order = position.phase() == Phase::Slide;
    let runner_up = position
        .legal_moves()
        .iter()
        .filter(|&&mv| mv != best)
        .map(|&mv| model.value(&position.after(mv).expect("a legal move")))
        .fold(None, |acc: Option<f64>, v| {
            Some(acc.map_or(v, |a| if order { a.max(v) } else { a.min(v) }))
        });
    if runner_up.is_some_and(|v| (v - best_value).abs() < 1e-3) {
        return None;
    }
    Some(format!(
        "{name}\t{}\t{:.4}\t{best}\t{best_value:.4}",
        format_position(position),
        model.value(position)
    ))
}

#[test]
fn the_golden_file_holds_what_rust_plays() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    let lines = golden_lines();
    assert!(lines.len() >= 150, "only {} decisions", lines.len());
    if std::env::var_os("ENTROPY_WRITE_GOLDEN").is_some() {
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        return;
    }
    let kept = std::fs::read_to_string(&path).unwrap();
    assert_eq!(lines.len(), kept.lines().count(), "decisions in {GOLDEN}");
    for (line, want) in lines.iter().zip(kept.lines()) {
        let (a, b): (Vec<&str>, Vec<&str>) =
            (line.split('\t').collect(), want.split('\t').collect());
        assert_eq!(a.len(), b.len(), "{line} against {want}");
        assert_eq!((a[0], a[1], a[3]), (b[0], b[1], b[3]), "the move");
        for k in [2, 4] {
            let (x, y): (f64, f64) = (a[k].parse().unwrap(), b[k].parse().unwrap());
            assert!((x - y).abs() < 1e-3, "{line} against {want}");
        }
    }
}
