//! The whole-board network: an ONNX model (exported by `python -m hyle_entropy.board_net`) run by
//! tract over [`board_inputs`](super::planes::board_inputs). Built with the `onnx` feature.

use std::sync::Arc;

use entropy_core::Position;
use tract_onnx::prelude::*;

use super::planes::{board_input_count_with, board_inputs_with};

/// A model optimised for running.
pub(super) type Plan = TypedSimplePlan;

/// Reads and optimises an ONNX model for running.
pub(super) fn load_plan(bytes: &[u8]) -> Result<Arc<Plan>, String> {
    tract_onnx::onnx()
        .model_for_read(&mut std::io::Cursor::new(bytes))
        .and_then(|model| model.into_optimized())
        .and_then(|model| model.into_runnable())
        .map_err(|e| format!("not a usable ONNX model: {e}"))
}

/// Runs a model on one input and hands back its first output's numbers, `expected` of them
/// (`what` names them in the error otherwise).
fn run_plan(
    plan: &Arc<Plan>,
    input: Tensor,
    expected: usize,
    what: &str,
) -> Result<Vec<f32>, String> {
    let output = plan
        .run(tvec!(input.into()))
        .map_err(|e| format!("the model failed to run: {e}"))?;
    let numbers = output[0]
        .to_plain_array_view::<f32>()
        .map_err(|e| format!("the model's output: {e}"))?;
    if numbers.len() != expected {
        return Err(format!(
            "the model gave {} numbers for {expected} {what}",
            numbers.len()
        ));
    }
    Ok(numbers.iter().copied().collect())
}

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
    /// [`board_input_count`](super::planes::board_input_count) numbers, or of
    /// [`board_input_count_with`] the threat map; one output of a value per row).
    pub fn from_onnx(bytes: &[u8], side: usize) -> Result<BoardNet, String> {
        let plan = load_plan(bytes)?;
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
        let values = run_plan(&self.plan, input.into(), positions.len(), "positions")?;
        // The value is never below the score: Order may always pass from here on.
        Ok(values
            .iter()
            .zip(positions)
            .map(|(&v, p)| f64::from(v).max(p.score() as f64))
            .collect())
    }
}

/// A policy network of `pnet`: one logit per move of one role, from the planes of
/// [`placement_planes`](super::planes::placement_planes) (Chaos: one per cell) or
/// [`slide_planes`](super::planes::slide_planes) (Order: one per start cell, direction and
/// distance, then the pass; see [`slide_index`](super::planes::slide_index)). An ONNX model
/// exported by `python -m hyle_entropy.placement_net` (input `x` of shape (n, planes, side,
/// side), output (n, moves)); which role it plays is told by its number of input planes.
#[derive(Clone)]
pub struct PolicyNet {
    plan: Arc<Plan>,
    side: usize,
    order: bool,
}

impl std::fmt::Debug for PolicyNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let role = if self.order { "Order" } else { "Chaos" };
        write!(f, "PolicyNet({role}, {}x{})", self.side, self.side)
    }
}

impl PolicyNet {
    /// Reads a policy model for boards of `side` cells a side, and runs it on a test position
    /// of each role so that a wrong model fails here and not in a game.
    pub fn from_onnx(bytes: &[u8], side: usize) -> Result<PolicyNet, String> {
        let plan = load_plan(bytes)?;
        let size = entropy_core::Size::new(side).ok_or("a bad board size")?;
        let mut placing = Position::new(size);
        placing.play_unchecked(entropy_core::Move::Draw(entropy_core::Colour::ALL[0]));
        let chaos = PolicyNet {
            plan,
            side,
            order: false,
        };
        let error = match chaos.logits(&placing) {
            Ok(_) => return Ok(chaos),
            Err(error) => error,
        };
        let order = PolicyNet {
            order: true,
            ..chaos
        };
        let mut sliding = placing;
        sliding.play_unchecked(entropy_core::Move::Place {
            colour: entropy_core::Colour::ALL[0],
            cell: entropy_core::Cell::new(0, 0).expect("a cell"),
        });
        order.logits(&sliding).map_err(|_| error)?;
        Ok(order)
    }

    /// The shipped Chaos policy (7x7, `crates/entropy-engine/weights/pnet7-chaos.onnx`).
    pub fn shipped_chaos() -> PolicyNet {
        static NET: std::sync::OnceLock<PolicyNet> = std::sync::OnceLock::new();
        PolicyNet::shipped(&NET, include_bytes!("../../weights/pnet7-chaos.onnx"))
    }

    /// The shipped Chaos policy against a greedy Order (7x7,
    /// `crates/entropy-engine/weights/pnet7-chaos-greedy.onnx`: the shipped policy fine-tuned on
    /// `spoiler`'s placements against greedy, which answer greedy's exact reply).
    pub fn shipped_chaos_greedy() -> PolicyNet {
        static NET: std::sync::OnceLock<PolicyNet> = std::sync::OnceLock::new();
        PolicyNet::shipped(
            &NET,
            include_bytes!("../../weights/pnet7-chaos-greedy.onnx"),
        )
    }

    /// A shipped 7x7 policy, read from `bytes` once into `cell` and shared.
    fn shipped(cell: &std::sync::OnceLock<PolicyNet>, bytes: &[u8]) -> PolicyNet {
        cell.get_or_init(|| PolicyNet::from_onnx(bytes, 7).expect("the shipped policy loads"))
            .clone()
    }

    /// The side of the boards it was trained for.
    pub fn side(&self) -> usize {
        self.side
    }

    /// Whether it plays Order (else Chaos).
    pub fn plays_order(&self) -> bool {
        self.order
    }

    /// Whether the network's role is to move in `position`, on a board of its size.
    fn moves_in(&self, position: &Position) -> bool {
        let ours = match position.phase() {
            entropy_core::Phase::Slide => self.order,
            entropy_core::Phase::Place(_) => !self.order,
            _ => false,
        };
        ours && position.size().side() == self.side
    }

    /// The logit of every move of the role, for a position where that role is to move (an
    /// error elsewhere).
    pub fn logits(&self, position: &Position) -> Result<Vec<f32>, String> {
        use super::planes::{placement_planes, slide_planes, PLACEMENT_PLANES, SLIDE_PLANES};
        let cells = self.side * self.side;
        let (planes, outputs) = if self.order {
            (SLIDE_PLANES, 4 * (self.side - 1) * cells + 1)
        } else {
            (PLACEMENT_PLANES, cells)
        };
        if !self.moves_in(position) {
            return Err(format!(
                "a {} policy cannot choose in a position where {:?} is next",
                if self.order { "Order" } else { "Chaos" },
                position.phase()
            ));
        }
        let mut data = vec![0f32; planes * cells];
        if self.order {
            slide_planes(position, &mut data);
        } else {
            placement_planes(position, &mut data);
        }
        let input = tract_ndarray::Array4::from_shape_vec((1, planes, self.side, self.side), data)
            .map_err(|e| e.to_string())?;
        run_plan(&self.plan, input.into(), outputs, "moves")
    }

    /// The legal move with the highest logit (the first of equals), where the network's role
    /// is to move on a board of its size; `None` elsewhere.
    pub fn best_move(&self, position: &Position) -> Option<entropy_core::Move> {
        if !self.moves_in(position) {
            return None;
        }
        let logits = self.logits(position).ok()?;
        let mut best: Option<(entropy_core::Move, f32)> = None;
        for &mv in position.legal_moves().iter() {
            let index = match mv {
                entropy_core::Move::Place { cell, .. } => cell.row() * self.side + cell.column(),
                _ => super::planes::slide_index(self.side, mv)?,
            };
            let logit = logits[index];
            if best.is_none_or(|(_, b)| logit > b) {
                best = Some((mv, logit));
            }
        }
        best.map(|(mv, _)| mv)
    }
}
