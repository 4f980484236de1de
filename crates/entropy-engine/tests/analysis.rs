//! Multi-PV analysis against plain expectimax: every reported value is the value of its move at
//! the analysis's depth, and the reported moves are the best ones.

use entropy_core::{Move, Phase, Position, Size};
use entropy_engine::bots::random_move;
use entropy_engine::eval::LinearEval;
use entropy_engine::search::analysis::Explanation;
use entropy_engine::search::reference::expectimax;
use entropy_engine::search::{Limits, Searcher};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// A decision position after about `moves` random moves.
fn decision(seed: u64, size: Size, moves: usize) -> Position {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pos = Position::new(size);
    for _ in 0..moves {
        let mv = random_move(&pos, &mut rng);
        pos.play_unchecked(mv);
    }
    while pos.phase() == Phase::Draw {
        let mv = random_move(&pos, &mut rng);
        pos.play_unchecked(mv);
    }
    pos
}

#[test]
fn the_top_moves_and_their_values_match_expectimax() {
    let eval = LinearEval::hand();
    for seed in 0..12u64 {
        let pos = decision(seed, Size::FIVE, 20 + 3 * seed as usize);
        if pos.is_over() {
            continue;
        }
        let depth = 3;
        let mut searcher = Searcher::new(eval.clone(), 4);
        let analysis = searcher.analyse(&pos, Limits::depth(depth), 3, None);
        let depth = analysis.depth;
        let maximising = pos.phase() == Phase::Slide;
        let mut all: Vec<(Move, f64)> = pos
            .legal_moves()
            .iter()
            .map(|&mv| (mv, expectimax(&pos.after(mv).unwrap(), depth - 1, &eval)))
            .collect();
        all.sort_by(|a, b| {
            let o = a.1.total_cmp(&b.1);
            if maximising {
                o.reverse()
            } else {
                o
            }
        });
        assert_eq!(analysis.moves.len(), 3.min(all.len()), "{pos:?}");
        for (i, m) in analysis.moves.iter().enumerate() {
            let truth = all.iter().find(|(mv, _)| *mv == m.mv).unwrap().1;
            assert!(
                (m.value - truth).abs() < 1e-3,
                "{:?}: {} vs {truth}",
                m.mv,
                m.value
            );
            // The i-th reported value is the i-th best value (moves may tie).
            assert!((m.value - all[i].1).abs() < 1e-3, "rank {i} at {pos:?}");
        }
        assert_eq!(analysis.line[0], analysis.moves[0].mv);
        // A move asked about comes with its exact value even when it is the worst.
        let worst = all.last().unwrap();
        let asked = searcher.analyse(&pos, Limits::depth(depth), 1, Some(worst.0));
        let value = asked.value_of(worst.0).expect("the asked move is reported");
        assert!((value - worst.1).abs() < 1e-3);
    }
}

#[test]
fn the_line_is_legal_and_explanations_name_their_numbers() {
    let pos = decision(3, Size::SEVEN, 40);
    let mut searcher = Searcher::new(LinearEval::trained(), 4);
    let analysis = searcher.analyse(&pos, Limits::nodes(20_000), 3, None);
    let mut p = pos;
    for &mv in &analysis.line {
        p.play(mv).expect("a legal line");
    }
    let best = analysis.best();
    let explanation = Explanation::of(&pos, &analysis, best.mv).unwrap();
    let text = explanation.text();
    assert!(text.contains(&format!("{:.1}", best.value)), "{text}");
    assert!(text.ends_with('.'), "{text}");
    let chance = pos.after(best.mv).unwrap();
    if chance.phase() == Phase::Draw {
        let colours = searcher.analyse_chance(&chance, Limits::nodes(7_000));
        let total: f64 = colours.iter().map(|c| c.probability).sum();
        assert!((total - 1.0).abs() < 1e-9);
    }
}

#[test]
fn calibration_moves_every_value_of_an_analysis_alike() {
    let pos = decision(5, Size::SEVEN, 12);
    let limits = Limits::nodes(5_000);
    let calibrated = Searcher::new(LinearEval::trained(), 4).analyse(&pos, limits, 3, None);
    let raw = Searcher::new(LinearEval::trained().with_calibration(None), 4)
        .analyse(&pos, limits, 3, None);
    assert_eq!(raw.offset, 0.0);
    // Early in a game the search's own values sit far below the final scores.
    assert!(calibrated.offset > 10.0, "{}", calibrated.offset);
    assert_eq!(calibrated.moves.len(), raw.moves.len());
    for (c, r) in calibrated.moves.iter().zip(&raw.moves) {
        assert_eq!(c.mv, r.mv);
        assert!((c.value - r.value - calibrated.offset).abs() < 1e-9);
    }
    // An exact analysis is not corrected.
    let end = decision(6, Size::SEVEN, 140);
    if !end.is_over() {
        let exact =
            Searcher::new(LinearEval::trained(), 4).analyse(&end, Limits::default(), 1, None);
        assert!(exact.solved);
        assert_eq!(exact.offset, 0.0);
    }
}
