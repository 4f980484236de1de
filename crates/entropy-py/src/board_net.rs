//! The whole-board network's inputs for Python's trainer (`hyle_entropy.board_net`): the same
//! numbers `entropy_engine::learned::planes` feeds the exported model in Rust, so the two agree
//! move for move.

use entropy_core::notation::text::{format_position, parse_position};
use entropy_core::Position;
use entropy_engine::learned::planes::{board_input_count_with, board_inputs_with as write_inputs};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn parse(text: &str) -> PyResult<Position> {
    parse_position(text).map_err(|e| PyValueError::new_err(format!("bad position {text:?}: {e}")))
}

/// The network's inputs of each position (texts as `entropy` writes them), one row each; every
/// position must have the board size of the first. With `threat_map`, one more number per cell
/// before the linear value: the most a slide ending there adds to Order's score now.
#[pyfunction]
#[pyo3(signature = (positions, threat_map = false))]
pub fn board_inputs<'py>(
    py: Python<'py>,
    positions: Vec<String>,
    threat_map: bool,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let parsed = positions
        .iter()
        .map(|text| parse(text))
        .collect::<PyResult<Vec<Position>>>()?;
    let side = parsed.first().map_or(7, |p| p.size().side());
    if let Some(other) = parsed.iter().find(|p| p.size().side() != side) {
        return Err(PyValueError::new_err(format!(
            "positions of {side}x{side} and {0}x{0} boards mixed",
            other.size().side()
        )));
    }
    let width = board_input_count_with(side, threat_map);
    let rows = py.detach(|| {
        let mut out = vec![0f32; parsed.len() * width];
        for (position, row) in parsed.iter().zip(out.chunks_mut(width)) {
            write_inputs(position, threat_map, row);
        }
        out
    });
    // One flat array reshaped in place, not a copy per row.
    PyArray1::from_vec(py, rows)
        .reshape([parsed.len(), width])
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Every legal move of a decision (Chaos's placement or Order's slide or pass) with the position
/// after it, as `(move, position)` texts; empty where it is not a decision (a draw, the end).
#[pyfunction]
pub fn afterstates(position: &str) -> PyResult<Vec<(String, String)>> {
    let position = parse(position)?;
    if position.to_move().is_none() {
        return Ok(Vec::new());
    }
    Ok(position
        .legal_moves()
        .iter()
        .map(|&mv| {
            let mut after = position;
            after.play_unchecked(mv);
            (mv.to_string(), format_position(&after))
        })
        .collect())
}
