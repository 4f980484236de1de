//! The bench's search workload alone, for profiling: `cargo run --release -p entropy-engine
//! --example benchsearch -- [REPEATS]` (perf record on it sees only the search).
use entropy_core::notation::text::parse_position;
use entropy_engine::eval::{Evaluator, LinearEval};
use entropy_engine::search::{Limits, Searcher, BENCH_DEPTH, BENCH_POSITIONS};

mod common;

fn main() {
    let repeats: usize = common::arg(1, 20);
    let positions: Vec<_> = BENCH_POSITIONS
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
            nodes += searcher.search(p, Limits::depth(BENCH_DEPTH)).nodes;
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
