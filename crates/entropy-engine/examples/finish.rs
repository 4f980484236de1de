//! How often `search:finish=PERCENT` lets an iteration run past a move's allotted time, and how
//! often that iteration finishes: self-play of the searching bot with the option, each side on
//! its own clock. Arguments: the clock per game and player in seconds (3), the percent (200),
//! the games (4).
use std::time::{Duration, Instant};

use entropy_core::{Phase, Position, Size};
use entropy_engine::bots::{SearchBot, SearchOptions};
use entropy_engine::eval::LinearEval;
use entropy_engine::{Bot, Budget};

mod common;

fn main() {
    let clock: f64 = common::arg(1, 3.0);
    let percent: f64 = common::arg(2, 200.0);
    let games: u64 = common::arg(3, 4);
    let options = SearchOptions {
        finish_share: Some(percent / 100.0),
        ..SearchOptions::default()
    };
    // Per role: decisions, extended, extended and finished, seconds used.
    let mut counts = [[0u64; 3]; 2];
    let mut used = [0.0f64; 2];
    for game in 0..games {
        let mut bots = [
            SearchBot::new("order", LinearEval::trained(), options.clone()),
            SearchBot::new("chaos", LinearEval::trained(), options.clone()),
        ];
        let mut left = [Duration::from_secs_f64(clock); 2];
        let mut position = Position::new(Size::SEVEN);
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(game);
        while !position.is_over() {
            if position.phase() == Phase::Draw {
                let draw = entropy_engine::bots::random_move(&position, &mut rng);
                position.play_unchecked(draw);
                continue;
            }
            let side = usize::from(position.phase() != Phase::Slide);
            let budget = Budget {
                game_left: left[side],
                per_move: None,
            };
            let started = Instant::now();
            let mv = bots[side].choose(&position, budget);
            let spent = started.elapsed();
            left[side] = left[side].saturating_sub(spent);
            used[side] += spent.as_secs_f64();
            let extended = bots[side].last_search().and_then(|r| r.extended);
            counts[side][0] += 1;
            counts[side][1] += u64::from(extended.is_some());
            counts[side][2] += u64::from(extended == Some(true));
            position.play_unchecked(mv);
        }
        println!("game {game}: score {}", position.score());
    }
    for (side, name) in ["Order", "Chaos"].iter().enumerate() {
        let [decisions, extended, finished] = counts[side];
        println!(
            "{name}: {decisions} decisions, {extended} extended ({:.0}%), {finished} of them \
             finished; {:.2} s a game of {clock}",
            100.0 * extended as f64 / decisions.max(1) as f64,
            used[side] / games.max(1) as f64
        );
    }
}
