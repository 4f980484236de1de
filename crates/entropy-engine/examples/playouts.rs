//! Times random playouts without criterion: `cargo run -p entropy-engine --release --example playouts [games]`.
#![allow(clippy::print_stdout)]
use entropy_core::{Position, Size};
use entropy_engine::playout::random_playout;
use rand::SeedableRng;

mod common;

fn main() {
    let games: u64 = common::arg(1, 1_000_000);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(1);
    let start = std::time::Instant::now();
    let mut total = 0u64;
    for _ in 0..games {
        total += random_playout(Position::new(Size::SEVEN), &mut rng) as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, mean score {:.2}, {:.0} games/s",
        total as f64 / games as f64,
        games as f64 / secs
    );
}
