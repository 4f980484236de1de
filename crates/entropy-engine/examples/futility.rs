//! How far a quiet slide's evaluation rises above the pass's, at Slide positions of greedy
//! games: the margin futility pruning at Order's frontier would need.
use entropy_core::{Move, Position, Size};
use entropy_engine::bots::make_bot;
use entropy_engine::eval::{Evaluator, LinearEval};
use entropy_engine::Budget;

mod common;

fn main() {
    let eval = LinearEval::trained();
    let mut excess = Vec::new();
    let mut quiet_share = Vec::new();
    let mut chaos = Vec::new();
    for game in 0..40u64 {
        let mut bot = make_bot("greedy", game).unwrap();
        let mut position = Position::new(Size::SEVEN);
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(game);
        while !position.is_over() {
            let draw = entropy_engine::bots::random_move(&position, &mut rng);
            position.play_unchecked(draw);
            while !position.is_over() && position.to_move().is_some() {
                if position.phase() == entropy_core::Phase::Slide
                    && position.board().vacant_count() > 8
                {
                    let mut pass = position;
                    pass.play_unchecked(Move::Pass);
                    let s = eval.evaluate(&pass);
                    let (mut best_quiet, mut quiet, mut all) = (f64::NEG_INFINITY, 0, 0);
                    for &mv in position.legal_moves().iter() {
                        if mv == Move::Pass {
                            continue;
                        }
                        let mut c = position;
                        c.play_unchecked(mv);
                        all += 1;
                        if c.score() <= position.score() {
                            quiet += 1;
                            best_quiet = best_quiet.max(eval.evaluate(&c));
                        }
                    }
                    if quiet > 0 {
                        excess.push(best_quiet - s);
                        quiet_share.push(quiet as f64 / all as f64);
                    }
                }
                if let entropy_core::Phase::Place(_) = position.phase() {
                    if position.board().vacant_count() > 8 {
                        let now = position.score();
                        let (mut least, mut first, mut best) = (u32::MAX, 0.0, f64::INFINITY);
                        for &mv in position.legal_moves().iter() {
                            let mut c = position;
                            c.play_unchecked(mv);
                            let e = eval.evaluate(&c);
                            if c.score() - now < least {
                                least = c.score() - now;
                                first = e;
                            }
                            best = best.min(e);
                        }
                        chaos.push(first - best);
                    }
                }
                let mv = bot.choose(&position, Budget::UNLIMITED);
                position.play_unchecked(mv);
            }
        }
    }
    chaos.sort_by(f64::total_cmp);
    let c = |p: f64| chaos[((chaos.len() - 1) as f64 * p) as usize];
    println!(
        "{} Chaos positions; the least-adding placement minus the best: p50 {:.2} p90 {:.2} p99 {:.2} max {:.2}",
        chaos.len(), c(0.5), c(0.9), c(0.99), c(1.0)
    );
    excess.sort_by(f64::total_cmp);
    let q = |p: f64| excess[((excess.len() - 1) as f64 * p) as usize];
    println!(
        "{} positions; best quiet slide minus pass: min {:.2} p10 {:.2} p50 {:.2} p90 {:.2} p99 {:.2} max {:.2}; quiet share {:.2}",
        excess.len(),
        q(0.0),
        q(0.1),
        q(0.5),
        q(0.9),
        q(0.99),
        q(1.0),
        quiet_share.iter().sum::<f64>() / quiet_share.len() as f64
    );
}
