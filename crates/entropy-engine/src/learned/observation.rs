//! Observations and masks.
//!
//! **Planes** (`f32`, the PufferLib plan's layout; 402 values for Entropy(7), in general
//! N x C + C + N + 3 with C = N x N cells):
//!
//! | offset | values | meaning |
//! |---|---|---|
//! | `0 .. N*C` | N planes of C | `plane[k][cell] = 1` if the cell holds colour k + 1 |
//! | `N*C .. N*C + C` | C | 1 where the cell is empty |
//! | next N | N | chips of each colour left in the bag / N |
//! | next | 1 | the drawn colour / N while Chaos places, else 0 |
//! | next | 1 | 1 when Order is to move, 0 when Chaos is |
//! | next | 1 | chips placed / C |
//!
//! **Compact** (`u8`, C + N + 3 values): each cell's colour (0 empty), the bag's counts, the
//! drawn colour (0 if none), 1 if Order is to move, chips placed.
//!
//! **Gains** (`f32`, the planes then 3 C + C x 2(N-1) values, 1137 on 7x7): what the rules say
//! each move does to the score now, in tens of points, for a policy that should not have to
//! learn the scoring table before it can learn to play (see [`write_gains`]).
//!
//! **Lines** (`f32`, the gains then 2N + 3 (C + C x 2(N-1)) values, 3062 on 7x7): every line's
//! pattern now, and for every placement and slide the patterns of the lines it changes, after
//! it, so that a policy can value each move's afterstate by tables over line patterns, as the
//! n-tuple evaluation does (see [`write_lines`]).
//!
//! **Evals** (`f32`, the lines then A values, 3700 on 7x7): what every action does to the shipped
//! linear evaluation, in tens of points, or to the exact value once two empty cells or fewer are
//! left after it (see [`write_evals`]).
//!
//! **Read** (`f32`, the evals then 1 + C values, 3750 on 7x7): whether the opponent reads as the
//! greedy bot (1) or not (0), then, while it does and Chaos places, what each placement does to
//! the same valuation once greedy Order has replied to it (see [`write_read`]). The flag comes
//! from watching the game, not from the position: [`write_observation`] writes it 0.

use entropy_core::{line, Phase, Position, Size};

use super::actions::{action_count, action_of, pass_action, slide_cells};
use super::ntuple::line_patterns;
use crate::eval::{
    for_each_touching_slide, replies_to_placements, BoardMemo, Evaluator, LinearEval, ScoreEval,
};
use crate::search::moves_to_end;
use crate::search::reference::expectimax;

mod read;
pub use read::write_read;

/// Calls `f(row, column)` for every set bit of a one-byte-per-row bitboard.
#[inline(always)]
fn for_each_bit(mut bits: u64, mut f: impl FnMut(usize, usize)) {
    while bits != 0 {
        let at = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        f(at / 8, at % 8);
    }
}

/// The observation layouts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ObservationKind {
    /// One-hot colour planes and scalars, `f32`.
    Planes,
    /// One byte per cell and scalars, `u8`.
    Compact,
    /// The planes, then every move's immediate effect on the score, `f32`.
    Gains,
    /// The gains, then the line patterns now and after every move, `f32`.
    Lines,
    /// The lines, then every move's change of the linear evaluation, `f32`.
    Evals,
    /// The evals, then whether the opponent reads as greedy and, if so, each placement's change
    /// of the evaluation after greedy Order's reply, `f32`.
    Read,
}

impl ObservationKind {
    /// Every layout, by the name the environment's users give it.
    pub const NAMED: [(&'static str, ObservationKind); 6] = [
        ("planes", ObservationKind::Planes),
        ("gains", ObservationKind::Gains),
        ("lines", ObservationKind::Lines),
        ("evals", ObservationKind::Evals),
        ("read", ObservationKind::Read),
        ("compact", ObservationKind::Compact),
    ];
}

/// Values per observation (without an appended mask).
pub fn observation_size(size: Size, kind: ObservationKind) -> usize {
    let (n, c) = (size.side(), size.cells());
    match kind {
        ObservationKind::Planes => n * c + c + n + 3,
        ObservationKind::Compact => c + n + 3,
        ObservationKind::Gains => n * c + c + n + 3 + 3 * c + c * 2 * (n - 1),
        ObservationKind::Lines => {
            observation_size(size, ObservationKind::Gains) + 2 * n + 3 * (c + c * 2 * (n - 1))
        }
        ObservationKind::Evals => {
            observation_size(size, ObservationKind::Lines) + action_count(size)
        }
        ObservationKind::Read => observation_size(size, ObservationKind::Evals) + 1 + c,
    }
}

/// Writes a float observation of this kind (not [`ObservationKind::Compact`], whose values are
/// bytes: [`write_compact`]); the read observation as for an opponent not read as greedy.
pub fn write_observation(position: &Position, kind: ObservationKind, out: &mut [f32]) {
    write_observation_reading(position, kind, false, out);
}

/// [`write_observation`] with what the player to move reads of its opponent: `greedy`, whether
/// it plays as the greedy bot does (only the read observation holds it).
pub fn write_observation_reading(
    position: &Position,
    kind: ObservationKind,
    greedy: bool,
    out: &mut [f32],
) {
    match kind {
        ObservationKind::Planes => write_planes(position, out),
        ObservationKind::Gains => write_gains(position, out),
        ObservationKind::Lines => write_lines(position, out),
        ObservationKind::Evals => write_evals(position, out),
        ObservationKind::Read => write_read(position, greedy, out),
        ObservationKind::Compact => panic!("the compact observation is bytes"),
    }
}

/// Calls `f(cell, colour number)` for every chip on the board, cells numbered row by row
/// (`row * N + column`), colours from 1.
fn for_each_chip(position: &Position, mut f: impl FnMut(usize, usize)) {
    let board = position.board();
    let n = position.size().side();
    for_each_bit(board.occupied_bits(), |r, col| {
        f(r * n + col, (board.row_key(r) >> (3 * col) & 7) as usize);
    });
}

/// Writes the planes observation.
pub fn write_planes(position: &Position, out: &mut [f32]) {
    let size = position.size();
    let (n, c) = (size.side(), size.cells());
    out.fill(0.0);
    for_each_chip(position, |at, number| out[(number - 1) * c + at] = 1.0);
    let empty = &mut out[n * c..n * c + c];
    for_each_bit(position.board().vacant_bits(), |r, col| {
        empty[r * n + col] = 1.0
    });
    let tail = &mut out[n * c + c..];
    for_each_tail_number(position, |i, value, scale| {
        tail[i] = f32::from(value) / scale as f32
    });
}

/// The N + 3 numbers both layouts end with: `f(index, value, scale)` for each colour's chips in
/// the bag (scale N), the drawn colour's number (0 if none; scale N), 1 if Order is to move
/// (scale 1) and the chips placed (scale C). The planes divide each by its scale.
fn for_each_tail_number(position: &Position, mut f: impl FnMut(usize, u8, usize)) {
    let size = position.size();
    let (n, c) = (size.side(), size.cells());
    for colour in size.game_colours() {
        f(colour.index(), position.bag().count(colour), n);
    }
    let drawn = match position.phase() {
        Phase::Place(colour) => colour.number(),
        _ => 0,
    };
    f(n, drawn, n);
    f(n + 1, u8::from(position.phase() == Phase::Slide), 1);
    f(n + 2, position.placed() as u8, c);
}

/// Writes the gains observation: the planes ([`write_planes`]), then, all in tens of points
/// and relative to the score now:
///
/// | values | meaning |
/// |---|---|
/// | C | placing the drawn chip on the cell: the score after it (0 where occupied, or when Order is to move) |
/// | C | placing it there: the score after Order's best reply to it, a slide or the pass (greedy Chaos's question) |
/// | C | the most a slide ending on the cell gains (the threat map; 0 where none gains, or when Chaos is to move) |
/// | C x 2(N-1) | each slide action ([`super::actions`]'s order): the score after it (when Order is to move; 0 for a slide that is not legal) |
pub fn write_gains(position: &Position, out: &mut [f32]) {
    let size = position.size();
    let (n, c) = (size.side(), size.cells());
    let planes = observation_size(size, ObservationKind::Planes);
    write_planes(position, &mut out[..planes]);
    let gains = &mut out[planes..];
    gains.fill(0.0);
    let score = position.score() as f32;
    let tens = |after: u32| (after as f32 - score) / 10.0;
    match position.phase() {
        Phase::Place(drawn) => {
            for cell in position.board().vacant_cells() {
                let at = cell.row() * n + cell.column();
                gains[at] = tens(position.score_after_place(cell, drawn));
            }
            for (cell, reply) in replies_to_placements(position, drawn) {
                gains[c + cell.row() * n + cell.column()] = tens(reply);
            }
        }
        Phase::Slide => {
            let slides = &mut gains[3 * c..];
            for mv in position.legal_moves().iter() {
                if let entropy_core::Move::Slide { from, to } = *mv {
                    let action = action_of(size, *mv).expect("a slide has an action") - c;
                    slides[action] = tens(position.score_after_slide(from, to));
                }
            }
            let threats = &mut gains[2 * c..3 * c];
            for_each_touching_slide(position, |_, to, gain| {
                let slot = &mut threats[to.row() * n + to.column()];
                *slot = slot.max(gain as f32 / 10.0);
            });
        }
        Phase::Draw | Phase::Over => {}
    }
}

/// The lines (0 .. N the rows, N .. 2N the columns) an action changes, in the order the lines
/// observation lists their patterns ([`write_lines`]): a placement on (r, c) its row, its column
/// and its row again (that third slot always holds the row's current pattern: it changes
/// nothing); a slide along row r from column a to b the row, column a and column b; a slide along
/// column c from row a to b the column, row a and row b. `None` for the pass.
pub fn changed_lines(size: Size, action: usize) -> Option<[usize; 3]> {
    let n = size.side();
    if action < size.cells() {
        let (row, column) = (action / n, action % n);
        return Some([row, n + column, row]);
    }
    let (from, to) = slide_cells(size, action)?;
    Some(if from.row() == to.row() {
        [from.row(), n + from.column(), n + to.column()]
    } else {
        [n + from.column(), from.row(), to.row()]
    })
}

/// Writes the lines observation: the gains ([`write_gains`]), then
///
/// | values | meaning |
/// |---|---|
/// | 2N | each row's, then each column's pattern: its id among the line patterns of the n-tuple evaluation ([`super::ntuple::line_patterns`]; colours renamed in order of first appearance, the smaller of both directions) |
/// | 3 x (C + C x 2(N-1)) | for every placement and slide action, the patterns of the three lines it changes ([`changed_lines`]) after it; for an action that is not legal now, their patterns now |
///
/// A policy that looks up a value per pattern values each move by its lines' values after it
/// less their values now (the unchanged lines cancel), as the n-tuple evaluation would.
pub fn write_lines(position: &Position, out: &mut [f32]) {
    let size = position.size();
    let (n, c) = (size.side(), size.cells());
    let gains = observation_size(size, ObservationKind::Gains);
    write_gains(position, &mut out[..gains]);
    let patterns = line_patterns(n);
    let board = position.board();
    // Rows, then columns; on the stack: the environment writes this every step.
    let mut keys = [0u32; 2 * entropy_core::MAX_SIDE];
    for i in 0..n {
        keys[i] = board.row_key(i);
        keys[n + i] = board.column_key(i);
    }
    let id = |key: u32| patterns.id(key) as f32;
    let (now, after) = out[gains..].split_at_mut(2 * n);
    for (slot, &key) in now.iter_mut().zip(&keys[..2 * n]) {
        *slot = id(key);
    }
    // Every action's slots at the patterns now; the legal moves' then changed.
    for action in 0..pass_action(size) {
        let lines = changed_lines(size, action).expect("not the pass");
        for (k, &line) in lines.iter().enumerate() {
            after[3 * action + k] = now[line];
        }
    }
    let set = |key: u32, at: usize, number: u32| key & !(7 << (3 * at)) | number << (3 * at);
    match position.phase() {
        Phase::Place(colour) => {
            let number = u32::from(colour.number());
            for cell in board.vacant_cells() {
                let (row, column) = (cell.row(), cell.column());
                let action = row * n + column;
                after[3 * action] = id(set(keys[row], column, number));
                after[3 * action + 1] = id(set(keys[n + column], row, number));
            }
        }
        Phase::Slide => position.for_each_slide(|from, to| {
            let mv = entropy_core::Move::Slide { from, to };
            let action = action_of(size, mv).expect("a slide has an action");
            let (r, col) = (from.row(), from.column());
            let number = (keys[r] >> (3 * col)) & 7;
            let slots = &mut after[3 * action..3 * action + 3];
            if from.row() == to.row() {
                slots[0] = id(set(set(keys[r], col, 0), to.column(), number));
                slots[1] = id(set(keys[n + col], r, 0));
                slots[2] = id(set(keys[n + to.column()], r, number));
            } else {
                slots[0] = id(set(set(keys[n + col], r, 0), to.row(), number));
                slots[1] = id(set(keys[r], col, 0));
                slots[2] = id(set(keys[to.row()], col, number));
            }
        }),
        Phase::Draw | Phase::Over => {}
    }
    debug_assert_eq!(after.len(), 3 * (c + c * 2 * (n - 1)));
}

/// Writes the evals observation: the lines ([`write_lines`]), then for every action (the
/// layout of [`super::actions`], the pass last) how much the move changes the linear
/// evaluation (Order's expected final score, as the searcher's leaves valued it with the
/// weights shipped until December 2026, frozen here: [`LinearEval::model_inputs_ref`]), in tens
/// of points; 0 for an action that is not legal now. A policy that weighs these plays as the
/// searcher one move deep (`search:depth=1`) would, and can learn what that misses. An action
/// that leaves at most two empty cells is valued exactly instead (expectimax to the end of the
/// game, [`EXACT_EMPTY`]): the evaluation guesses worst there, and the game's last decisions
/// are cheap to solve.
///
/// The children are valued one after another through one memo, updated by each move, as the
/// searcher values a node's children (the same values as valuing each alone).
pub fn write_evals(position: &Position, out: &mut [f32]) {
    let size = position.size();
    let lines = observation_size(size, ObservationKind::Lines);
    write_lines(position, &mut out[..lines]);
    let evals = &mut out[lines..];
    evals.fill(0.0);
    if position.to_move().is_none() {
        return;
    }
    let eval = LinearEval::model_inputs_ref();
    let mut memo = BoardMemo::default();
    let now = eval.evaluate_with(position, &mut memo);
    for &mv in position.legal_moves().iter() {
        let Some(action) = action_of(size, mv) else {
            continue;
        };
        // A legal move: played without checking it again (this runs at every step).
        let mut child = *position;
        child.play_unchecked(mv);
        let value = if child.board().vacant_count() <= EXACT_EMPTY {
            expectimax(&child, moves_to_end(&child), &ScoreEval)
        } else {
            eval.evaluate_child(position, mv, &child, &mut memo)
        };
        evals[action] = ((value - now) / 10.0) as f32;
    }
}

/// Afterstates with at most this many empty cells are valued exactly in the evals observation
/// (plain expectimax to the end: a few hundred positions an action), where the evaluation's
/// guesses cost the most (the distilled policy's choices lost 1.5 points on Order's last move).
const EXACT_EMPTY: usize = 2;

/// Writes the compact observation.
pub fn write_compact(position: &Position, out: &mut [u8]) {
    let c = position.size().cells();
    out.fill(0);
    for_each_chip(position, |at, number| out[at] = number as u8);
    for_each_tail_number(position, |i, value, _| out[c + i] = value);
}

/// A float observation of this kind with the legal-action mask appended as 0/1: what a policy
/// trained with `mask_in_observation` reads.
pub fn observation_with_mask(position: &Position, kind: ObservationKind) -> Vec<f32> {
    observation_with_mask_reading(position, kind, false)
}

/// [`observation_with_mask`] with what the player to move reads of its opponent
/// ([`write_observation_reading`]).
pub fn observation_with_mask_reading(
    position: &Position,
    kind: ObservationKind,
    greedy: bool,
) -> Vec<f32> {
    let size = position.size();
    let width = observation_size(size, kind);
    let mut mask = vec![false; action_count(size)];
    write_mask(position, &mut mask);
    let mut out = vec![0f32; width + mask.len()];
    write_observation_reading(position, kind, greedy, &mut out[..width]);
    for (value, legal) in out[width..].iter_mut().zip(&mask) {
        *value = f32::from(u8::from(*legal));
    }
    out
}

/// Writes the legal-action mask (all false when no player is to move).
pub fn write_mask(position: &Position, mask: &mut [bool]) {
    let size = position.size();
    let (n, c) = (size.side(), size.cells());
    debug_assert_eq!(mask.len(), action_count(size));
    mask.fill(false);
    let board = position.board();
    match position.phase() {
        Phase::Place(_) => for_each_bit(board.vacant_bits(), |r, col| mask[r * n + col] = true),
        Phase::Slide => {
            let per_cell = 2 * (n - 1);
            for_each_bit(board.occupied_bits(), |r, col| {
                let base = c + (r * n + col) * per_cell;
                for q in line::bits(line::slides(n, board.row_occupancy(r), col)) {
                    mask[base + q - usize::from(q > col)] = true;
                }
                for q in line::bits(line::slides(n, board.column_occupancy(col), r)) {
                    mask[base + n - 1 + q - usize::from(q > r)] = true;
                }
            });
            mask[pass_action(size)] = true;
        }
        Phase::Draw | Phase::Over => {}
    }
}

#[cfg(test)]
mod tests {
    use entropy_core::{Cell, Move, Size};
    use rand::SeedableRng;

    use super::*;
    use crate::eval::Weights;
    use crate::playout::random_move;

    /// The gains observation, the slow way: every move played out and scored.
    fn gains_by_playing(position: &Position) -> Vec<f32> {
        let size = position.size();
        let (n, c) = (size.side(), size.cells());
        let planes = observation_size(size, ObservationKind::Planes);
        let mut out = vec![0f32; observation_size(size, ObservationKind::Gains) - planes];
        let score = position.score() as f32;
        let tens = |after: &Position| (after.score() as f32 - score) / 10.0;
        for mv in position.legal_moves().iter().copied() {
            let after = position.after(mv).unwrap();
            match mv {
                Move::Place { cell, .. } => {
                    let at = cell.row() * n + cell.column();
                    out[at] = tens(&after);
                    let best = after
                        .legal_moves()
                        .iter()
                        .map(|&reply| tens(&after.after(reply).unwrap()))
                        .fold(tens(&after), f32::max);
                    out[c + at] = best;
                }
                Move::Slide { to, .. } => {
                    out[3 * c + action_of(size, mv).unwrap() - c] = tens(&after);
                    let threat = &mut out[2 * c + to.row() * n + to.column()];
                    *threat = threat.max(tens(&after));
                }
                _ => {}
            }
        }
        out
    }

    /// The lines observation's tail, the slow way: every legal move played out and its
    /// afterstate's lines looked up.
    fn lines_by_playing(position: &Position) -> Vec<f32> {
        let size = position.size();
        let n = size.side();
        let patterns = line_patterns(n);
        let ids = |p: &Position| -> Vec<f32> {
            let board = p.board();
            (0..n)
                .map(|r| patterns.id(board.row_key(r)) as f32)
                .chain((0..n).map(|col| patterns.id(board.column_key(col)) as f32))
                .collect()
        };
        let now = ids(position);
        let mut out = now.clone();
        let legal = position.legal_moves();
        for action in 0..pass_action(size) {
            let lines = changed_lines(size, action).unwrap();
            let after = crate::learned::actions::move_of(position, action)
                .filter(|mv| legal.contains(mv))
                .map(|mv| ids(&position.after(mv).unwrap()));
            for (k, &line) in lines.iter().enumerate() {
                // A placement's third slot is its row at its pattern now.
                let changed = !(action < size.cells() && k == 2);
                out.push(match &after {
                    Some(after) if changed => after[line],
                    _ => now[line],
                });
            }
        }
        out
    }

    #[test]
    fn line_patterns_are_the_afterstates_lines() {
        for size in [Size::SEVEN, Size::FIVE] {
            let gains = observation_size(size, ObservationKind::Gains);
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
            for _ in 0..3 {
                let mut position = Position::new(size);
                while !position.is_over() {
                    let mut out = vec![0f32; observation_size(size, ObservationKind::Lines)];
                    write_observation(&position, ObservationKind::Lines, &mut out);
                    let mut plain = vec![0f32; gains];
                    write_gains(&position, &mut plain);
                    assert_eq!(out[..gains], plain[..]);
                    assert_eq!(
                        out[gains..],
                        lines_by_playing(&position)[..],
                        "{position:?}"
                    );
                    let mv = random_move(&position, &mut rng);
                    position.play_unchecked(mv);
                }
            }
        }
        assert_eq!(observation_size(Size::SEVEN, ObservationKind::Lines), 3062);
    }

    /// The evals observation's tail is each legal move's afterstate valued alone (exactly by
    /// plain expectimax once at most two cells are empty), less the position's value, over ten;
    /// its head the lines observation.
    #[test]
    fn evals_are_each_afterstates_evaluation_change() {
        let size = Size::SEVEN;
        let lines = observation_size(size, ObservationKind::Lines);
        assert_eq!(observation_size(size, ObservationKind::Evals), 3700);
        let eval = LinearEval::new(Weights::model_inputs());
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(6);
        let (mut checked, mut exact) = (0, 0);
        for _ in 0..2 {
            let mut position = Position::new(size);
            while !position.is_over() {
                let mut out = vec![0f32; observation_size(size, ObservationKind::Evals)];
                write_observation(&position, ObservationKind::Evals, &mut out);
                let mut plain = vec![0f32; lines];
                write_lines(&position, &mut plain);
                assert_eq!(out[..lines], plain[..]);
                let mut want = vec![0f32; action_count(size)];
                if position.to_move().is_some() {
                    let now = eval.evaluate(&position);
                    for &mv in position.legal_moves().iter() {
                        let child = position.after(mv).unwrap();
                        let action = action_of(size, mv).unwrap();
                        let value = if child.board().vacant_count() <= 2 {
                            exact += 1;
                            expectimax(&child, 99, &ScoreEval)
                        } else {
                            eval.evaluate(&child)
                        };
                        want[action] = ((value - now) / 10.0) as f32;
                        checked += 1;
                    }
                }
                assert_eq!(out[lines..], want[..], "{position:?}");
                let mv = random_move(&position, &mut rng);
                position.play_unchecked(mv);
            }
        }
        assert!(
            checked > 1000 && exact > 10,
            "{checked} actions, {exact} valued exactly"
        );
    }

    #[test]
    fn changed_lines_name_the_lines_a_move_crosses() {
        for size in [Size::SEVEN, Size::FIVE] {
            let n = size.side();
            for action in 0..pass_action(size) {
                let lines = changed_lines(size, action).unwrap();
                let cells: Vec<Cell> = if action < size.cells() {
                    vec![crate::learned::actions::grid_cell(size, action)]
                } else {
                    let mut slide = Position::new(size);
                    slide.play_unchecked(Move::Draw(entropy_core::Colour::ALL[0]));
                    let from = crate::learned::actions::grid_cell(
                        size,
                        (action - size.cells()) / (2 * (n - 1)),
                    );
                    slide.play_unchecked(Move::Place {
                        colour: entropy_core::Colour::ALL[0],
                        cell: from,
                    });
                    match crate::learned::actions::move_of(&slide, action).unwrap() {
                        Move::Slide { from, to } => vec![from, to],
                        other => panic!("{other:?}"),
                    }
                };
                // Every line through the cells, and only those.
                let mut through: Vec<usize> = cells
                    .iter()
                    .flat_map(|cell| [cell.row(), n + cell.column()])
                    .collect();
                through.sort_unstable();
                through.dedup();
                let mut named = lines.to_vec();
                named.sort_unstable();
                named.dedup();
                assert_eq!(named, through, "action {action}");
            }
            assert_eq!(changed_lines(size, pass_action(size)), None);
        }
    }

    #[test]
    fn gains_are_the_scores_the_moves_make() {
        for size in [Size::SEVEN, Size::FIVE] {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
            for _ in 0..3 {
                let mut position = Position::new(size);
                while !position.is_over() {
                    if matches!(position.phase(), Phase::Slide | Phase::Place(_)) {
                        let planes = observation_size(size, ObservationKind::Planes);
                        let mut out = vec![0f32; observation_size(size, ObservationKind::Gains)];
                        write_gains(&position, &mut out);
                        let mut plain = vec![0f32; planes];
                        write_planes(&position, &mut plain);
                        assert_eq!(out[..planes], plain[..]);
                        assert_eq!(out[planes..], gains_by_playing(&position)[..]);
                    }
                    let mv = random_move(&position, &mut rng);
                    position.play_unchecked(mv);
                }
            }
        }
    }
}
