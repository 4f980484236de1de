//! How the searching bot reads a Chaos opponent: over games of a searching Order against it,
//! the share of the Chaos's placements greedy could have played, and the Order decisions at
//! which the bot read that Chaos as greedy or searched it as weak (its opponent model,
//! docs/search.md "Reading the opponent"; a Chaos read as greedy is searched as any other since
//! 2026-11-29, and the reading picks the table that corrects the expected score shown).
//!
//! `cargo run -p entropy-engine --example opponent_model -- [GAMES] [NODES] [CHAOS] [TENTHS]`:
//! GAMES games (4) at NODES positions a move (20,000) against CHAOS (a built-in bot, or `self`
//! for the searching bot at the same nodes), Order's `greedy` option TENTHS (5, the default;
//! 0: the share of greedy's placements alone decides, the rule before it). Each game prints,
//! per Order decision, `G` where it read Chaos so and the opponent's mean regret once 12 moves
//! are watched; with CHAOS `self`, `C` where our Chaos assumed our Order greedy or weak.

use entropy_core::{Phase, Position, Role, Size};
use entropy_engine::bots::{SearchBot, SearchOptions, Tuning};
use entropy_engine::eval::LinearEval;
use entropy_engine::playout::random_move;
use entropy_engine::search::model::greedy_chaos_moves;
use entropy_engine::search::Limits;
use entropy_engine::{make_bot, Bot, Budget};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

mod common;

/// Ends the example with `message` as its error.
fn fail(message: &str) -> ! {
    common::fail("opponent_model", message)
}

/// The Chaos player of a game: the searching bot if there is one, else the other.
fn chaos<'a>(
    searching: &'a mut Option<SearchBot>,
    other: &'a mut Option<Box<dyn Bot>>,
) -> &'a mut dyn Bot {
    match (searching, other) {
        (Some(bot), _) => bot,
        (None, Some(bot)) => bot.as_mut(),
        (None, None) => unreachable!("one Chaos player is made per game"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| common::whole_arg("opponent_model", i + 1, default);
    let (games, nodes) = (arg(0, 4), arg(1, 20_000));
    let chaos_name = args.get(2).map_or("self", String::as_str).to_string();
    let tenths = arg(3, u64::from(Tuning::default().greedy));
    // Name a bad CHAOS before the first game rather than part-way through the output.
    if chaos_name != "self" {
        if let Err(e) = make_bot(&chaos_name, 0) {
            fail(&format!("argument 3 ({chaos_name:?}): {e}"));
        }
    }
    let base = SearchOptions {
        limits: Some(Limits::nodes(nodes)),
        ..SearchOptions::default()
    };
    let ours = SearchOptions {
        tuning: Tuning {
            greedy: tenths as u32,
            ..base.tuning
        },
        ..base.clone()
    };
    let (mut placements, mut greedy, mut decisions, mut modelled) = (0, 0, 0, 0);
    // With CHAOS `self`: the Chaos decisions at which our Chaos assumed our Order greedy or weak.
    let mut chaos_modelled = 0;
    for game in 0..games {
        let mut order = SearchBot::new("search", LinearEval::trained(), ours.clone());
        // Exactly one of the two plays Chaos: our searcher, kept as itself to read its model, or
        // the built-in bot named.
        let mut searching_chaos = (chaos_name == "self")
            .then(|| SearchBot::new("search", LinearEval::trained(), base.clone()));
        let mut other = searching_chaos
            .is_none()
            .then(|| make_bot(&chaos_name, game).unwrap_or_else(|e| fail(&e.to_string())));
        order.new_game(Size::SEVEN, Role::Order);
        chaos(&mut searching_chaos, &mut other).new_game(Size::SEVEN, Role::Chaos);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(game);
        let mut position = Position::new(Size::SEVEN);
        let mut line = String::new();
        while !position.is_over() {
            let mv = match position.phase() {
                Phase::Draw => random_move(&position, &mut rng),
                Phase::Place(_) => {
                    let mv = chaos(&mut searching_chaos, &mut other)
                        .choose(&position, Budget::UNLIMITED);
                    placements += 1;
                    if searching_chaos
                        .as_ref()
                        .is_some_and(SearchBot::models_opponent)
                    {
                        chaos_modelled += 1;
                        line.push('C');
                    }
                    greedy += usize::from(greedy_chaos_moves(&position).contains(&mv));
                    mv
                }
                _ => {
                    let mv = order.choose(&position, Budget::UNLIMITED);
                    // As Order the bot searches a Chaos it reads as greedy as any other
                    // (the reading picks the shown value's table): count the reading.
                    let on = order.reads_opponent_greedy() || order.models_opponent();
                    decisions += 1;
                    modelled += usize::from(on);
                    let regret = order
                        .opponent_regret()
                        .map_or("-".to_string(), |r| format!("{r:.1}"));
                    line.push_str(&format!("{}{regret} ", if on { "G" } else { "" }));
                    mv
                }
            };
            position.play_unchecked(mv);
        }
        let read = searching_chaos
            .as_ref()
            .and_then(SearchBot::opponent_regret)
            .map_or(String::new(), |r| {
                format!("  (our Chaos read our Order's regret {r:.2})")
            });
        println!("game {game}: score {:3}  {line}{read}", position.score());
    }
    println!(
        "{chaos_name} as Chaos: {greedy} of {placements} placements greedy's ({:.1}%); \
         Order read it as greedy or weak at {modelled} of {decisions} decisions ({:.1}%)",
        100.0 * greedy as f64 / placements.max(1) as f64,
        100.0 * modelled as f64 / decisions.max(1) as f64
    );
    if chaos_name == "self" {
        println!(
            "our Chaos assumed our Order greedy or weak at {chaos_modelled} of {placements} \
             placements ({:.1}%)",
            100.0 * chaos_modelled as f64 / placements.max(1) as f64
        );
    }
}
