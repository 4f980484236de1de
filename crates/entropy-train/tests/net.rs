//! The learned agent's trainers: the same seed gives the same data whatever the threads, and
//! the data are sound (targets within the game's bounds, every afterstate after a move).

use entropy_core::{Phase, Size};
use entropy_engine::eval::{LinearEval, Weights, FEATURES};
use entropy_engine::learned::NTupleModel;
use entropy_engine::search::Searcher;
use entropy_train::distill::{
    decisions, fit, fit_pairs, fit_teacher_data, pair_error, score_fit, teacher_data, teacher_game,
    transitions_from_text, transitions_to_text, DistillConfig, FitConfig,
};
use entropy_train::td::{apply_batch, play_batch, TdConfig};

/// A small teacher run: one candidate a decision, plain targets, 7x7; tests change the rest.
fn distill(seed: u64, games: usize, nodes: u64, jobs: usize) -> DistillConfig {
    DistillConfig {
        seed,
        games,
        nodes,
        candidates: 1,
        average_draws: false,
        consistent: false,
        same_depth: false,
        candidate_model: None,
        best_candidates: 0,
        jobs,
        size: Size::SEVEN,
    }
}

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
    assert_eq!((a.len(), b.len()), (4, 4));
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
    let config = |jobs| distill(3, 4, 150, jobs);
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

#[test]
fn teacher_games_played_one_by_one_through_text_fit_the_same_model() {
    let config = distill(5, 3, 100, 2);
    let teacher = || Searcher::new(LinearEval::trained(), 1);
    let together = teacher_data(&config, teacher, &|| {});
    // Each game alone, on a searcher of its own, carried as text (as a cluster's tasks).
    let alone: Vec<_> = (0..config.games)
        .rev()
        .map(|game| transitions_to_text(&teacher_game(&mut teacher(), &config, game)))
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .flat_map(|text| transitions_from_text(&text).unwrap())
        .collect();
    assert_eq!(together.len(), alone.len());
    for (s, t) in together.iter().zip(&alone) {
        assert_eq!(s.after, t.after);
        assert_eq!(s.target.to_bits(), t.target.to_bits());
    }
    let fit_config = FitConfig {
        seed: 5,
        games: config.games,
        epochs: 1,
        rate: 0.05,
        rate_end: 0.01,
        eval_deals: 1,
        jobs: 2,
        size: Size::SEVEN,
        pairwise: 0.0,
    };
    let fitted = |data| {
        let mut epochs = 0;
        let model = fit_teacher_data::<()>(data, &fit_config, |report, _| {
            assert_eq!(report.epoch, epochs);
            epochs += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(epochs, 2);
        model.to_bytes()
    };
    assert_eq!(fitted(&together), fitted(&alone));
    assert!(transitions_from_text("1.5").is_err());
    assert!(transitions_from_text("x ....... draw").is_err());
}

#[test]
fn decisions_group_a_decisions_afterstates_and_pairwise_steps_fit_their_differences() {
    let config = DistillConfig {
        candidates: 2,
        ..distill(9, 1, 100, 1)
    };
    let data = teacher_game(&mut Searcher::new(LinearEval::trained(), 1), &config, 0);
    let groups = decisions(&data);
    // 49 placements and the slide decisions between them, each with its two candidates.
    assert!(groups.len() >= 97, "{} decisions", groups.len());
    assert!(groups.iter().all(|g| (1..=3).contains(&g.len())));
    assert_eq!(groups.iter().map(|g| g.len()).sum::<usize>(), data.len());
    let mut model = zero_model();
    let before = pair_error(&model, &data);
    for pass in 0..3 {
        fit_pairs(&mut model, &data, 0.05, pass);
    }
    let after = pair_error(&model, &data);
    assert!(after < before, "{before} -> {after}");
}

#[test]
fn searching_a_decision_to_one_depth_keeps_the_first_decision_and_valid_targets() {
    let config = |same_depth| DistillConfig {
        candidates: 2,
        consistent: true,
        same_depth,
        best_candidates: 1,
        ..distill(8, 1, 300, 1)
    };
    let teacher = || Searcher::new(LinearEval::trained(), 1);
    let free = teacher_game(&mut teacher(), &config(false), 0);
    let same = teacher_game(&mut teacher(), &config(true), 0);
    // The first decision's afterstates are chosen before any of their searches; later ones
    // follow root searches whose table those searches filled, so the games part there.
    assert!(
        free.len() >= 4 && same.len() >= 4,
        "{} and {}",
        free.len(),
        same.len()
    );
    for (a, b) in free.iter().zip(&same).take(4) {
        assert_eq!(a.after, b.after);
    }
    assert_eq!(
        free[0].target, same[0].target,
        "the first search is the same"
    );
    for t in &same {
        assert!(t.target >= t.after.score() as f32 - 1e-3);
    }
    assert!(same.iter().any(|t| t.after.is_over()), "a whole game");
}

#[test]
fn td_against_a_pool_of_chaos_bots_is_the_same_whatever_the_threads() {
    let model = zero_model();
    let pool = vec![
        "search:depth=1,watch=0,tt=1".to_owned(),
        "spoiler".to_owned(),
    ];
    assert!(entropy_train::td::check_chaos(&pool).is_ok());
    let unknown = entropy_train::td::check_chaos(&["spoiler".to_owned(), "nobody".to_owned()]);
    assert!(unknown.unwrap_err().to_string().contains("nobody"));
    let games = order_against_chaos(&model, pool, 4);
    assert!(games
        .iter()
        .flat_map(|g| &g.transitions)
        .all(|t| t.after.phase() == Phase::Draw));
}

/// `games` TD games of Order against the `chaos` bots, played on one thread and on two, which
/// must agree.
fn order_against_chaos(
    model: &NTupleModel,
    chaos: Vec<String>,
    games: usize,
) -> Vec<entropy_train::td::TdGame> {
    let config = |jobs| TdConfig {
        jobs,
        candidates: 1,
        chaos: chaos.clone(),
        ..TdConfig::default()
    };
    let (a, b) = (
        play_batch(model, &config(1), 0, games),
        play_batch(model, &config(2), 0, games),
    );
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.score, y.score);
        assert_eq!(x.transitions.len(), y.transitions.len());
        let mut pairs = x.transitions.iter().zip(&y.transitions);
        assert!(pairs.all(|(s, t)| s.after == t.after && s.target == t.target));
    }
    a
}

#[test]
fn td_against_greedy_chaos_learns_order_afterstates_only_and_whatever_the_threads() {
    let a = order_against_chaos(&zero_model(), vec!["greedy".to_owned()], 3);
    for game in &a {
        // 49 placements by greedy and 48 slides, each slide's afterstate with one candidate.
        assert_eq!(game.decisions, 97);
        assert_eq!(game.transitions.len(), 2 * 48);
        for t in &game.transitions {
            // After Order's move a chip is drawn.
            assert_eq!(t.after.phase(), Phase::Draw);
            assert!(t.target >= t.after.score() as f32 - 1e-3);
        }
    }
}
