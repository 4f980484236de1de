//! One-ply greedy play for both roles.

use entropy_core::{Cell, Move, Phase, Position};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::random_move;
use crate::{Bot, Budget};

/// Greedy in both roles, ties broken at random (seeded):
/// Order plays the slide with the largest immediate score gain and passes if none gains;
/// Chaos places where Order's best immediate reply leaves the lowest score.
pub struct GreedyBot {
    rng: Xoshiro256PlusPlus,
}

impl GreedyBot {
    /// A greedy bot with this seed (for breaking ties).
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

/// The best score Order can reach with one slide or a pass (Order to move), by the pruned
/// slide scan of [`crate::eval::threats`].
pub fn best_order_reply(position: &Position) -> u32 {
    position.score() + crate::eval::threats(position).0
}

/// Picks uniformly among the candidates with the best key, reservoir style, in one pass.
struct TieBreak<T> {
    best: Option<(i64, T)>,
    ties: u32,
}

impl<T> TieBreak<T> {
    fn new() -> Self {
        TieBreak {
            best: None,
            ties: 0,
        }
    }

    fn offer(&mut self, key: i64, item: T, rng: &mut impl Rng) {
        match &self.best {
            Some((best, _)) if key < *best => {}
            Some((best, _)) if key == *best => {
                self.ties += 1;
                if rng.random_range(0..self.ties) == 0 {
                    self.best = Some((key, item));
                }
            }
            _ => {
                self.best = Some((key, item));
                self.ties = 1;
            }
        }
    }
}

impl GreedyBot {
    fn order_move(&mut self, position: &Position) -> Move {
        let now = position.score();
        let mut choice = TieBreak::<(Cell, Cell)>::new();
        let rng = &mut self.rng;
        position.for_each_slide(|from, to| {
            let after = position.score_after_slide(from, to);
            if after > now {
                choice.offer(after as i64, (from, to), rng);
            }
        });
        match choice.best {
            Some((_, (from, to))) => Move::Slide { from, to },
            None => Move::Pass,
        }
    }

    fn chaos_move(&mut self, position: &Position) -> Move {
        let Phase::Place(colour) = position.phase() else {
            unreachable!("chaos_move is called in the place phase")
        };
        let mut choice = TieBreak::<Cell>::new();
        for cell in position.board().vacant_cells() {
            let mut after = *position;
            after.play_unchecked(Move::Place { colour, cell });
            let reply = if after.is_over() {
                after.score()
            } else {
                best_order_reply(&after)
            };
            choice.offer(-(reply as i64), cell, &mut self.rng);
        }
        let (_, cell) = choice.best.expect("an empty cell while placing");
        Move::Place { colour, cell }
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, position: &Position, _budget: Budget) -> Move {
        match position.phase() {
            Phase::Slide => self.order_move(position),
            Phase::Place(_) => self.chaos_move(position),
            _ => random_move(position, &mut self.rng),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_core::notation::text::parse_position;

    #[test]
    fn order_takes_the_largest_gain() {
        // Row A: 1 1 . 1 : sliding Ad to Ac makes 111 (7) from 11 (2).
        let pos = parse_position("11.1.../......./......./......./......./......./....... slide")
            .unwrap();
        let mv = GreedyBot::new(1).choose(&pos, Budget::UNLIMITED);
        let after = pos.after(mv).unwrap();
        assert_eq!(after.score(), 7, "{mv}");
    }

    #[test]
    fn order_passes_when_nothing_gains() {
        let pos = parse_position("12...../......./......./......./......./......./....... slide")
            .unwrap();
        assert_eq!(
            GreedyBot::new(1).choose(&pos, Budget::UNLIMITED),
            Move::Pass
        );
    }

    #[test]
    fn chaos_avoids_giving_points() {
        // Colour 1 to place next to 1 . on row A would give Order a pair at once.
        let pos =
            parse_position("1....../......./......./......./......./......./....... 1").unwrap();
        let mv = GreedyBot::new(3).choose(&pos, Budget::UNLIMITED);
        let after = pos.after(mv).unwrap();
        assert_eq!(best_order_reply(&after), 0, "{mv} lets Order score");
    }
}
