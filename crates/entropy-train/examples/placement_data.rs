//! Teacher data for the placement network (`pnet`): the searcher plays itself (both roles, a
//! node limit per move) and every Chaos decision is written as its input planes
//! ([`placement_planes`], little-endian f32) to `OUT.x` and the cell the teacher chose
//! (row * 7 + column, one byte) to `OUT.y`, a game at a time. Arguments: games (500), OUT
//! (`placement`), nodes per move (10000), first deal seed (0), and `order` to write Order's
//! decisions instead ([`slide_planes`]; the label is [`slide_index`], two bytes); two threads.
//!
//! `cargo run --release -p entropy-train --example placement_data -- 2000 /tmp/pl 10000`
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use entropy_arena::deal::shuffled_bag;
use entropy_core::{Move, Phase, Position, Size};
use entropy_engine::eval::board::{
    placement_planes, slide_index, slide_planes, PLACEMENT_PLANES, SLIDE_PLANES,
};
use entropy_engine::eval::LinearEval;
use entropy_engine::search::{Limits, Searcher};

/// One game of the teacher against itself: the planes and chosen cell of each placement.
fn game(
    searcher: &mut Searcher<LinearEval>,
    seed: u64,
    nodes: u64,
    order: bool,
) -> (Vec<f32>, Vec<u8>) {
    let size = Size::SEVEN;
    let cells = size.cells();
    let deal = shuffled_bag(size, seed);
    let mut position = Position::new(size);
    let (mut planes, mut labels) = (Vec::new(), Vec::new());
    let mut drawn = deal.into_iter();
    searcher.clear();
    while !position.is_over() {
        let mv = match position.phase() {
            Phase::Draw => Move::Draw(drawn.next().expect("a chip for every cell")),
            Phase::Place(_) if !order => {
                let mv = searcher.search(&position, Limits::nodes(nodes)).best;
                let Move::Place { cell, .. } = mv else {
                    unreachable!("Chaos places")
                };
                let start = planes.len();
                planes.resize(start + PLACEMENT_PLANES * cells, 0.0);
                placement_planes(&position, &mut planes[start..]);
                labels.push((cell.row() * size.side() + cell.column()) as u8);
                mv
            }
            Phase::Slide if order => {
                let mv = searcher.search(&position, Limits::nodes(nodes)).best;
                let start = planes.len();
                planes.resize(start + SLIDE_PLANES * cells, 0.0);
                slide_planes(&position, &mut planes[start..]);
                let index = slide_index(size.side(), mv).expect("Order slides or passes") as u16;
                labels.extend(index.to_le_bytes());
                mv
            }
            Phase::Place(_) | Phase::Slide => searcher.search(&position, Limits::nodes(nodes)).best,
            Phase::Over => unreachable!("the loop stops"),
        };
        position.play_unchecked(mv);
    }
    (planes, labels)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(500);
    let out = args.get(2).cloned().unwrap_or_else(|| "placement".into());
    let nodes: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let first: u64 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(0);
    let order = args.get(5).is_some_and(|a| a == "order");
    let open = |suffix: &str| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(format!("{out}.{suffix}"))
            .expect("the output file opens")
    };
    let files = Mutex::new((open("x"), open("y")));
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let mut searcher = Searcher::new(LinearEval::trained(), 16);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let (planes, labels) = game(&mut searcher, first + i as u64, nodes, order);
                    let bytes: Vec<u8> = planes.iter().flat_map(|v| v.to_le_bytes()).collect();
                    let mut files = files.lock().expect("no writer panicked");
                    files.0.write_all(&bytes).expect("planes written");
                    files.1.write_all(&labels).expect("labels written");
                    eprint!("\r{}/{games} games", i + 1);
                }
            });
        }
    });
    eprintln!();
}
