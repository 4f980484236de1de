//! Scratch: how often the best move of Order's decisions is a slide that loses points now.
use entropy_core::{Move, Position, Size};
use entropy_engine::bots::make_bot;
use entropy_engine::eval::LinearEval;
use entropy_engine::search::{Limits, Searcher};
use entropy_engine::Budget;

mod common;

fn main() {
    let depth: u32 = common::arg(1, 5);
    let games: u64 = common::arg(2, 3);
    let mut searcher = Searcher::new(LinearEval::trained(), 16);
    let (mut total, mut neg, mut neg_best_margin) = (0, 0, Vec::new());
    let mut classes = [0usize; 4];
    for game in 0..games {
        searcher.clear();
        let mut bot = make_bot("search:nodes=20000", game).unwrap();
        let mut position = Position::new(Size::SEVEN);
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(game);
        while !position.is_over() {
            let draw = entropy_engine::bots::random_move(&position, &mut rng);
            position.play_unchecked(draw);
            while !position.is_over() && position.to_move().is_some() {
                if position.board().vacant_count() > 6
                    && position.phase() == entropy_core::Phase::Slide
                {
                    let r = searcher.search(&position, Limits::depth(depth));
                    total += 1;
                    let class = match r.best {
                        Move::Pass => 1,
                        Move::Slide { from, to } => {
                            let g = position.score_after_slide(from, to) as i32
                                - position.score() as i32;
                            if g < 0 {
                                neg += 1;
                                neg_best_margin.push(g);
                                3
                            } else if g == 0 {
                                2
                            } else {
                                0
                            }
                        }
                        _ => 0,
                    };
                    classes[class] += 1;
                }
                let mv = bot.choose(&position, Budget::UNLIMITED);
                position.play_unchecked(mv);
            }
        }
    }
    println!(
        "depth {depth}: {total} Order decisions; best gains {} / pass {} / quiet {} / loses {} ({neg}); losing gains {:?}",
        classes[0], classes[1], classes[2], classes[3], neg_best_margin
    );
}
