//! `entropy train`'s self-play split into its parts: games played one at a time elsewhere, their
//! samples carried as text, and the fit done here give exactly the weights `train` gives.

use entropy_engine::eval::Weights;
use entropy_train::{
    first_game, fit_generation, samples_from_text, samples_to_text, self_play, train, Sample,
    TrainConfig,
};

fn small() -> TrainConfig {
    TrainConfig {
        seed: 7,
        games: 3,
        generations: 2,
        nodes: 200,
        jobs: 2,
        lambda: 0.25,
        ..TrainConfig::default()
    }
}

#[test]
fn samples_read_back_from_text_exactly() {
    let samples = self_play(&Weights::hand(), &small(), 4);
    assert!(samples.len() > 100);
    let back = samples_from_text(&samples_to_text(&samples)).unwrap();
    assert_eq!(back.len(), samples.len());
    for (a, b) in samples.iter().zip(&back) {
        assert_eq!(a.game, b.game);
        assert_eq!(a.position, b.position);
        assert_eq!(a.bucket, b.bucket);
        assert_eq!(a.features, b.features);
        assert_eq!(a.target.to_bits(), b.target.to_bits());
        assert_eq!(a.outcome.to_bits(), b.outcome.to_bits());
    }
}

#[test]
fn bad_sample_lines_are_errors_naming_the_problem() {
    for (line, problem) in [
        ("", "bad game"),
        ("x 1.0 2.0 ....... draw", "bad game"),
        ("3 one 2.0 ....... draw", "bad target"),
        ("3 1.0 2.0", "no position"),
        ("3 1.0 2.0 123 draw", "bad position"),
    ] {
        let error = Sample::from_line(line).unwrap_err().to_string();
        assert!(error.contains(problem), "{line:?}: {error}");
    }
}

#[test]
fn games_played_one_by_one_and_fitted_give_the_weights_train_gives() {
    let config = small();
    let (expected, reports) = train(Weights::hand(), &config, |_, _| {}, &|| {});
    let mut weights = Weights::hand();
    for generation in 1..=config.generations {
        // Games out of order, each through text: as a cluster's workers would return them.
        let first = first_game(&config, generation);
        let mut texts: Vec<(usize, String)> = (first..first + config.games)
            .rev()
            .map(|game| (game, samples_to_text(&self_play(&weights, &config, game))))
            .collect();
        texts.sort_by_key(|(game, _)| *game);
        let samples = texts
            .iter()
            .flat_map(|(_, text)| samples_from_text(text).unwrap())
            .collect();
        let (fitted, report) = fit_generation(&weights, samples, &config, generation);
        assert_eq!(report.line(), reports[generation - 1].line());
        weights = fitted;
    }
    assert_eq!(weights, expected);
}
