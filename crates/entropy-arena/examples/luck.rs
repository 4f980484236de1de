//! How much a recorded match's paired margins owe to the luck of the draws: the margins as
//! played and less each game's luck ([`entropy_arena::luck`]), with their standard deviations,
//! for a match recorded with or without luck. The measurement behind `entropy match --luck`'s
//! default (docs/testing.md).
//!
//! Arguments: a records file, and the depth of the valuing search (2).
//! `cargo run --release -p entropy-arena --example luck -- results/matches/FILE.jsonl.gz 2`
use std::collections::BTreeMap;

use entropy_arena::luck::game_luck;
use entropy_arena::record::{parse_moves, read_records};
use entropy_arena::stats::MeanCi;
use entropy_core::Size;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: luck RECORDS.jsonl [DEPTH]");
        std::process::exit(2);
    };
    let depth: u32 = args.get(2).map_or(2, |a| a.parse().expect("a depth"));
    let file = read_records(std::path::Path::new(path)).expect("a readable records file");
    let mut by_deal: BTreeMap<u32, [Option<(f64, f64)>; 2]> = BTreeMap::new();
    let mut lucks = Vec::new();
    for record in &file.records {
        let size = Size::new(record.key.size as usize).expect("a board size");
        let moves = parse_moves(&record.moves).expect("recorded moves");
        let luck = game_luck(size, &moves, depth);
        lucks.push(luck);
        by_deal.entry(record.deal).or_default()[record.game as usize % 2] =
            Some((f64::from(record.score), luck));
    }
    let (mut played, mut adjusted, mut difference) = (Vec::new(), Vec::new(), Vec::new());
    for pair in by_deal.values() {
        if let [Some((s0, l0)), Some((s1, l1))] = pair {
            played.push(s0 - s1);
            adjusted.push((s0 - l0) - (s1 - l1));
            difference.push(l0 - l1);
        }
    }
    let show = |name: &str, values: &[f64]| match MeanCi::of(values) {
        Some(ci) => println!(
            "{name}: {:+.2} +- {:.2} (sd {:.2})",
            ci.mean, ci.half_width, ci.sd
        ),
        None => println!("{name}: none"),
    };
    println!(
        "{} games, {} complete deals, luck valued {depth} moves deep",
        lucks.len(),
        played.len()
    );
    show("luck per game", &lucks);
    show("paired margin as played", &played);
    show("paired margin less the luck", &adjusted);
    show("the two games' luck difference", &difference);
}
