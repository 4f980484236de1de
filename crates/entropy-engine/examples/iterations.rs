//! How long each iteration of iterative deepening takes on positions of greedy self-play: the
//! time to complete depth d (fresh table) for d = 1, 2, ..., and its ratio to the previous one.
//! Argument: the time after which a position stops (seconds, 2).
use entropy_core::{Position, Size};
use entropy_engine::bots::make_bot;
use entropy_engine::eval::LinearEval;
use entropy_engine::search::{Limits, Searcher};
use entropy_engine::Budget;

mod common;

fn main() {
    let limit: f64 = common::arg(1, 2.0);
    let mut ratios: Vec<f64> = Vec::new();
    for game in 0..4u64 {
        let mut bot = make_bot("greedy", game).unwrap();
        let mut position = Position::new(Size::SEVEN);
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(game);
        for turn in 0..49 {
            let draw = entropy_engine::bots::random_move(&position, &mut rng);
            position.play_unchecked(draw);
            while !position.is_over() && position.to_move().is_some() {
                if turn % 6 == 3 && (6..40).contains(&turn) {
                    let mut line = format!("turn {turn:>2} {:?}:", position.phase());
                    let mut before = 0.0;
                    for depth in 1..30 {
                        let mut searcher = Searcher::new(LinearEval::trained(), 16);
                        let t = std::time::Instant::now();
                        let r = searcher.search(&position, Limits::depth(depth));
                        let s = t.elapsed().as_secs_f64();
                        line += &format!(" {depth}:{:.1}ms", s * 1e3);
                        if before > 0.002 {
                            ratios.push(s / before);
                        }
                        before = s;
                        if r.solved || s > limit {
                            break;
                        }
                    }
                    println!("{line}");
                }
                let mv = bot.choose(&position, Budget::UNLIMITED);
                position.play_unchecked(mv);
            }
        }
    }
    ratios.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "ratio of successive iterations: median {:.1}, quartiles {:.1}-{:.1}",
        ratios[ratios.len() / 2],
        ratios[ratios.len() / 4],
        ratios[3 * ratios.len() / 4]
    );
}
