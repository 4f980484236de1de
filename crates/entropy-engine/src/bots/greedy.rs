//! One-ply greedy play for both roles.

use entropy_core::{Cell, Move, Phase, Position};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::playout::random_move;
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
        let mut choice = TieBreak::<(Cell, Cell)>::new();
        let rng = &mut self.rng;
        // Only slides onto a cell next to a chip can gain; they come in the order of
        // `for_each_slide`, so ties break as they would over every slide.
        crate::eval::for_each_touching_slide(position, |from, to, gain| {
            if gain > 0 {
                choice.offer(gain as i64, (from, to), rng);
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
        // A random key per cell breaks ties uniformly.
        let rng = &mut self.rng;
        let (cell, _) = crate::eval::lowest_reply_placement(position, colour, |_| rng.random());
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
    use entropy_core::Colour;

    /// The plain greedy Chaos: Order's exact best reply for every empty cell.
    fn plain_replies(position: &Position, colour: Colour) -> Vec<(Cell, u32)> {
        position
            .board()
            .vacant_cells()
            .map(|cell| {
                let mut after = *position;
                after.play_unchecked(Move::Place { colour, cell });
                let reply = if after.is_over() {
                    after.score()
                } else {
                    after.score() + crate::eval::threats_slow(&after).0
                };
                (cell, reply)
            })
            .collect()
    }

    #[test]
    fn replies_to_placements_equal_plain_ones() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for size in [entropy_core::Size::SEVEN, entropy_core::Size::FIVE] {
            for game in 0..60 {
                // Random games, and greedy ones, whose boards hold more palindromes and runs.
                let mut greedy = (game % 2 == 1).then(|| GreedyBot::new(game));
                let mut pos = Position::new(size);
                while !pos.is_over() {
                    if let Phase::Place(colour) = pos.phase() {
                        let fast: Vec<_> =
                            crate::eval::replies_to_placements(&pos, colour).collect();
                        let plain = plain_replies(&pos, colour);
                        assert_eq!(fast, plain, "{pos:?}");
                        // The pruned replies: exact where lowest, a bound above the
                        // lowest elsewhere.
                        let lowest = plain.iter().map(|&(_, reply)| reply).min().unwrap();
                        let pruned = crate::eval::lowest_replies_to_placements(&pos, colour);
                        let mut cells = 0;
                        for (&(cell, exact), (same, value)) in plain.iter().zip(pruned) {
                            assert_eq!(cell, same);
                            if exact == lowest {
                                assert_eq!(value, exact, "{pos:?} {cell:?}");
                            } else {
                                assert!(value > lowest && value <= exact, "{pos:?} {cell:?}");
                            }
                            cells += 1;
                        }
                        assert_eq!(cells, plain.len());
                        // The one placement: the lowest reply, ties to the lowest key. Few
                        // distinct keys make ties between keys too, which go to the first cell.
                        let keys: Vec<u32> =
                            (0..plain.len()).map(|_| rng.random_range(0..4)).collect();
                        let mut next = keys.iter();
                        let chosen = crate::eval::lowest_reply_placement(&pos, colour, |_| {
                            *next.next().unwrap()
                        });
                        let plain_choice = plain
                            .iter()
                            .zip(&keys)
                            .min_by_key(|&(&(cell, reply), key)| (reply, *key, cell.index()))
                            .map(|(&(cell, reply), _)| (cell, reply))
                            .unwrap();
                        assert_eq!(chosen, plain_choice, "{pos:?} {keys:?}");
                    }
                    let mv = match &mut greedy {
                        Some(bot) => bot.choose(&pos, Budget::UNLIMITED),
                        None => random_move(&pos, &mut rng),
                    };
                    pos.play_unchecked(mv);
                }
            }
        }
    }

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
