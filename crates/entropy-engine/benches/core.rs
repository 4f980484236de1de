//! Random playouts (both sides random, a full game from the empty board) on one core.
//! Target: >= 200k games per second.
//!
//! `cargo bench -p entropy-engine --bench core`
#![allow(missing_docs)] // criterion_group! generates undocumented items

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use entropy_core::{Position, Size};
use entropy_engine::playout::random_playout;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn bench_playouts(c: &mut Criterion) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    // Every playout ends on a full board with a score no line can exceed.
    for _ in 0..100 {
        let score = random_playout(Position::new(Size::SEVEN), &mut rng);
        assert!(score <= 14 * 77);
    }
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(1));
    group.bench_function("random_vs_random_7x7", |b| {
        b.iter(|| random_playout(black_box(Position::new(Size::SEVEN)), &mut rng))
    });
    group.finish();
}

criterion_group!(benches, bench_playouts);
criterion_main!(benches);
