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

use entropy_core::{line, Phase, Position, Size};

use crate::actions::{action_count, pass_action};

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
}

/// Values per observation (without an appended mask).
pub fn observation_size(size: Size, kind: ObservationKind) -> usize {
    let (n, c) = (size.side(), size.cells());
    match kind {
        ObservationKind::Planes => n * c + c + n + 3,
        ObservationKind::Compact => c + n + 3,
    }
}

/// Writes the planes observation.
pub fn write_planes(position: &Position, out: &mut [f32]) {
    let size = position.size();
    let (n, c) = (size.side(), size.cells());
    out.fill(0.0);
    let board = position.board();
    for_each_bit(board.occupied_bits(), |r, col| {
        let key = board.row_key(r) >> (3 * col) & 7;
        out[(key as usize - 1) * c + r * n + col] = 1.0;
    });
    let empty = &mut out[n * c..n * c + c];
    for_each_bit(board.vacant_bits(), |r, col| empty[r * n + col] = 1.0);
    let tail = &mut out[n * c + c..];
    for colour in size.game_colours() {
        tail[colour.index()] = position.bag().count(colour) as f32 / n as f32;
    }
    if let Phase::Place(colour) = position.phase() {
        tail[n] = colour.number() as f32 / n as f32;
    }
    tail[n + 1] = if position.phase() == Phase::Slide {
        1.0
    } else {
        0.0
    };
    tail[n + 2] = position.placed() as f32 / c as f32;
}

/// Writes the compact observation.
pub fn write_compact(position: &Position, out: &mut [u8]) {
    let size = position.size();
    let (n, c) = (size.side(), size.cells());
    out.fill(0);
    let board = position.board();
    for_each_bit(board.occupied_bits(), |r, col| {
        out[r * n + col] = (board.row_key(r) >> (3 * col) & 7) as u8;
    });
    for colour in size.game_colours() {
        out[c + colour.index()] = position.bag().count(colour);
    }
    if let Phase::Place(colour) = position.phase() {
        out[c + n] = colour.number();
    }
    out[c + n + 1] = u8::from(position.phase() == Phase::Slide);
    out[c + n + 2] = position.placed() as u8;
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
