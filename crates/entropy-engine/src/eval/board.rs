//! The inputs of the whole-board network (`wnet`): every cell's chip, the bag, the phase and
//! the linear evaluation's features and value. The network itself is trained in Python
//! (`python/train_board_net.py`) and run by `entropy-nn`; both read their inputs from here, so
//! the two always see the same numbers.

use entropy_core::{Cell, Colour, Phase, Position};

use super::{features, for_each_touching_slide, Evaluator, LinearEval, FEATURES};

/// Inputs for a board of `side` cells a side: a one-hot colour per cell (all zero where it is
/// empty), the chips of each colour in the bag, whether a chip is to be drawn next, the chips
/// placed, the linear features, and the linear evaluation's value (last).
pub const fn board_input_count(side: usize) -> usize {
    side * side * Colour::ALL.len() + Colour::ALL.len() + 2 + FEATURES + 1
}

/// Index of the linear evaluation's value among the inputs (the network adds its correction to
/// it).
pub const fn linear_value_index(side: usize) -> usize {
    board_input_count(side) - 1
}

/// The number of inputs with or without the threat map (one number per cell, before the linear
/// value: see [`board_inputs_with`]).
pub const fn board_input_count_with(side: usize, threat_map: bool) -> usize {
    board_input_count(side) + if threat_map { side * side } else { 0 }
}

/// Writes the inputs of a position into `out` (of [`board_input_count`] numbers), unscaled:
/// the network's first layer scales them.
pub fn board_inputs(position: &Position, out: &mut [f32]) {
    board_inputs_with(position, false, out);
}

/// [`board_inputs`], with the threat map before the linear value if `threat_map`: for every
/// cell, the most a slide ending there would add to Order's score now (0 where none gains),
/// so that a network sees where Order's threats are and how many cells Chaos must cover, not
/// only their sum and maximum as the linear features do.
pub fn board_inputs_with(position: &Position, threat_map: bool, out: &mut [f32]) {
    let side = position.size().side();
    assert_eq!(
        out.len(),
        board_input_count_with(side, threat_map),
        "the input buffer's length"
    );
    out.fill(0.0);
    let colours = Colour::ALL.len();
    for row in 0..side {
        for column in 0..side {
            let cell = Cell::new(row, column).expect("a cell on the board");
            if let Some(colour) = position.board().get(cell) {
                out[(row * side + column) * colours + colour.index()] = 1.0;
            }
        }
    }
    let mut at = side * side * colours;
    for colour in Colour::ALL {
        out[at] = f32::from(position.bag().count(colour));
        at += 1;
    }
    out[at] = f32::from(u8::from(position.phase() == Phase::Draw));
    out[at + 1] = position.placed() as f32;
    at += 2;
    for (slot, value) in out[at..at + FEATURES].iter_mut().zip(features(position)) {
        *slot = value as f32;
    }
    at += FEATURES;
    if threat_map {
        for_each_touching_slide(position, |_, to, gain| {
            let slot = &mut out[at + to.row() * side + to.column()];
            *slot = slot.max(gain as f32);
        });
        at += side * side;
    }
    out[at] = LinearEval::trained_ref().evaluate(position) as f32;
}

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_core::{Move, Size};

    #[test]
    fn inputs_name_each_chip_once_and_end_with_the_linear_value() {
        let mut position = Position::new(Size::SEVEN);
        position.play_unchecked(Move::Draw(Colour::ALL[2]));
        let cell = Cell::new(3, 4).unwrap();
        position.play_unchecked(Move::Place {
            colour: Colour::ALL[2],
            cell,
        });
        let mut out = vec![0f32; board_input_count(7)];
        board_inputs(&position, &mut out);
        let chips: f32 = out[..49 * 7].iter().sum();
        assert_eq!(chips, 1.0);
        assert_eq!(out[(3 * 7 + 4) * 7 + 2], 1.0);
        assert_eq!(out[49 * 7 + 2], 6.0, "one chip of colour 2 left the bag");
        assert_eq!(
            out[linear_value_index(7)] as f64,
            LinearEval::trained_ref().evaluate(&position) as f32 as f64
        );
    }

    #[test]
    fn the_threat_map_marks_the_best_gain_of_each_destination() {
        let position = entropy_core::notation::text::parse_position(
            "1.1..../......./......./......./......./......./....... slide",
        )
        .unwrap();
        let mut plain = vec![0f32; board_input_count(7)];
        board_inputs(&position, &mut plain);
        let mut out = vec![0f32; board_input_count_with(7, true)];
        board_inputs_with(&position, true, &mut out);
        let map = &out[board_input_count(7) - 1..board_input_count_with(7, true) - 1];
        // Two chips of colour 1 with a gap: sliding either next to the other makes a pair.
        // The map holds, per destination, the best gain of the slow scorer's slides there.
        let mut expected = [0f32; 49];
        position.for_each_slide(|from, to| {
            let gain = position.score_after_slide(from, to) as f32 - position.score() as f32;
            let slot = &mut expected[to.row() * 7 + to.column()];
            *slot = slot.max(gain);
        });
        assert_eq!(map, &expected[..]);
        assert!(map.iter().any(|&g| g > 0.0));
        assert_eq!(
            &out[..board_input_count(7) - 1],
            &plain[..board_input_count(7) - 1]
        );
        assert_eq!(out.last(), plain.last());
    }
}
