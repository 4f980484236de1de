//! Evaluation weights: an intercept and one weight per feature for each bucket of the game (the
//! phase of the turn and a group of turns), read from a text file. The trained weights are
//! embedded in the binary, so the bots work with no files around.

use std::fmt;

use entropy_core::{Phase, Position};

use super::features::{FeatureVector, FEATURES, FEATURE_NAMES};

/// Turns (chips placed) per bucket.
pub const TURN_GROUP: usize = 4;

/// Turn groups: placed counts 0..=48 in groups of [`TURN_GROUP`].
const GROUPS: usize = 48 / TURN_GROUP + 1;

/// The phases with a bucket of their own.
const PHASES: [&str; 3] = ["draw", "place", "slide"];

/// Number of buckets.
pub const BUCKETS: usize = PHASES.len() * GROUPS;

/// A bucket of the game: the phase of the turn and the group of turns.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bucket(pub usize);

impl Bucket {
    /// The bucket of a position (positions of a finished game are not evaluated; they fall in
    /// the last draw bucket).
    pub fn of(position: &Position) -> Bucket {
        let phase = match position.phase() {
            Phase::Draw | Phase::Over => 0,
            Phase::Place(_) => 1,
            Phase::Slide => 2,
        };
        // Smaller boards are mapped onto the 49 turns of the 7x7 game.
        let turn = position.placed() * 49 / position.size().cells();
        let group = turn.min(48) / TURN_GROUP;
        Bucket(phase * GROUPS + group)
    }

    /// The phase name and first turn of the bucket, as in weight files.
    pub fn describe(self) -> (&'static str, usize) {
        (PHASES[self.0 / GROUPS], self.0 % GROUPS * TURN_GROUP)
    }
}

/// The weights of every bucket: `[intercept, w_1, .., w_n]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    buckets: Vec<[f64; FEATURES + 1]>,
}

/// A weights file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError {
    line: usize,
    problem: String,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "weights line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for WeightsError {}

const TRAINED: &str = include_str!("../../weights/trained.txt");
/// The weights shipped until 2026-12-04 (`entropy train --lambda 0`), frozen for the learned
/// models' inputs (the `evals` observation, the networks' planes): the models read these values,
/// so the search's weights can change without moving the inputs under the models trained on
/// them.
const MODEL_INPUTS: &str = include_str!("../../weights/model-inputs.txt");

impl Weights {
    /// The same weights in every bucket.
    pub fn uniform(weights: [f64; FEATURES + 1]) -> Weights {
        Weights {
            buckets: vec![weights; BUCKETS],
        }
    }

    /// Hand-set weights: the score, most of the largest threat, some potential, and a little for
    /// every empty cell left (points still to come).
    pub fn hand() -> Weights {
        let mut weights = Weights::uniform([0.0; FEATURES + 1]);
        for (b, bucket) in weights.buckets.iter_mut().enumerate() {
            let (_, turn) = Bucket(b).describe();
            let empties = 49.0 - turn as f64 - TURN_GROUP as f64 / 2.0;
            let hand = [
                0.6 * empties, // intercept: points still to come
                1.0,           // score
                0.7,           // threat_max
                0.1,           // threat_rest
                0.05,          // potential
                1.5,           // sandwiches
                -1.0,          // holes1
                -0.5,          // holes2
                0.2,           // ring1
                0.1,           // ring2
                0.0,           // centre_distance
                0.5,           // bag_max
                0.02,          // mobility
                0.01,          // idle_mobility
                0.3,           // open_windows
                0.3,           // gap_pairs
            ];
            *bucket = hand;
        }
        weights
    }

    /// The weights shipped in the binary (`weights/trained.txt`, made by `entropy train`).
    pub fn trained() -> Weights {
        Weights::parse(TRAINED).expect("the embedded weights are valid")
    }

    /// The weights of the learned models' inputs (`weights/model-inputs.txt`: the `evals`
    /// observation, the networks' planes), frozen for the models trained on them.
    pub fn model_inputs() -> Weights {
        Weights::parse(MODEL_INPUTS).expect("the embedded weights are valid")
    }

    /// The weights of a bucket.
    pub fn bucket(&self, bucket: Bucket) -> &[f64; FEATURES + 1] {
        &self.buckets[bucket.0]
    }

    /// Replaces the weights of a bucket.
    pub fn set_bucket(&mut self, bucket: Bucket, weights: [f64; FEATURES + 1]) {
        self.buckets[bucket.0] = weights;
    }

    /// The linear prediction for a position with these features.
    #[inline]
    pub fn predict(&self, position: &Position, features: &FeatureVector) -> f64 {
        let w = self.bucket(Bucket::of(position));
        w[0] + w[1..].iter().zip(features).map(|(w, f)| w * f).sum::<f64>()
    }

    /// Reads the weights file at `path` (written by [`Weights::to_text`]); the error names the
    /// file and, for a file that does not parse, the line.
    pub fn read(path: impl AsRef<std::path::Path>) -> Result<Weights, String> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the weights file {}: {e}", path.display()))?;
        Weights::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads weights written by [`Weights::to_text`].
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let mut weights = Weights::uniform([0.0; FEATURES + 1]);
        let mut seen = [false; BUCKETS];
        // The file's columns, as indices into FEATURE_NAMES: a file may name fewer features (one
        // written before a feature was added), which then weigh 0.
        let mut columns: Option<Vec<usize>> = None;
        for (i, line) in text.lines().enumerate() {
            let err = |problem: String| WeightsError {
                line: i + 1,
                problem,
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields[0] == "features" {
                let mut named = Vec::new();
                for name in &fields[1..] {
                    let index = FEATURE_NAMES
                        .iter()
                        .position(|f| f == name)
                        .ok_or_else(|| err(format!("unknown feature {name:?}")))?;
                    if named.contains(&index) {
                        return Err(err(format!("feature {name:?} named twice")));
                    }
                    named.push(index);
                }
                columns = Some(named);
                continue;
            }
            let Some(columns) = &columns else {
                return Err(err("expected the `features` line first".to_owned()));
            };
            if fields.len() != columns.len() + 3 {
                return Err(err(format!(
                    "expected phase, turn, intercept and {} weights",
                    columns.len()
                )));
            }
            let phase = PHASES
                .iter()
                .position(|&p| p == fields[0])
                .ok_or_else(|| err(format!("unknown phase {:?}", fields[0])))?;
            let turn: usize = fields[1]
                .parse()
                .map_err(|_| err(format!("bad turn {:?}", fields[1])))?;
            if turn % TURN_GROUP != 0 || turn / TURN_GROUP >= GROUPS {
                return Err(err(format!(
                    "turn {turn} does not start a group of {TURN_GROUP}"
                )));
            }
            let bucket = phase * GROUPS + turn / TURN_GROUP;
            let mut values = [0.0; FEATURES + 1];
            let targets = std::iter::once(0).chain(columns.iter().map(|c| c + 1));
            for (target, field) in targets.zip(&fields[2..]) {
                values[target] = field
                    .parse()
                    .ok()
                    .filter(|v: &f64| v.is_finite())
                    .ok_or_else(|| err(format!("bad number {field:?}")))?;
            }
            weights.buckets[bucket] = values;
            seen[bucket] = true;
        }
        if let Some(missing) = seen.iter().position(|&s| !s) {
            let (phase, turn) = Bucket(missing).describe();
            return Err(WeightsError {
                line: text.lines().count(),
                problem: format!("no weights for {phase} {turn}"),
            });
        }
        Ok(weights)
    }

    /// Writes the weights as text: a `features` line, then one line per bucket.
    pub fn to_text(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(&format!("features {}\n", FEATURE_NAMES.join(" ")));
        out.push_str("# phase turn intercept weights...\n");
        for (b, values) in self.buckets.iter().enumerate() {
            let (phase, turn) = Bucket(b).describe();
            let numbers: Vec<String> = values.iter().map(|v| format!("{v:.6}")).collect();
            out.push_str(&format!("{phase} {turn} {}\n", numbers.join(" ")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_trip_through_text() {
        let hand = Weights::hand();
        let back = Weights::parse(&hand.to_text("hand weights")).unwrap();
        for (a, b) in hand.buckets.iter().zip(&back.buckets) {
            for (x, y) in a.iter().zip(b) {
                assert!((x - y).abs() < 1e-6);
            }
        }
        assert!(Weights::parse("features nope\n").is_err());
        let truncated: String = hand
            .to_text("")
            .lines()
            .take(5)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(Weights::parse(&truncated)
            .unwrap_err()
            .to_string()
            .contains("no weights"));
        Weights::trained();
    }

    #[test]
    fn a_weights_file_is_read_or_named_in_the_error() {
        let dir = std::env::temp_dir().join(format!("entropy-weights-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.txt");
        std::fs::write(&good, Weights::trained().to_text("trained")).unwrap();
        let read = Weights::read(&good).unwrap();
        for (x, y) in read
            .bucket(Bucket(3))
            .iter()
            .zip(Weights::trained().bucket(Bucket(3)))
        {
            assert!((x - y).abs() < 1e-6);
        }
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "features score\ndraw 0 1 2 3\n").unwrap();
        let error = Weights::read(&bad).unwrap_err();
        assert!(error.contains("bad.txt: weights line 2"), "{error}");
        let error = Weights::read(dir.join("missing.txt")).unwrap_err();
        assert!(error.starts_with("cannot read the weights file"), "{error}");
        assert!(error.contains("missing.txt"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_naming_fewer_features_weighs_the_others_zero() {
        // Two features, in another order than ours: each weight lands on its own feature.
        let mut text = "features threat_max score\n".to_owned();
        for b in 0..BUCKETS {
            let (phase, turn) = Bucket(b).describe();
            text.push_str(&format!("{phase} {turn} 5 0.5 1\n"));
        }
        let weights = Weights::parse(&text).unwrap();
        let mut expected = [0.0; FEATURES + 1];
        expected[0] = 5.0;
        expected[1] = 1.0; // score
        expected[2] = 0.5; // threat_max
        assert_eq!(weights.bucket(Bucket(3)), &expected);
        assert!(Weights::parse("features score score\n")
            .unwrap_err()
            .to_string()
            .contains("named twice"));
        assert!(Weights::parse("features score\ndraw 0 1 2 3\n")
            .unwrap_err()
            .to_string()
            .contains("intercept and 1 weights"));
    }

    #[test]
    fn buckets_cover_the_game() {
        let pos = Position::new(entropy_core::Size::SEVEN);
        assert_eq!(Bucket::of(&pos), Bucket(0));
        assert_eq!(Bucket(BUCKETS - 1).describe(), ("slide", 48));
    }
}
