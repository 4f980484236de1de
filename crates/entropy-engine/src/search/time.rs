//! Time management: how much of the clock one move may use.

use std::time::Duration;

use entropy_core::Position;

/// Kept back from every budget for reading, writing and process scheduling.
pub const SAFETY: Duration = Duration::from_millis(50);

/// The time for this move given what is left for the game and an optional hard per-move limit.
///
/// The game's remaining time is shared over the bot's remaining decisions, weighted towards the
/// middle of the game, where choices decide most: turn x (a fraction of the game) weighs
/// 0.5 + sin(pi x), so turns 10 to 40 of 49 get up to three times the share of the first and
/// last turns; the last few turns are solved exactly and need little. (Sharper and flatter
/// profiles, and a hard limit past the allotment, were tuned by SPSA and failed the test
/// ladder: docs/results.md.)
pub fn allot(position: &Position, game_left: Duration, per_move: Option<Duration>) -> Duration {
    let cells = position.size().cells() as f64;
    let placed = position.placed() as f64;
    let left = game_left.saturating_sub(SAFETY);
    // Weight of turn t (as a fraction x of the game): a bump peaking in the middle.
    let weight = |x: f64| 0.5 + (std::f64::consts::PI * x).sin();
    let remaining_weight: f64 = (position.placed()..position.size().cells())
        .map(|t| weight(t as f64 / cells))
        .sum::<f64>()
        .max(weight(placed / cells));
    let share = left.mul_f64((weight(placed / cells) / remaining_weight).clamp(0.0, 1.0));
    share.min(cap(game_left, per_move))
}

/// The most one move may ever take: a third of what is left of the game, and the hard per-move
/// limit, less [`SAFETY`].
pub fn cap(game_left: Duration, per_move: Option<Duration>) -> Duration {
    let third = game_left.saturating_sub(SAFETY) / 3;
    match per_move {
        Some(limit) => third.min(limit.saturating_sub(SAFETY)),
        None => third,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_core::Size;

    #[test]
    fn the_budget_is_shared_and_capped() {
        let start = Position::new(Size::SEVEN);
        let game = Duration::from_secs(30);
        let first = allot(&start, game, None);
        assert!(
            first > Duration::from_millis(200) && first < Duration::from_millis(800),
            "{first:?}"
        );
        let capped = allot(&start, game, Some(Duration::from_millis(100)));
        assert_eq!(capped, Duration::from_millis(50));
        assert_eq!(
            allot(&start, Duration::from_millis(10), None),
            Duration::ZERO
        );
    }

    #[test]
    fn the_middle_of_the_game_gets_more_than_its_opening() {
        let start = Position::new(Size::SEVEN);
        let mut middle = Position::new(Size::SEVEN);
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(1);
        while middle.placed() < 24 {
            let mv = crate::playout::random_move(&middle, &mut rng);
            middle.play_unchecked(mv);
        }
        // With the same time left, a mid-game move takes a larger share of it.
        let left = Duration::from_secs(15);
        assert!(allot(&middle, left, None) > allot(&start, left, None));
    }
}
