//! The inputs of the networks: for the whole-board network (`wnet`) every cell's chip, the bag,
//! the phase and the linear evaluation's features and value; for the policy network (`pnet`)
//! the placement and slide planes. The networks are trained in Python
//! (`python -m hyle_entropy.board_net`, `python -m hyle_entropy.placement_net`, reading these
//! numbers through the bindings) and run by `networks` (tract, feature `onnx`), so the
//! two always see the same numbers. The linear evaluation here is the one frozen for the models'
//! inputs ([`LinearEval::model_inputs_ref`]), not the search's, which may be refitted.

use entropy_core::{Cell, Colour, Phase, Position};

use crate::eval::{features, for_each_touching_slide, Evaluator, LinearEval, FEATURES};

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
        write_threat_map(position, 1.0, &mut out[at..at + side * side]);
        at += side * side;
    }
    out[at] = LinearEval::model_inputs_ref().evaluate(position) as f32;
}

/// The threat map into `map` (one number per cell, row by row): the most a slide ending on
/// the cell adds to Order's score now (0 where none gains), times `scale`.
fn write_threat_map(position: &Position, scale: f32, map: &mut [f32]) {
    let side = position.size().side();
    for_each_touching_slide(position, |_, to, gain| {
        let slot = &mut map[to.row() * side + to.column()];
        *slot = slot.max(gain as f32 * scale);
    });
}

/// One plane per colour (in `planes`, plane after plane), each filled with that colour's chips
/// left in the bag, in sevenths.
fn write_bag_planes(position: &Position, planes: &mut [f32]) {
    let cells = planes.len() / Colour::ALL.len();
    for (plane, colour) in planes.chunks_mut(cells).zip(Colour::ALL) {
        plane.fill(f32::from(position.bag().count(colour)) / 7.0);
    }
}

/// Planes of [`placement_planes`]: one 7x7 (side x side) plane each.
pub const PLACEMENT_PLANES: usize = 21;

/// Inputs of the placement network (`pnet`): where Chaos should place the chip it has drawn,
/// as [`PLACEMENT_PLANES`] planes of side x side numbers, plane after plane, row by row:
///
/// - 0-6: the cell holds a chip of colour 0..6; 7: the cell is empty; 8: it holds the drawn
///   colour;
/// - 9: the linear evaluation of placing the drawn chip there, less the lowest over the empty
///   cells (the one-move lookahead the network corrects), 0 where occupied, in tens of points;
/// - 10: what placing it there adds to Order's score now; 11: the most a slide of Order ending
///   there adds now (the threat map); both in tens of points;
/// - 12: the drawn colour's chips left in the bag, in sevenths; 13: the chips placed, in 49ths;
/// - 14-20: the chips of each colour left in the bag, in sevenths (the same on every cell).
///
/// Every plane turns with the board and every colour plane follows a renaming of the colours,
/// so training may augment by the board's symmetries and colour permutations.
pub fn placement_planes(position: &Position, out: &mut [f32]) {
    let side = position.size().side();
    let cells = side * side;
    assert_eq!(
        out.len(),
        PLACEMENT_PLANES * cells,
        "the input buffer's length"
    );
    let Phase::Place(drawn) = position.phase() else {
        panic!("placement planes need a drawn chip to place");
    };
    out.fill(0.0);
    let eval = LinearEval::model_inputs_ref();
    let score = position.score() as f32;
    let mut lowest = f32::INFINITY;
    for cell in position.board().vacant_cells() {
        let mut after = *position;
        after.play_unchecked(entropy_core::Move::Place {
            colour: drawn,
            cell,
        });
        let at = cell.row() * side + cell.column();
        let value = eval.evaluate(&after) as f32;
        lowest = lowest.min(value);
        out[9 * cells + at] = value;
        out[10 * cells + at] = (position.score_after_place(cell, drawn) as f32 - score) / 10.0;
        out[7 * cells + at] = 1.0;
    }
    for at in 0..cells {
        if out[7 * cells + at] == 1.0 {
            out[9 * cells + at] = (out[9 * cells + at] - lowest) / 10.0;
        }
        let cell = Cell::new(at / side, at % side).expect("a cell on the board");
        if let Some(colour) = position.board().get(cell) {
            out[colour.index() * cells + at] = 1.0;
            if colour == drawn {
                out[8 * cells + at] = 1.0;
            }
        }
    }
    write_threat_map(position, 0.1, &mut out[11 * cells..12 * cells]);
    out[12 * cells..13 * cells].fill(f32::from(position.bag().count(drawn)) / 7.0);
    out[13 * cells..14 * cells].fill(position.placed() as f32 / cells as f32);
    write_bag_planes(position, &mut out[14 * cells..21 * cells]);
}

/// Planes of [`slide_planes`].
pub const SLIDE_PLANES: usize = 42;

/// Directions of a slide in [`slide_planes`] and [`slide_index`]: up (towards row 0), down,
/// left (towards column 0), right.
const DIRECTIONS: [(isize, isize); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// The index of an Order move among the slide network's outputs: `(direction * (side - 1) +
/// distance - 1) * side * side + from` for a slide, `4 * (side - 1) * side * side` for the pass.
pub fn slide_index(side: usize, mv: entropy_core::Move) -> Option<usize> {
    let cells = side * side;
    match mv {
        entropy_core::Move::Pass => Some(4 * (side - 1) * cells),
        entropy_core::Move::Slide { from, to } => {
            let (dr, dc) = (
                to.row() as isize - from.row() as isize,
                to.column() as isize - from.column() as isize,
            );
            let distance = dr.unsigned_abs().max(dc.unsigned_abs());
            let direction = DIRECTIONS
                .iter()
                .position(|&(r, c)| (r * distance as isize, c * distance as isize) == (dr, dc))?;
            Some(
                (direction * (side - 1) + distance - 1) * cells + from.row() * side + from.column(),
            )
        }
        _ => None,
    }
}

/// Inputs of the slide network (`pnet` as Order): [`SLIDE_PLANES`] planes of side x side:
///
/// - 0-6: the cell holds a chip of colour 0..6; 7: it is empty;
/// - 8 to 8 + 4 * (side - 1): one plane per direction and distance (see [`slide_index`]), on
///   the cell a slide starts from: the linear evaluation of its afterstate less the best of
///   Order's moves (the pass included), in tens of points; -5 where there is no such slide;
/// - 32: the threat map (the most a slide ending on the cell adds now, in tens of points);
/// - 33: the pass's afterstate less the best, in tens of points; 34: the chips placed, in
///   49ths; 35-41: the chips of each colour left in the bag, in sevenths.
pub fn slide_planes(position: &Position, out: &mut [f32]) {
    let side = position.size().side();
    let cells = side * side;
    assert_eq!(out.len(), SLIDE_PLANES * cells, "the input buffer's length");
    assert_eq!(
        position.phase(),
        Phase::Slide,
        "slide planes need Order to move"
    );
    out.fill(0.0);
    let moves = 4 * (side - 1);
    out[8 * cells..(8 + moves) * cells].fill(f32::NAN);
    let eval = LinearEval::model_inputs_ref();
    let value = |mv| {
        let mut after = *position;
        after.play_unchecked(mv);
        eval.evaluate(&after) as f32
    };
    let pass = value(entropy_core::Move::Pass);
    let mut best = pass;
    position.for_each_slide(|from, to| {
        let mv = entropy_core::Move::Slide { from, to };
        let v = value(mv);
        best = best.max(v);
        let index = slide_index(side, mv).expect("a slide has an index");
        out[8 * cells + index] = v;
    });
    for slot in &mut out[8 * cells..(8 + moves) * cells] {
        *slot = if slot.is_nan() {
            -5.0
        } else {
            (*slot - best) / 10.0
        };
    }
    for at in 0..cells {
        let cell = Cell::new(at / side, at % side).expect("a cell on the board");
        match position.board().get(cell) {
            Some(colour) => out[colour.index() * cells + at] = 1.0,
            None => out[7 * cells + at] = 1.0,
        }
    }
    write_threat_map(position, 0.1, &mut out[32 * cells..33 * cells]);
    out[33 * cells..34 * cells].fill((pass - best) / 10.0);
    out[34 * cells..35 * cells].fill(position.placed() as f32 / cells as f32);
    write_bag_planes(position, &mut out[35 * cells..42 * cells]);
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
            LinearEval::model_inputs_ref().evaluate(&position) as f32 as f64
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

    /// Positions of a few random games at every decision, for the policy planes' tests.
    fn decisions() -> Vec<Position> {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let mut out = Vec::new();
        for _ in 0..3 {
            let mut position = Position::new(Size::SEVEN);
            while !position.is_over() {
                if position.phase() != Phase::Draw {
                    out.push(position);
                }
                let mv = crate::playout::random_move(&position, &mut rng);
                position.play_unchecked(mv);
            }
        }
        out
    }

    #[test]
    fn every_order_move_has_its_own_slide_index_and_plane() {
        for position in decisions()
            .into_iter()
            .filter(|p| p.phase() == Phase::Slide)
        {
            let mut planes = vec![0f32; SLIDE_PLANES * 49];
            slide_planes(&position, &mut planes);
            let moves = position.legal_moves();
            let mut seen = std::collections::HashSet::new();
            let mut best = f32::NEG_INFINITY;
            for &mv in moves.iter() {
                let index = slide_index(7, mv).unwrap();
                assert!(seen.insert(index), "{mv:?} shares its index");
                let value = if mv == Move::Pass {
                    planes[33 * 49]
                } else {
                    assert!(index < 24 * 49);
                    planes[8 * 49 + index]
                };
                assert!(value <= 1e-6 && value > -4.0, "{mv:?}: {value}");
                best = best.max(value);
            }
            assert!(best.abs() < 1e-6, "the best move is 0 below the best");
            let legal = planes[8 * 49..32 * 49]
                .iter()
                .filter(|&&v| v > -4.0)
                .count();
            assert_eq!(legal + 1, moves.len(), "one plane entry per slide");
        }
    }

    #[test]
    fn placement_planes_value_every_empty_cell() {
        for position in decisions()
            .into_iter()
            .filter(|p| matches!(p.phase(), Phase::Place(_)))
        {
            let mut planes = vec![0f32; PLACEMENT_PLANES * 49];
            placement_planes(&position, &mut planes);
            let empty: Vec<usize> = (0..49).filter(|&at| planes[7 * 49 + at] == 1.0).collect();
            assert_eq!(empty.len(), position.board().vacant_cells().count());
            let lowest = empty
                .iter()
                .map(|&at| planes[9 * 49 + at])
                .fold(f32::INFINITY, f32::min);
            assert!(lowest.abs() < 1e-6);
            let chips: f32 = planes[..7 * 49].iter().sum();
            assert_eq!(chips as usize, position.placed());
        }
    }
}
