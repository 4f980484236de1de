//! The luck of the draws: how much the chips a game drew were worth to Order, so that a match
//! can measure the players' share of a score with less noise.
//!
//! At each draw, the colour drawn is worth `V(drawn) - sum_c p(c) V(c)` to Order, where `V` is a
//! fixed value function (a search of the position after the draw) and `p(c)` the bag's odds; a
//! game's luck is that summed over its draws. Whatever `V` is, each term has expectation zero
//! given everything before the draw (the chip is drawn with the bag's odds, which no player
//! influences), so a score less its luck has the score's expectation: an unbiased estimate of
//! what the players made of the game, with the variance the draws explain taken out. This is
//! the chance half of AIVAT (Burch et al., 2018: "AIVAT: A New Variance Reduction Technique for
//! Agent Evaluation in Imperfect Information Games"); the players' own decisions are not
//! corrected, since measuring them is the point.
//!
//! Paired deals already cancel the luck two games share (the same chips in the same order), but
//! the same chip means different things once the two games' boards differ; the rest is what
//! this removes. On recorded ladder matches a depth-2 `V` cut the paired margins' standard
//! deviation by 10% to 15% (docs/testing.md), so a test needs 18% to 28% fewer deals; a deeper
//! `V` gained nothing more. (`V` is this build's shipped evaluation: a match resumed by a build
//! with other weights values its later games otherwise, which leaves every game's luck
//! unbiased and only the noise taken out a little different.)

use entropy_core::{Colour, Move, Phase, Position, Size};
use entropy_engine::eval::LinearEval;
use entropy_engine::search::Searcher;

/// The depth of the search that values the positions after each draw, by default: as good as
/// depth 3 on recorded matches, at about 80 ms a game.
pub const DEFAULT_DEPTH: u32 = 2;

/// Size of the valuing search's transposition table, in MiB: its searches are small, and every
/// game gets a fresh one (the value must be a function of the position alone).
const TABLE_MIB: usize = 1;

/// Order's luck in a game of `size` played by `moves` (chance draws included), each position
/// after a draw valued by a `depth`-move search over the shipped linear evaluation from a clean
/// table, so that the value is a function of the position alone.
pub fn game_luck(size: Size, moves: &[Move], depth: u32) -> f64 {
    let mut searcher = Searcher::new(LinearEval::trained(), TABLE_MIB);
    luck_by(size, moves, |position| searcher.value(position, depth).0)
}

/// Order's luck in a game of `size` played by `moves`, with the positions after each draw valued
/// by `value` (which must not look at anything but the position it is given). Moves that do not
/// fit the game are not luck: the replay stops at the first of them.
pub fn luck_by(size: Size, moves: &[Move], mut value: impl FnMut(&Position) -> f64) -> f64 {
    let mut position = Position::new(size);
    let mut luck = 0.0;
    for &mv in moves {
        if position.check(mv).is_err() {
            break;
        }
        if let (Move::Draw(drawn), Phase::Draw) = (mv, position.phase()) {
            luck += draw_luck(&position, drawn, &mut value);
        }
        position.play_unchecked(mv);
    }
    luck
}

/// What drawing `drawn` at the chance node `position` is worth to Order: its value less the
/// values of every colour the bag could have given, weighted by their odds.
fn draw_luck(position: &Position, drawn: Colour, value: &mut impl FnMut(&Position) -> f64) -> f64 {
    let total = f64::from(position.bag().total());
    let mut expected = 0.0;
    let mut got = 0.0;
    for (colour, count) in position.bag().colours() {
        let mut child = *position;
        child.play_unchecked(Move::Draw(colour));
        let v = value(&child);
        expected += f64::from(count) / total * v;
        if colour == drawn {
            got = v;
        }
    }
    got - expected
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// A game of random moves, draws with the bag's odds.
    fn random_game(size: Size, seed: u64) -> Vec<Move> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut position = Position::new(size);
        let mut moves = Vec::new();
        while !position.is_over() {
            let mv = entropy_engine::playout::random_move(&position, &mut rng);
            moves.push(mv);
            position.play_unchecked(mv);
        }
        moves
    }

    #[test]
    fn each_draw_is_worth_nothing_on_average_over_the_bag() {
        let moves = random_game(Size::SEVEN, 3);
        let mut position = Position::new(Size::SEVEN);
        let mut searcher = Searcher::new(LinearEval::trained(), TABLE_MIB);
        let mut value = |p: &Position| searcher.value(p, 1).0;
        for &mv in moves.iter().take(60) {
            if position.phase() == Phase::Draw {
                let total = f64::from(position.bag().total());
                let mean: f64 = position
                    .bag()
                    .colours()
                    .map(|(c, n)| f64::from(n) / total * draw_luck(&position, c, &mut value))
                    .sum();
                assert!(mean.abs() < 1e-9, "{mean} at {position:?}");
            }
            position.play_unchecked(mv);
        }
    }

    #[test]
    fn a_value_blind_to_the_draw_sees_no_luck_and_the_first_draw_is_none() {
        let moves = random_game(Size::FIVE, 4);
        // The score does not change with a draw.
        assert!(luck_by(Size::FIVE, &moves, |p| p.score() as f64).abs() < 1e-9);
        // Every colour is alike at the start.
        let first = &moves[..1];
        assert!(game_luck(Size::SEVEN, first, DEFAULT_DEPTH).abs() < 1e-9);
    }

    #[test]
    fn luck_is_zero_on_average_over_games() {
        // Random play on 5x5, draws with the bag's odds: the mean luck is 0 within its interval.
        let lucks: Vec<f64> = (0..200)
            .map(|seed| game_luck(Size::FIVE, &random_game(Size::FIVE, seed), 1))
            .collect();
        let luck = crate::stats::MeanCi::of(&lucks).unwrap();
        assert!(luck.sd > 0.0);
        assert!(luck.mean.abs() < luck.half_width, "{luck:?}");
    }

    #[test]
    fn a_replay_stops_at_a_move_that_does_not_fit() {
        let moves = random_game(Size::SEVEN, 5);
        let whole = game_luck(Size::SEVEN, &moves[..30], DEFAULT_DEPTH);
        let mut broken = moves[..30].to_vec();
        broken.push(Move::Pass);
        broken.extend_from_slice(&moves[30..40]);
        assert_eq!(game_luck(Size::SEVEN, &broken, DEFAULT_DEPTH), whole);
    }
}
