//! The whole-board network: an ONNX model (exported by `python -m hyle_entropy.board_net`) run by
//! tract over [`board_inputs`](super::board::board_inputs). Built with the `wnet` feature.

use std::sync::Arc;

use entropy_core::Position;
use tract_onnx::prelude::*;

use super::board::{board_input_count, board_inputs};

type Plan = TypedSimplePlan;

/// A loaded network: Order's expected final score of positions, many at a time.
#[derive(Clone)]
pub struct BoardNet {
    plan: Arc<Plan>,
    side: usize,
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
    /// [`board_input_count`] numbers, one output of a value per row).
    pub fn from_onnx(bytes: &[u8], side: usize) -> Result<BoardNet, String> {
        let plan = tract_onnx::onnx()
            .model_for_read(&mut std::io::Cursor::new(bytes))
            .and_then(|model| model.into_optimized())
            .and_then(|model| model.into_runnable())
            .map_err(|e| format!("not a usable ONNX model: {e}"))?;
        let net = BoardNet { plan, side };
        // Fail now, not in the middle of a game, if the model does not take these inputs.
        let position = Position::new(entropy_core::Size::new(side).ok_or("a bad board size")?);
        net.try_values(&[position])?;
        Ok(net)
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
        let width = board_input_count(self.side);
        let mut data = vec![0f32; positions.len() * width];
        for (position, row) in positions.iter().zip(data.chunks_mut(width)) {
            board_inputs(position, row);
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
