//! The bench's search workload alone, for profiling: `cargo run --release -p entropy-engine
//! --example benchsearch -- [REPEATS]` (perf record on it sees only the search).
use entropy_core::notation::text::parse_position;
use entropy_engine::eval::{Evaluator, LinearEval};
use entropy_engine::search::{Limits, Searcher};

const POSITIONS: [&str; 7] = [
    "..7..../.3...../......2/....7../.....1./..52..4/....... slide",
    "..7..../.3...../......2/....7../.....1./..52..4/....... 6",
    "..4..../..1.2.6/..571../..1..../..17..1/....2.5/.22...4 slide",
    "..4..../..1.2.6/..571../..1.2../..17..1/......5/.22...4 2",
    "127..66/.33..../..16..2/2...735/.....16/7752..4/3.6...3 slide",
    "127..66/.33..../..16..2/2...735/.....16/7752..4/3.6...3 4",
    "234..../7.1.226/.65.167/..17245/..17.31/3.5.6.2/6221.54 slide",
];

fn main() {
    let repeats: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    let positions: Vec<_> = POSITIONS
        .iter()
        .map(|t| parse_position(t).unwrap())
        .collect();
    let _ = LinearEval::hand().evaluate(&positions[0]);
    let mut searcher = Searcher::new(LinearEval::hand(), 16);
    let (mut clearing, mut searching, mut nodes) = (0.0, 0.0, 0u64);
    for _ in 0..repeats {
        for p in &positions {
            let start = std::time::Instant::now();
            searcher.clear();
            let cleared = std::time::Instant::now();
            nodes += searcher.search(p, Limits::depth(4)).nodes;
            searching += cleared.elapsed().as_secs_f64();
            clearing += (cleared - start).as_secs_f64();
        }
    }
    println!(
        "{nodes} nodes: search {:.3} s ({:.2} M nodes/s), clearing {:.3} s ({:.2} M nodes/s with it)",
        searching,
        nodes as f64 / searching / 1e6,
        clearing,
        nodes as f64 / (searching + clearing) / 1e6
    );
}
