//! How long the default searcher takes to solve endgames exactly: positions of self-play games
//! (both sides `search` at 2,000 nodes a move, reproducible) with EMPTY empty cells, Order's and
//! Chaos's decisions, each searched from a clean table until it saw every line to the end.
//! Prints each position's nodes and seconds, then the medians: the measure of a change that
//! makes the end of the game cheaper to search.
//!
//! `cargo run --release -p entropy-engine --example endgame_solve -- EMPTY POSITIONS FIRST_SEED
//! [check]` (4 empty cells, 8 positions, seed 0 by default). With `check`, each position is also
//! searched once with a full window from a clean table of 16 MiB and of 1 MiB: an exact value
//! must not depend on either (tests/search.rs holds two positions where it once did).

mod common;

use std::time::Instant;

use entropy_core::{Phase, Position, Role, Size};
use entropy_engine::bots::{SearchBot, SearchOptions};
use entropy_engine::eval::LinearEval;
use entropy_engine::learned::{BotEval, NTupleEval};
use entropy_engine::playout::random_move;
use entropy_engine::search::{moves_to_end, Limits, Searcher};
use entropy_engine::{Bot, Budget};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The default bot at a node limit: quick, reproducible games to take positions from.
fn quick_bot() -> SearchBot {
    SearchBot::with_eval(
        "search",
        BotEval::NTuple(NTupleEval::tables()),
        LinearEval::trained(),
        SearchOptions {
            limits: Some(Limits::nodes(2_000)),
            ..SearchOptions::default()
        },
    )
}

/// The decisions of one game with `empty` empty cells: Order's and Chaos's.
fn endgame_positions(seed: u64, empty: usize) -> Vec<Position> {
    let size = Size::SEVEN;
    let mut bots = [quick_bot(), quick_bot()];
    bots[0].new_game(size, Role::Order);
    bots[1].new_game(size, Role::Chaos);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut position = Position::new(size);
    let mut found = Vec::new();
    while !position.is_over() {
        let Some(role) = position.to_move() else {
            position.play_unchecked(random_move(&position, &mut rng));
            continue;
        };
        if position.board().vacant_count() == empty {
            found.push(position);
        }
        let mv = bots[role.index()].choose(&position, Budget::UNLIMITED);
        position.play_unchecked(mv);
    }
    found
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    let arg = |i: usize, default: u64| common::whole_arg("endgame_solve", i, default);
    let (empty, count, first_seed) = (arg(1, 4) as usize, arg(2, 8) as usize, arg(3, 0));
    let check = match std::env::args().nth(4).as_deref() {
        None => false,
        Some("check") => true,
        Some(other) => common::fail(
            "endgame_solve",
            &format!("argument 4 ({other:?}) is not `check`"),
        ),
    };
    let mut searcher = Searcher::new(BotEval::NTuple(NTupleEval::tables()), 16);
    let mut rows = Vec::new();
    let mut seed = first_seed;
    while rows.len() < count {
        for position in endgame_positions(seed, empty) {
            if rows.len() == count {
                break;
            }
            searcher.clear();
            let started = Instant::now();
            let result = searcher.search(&position, Limits::depth(moves_to_end(&position)));
            let seconds = started.elapsed().as_secs_f64();
            let role = if position.phase() == Phase::Slide {
                "order"
            } else {
                "chaos"
            };
            println!(
                "seed {seed} {role} empty {empty} nodes {} seconds {seconds:.3} value {:.4} solved {}",
                result.nodes, result.value, result.solved
            );
            rows.push((role, result.nodes as f64, seconds));
            if check {
                let mut small = Searcher::new(BotEval::NTuple(NTupleEval::tables()), 1);
                let (one, _) = small.value(&position, moves_to_end(&position));
                let (full, _) = searcher.value(&position, moves_to_end(&position));
                println!(
                    "  full window: {full:.4} (16 MiB) {one:.4} (1 MiB) at {}",
                    entropy_core::notation::text::format_position(&position)
                );
            }
        }
        seed += 1;
    }
    for role in ["order", "chaos"] {
        let mine: Vec<_> = rows.iter().filter(|r| r.0 == role).collect();
        println!(
            "{role}: median {:.0} nodes, {:.3} s over {} positions with {empty} empty cells",
            median(mine.iter().map(|r| r.1).collect()),
            median(mine.iter().map(|r| r.2).collect()),
            mine.len()
        );
    }
}
