//! The n-tuple evaluation: per-line tables learned as weights (as the n-tuple networks of the
//! strongest 2048 players are), plus the linear features, trained by temporal differences in
//! self-play (`entropy train-net`).
//!
//! A line's contents matter to the score only up to renaming its colours and reading it
//! backwards (`R.RG` and `GB.B` promise the same), so every line key maps to a *pattern*: its
//! colours renamed in order of first appearance, the smaller of the two directions. Seven cells
//! give 2,152 patterns; the table holds one weight per pattern, per class of line (its distance
//! from the edge: the board's symmetries map a row to any row or column at that distance), per
//! phase (after Order's move, a chip still to draw; after Chaos's placement, Order to slide)
//! and per stage of the game (anchors every 4 chips, interpolated linearly in between).
//!
//! The value of a position is the linear evaluation of [`crate::eval::LinearEval`] (the base, fitted
//! by ridge regression), plus the weights of its 14 line patterns, plus a linear correction over
//! the standardised features of [`crate::eval::features`], with weights per phase and stage too: the
//! tables learn what the linear model cannot express.

use std::fmt;
use std::sync::OnceLock;

use entropy_core::{Phase, Position, MAX_SIDE};

mod patterns;

pub use patterns::{canonical_line, line_patterns, LinePatterns};

use crate::eval::{
    features, Bucket, Calibration, Evaluator, FeatureVector, Weights, BUCKETS, FEATURES,
    FEATURE_NAMES,
};

/// Chips placed between two stage anchors.
pub const STAGE_STEP: usize = 4;

/// Stage anchors: 0, 4, .., 48 chips placed.
pub const ANCHORS: usize = 48 / STAGE_STEP + 1;

/// The phases with weights of their own: after Order's move (a chip to draw, or to place) and
/// after Chaos's placement (Order to slide).
pub const PHASES: usize = 2;

/// Linear inputs: every feature but the score (the score is the value's base), and a bias.
pub const LINEAR: usize = FEATURES;

/// Which weights a position reads: its phase slot, the two stage anchors around it and how far
/// it lies towards the second.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Stage {
    /// 0 after Order's move (draw or place to come), 1 after Chaos's placement.
    pub phase: usize,
    /// The anchor at or before the position.
    pub anchor: usize,
    /// Weight of the next anchor, 0 to 0.75.
    pub t: f32,
}

impl Stage {
    /// The stage of a position, its turn mapped onto the 49 turns of the 7x7 game.
    pub fn of(position: &Position) -> Stage {
        let phase = usize::from(position.phase() == Phase::Slide);
        let turn = (position.placed() * 49 / position.size().cells()).min(48);
        Stage {
            phase,
            anchor: turn / STAGE_STEP,
            t: (turn % STAGE_STEP) as f32 / STAGE_STEP as f32,
        }
    }

    /// The second anchor (the last anchor is its own successor, with `t` 0).
    fn next(self) -> usize {
        (self.anchor + 1).min(ANCHORS - 1)
    }
}

/// The weights of the n-tuple evaluation for one board size.
#[derive(Clone, PartialEq)]
pub struct NTupleModel {
    side: usize,
    patterns: usize,
    /// `[phase][anchor][class][pattern]`.
    lines: Vec<f32>,
    /// `[phase][anchor][input]`: the bias, then the standardised features but the score.
    linear: Vec<f32>,
    /// The linear evaluation the tables correct (fitted by ridge regression, `entropy train`).
    base: Weights,
    /// Each feature's mean and scale (its standard deviation), for standardising.
    mean: [f32; FEATURES],
    scale: [f32; FEATURES],
    /// How the weights were made (written into the file).
    provenance: String,
}

impl fmt::Debug for NTupleModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NTupleModel")
            .field("side", &self.side)
            .field("patterns", &self.patterns)
            .field("weights", &(self.lines.len() + self.linear.len()))
            .finish()
    }
}

/// The inputs of one position: which weights it reads and with what factor. Building them costs
/// a feature computation; evaluating and training both start from them.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// The base linear evaluation of the position (not floored at the score).
    pub base: f32,
    /// The stage.
    pub stage: Stage,
    /// Index of each line's weight at the first anchor (add the anchor stride for the second).
    pub lines: [u32; 2 * MAX_SIDE],
    /// How many lines there are (2 x side).
    pub line_count: usize,
    /// The linear inputs: 1, then the standardised features but the score.
    pub linear: [f32; LINEAR],
}

/// A weights file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError(pub String);

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for ModelError {}

const MAGIC: &str = "entropy n-tuple model 1";

impl NTupleModel {
    /// A model that values every position as the base linear evaluation does (all its own
    /// weights 0), with these feature means and scales.
    pub fn zero(
        side: usize,
        base: Weights,
        mean: [f32; FEATURES],
        scale: [f32; FEATURES],
    ) -> NTupleModel {
        let patterns = line_patterns(side).count();
        NTupleModel {
            side,
            patterns,
            base,
            lines: vec![0.0; PHASES * ANCHORS * classes(side) * patterns],
            linear: vec![0.0; PHASES * ANCHORS * LINEAR],
            mean,
            scale,
            provenance: String::new(),
        }
    }

    /// The weights trained by `entropy train-net` and shipped in the binary (7x7), read once
    /// and shared by every bot and evaluation that uses them.
    pub fn trained() -> std::sync::Arc<NTupleModel> {
        static TRAINED: OnceLock<std::sync::Arc<NTupleModel>> = OnceLock::new();
        NTupleModel::shipped(&TRAINED, include_bytes!("../../../weights/net7.bin"))
    }

    /// The shipped Order weights (`weights/net7-order.bin`, `entropy train-net --method td
    /// --chaos search:depth=1,watch=0,tt=1 --chaos net`: Order against a one-move lookahead
    /// over the linear evaluation and over `net`'s values): only its Order values are trained.
    pub fn trained_order() -> std::sync::Arc<NTupleModel> {
        static TRAINED: OnceLock<std::sync::Arc<NTupleModel>> = OnceLock::new();
        NTupleModel::shipped(&TRAINED, include_bytes!("../../../weights/net7-order.bin"))
    }

    /// The shipped Order weights against a greedy Chaos (`weights/net7-greedy-order.bin`,
    /// `entropy train-net --method td --greedy-chaos`): only its Order values are trained.
    pub fn trained_greedy_order() -> std::sync::Arc<NTupleModel> {
        static TRAINED: OnceLock<std::sync::Arc<NTupleModel>> = OnceLock::new();
        NTupleModel::shipped(
            &TRAINED,
            include_bytes!("../../../weights/net7-greedy-order.bin"),
        )
    }

    /// The line-pattern tables the default `search` bot values its leaves with
    /// (`weights/tables7.bin`, `entropy train-tables` with its defaults: over the shipped
    /// linear weights, the sixth generation: fitted to the search values of games searched
    /// with the fifth generation of these tables at the leaves, each generation's games
    /// searched with the one before's).
    pub fn tables() -> std::sync::Arc<NTupleModel> {
        static TRAINED: OnceLock<std::sync::Arc<NTupleModel>> = OnceLock::new();
        NTupleModel::shipped(&TRAINED, include_bytes!("../../../weights/tables7.bin"))
    }

    /// Shipped weights, read from `bytes` once into `cell` and shared.
    fn shipped(
        cell: &OnceLock<std::sync::Arc<NTupleModel>>,
        bytes: &[u8],
    ) -> std::sync::Arc<NTupleModel> {
        cell.get_or_init(|| {
            std::sync::Arc::new(
                NTupleModel::from_bytes(bytes).expect("the shipped n-tuple weights are valid"),
            )
        })
        .clone()
    }

    /// The board side the model is for.
    pub fn side(&self) -> usize {
        self.side
    }

    /// How the weights were made.
    pub fn provenance(&self) -> &str {
        &self.provenance
    }

    /// Sets how the weights were made.
    pub fn set_provenance(&mut self, text: &str) {
        self.provenance = text.to_owned();
    }

    /// Number of weights.
    pub fn weight_count(&self) -> usize {
        self.lines.len() + self.linear.len()
    }

    fn anchor_stride(&self) -> usize {
        classes(self.side) * self.patterns
    }

    /// The inputs of a position of this model's size (not over).
    pub fn inputs(&self, position: &Position) -> Inputs {
        self.inputs_with(position, &features(position))
    }

    /// [`NTupleModel::inputs`] of a position whose features are known (the search keeps them
    /// from node to node).
    pub fn inputs_with(&self, position: &Position, f: &FeatureVector) -> Inputs {
        debug_assert_eq!(position.size().side(), self.side);
        let stage = Stage::of(position);
        let board = position.board();
        let patterns = line_patterns(self.side);
        let n = self.side;
        let base = (stage.phase * ANCHORS + stage.anchor) * self.anchor_stride();
        let mut lines = [0u32; 2 * MAX_SIDE];
        for i in 0..n {
            let class = i.min(n - 1 - i) * self.patterns;
            lines[i] = (base + class + patterns.id(board.row_key(i))) as u32;
            lines[n + i] = (base + class + patterns.id(board.column_key(i))) as u32;
        }
        let base = self.base.predict(position, f) as f32;
        let mut linear = [0f32; LINEAR];
        linear[0] = 1.0;
        for k in 1..FEATURES {
            linear[k] = (f[k] as f32 - self.mean[k]) / self.scale[k];
        }
        Inputs {
            base,
            stage,
            lines,
            line_count: 2 * n,
            linear,
        }
    }

    /// The value of a position's inputs, before the floor at the current score.
    pub fn value_of(&self, inputs: &Inputs) -> f32 {
        let Stage { phase, anchor, t } = inputs.stage;
        let stride = self.anchor_stride();
        let step = (inputs.stage.next() - anchor) * stride;
        let mut lines_first = 0.0;
        let mut lines_second = 0.0;
        for &i in &inputs.lines[..inputs.line_count] {
            lines_first += self.lines[i as usize];
            lines_second += self.lines[i as usize + step];
        }
        let first = (phase * ANCHORS + anchor) * LINEAR;
        let second = (phase * ANCHORS + inputs.stage.next()) * LINEAR;
        let mut linear_first = 0.0;
        let mut linear_second = 0.0;
        for k in 0..LINEAR {
            linear_first += self.linear[first + k] * inputs.linear[k];
            linear_second += self.linear[second + k] * inputs.linear[k];
        }
        inputs.base + (1.0 - t) * (lines_first + linear_first) + t * (lines_second + linear_second)
    }

    /// Moves the value of these inputs towards `target` by `rate` of the error, spread over
    /// the weights it reads in proportion to their inputs (normalised least mean squares: the
    /// step does not depend on how many inputs are active).
    pub fn learn(&mut self, inputs: &Inputs, target: f32, rate: f32) -> f32 {
        let error = target - self.value_of(inputs);
        self.step(inputs, rate * error / self.norm(inputs));
        error
    }

    /// The squared length of the inputs as the weights see them (the two anchors' shares
    /// included): a [`NTupleModel::step`] of `g` moves their value by `g` times this.
    pub fn norm(&self, inputs: &Inputs) -> f32 {
        let t = inputs.stage.t;
        let interp = (1.0 - t) * (1.0 - t) + t * t;
        let linear_norm: f32 = inputs.linear.iter().map(|x| x * x).sum();
        interp * (inputs.line_count as f32 + linear_norm)
    }

    /// Adds `g` times the inputs to the weights they read: the gradient step of the value.
    pub fn step(&mut self, inputs: &Inputs, g: f32) {
        let Stage { phase, anchor, t } = inputs.stage;
        let next = inputs.stage.next();
        let stride = self.anchor_stride();
        let step = (next - anchor) * stride;
        let factors = [(1.0 - t), t];
        for &i in &inputs.lines[..inputs.line_count] {
            self.lines[i as usize] += g * factors[0];
            if t > 0.0 {
                self.lines[i as usize + step] += g * factors[1];
            }
        }
        for (slot, factor) in [(anchor, factors[0]), (next, factors[1])] {
            if factor == 0.0 {
                continue;
            }
            let at = (phase * ANCHORS + slot) * LINEAR;
            for k in 0..LINEAR {
                self.linear[at + k] += g * factor * inputs.linear[k];
            }
        }
    }

    /// Order's expected final score from a position of this model's size, at least its score.
    pub fn value(&self, position: &Position) -> f64 {
        self.value_from(position, || features(position))
    }

    /// [`NTupleModel::value`] with the position's features from `features` (asked only where
    /// the game is not over).
    pub fn value_from(&self, position: &Position, features: impl FnOnce() -> FeatureVector) -> f64 {
        let score = position.score() as f64;
        if position.is_over() {
            return score;
        }
        (self.value_of(&self.inputs_with(position, &features())) as f64).max(score)
    }

    /// The model as bytes: a text header (the magic line, the shape, the provenance as `#`
    /// lines), a `data` line, then little-endian f32s (means, scales, line weights, linear
    /// weights) and the base weights as f64s, bucket by bucket.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!(
            "{MAGIC}\nside {} patterns {} anchors {ANCHORS} phases {PHASES} features {}\n",
            self.side,
            self.patterns,
            FEATURE_NAMES.join(",")
        );
        for line in self.provenance.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        out.push_str("data\n");
        let mut bytes = out.into_bytes();
        let floats = self.mean.iter().chain(&self.scale);
        for x in floats.chain(&self.lines).chain(&self.linear) {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        for bucket in 0..BUCKETS {
            for x in self.base.bucket(Bucket(bucket)) {
                bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
        bytes
    }

    /// Reads a model written by [`NTupleModel::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<NTupleModel, ModelError> {
        let bad = |what: &str| ModelError(format!("not an n-tuple model: {what}"));
        let mut rest = bytes;
        let mut next_line = || -> Result<String, ModelError> {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .ok_or_else(|| bad("the header ends early"))?;
            let line = std::str::from_utf8(&rest[..end])
                .map_err(|_| bad("the header is not text"))?
                .to_owned();
            rest = &rest[end + 1..];
            Ok(line)
        };
        if next_line()? != MAGIC {
            return Err(bad(&format!("the first line is not {MAGIC:?}")));
        }
        let shape = next_line()?;
        let fields: Vec<&str> = shape.split_whitespace().collect();
        let field = |name: &str| -> Result<&str, ModelError> {
            fields
                .iter()
                .position(|&f| f == name)
                .and_then(|i| fields.get(i + 1).copied())
                .ok_or_else(|| bad(&format!("the shape line has no {name}")))
        };
        let side: usize = field("side")?.parse().map_err(|_| bad("side"))?;
        if side != 5 && side != 7 {
            return Err(bad(&format!("side {side} (5 or 7)")));
        }
        let expected_shape = NTupleModel::zero(
            side,
            Weights::uniform([0.0; FEATURES + 1]),
            [0.0; FEATURES],
            [1.0; FEATURES],
        );
        let want = |name: &str, value: String| -> Result<(), ModelError> {
            if field(name)? == value {
                Ok(())
            } else {
                Err(ModelError(format!(
                    "the model's {name} is {}, this build expects {value}",
                    field(name).unwrap_or("?")
                )))
            }
        };
        want("patterns", expected_shape.patterns.to_string())?;
        want("anchors", ANCHORS.to_string())?;
        want("phases", PHASES.to_string())?;
        want("features", FEATURE_NAMES.join(","))?;
        let mut provenance = Vec::new();
        loop {
            let line = next_line()?;
            if line == "data" {
                break;
            }
            provenance.push(line.strip_prefix("# ").unwrap_or(&line).to_owned());
        }
        let mut model = expected_shape;
        let count = 2 * FEATURES + model.lines.len() + model.linear.len();
        let base_bytes = 8 * BUCKETS * (FEATURES + 1);
        if rest.len() != 4 * count + base_bytes {
            return Err(ModelError(format!(
                "the model holds {} bytes of weights, {} expected",
                rest.len(),
                4 * count + base_bytes
            )));
        }
        let (rest, base) = rest.split_at(4 * count);
        let mut doubles = base
            .chunks_exact(8)
            .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")));
        for bucket in 0..BUCKETS {
            let mut w = [0f64; FEATURES + 1];
            for (slot, x) in w.iter_mut().zip(&mut doubles) {
                if !x.is_finite() {
                    return Err(bad("a base weight is not a finite number"));
                }
                *slot = x;
            }
            model.base.set_bucket(Bucket(bucket), w);
        }
        let mut floats = rest
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let targets = model.mean.iter_mut().chain(model.scale.iter_mut());
        for (slot, x) in targets
            .chain(model.lines.iter_mut())
            .chain(model.linear.iter_mut())
            .zip(&mut floats)
        {
            if !x.is_finite() {
                return Err(bad("a weight is not a finite number"));
            }
            *slot = x;
        }
        if model.scale.iter().any(|&s| s <= 0.0) {
            return Err(bad("a feature scale is not positive"));
        }
        model.provenance = provenance.join("\n");
        Ok(model)
    }
}

/// Classes of lines by distance from the edge.
pub fn classes(side: usize) -> usize {
    side.div_ceil(2)
}

/// The n-tuple evaluation of one model, and the calibration that turns its searches' values
/// into expected final scores, where one was fitted for it.
#[derive(Clone, Debug)]
pub struct NTupleEval {
    model: std::sync::Arc<NTupleModel>,
    calibration: Option<&'static Calibration>,
}

impl NTupleEval {
    /// An evaluation with this model (values shown uncorrected: a calibration belongs to the
    /// model it was fitted for).
    pub fn new(model: NTupleModel) -> NTupleEval {
        NTupleEval {
            model: std::sync::Arc::new(model),
            calibration: None,
        }
    }

    /// `entropy train-net`'s shipped model (shared, not copied), uncalibrated.
    pub fn trained() -> NTupleEval {
        NTupleEval {
            model: NTupleModel::trained(),
            calibration: None,
        }
    }

    /// The default `search` bot's leaf evaluation: the shipped line-pattern tables
    /// ([`NTupleModel::tables`]) with the calibration fitted for them
    /// ([`Calibration::tables`]).
    pub fn tables() -> NTupleEval {
        NTupleEval {
            model: NTupleModel::tables(),
            calibration: Some(Calibration::tables()),
        }
    }

    /// The same evaluation with another calibration (`None`: values shown as searched).
    pub fn with_calibration(self, calibration: Option<&'static Calibration>) -> NTupleEval {
        NTupleEval {
            calibration,
            ..self
        }
    }

    /// The model.
    pub fn model(&self) -> &NTupleModel {
        &self.model
    }
}

impl Evaluator for NTupleEval {
    #[inline]
    fn evaluate(&self, position: &Position) -> f64 {
        self.model.value(position)
    }

    fn calibration(&self) -> Option<&Calibration> {
        self.calibration
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::LinearEval;
    use entropy_core::Size;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn random_positions(count: usize, seed: u64) -> Vec<Position> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut position = Position::new(Size::SEVEN);
            while !position.is_over() {
                let moves = position.legal_moves();
                position.play_unchecked(moves[rng.random_range(0..moves.len())]);
                if !position.is_over() && rng.random_bool(0.2) {
                    out.push(position);
                }
            }
        }
        out
    }

    #[test]
    fn a_zero_model_is_its_base_evaluation() {
        let model = NTupleModel::zero(7, Weights::trained(), [0.0; FEATURES], [1.0; FEATURES]);
        let linear = LinearEval::trained();
        for position in random_positions(300, 1) {
            let (a, b) = (model.value(&position), linear.evaluate(&position));
            assert!((a - b).abs() < 1e-3 * b.abs().max(1.0), "{a} {b}");
        }
    }

    #[test]
    fn learning_moves_the_value_towards_the_target() {
        let mut model = NTupleModel::zero(7, Weights::trained(), [5.0; FEATURES], [3.0; FEATURES]);
        for position in random_positions(50, 2) {
            let inputs = model.inputs(&position);
            let before = model.value_of(&inputs);
            let target = before + 10.0;
            model.learn(&inputs, target, 0.5);
            let after = model.value_of(&inputs);
            assert!(
                after > before + 1.0 && after < target + 1e-3,
                "{before} {after}"
            );
        }
    }

    #[test]
    fn models_survive_bytes_and_bad_files_are_errors() {
        let mut model = NTupleModel::zero(7, Weights::trained(), [1.5; FEATURES], [2.5; FEATURES]);
        for (i, position) in random_positions(20, 4).iter().enumerate() {
            let inputs = model.inputs(position);
            model.learn(&inputs, i as f32, 0.3);
        }
        model.set_provenance("made by: a test\ndone: 20");
        let bytes = model.to_bytes();
        let back = NTupleModel::from_bytes(&bytes).expect("readable");
        assert_eq!(back, model);
        for cut in [0, 10, 40, bytes.len() / 2, bytes.len() - 1] {
            assert!(
                NTupleModel::from_bytes(&bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        let mut other = bytes.clone();
        other[0] = b'x';
        assert!(NTupleModel::from_bytes(&other).is_err());
    }
}
