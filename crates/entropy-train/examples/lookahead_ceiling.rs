//! How strong a one-move lookahead over the distillation teacher's own values plays: the
//! ceiling of a learned model that fits the teacher exactly. Every legal move's afterstate is
//! valued by a node-limited search after it (after one chip drawn at random where one is due, as
//! the teacher's targets are, or the mean over every colour with `average`), against a built-in
//! opponent on paired deals.
//!
//! `cargo run --release -p entropy-train --example lookahead_ceiling -- DEALS NODES
//! [sample|average] [OPPONENT]` (defaults: 20, 2000, sample, `search:depth=1`).
use std::time::Duration;

use entropy_arena::deal::shuffled_bag;
use entropy_arena::game::play_game;
use entropy_arena::player::{BuiltinPlayer, Fault, Player};
use entropy_core::{Move, Position, Role, Size};
use entropy_engine::eval::LinearEval;
use entropy_engine::search::{Limits, Searcher};
use entropy_train::distill::teacher_value;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The lookahead player.
struct Lookahead {
    searcher: Searcher<LinearEval>,
    nodes: u64,
    average: bool,
    rng: Xoshiro256PlusPlus,
}

impl Lookahead {
    /// The teacher's value of an afterstate, as its targets are made.
    fn value(&mut self, after: &Position) -> f64 {
        let limits = Limits::nodes(self.nodes);
        teacher_value(
            &mut self.searcher,
            after,
            limits,
            self.average,
            &mut self.rng,
        )
        .0
    }
}

impl Player for Lookahead {
    fn start(&mut self, _: Size, _: Role) -> Result<(), Fault> {
        self.searcher.clear();
        Ok(())
    }

    fn request(&mut self, position: &Position, _: &[Move], _: Duration) -> Result<Move, Fault> {
        let sign = if position.to_move() == Some(Role::Order) {
            1.0
        } else {
            -1.0
        };
        let moves: Vec<Move> = position.legal_moves().iter().copied().collect();
        let mut best = (f64::NEG_INFINITY, moves[0]);
        for mv in moves {
            let after = position.after(mv).expect("a legal move");
            let value = sign * self.value(&after);
            if value > best.0 {
                best = (value, mv);
            }
        }
        Ok(best.1)
    }

    fn finish(&mut self) {}
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let nodes: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let average = args.get(3).is_some_and(|a| a == "average");
    let opponent = args
        .get(4)
        .cloned()
        .unwrap_or_else(|| "search:depth=1".into());
    let mut margins = Vec::new();
    for deal in 0..deals {
        let bag = shuffled_bag(Size::SEVEN, 1000 + deal);
        let mut scores = [0u32; 2];
        for (game, score) in scores.iter_mut().enumerate() {
            let mut lookahead = Lookahead {
                searcher: Searcher::new(LinearEval::trained(), 4),
                nodes,
                average,
                rng: Xoshiro256PlusPlus::seed_from_u64(deal * 2 + game as u64),
            };
            let mut other = match BuiltinPlayer::new(&opponent, deal) {
                Ok(player) => player,
                Err(e) => {
                    eprintln!("{e}");
                    std::process::exit(2);
                }
            };
            let clocks = [Duration::from_secs(3600); 2];
            let outcome = if game == 0 {
                play_game(Size::SEVEN, &bag, clocks, deal, &mut lookahead, &mut other)
            } else {
                play_game(Size::SEVEN, &bag, clocks, deal, &mut other, &mut lookahead)
            };
            *score = outcome.score();
        }
        margins.push(f64::from(scores[0]) - f64::from(scores[1]));
        let n = margins.len() as f64;
        let mean = margins.iter().sum::<f64>() / n;
        let spread = margins.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        println!(
            "deal {deal}: as Order {} / conceded {}; paired margin {mean:+.1} +- {:.1}",
            scores[0],
            scores[1],
            1.96 * spread.sqrt() / n.sqrt()
        );
    }
}
