//! How often a falling value adds time ([`Limits::fall`]): every decision with more than 6
//! empty cells of a few greedy games searched by one persistent searcher for a fixed time, as
//! in play. Arguments: games (3), milliseconds a search (100), the fall in tenths of a point
//! (15). Prints, per role, the decisions and the share where the value fell.
use std::time::Duration;

use entropy_core::{Phase, Position, Size};
use entropy_engine::bots::make_bot;
use entropy_engine::eval::LinearEval;
use entropy_engine::search::{Fall, Limits, Searcher};
use entropy_engine::Budget;

mod common;

fn main() {
    let games = common::whole_arg("fall", 1, 3);
    let millis = common::whole_arg("fall", 2, 100);
    let drop_tenths = common::whole_arg("fall", 3, 15) as u32;
    let mut searcher = Searcher::new(LinearEval::trained(), 16);
    // [Order, Chaos]: decisions, extended.
    let mut counts = [[0u32; 2]; 2];
    for game in 0..games {
        searcher.clear();
        let mut bot = make_bot("greedy", game).unwrap();
        let mut position = Position::new(Size::SEVEN);
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(game);
        while !position.is_over() {
            let draw = entropy_engine::bots::random_move(&position, &mut rng);
            position.play_unchecked(draw);
            while !position.is_over() && position.to_move().is_some() {
                if position.board().vacant_count() > 6 {
                    let limits = Limits {
                        unfinished: true,
                        fall: Some(Fall {
                            extra: Duration::ZERO,
                            drop_tenths,
                        }),
                        ..Limits::time(Duration::from_millis(millis))
                    };
                    let r = searcher.search(&position, limits);
                    let role = usize::from(position.phase() != Phase::Slide);
                    counts[role][0] += 1;
                    counts[role][1] += u32::from(r.extended);
                }
                let mv = bot.choose(&position, Budget::UNLIMITED);
                position.play_unchecked(mv);
            }
        }
    }
    for (name, [decisions, extended]) in ["Order", "Chaos"].iter().zip(counts) {
        println!(
            "{name}: {extended} of {decisions} decisions fell by {:.1} points or more ({:.1}%)",
            f64::from(drop_tenths) / 10.0,
            100.0 * f64::from(extended) / f64::from(decisions.max(1))
        );
    }
}
