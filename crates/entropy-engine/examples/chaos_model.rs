//! How the searching bot reads an Order opponent: over games of our searching Chaos (with
//! `search:handgreedy=1`) against a built-in Order, the Chaos decisions at which it assumed
//! that Order greedy (and so valued its leaves with the hand weights) or weak.
//!
//! `cargo run --release -p entropy-engine --example chaos_model -- [GAMES] [NODES] [ORDER]`:
//! GAMES games (4) at NODES positions a move (20,000) against ORDER (a built-in bot, `greedy`
//! by default; `search` and `search-hand` search NODES positions a move too). Each game
//! prints, per Chaos decision, `H` where the hand weights stood in, `W` where the weak model
//! was on, `.` otherwise.

use entropy_core::Role;
use entropy_engine::bots::{SearchBot, SearchOptions};
use entropy_engine::eval::LinearEval;
use entropy_engine::make_bot;
use entropy_engine::search::Limits;

mod common;

/// Ends the example with `message` as its error.
fn fail(message: &str) -> ! {
    common::fail("chaos_model", message)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| common::whole_arg("chaos_model", i + 1, default);
    let (games, nodes) = (arg(0, 4), arg(1, 20_000));
    let order_name = args.get(2).map_or("greedy", String::as_str).to_string();
    // A searcher without limits would search each move to the end of the game.
    let order_bot = if order_name.starts_with("search") && !order_name.contains(':') {
        format!("search:nodes={nodes}")
    } else {
        order_name.clone()
    };
    // Name a bad ORDER before the first game rather than part-way through the output.
    if let Err(e) = make_bot(&order_bot, 0) {
        fail(&format!("argument 3 ({order_name:?}): {e}"));
    }
    let options = SearchOptions {
        limits: Some(Limits::nodes(nodes)),
        ..SearchOptions::default()
    };
    let (mut decisions, mut hand, mut modelled) = (0, 0, 0);
    for game in 0..games {
        let mut chaos = SearchBot::new("search", LinearEval::trained(), options.clone());
        let mut order = make_bot(&order_bot, game).unwrap_or_else(|e| fail(&e.to_string()));
        let mut line = String::new();
        let position =
            common::play_against(&mut chaos, Role::Chaos, &mut *order, game, |bot, _| {
                let (with_hand, with_model) = (bot.uses_hand_weights(), bot.models_opponent());
                decisions += 1;
                hand += usize::from(with_hand);
                modelled += usize::from(with_model);
                line.push(match (with_hand, with_model) {
                    (true, _) => 'H',
                    (false, true) => 'W',
                    _ => '.',
                });
            });
        let regret = chaos
            .opponent_regret()
            .map_or("-".to_string(), |r| format!("{r:.2}"));
        println!(
            "game {game}: score {:3}  {line}  (Order's regret {regret})",
            position.score()
        );
    }
    println!(
        "{order_name} as Order: our Chaos used the hand weights at {hand} of {decisions} \
         decisions ({:.1}%) and assumed a model at {modelled} ({:.1}%)",
        100.0 * hand as f64 / decisions.max(1) as f64,
        100.0 * modelled as f64 / decisions.max(1) as f64
    );
}
