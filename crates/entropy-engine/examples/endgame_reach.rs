//! How far from the end the default searcher plays exactly under a real clock: self-play games
//! of `search` (both sides the default bot, each with SECONDS a game), and for each game the
//! most empty cells at which a decision's search saw every line to the end (its value exact).
//! Issue 87's measure of the exact endgame's reach, before and after a change.
//!
//! `cargo run --release -p entropy-engine --example endgame_reach -- GAMES SECONDS FIRST_SEED`
//! (4 games, 30 s, seed 0 by default). Prints one line a game (`game SEED reach EMPTY`, each
//! role's reach, and every decision's role, empty cells, depth and whether it was exact as
//! `Oempty:depth[*]` for Order, `C...` for Chaos), then the median reaches. Run two at once with
//! other seeds to use two cores.

mod common;

use std::time::{Duration, Instant};

use entropy_core::{Position, Role, Size};
use entropy_engine::bots::{SearchBot, SearchOptions};
use entropy_engine::eval::LinearEval;
use entropy_engine::learned::{BotEval, NTupleEval};
use entropy_engine::playout::random_move;
use entropy_engine::{Bot, Budget};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The default `search` bot, built so that its searches can be read back.
fn default_bot() -> SearchBot {
    SearchBot::with_eval(
        "search",
        BotEval::NTuple(NTupleEval::tables()),
        LinearEval::trained(),
        SearchOptions::default(),
    )
}

/// One game to the clock: every decision as (role, empty cells, depth, exact).
fn play(seed: u64, clock: Duration) -> Vec<(Role, usize, u32, bool)> {
    let size = Size::SEVEN;
    let mut bots = [default_bot(), default_bot()];
    bots[0].new_game(size, Role::Order);
    bots[1].new_game(size, Role::Chaos);
    let mut used = [Duration::ZERO; 2];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut position = Position::new(size);
    let mut decisions = Vec::new();
    while !position.is_over() {
        let Some(role) = position.to_move() else {
            position.play_unchecked(random_move(&position, &mut rng));
            continue;
        };
        let i = role.index();
        let started = Instant::now();
        let mv = bots[i].choose(
            &position,
            Budget {
                game_left: clock.saturating_sub(used[i]),
                per_move: None,
            },
        );
        used[i] += started.elapsed();
        if let Some(result) = bots[i].last_search() {
            let empty = position.board().vacant_count();
            decisions.push((role, empty, result.depth, result.solved));
        }
        position.play_unchecked(mv);
    }
    decisions
}

fn main() {
    let arg = |i: usize, default: u64| common::whole_arg("endgame_reach", i, default);
    let (games, seconds, first_seed) = (arg(1, 4), arg(2, 30), arg(3, 0));
    let clock = Duration::from_secs(seconds);
    // The reaches of each game: both roles', Order's, Chaos's.
    let mut reaches: [Vec<usize>; 3] = Default::default();
    for seed in first_seed..first_seed + games {
        let decisions = play(seed, clock);
        let reach = |role: Option<Role>| {
            decisions
                .iter()
                .filter(|d| d.3 && role.is_none_or(|r| r == d.0))
                .map(|d| d.1)
                .max()
                .unwrap_or(0)
        };
        let game = [
            reach(None),
            reach(Some(Role::Order)),
            reach(Some(Role::Chaos)),
        ];
        let trace: Vec<String> = decisions
            .iter()
            .map(|(role, empty, depth, exact)| {
                let who = if *role == Role::Order { "O" } else { "C" };
                format!("{who}{empty}:{depth}{}", if *exact { "*" } else { "" })
            })
            .collect();
        println!(
            "game {seed} reach {} (Order {}, Chaos {}) {}",
            game[0],
            game[1],
            game[2],
            trace.join(" ")
        );
        for (all, one) in reaches.iter_mut().zip(game) {
            all.push(one);
        }
    }
    let median = |values: &mut Vec<usize>| {
        values.sort_unstable();
        values.get(values.len() / 2).copied().unwrap_or(0)
    };
    let [all, order, chaos] = &mut reaches;
    println!(
        "median reach {} empty cells over {} games at {seconds} s a game (Order {}, Chaos {}; reaches {:?})",
        median(all),
        all.len(),
        median(order),
        median(chaos),
        all
    );
}
