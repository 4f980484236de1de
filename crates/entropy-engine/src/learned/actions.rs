//! The action layout: every legal move of Entropy(N) as one integer.
//!
//! With C = N x N cells numbered row-major (`row * N + column`):
//!
//! | actions | move |
//! |---|---|
//! | `0 .. C` | Chaos places the drawn chip on cell `a` |
//! | `C .. C + C * 2(N-1)` | Order slides the chip on cell `f = (a - C) / 2(N-1)` to target `t = (a - C) % 2(N-1)`: targets `0 .. N-1` are the other cells of its row, left to right; targets `N-1 .. 2(N-1)` the other cells of its column, top to bottom |
//! | `C + C * 2(N-1)` | Order passes |
//!
//! Entropy(7) has 49 + 588 + 1 = 638 actions, Entropy(5) 25 + 200 + 1 = 226. Unlike the
//! PufferLib plan's 246 actions (a slide goes "as far as possible"), a slide may stop on any
//! empty cell of its path, as the rules say.

use entropy_core::{Cell, Move, Phase, Position, Size};

/// The number of actions of Entropy(N).
pub fn action_count(size: Size) -> usize {
    let (n, c) = (size.side(), size.cells());
    c + c * 2 * (n - 1) + 1
}

/// The pass action.
pub fn pass_action(size: Size) -> usize {
    action_count(size) - 1
}

/// The env's number of a cell (`row * N + column`).
#[inline]
pub fn env_cell(size: Size, cell: Cell) -> usize {
    cell.row() * size.side() + cell.column()
}

/// The cell with the env's number `index`.
#[inline]
pub fn grid_cell(size: Size, index: usize) -> Cell {
    let n = size.side();
    Cell::new(index / n, index % n).expect("an env cell is on the grid")
}

/// The action of a move (`None` for a chance draw).
pub fn action_of(size: Size, mv: Move) -> Option<usize> {
    let n = size.side();
    let c = size.cells();
    match mv {
        Move::Place { cell, .. } => Some(env_cell(size, cell)),
        Move::Pass => Some(pass_action(size)),
        Move::Slide { from, to } => {
            let target = if from.row() == to.row() {
                to.column() - usize::from(to.column() > from.column())
            } else {
                n - 1 + to.row() - usize::from(to.row() > from.row())
            };
            Some(c + env_cell(size, from) * 2 * (n - 1) + target)
        }
        Move::Draw(_) => None,
    }
}

/// The cells a slide action moves a chip from and to (`None` for an action that is not a
/// slide): slide target `j` of a cell is the j-th other cell of its row left to right, then of
/// its column top to bottom.
pub fn slide_cells(size: Size, action: usize) -> Option<(Cell, Cell)> {
    let (n, c) = (size.side(), size.cells());
    if !(c..pass_action(size)).contains(&action) {
        return None;
    }
    let per_cell = 2 * (n - 1);
    let from = grid_cell(size, (action - c) / per_cell);
    let target = (action - c) % per_cell;
    let to = if target < n - 1 {
        let column = target + usize::from(target >= from.column());
        Cell::new(from.row(), column)
    } else {
        let row = target - (n - 1);
        Cell::new(row + usize::from(row >= from.row()), from.column())
    }?;
    Some((from, to))
}

/// The move an action stands for in this position, if it is one of the current player's kind
/// (placement for Chaos, slide or pass for Order); legality is checked by the caller.
pub fn move_of(position: &Position, action: usize) -> Option<Move> {
    let size = position.size();
    let c = size.cells();
    match position.phase() {
        Phase::Place(colour) if action < c => Some(Move::Place {
            colour,
            cell: grid_cell(size, action),
        }),
        Phase::Slide if action == pass_action(size) => Some(Move::Pass),
        Phase::Slide => {
            let (from, to) = slide_cells(size, action)?;
            Some(Move::Slide { from, to })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_move_has_one_action_and_back() {
        for size in [Size::SEVEN, Size::FIVE] {
            assert_eq!(
                action_count(size),
                if size == Size::SEVEN { 638 } else { 226 }
            );
            let n = size.side();
            let mut seen = std::collections::HashSet::new();
            for from in size.board_cells() {
                for to in size.board_cells() {
                    if from != to && (from.row() == to.row() || from.column() == to.column()) {
                        let action = action_of(size, Move::Slide { from, to }).unwrap();
                        assert!(seen.insert(action));
                        assert!(action >= size.cells() && action < pass_action(size));
                    }
                }
            }
            assert_eq!(seen.len(), size.cells() * 2 * (n - 1));
        }
    }
}
