//! Study: siblings' values, for fitting the evaluation to what a search compares.
//!
//! Self-play at NODES per move (the trained weights, as `entropy train` plays); at every
//! decision, the position after the move played and after up to K other moves chosen at random
//! are written as one group, each with its features and its value searched DEPTH moves deeper.
//! Columns: game, group, role (0 Order, 1 Chaos, 2 Order's children after the next draw), turn,
//! bucket, played, features..., target.
//! Arguments: GAMES (200) NODES (3000) K (8) DEPTH (3) SEED (7).
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use entropy_core::{Colour, Move, Phase, Position, Size};
use entropy_engine::eval::{features, Bucket, LinearEval};
use entropy_engine::search::{Limits, Searcher};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn arg<T: std::str::FromStr>(i: usize, default: T) -> T {
    std::env::args()
        .nth(i)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}

fn game(index: usize, nodes: u64, k: usize, depth: u32, seed: u64) -> Vec<String> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed.wrapping_mul(0x9E37_79B9) ^ index as u64);
    let mut chips: Vec<Colour> = Colour::ALL.iter().flat_map(|&c| [c; 7]).collect();
    chips.shuffle(&mut rng);
    let mut player = Searcher::new(LinearEval::trained(), 4);
    let mut judge = Searcher::new(LinearEval::trained(), 4);
    let mut position = Position::new(Size::SEVEN);
    let mut rows = Vec::new();
    let mut group = 0;
    for (turn, &chip) in chips.iter().enumerate() {
        position.play_unchecked(Move::Draw(chip));
        while matches!(position.phase(), Phase::Place(_) | Phase::Slide) {
            let role = usize::from(position.phase() != Phase::Slide);
            let played = player.search(&position, Limits::nodes(nodes)).best;
            let mut others: Vec<Move> = position
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| m != played)
                .collect();
            others.shuffle(&mut rng);
            others.truncate(k);
            // Order's children again once the next chip is drawn: placement positions, a group
            // of their own (role 2) for the placement buckets.
            let next_chip = chips.get(turn + 1).copied();
            for (i, mv) in std::iter::once(played).chain(others).enumerate() {
                let mut child = position;
                child.play_unchecked(mv);
                if child.is_over() {
                    continue;
                }
                let mut children = vec![(role, child)];
                if let (0, Some(next)) = (role, next_chip) {
                    let mut drawn = child;
                    drawn.play_unchecked(Move::Draw(next));
                    children.push((2, drawn));
                }
                for (role, child) in children {
                    let target = judge.value(&child, depth).0;
                    let f: Vec<String> = features(&child).iter().map(|v| format!("{v}")).collect();
                    rows.push(format!(
                        "{index},{index}_{group}_{role},{role},{},{},{},{},{target}",
                        position.placed(),
                        Bucket::of(&child).0,
                        u8::from(i == 0),
                        f.join(",")
                    ));
                }
            }
            group += 1;
            position.play_unchecked(played);
        }
    }
    rows
}

fn main() {
    let games: usize = arg(1, 200);
    let nodes: u64 = arg(2, 3000);
    let k: usize = arg(3, 8);
    let depth: u32 = arg(4, 3);
    let seed: u64 = arg(5, 7);
    let next = AtomicUsize::new(0);
    let out = Mutex::new(std::io::BufWriter::new(std::io::stdout()));
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games {
                    break;
                }
                let rows = game(i, nodes, k, depth, seed);
                let mut out = out.lock().unwrap();
                for row in rows {
                    writeln!(out, "{row}").unwrap();
                }
                out.flush().unwrap();
                eprint!("\r{} games", i + 1);
            });
        }
    });
    eprintln!();
}
