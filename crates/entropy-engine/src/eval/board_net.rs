//! The whole-board network: an ONNX model (exported by `python -m hyle_entropy.board_net`) run by
//! tract over [`board_inputs`](super::board::board_inputs). Built with the `wnet` feature.

use std::sync::Arc;

use entropy_core::Position;
use tract_onnx::prelude::*;

use super::board::{board_input_count_with, board_inputs_with};

type Plan = TypedSimplePlan;

/// A loaded network: Order's expected final score of positions, many at a time.
#[derive(Clone)]
pub struct BoardNet {
    plan: Arc<Plan>,
    side: usize,
    /// Whether the model takes the threat map among its inputs (told by their number).
    threat_map: bool,
}

impl std::fmt::Debug for BoardNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BoardNet({}x{})", self.side, self.side)
    }
}

/// The network shipped in the binary (`crates/entropy-engine/weights/wnet7.onnx`).
static SHIPPED: &[u8] = include_bytes!("../../weights/wnet7.onnx");

impl BoardNet {
    /// Reads an ONNX model for boards of `side` cells a side (one input `x` of rows of
    /// [`board_input_count`](super::board::board_input_count) numbers, or of
    /// [`board_input_count_with`] the threat map; one output of a value per row).
    pub fn from_onnx(bytes: &[u8], side: usize) -> Result<BoardNet, String> {
        let plan = tract_onnx::onnx()
            .model_for_read(&mut std::io::Cursor::new(bytes))
            .and_then(|model| model.into_optimized())
            .and_then(|model| model.into_runnable())
            .map_err(|e| format!("not a usable ONNX model: {e}"))?;
        // Fail now, not in the middle of a game, if the model takes neither kind of inputs.
        let position = Position::new(entropy_core::Size::new(side).ok_or("a bad board size")?);
        let plain = BoardNet {
            plan,
            side,
            threat_map: false,
        };
        let error = match plain.try_values(&[position]) {
            Ok(_) => return Ok(plain),
            Err(error) => error,
        };
        let with_map = BoardNet {
            threat_map: true,
            ..plain
        };
        with_map.try_values(&[position]).map_err(|_| error)?;
        Ok(with_map)
    }

    /// The shipped network (7x7).
    pub fn shipped() -> BoardNet {
        static NET: std::sync::OnceLock<BoardNet> = std::sync::OnceLock::new();
        NET.get_or_init(|| BoardNet::from_onnx(SHIPPED, 7).expect("the shipped network loads"))
            .clone()
    }

    /// The side of the boards it was trained for.
    pub fn side(&self) -> usize {
        self.side
    }

    /// Order's expected final score of each position (all of the network's board size).
    pub fn values(&self, positions: &[Position]) -> Vec<f64> {
        self.try_values(positions)
            .expect("a model that ran on a test position runs on any")
    }

    fn try_values(&self, positions: &[Position]) -> Result<Vec<f64>, String> {
        let width = board_input_count_with(self.side, self.threat_map);
        let mut data = vec![0f32; positions.len() * width];
        for (position, row) in positions.iter().zip(data.chunks_mut(width)) {
            board_inputs_with(position, self.threat_map, row);
        }
        let input = tract_ndarray::Array2::from_shape_vec((positions.len(), width), data)
            .map_err(|e| e.to_string())?;
        let output = self
            .plan
            .run(tvec!(Tensor::from(input).into()))
            .map_err(|e| format!("the model failed to run: {e}"))?;
        let values = output[0]
            .to_plain_array_view::<f32>()
            .map_err(|e| format!("the model's output: {e}"))?;
        if values.len() != positions.len() {
            return Err(format!(
                "the model gave {} values for {} positions",
                values.len(),
                positions.len()
            ));
        }
        // The value is never below the score: Order may always pass from here on.
        Ok(values
            .iter()
            .zip(positions)
            .map(|(&v, p)| f64::from(v).max(p.score() as f64))
            .collect())
    }
}
