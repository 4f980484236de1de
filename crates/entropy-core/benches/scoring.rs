//! Scoring speed: table lookup against the brute-force oracle on the same lines, and a full
//! board from scratch. Targets: table >= 50x faster per line; full board <= 30 ns.
//!
//! `cargo bench -p entropy-core --bench scoring`
#![allow(missing_docs)] // criterion_group! generates undocumented items

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use entropy_core::score::{line_score, naive};
use entropy_core::{Board, Cell, Colour, Size};

/// SplitMix64 for fixed inputs.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Full lines of seven chips, as at the end of a game.
fn full_lines(count: usize) -> Vec<u32> {
    let mut state = 1;
    (0..count)
        .map(|_| {
            (0..7).fold(0, |key, i| {
                key | ((splitmix(&mut state) % 7 + 1) as u32) << (3 * i)
            })
        })
        .collect()
}

fn full_boards(count: usize) -> Vec<Board> {
    let mut state = 2;
    (0..count)
        .map(|_| {
            let mut bag: Vec<Colour> = Colour::ALL.iter().flat_map(|&c| [c; 7]).collect();
            let mut board = Board::empty(Size::SEVEN);
            for cell in Cell::all() {
                let colour = bag.swap_remove((splitmix(&mut state) % bag.len() as u64) as usize);
                board.set(cell, Some(colour)).unwrap();
            }
            board
        })
        .collect()
}

fn bench_lines(c: &mut Criterion) {
    let lines = full_lines(1024);
    for &key in &lines {
        assert_eq!(
            line_score(key),
            naive::brute_force_score(&naive::decode_line(key))
        );
    }
    let mut group = c.benchmark_group("line");
    group.throughput(Throughput::Elements(lines.len() as u64));
    group.bench_function("table", |b| {
        b.iter(|| lines.iter().map(|&k| line_score(black_box(k))).sum::<u32>())
    });
    group.bench_function("brute_force", |b| {
        b.iter(|| {
            lines
                .iter()
                .map(|&k| naive::brute_force_score(&naive::decode_line(black_box(k))))
                .sum::<u32>()
        })
    });
    group.finish();
}

fn bench_board(c: &mut Criterion) {
    let boards = full_boards(256);
    for board in &boards {
        assert_eq!(board.score(), board.score_naive());
    }
    let mut group = c.benchmark_group("board");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("score_from_scratch", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| black_box(board).score())
                .sum::<u32>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_lines, bench_board);
criterion_main!(benches);
