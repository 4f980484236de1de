//! Node counts and speed of the search against expectimax on positions from random games.
use entropy_core::{Position, Size};
use entropy_engine::bots::random_move;
use entropy_engine::eval::LinearEval;
use entropy_engine::search::reference::expectimax_nodes;
use entropy_engine::search::Searcher;
use rand::SeedableRng;

mod common;

fn main() {
    let depth: u32 = common::arg(1, 3);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
    let mut searcher = Searcher::new(LinearEval::hand(), 16);
    let (mut fast, mut slow, mut secs) = (0u64, 0u64, 0f64);
    for moves in [20usize, 50, 80, 110, 140] {
        let mut pos = Position::new(Size::SEVEN);
        for _ in 0..moves {
            let mv = random_move(&pos, &mut rng);
            pos.play_unchecked(mv);
        }
        let start = std::time::Instant::now();
        let (value, nodes) = searcher.value(&pos, depth);
        let s = start.elapsed().as_secs_f64();
        let reference = if depth <= 3 {
            expectimax_nodes(&pos, depth)
        } else {
            0
        };
        println!("moves {moves:>3} {:?}: value {value:.2} nodes {nodes} reference {reference} {:.0} nodes/s", pos.phase(), nodes as f64 / s);
        fast += nodes;
        slow += reference;
        secs += s;
    }
    println!(
        "total {fast} vs {slow}: {:.1}x fewer; {:.2} M nodes/s",
        slow as f64 / fast as f64,
        fast as f64 / secs / 1e6
    );
}
