//! Perft: the number of move sequences of a given length from a position, chance draws counted
//! as branches (one per colour left in the bag, not weighted). Checked-in counts catch any change
//! in move generation.

use crate::{Move, Position};

/// Counts the move sequences of exactly `depth` moves (draws, placements, slides and passes each
/// count as one move). A sequence that reaches the end of the game early is not counted.
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = position.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut next = *position;
            next.play_unchecked(mv);
            perft(&next, depth - 1)
        })
        .sum()
}

/// Perft split by first move, for finding where two move generators disagree.
pub fn divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    position
        .legal_moves()
        .iter()
        .map(|&mv| {
            let mut next = *position;
            next.play_unchecked(mv);
            (mv, perft(&next, depth - 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Size;

    #[test]
    fn first_plies_from_the_start() {
        let start = Position::new(Size::SEVEN);
        assert_eq!(perft(&start, 0), 1);
        assert_eq!(perft(&start, 1), 7);
        assert_eq!(perft(&start, 2), 7 * 49);
        // One chip on an empty board: 12 slides or pass, wherever it stands.
        assert_eq!(perft(&start, 3), 7 * 49 * 13);
        let divided = divide(&start, 3);
        assert_eq!(divided.len(), 7);
        assert_eq!(divided.iter().map(|d| d.1).sum::<u64>(), perft(&start, 3));
    }
}
