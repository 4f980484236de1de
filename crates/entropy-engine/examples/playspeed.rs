//! The time a persistent searcher (its table kept from move to move, as in play) takes to search
//! every decision of a few greedy games to a fixed depth, as in play.
//! Arguments: the depth (6), and the leaves' evaluation: `linear` (the default), `net` (the
//! shipped n-tuple model, as `search:eval=net`) or a weights file (as `search:weights=FILE`).
use entropy_core::{Position, Size};
use entropy_engine::bots::make_bot;
use entropy_engine::eval::{LinearEval, Weights};
use entropy_engine::learned::{BotEval, NTupleEval};
use entropy_engine::search::{Limits, Searcher};
use entropy_engine::Budget;

mod common;

fn main() {
    let depth: u32 = common::arg(1, 6);
    let leaves: String = common::arg(2, "linear".to_owned());
    let eval = match leaves.as_str() {
        "net" => BotEval::NTuple(NTupleEval::trained()),
        "linear" => BotEval::Linear(LinearEval::trained()),
        file => match Weights::read(file) {
            Ok(weights) => BotEval::Linear(LinearEval::new(weights)),
            Err(problem) => {
                eprintln!(
                    "playspeed: {problem} (the second argument: linear, net or a weights file)"
                );
                std::process::exit(2);
            }
        },
    };
    let mut searcher = Searcher::new(eval, 16);
    let (mut seconds, mut nodes) = (0.0, 0u64);
    for game in 0..3u64 {
        searcher.clear();
        let mut bot = make_bot("greedy", game).unwrap();
        let mut position = Position::new(Size::SEVEN);
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(game);
        while !position.is_over() {
            let draw = entropy_engine::bots::random_move(&position, &mut rng);
            position.play_unchecked(draw);
            while !position.is_over() && position.to_move().is_some() {
                // Early and mid-game decisions: the end is solved at any depth.
                if position.board().vacant_count() > 12 {
                    let t = std::time::Instant::now();
                    let r = searcher.search(&position, Limits::depth(depth));
                    seconds += t.elapsed().as_secs_f64();
                    nodes += r.nodes;
                }
                let mv = bot.choose(&position, Budget::UNLIMITED);
                position.play_unchecked(mv);
            }
        }
    }
    println!("depth {depth}, {leaves} leaves: {seconds:.2} s, {nodes} nodes");
}
