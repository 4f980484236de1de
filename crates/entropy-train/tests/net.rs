//! The learned agent's trainers: the same seed gives the same data whatever the threads, and
//! the data are sound (targets within the game's bounds, every afterstate after a move).

use entropy_core::{Phase, Size};
use entropy_engine::eval::{LinearEval, NTupleModel, Weights, FEATURES};
use entropy_engine::search::Searcher;
use entropy_train::distill::{fit, score_fit, teacher_data, DistillConfig};
use entropy_train::td::{apply_batch, play_batch, TdConfig};

fn zero_model() -> NTupleModel {
    NTupleModel::zero(7, Weights::trained(), [0.0; FEATURES], [1.0; FEATURES])
}

#[test]
fn td_batches_do_not_depend_on_the_threads() {
    let model = zero_model();
    let one = TdConfig {
        jobs: 1,
        ..TdConfig::default()
    };
    let two = TdConfig {
        jobs: 2,
        ..TdConfig::default()
    };
    let a = play_batch(&model, &one, 0, 4);
    let b = play_batch(&model, &two, 0, 4);
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.score, y.score);
        assert_eq!(x.transitions.len(), y.transitions.len());
        for (s, t) in x.transitions.iter().zip(&y.transitions) {
            assert_eq!(s.after, t.after);
            assert_eq!(s.target, t.target);
        }
    }
    // Each game: the afterstates of both players' decisions (and their candidates).
    for game in &a {
        assert!(game.transitions.len() >= game.decisions);
        for t in &game.transitions {
            assert!(matches!(
                t.after.phase(),
                Phase::Draw | Phase::Slide | Phase::Over
            ));
            assert!(t.target >= t.after.score() as f32 - 1e-3);
        }
    }
    let (mut m1, mut m2) = (zero_model(), zero_model());
    apply_batch(&mut m1, &a, 0.05);
    apply_batch(&mut m2, &b, 0.05);
    assert_eq!(m1, m2);
}

#[test]
fn teacher_data_do_not_depend_on_the_threads_and_fitting_helps() {
    let config = |jobs| DistillConfig {
        seed: 3,
        games: 4,
        nodes: 150,
        candidates: 1,
        jobs,
        size: Size::SEVEN,
    };
    let teacher = || Searcher::new(LinearEval::trained(), 1);
    let a = teacher_data(&config(1), teacher, &|| {});
    let b = teacher_data(&config(2), teacher, &|| {});
    assert_eq!(a.len(), b.len());
    for (s, t) in a.iter().zip(&b) {
        assert_eq!(s.after, t.after);
        assert_eq!(s.target, t.target);
    }
    let mut model = zero_model();
    let before = score_fit(&model, &a).0;
    fit(&mut model, &a, 3, 0.05, 0.01, 1);
    let after = score_fit(&model, &a).0;
    assert!(after < before, "{before} -> {after}");
}
