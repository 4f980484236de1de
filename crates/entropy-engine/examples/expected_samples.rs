//! The values the searching bot reached in play against another bot, as `entropy calibrate
//! --samples` files, so that `entropy calibrate --from-samples` can report how far the expected
//! final score the bot shows is from the final scores of those games, and fit a correction.
//!
//! `entropy calibrate` analyses recorded games afresh with the default evaluation, as the web
//! page's analysis does; what the bot itself shows (`/api/bot`'s `expected`) comes from its own
//! searches, which against a greedy Order value their leaves with the hand weights
//! (`search:handgreedy=1`) and model that Order as greedy below the root. Those values need
//! their own correction, fitted on games of that kind.
//!
//! `cargo run --release -p entropy-engine --example expected_samples -- GAMES NODES FIRST PREFIX
//! [OPPONENT] [OURS]`: deals FIRST.. FIRST+GAMES-1, each played twice against OPPONENT (`greedy`
//! by default; a built-in bot, `self` for OURS at NODES too), OURS (`search`, the default, with
//! the line-pattern tables at its leaves; `search-linear`, `search:eval=linear`; or
//! `search-hand`) at NODES positions a move as Chaos, then as Order, on the same chips. Writes
//! one file per kind of decision, by what the search
//! assumed of the opponent: `PREFIX-hand.csv` (as Chaos, Order read as greedy: the hand weights
//! valued the leaves), `PREFIX-greedy.csv` (as Order, Chaos read as greedy), `PREFIX-weak.csv`
//! (the opponent read as weak) and `PREFIX-none.csv` (no model: the bot assumed itself), each
//! row the search's own value (`raw`, before any correction) and the game's final score.

use std::io::Write as _;

use entropy_core::Role;
use entropy_engine::bots::{SearchBot, SearchOptions};
use entropy_engine::eval::{DecisionSample, LinearEval, SAMPLES_HEADER};
use entropy_engine::learned::BotEval;
use entropy_engine::make_bot;
use entropy_engine::search::{horizon, Limits};

mod common;

/// Ends the example with `message` as its error.
fn fail(message: &str) -> ! {
    common::fail("expected_samples", message)
}

/// What the search assumed of the opponent at a decision (as Order, whether it read Chaos as
/// greedy: it then searches it as any other, but its values have a table of their own), and
/// the file its samples go to.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Kind {
    Hand,
    Greedy,
    Weak,
    None,
}

impl Kind {
    const ALL: [Kind; 4] = [Kind::Hand, Kind::Greedy, Kind::Weak, Kind::None];

    fn name(self) -> &'static str {
        match self {
            Kind::Hand => "hand",
            Kind::Greedy => "greedy",
            Kind::Weak => "weak",
            Kind::None => "none",
        }
    }

    /// The kind of the decision `bot` just made.
    fn of(bot: &SearchBot) -> Kind {
        let model = bot.opponent_model();
        if bot.uses_hand_weights() {
            Kind::Hand
        } else if bot.reads_opponent_greedy() {
            Kind::Greedy
        } else if model.weak_chaos || model.weak_order {
            Kind::Weak
        } else {
            Kind::None
        }
    }
}

/// One decision of ours (its game and final score filled in once the game ends), and what the
/// search assumed of the opponent there.
struct Decision {
    sample: DecisionSample,
    kind: Kind,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| common::whole_arg("expected_samples", i + 1, default);
    let (games, nodes, first) = (arg(0, 10), arg(1, 20_000), arg(2, 0));
    let Some(prefix) = args.get(3) else {
        fail("argument 4 (PREFIX) is missing: the samples go to PREFIX-KIND.csv files")
    };
    let ours = args.get(5).map_or("search", String::as_str).to_string();
    // OURS as a bot and its options, so that `self` adds the budget to them.
    let (base, options) = match ours.as_str() {
        "search" | "search-hand" => (ours.as_str(), ""),
        "search-linear" => ("search", "eval=linear,"),
        _ => fail(&format!(
            "argument 6 ({ours:?}): use search, search-linear or search-hand"
        )),
    };
    let opponent = match args.get(4).map_or("greedy", String::as_str) {
        "self" => format!("{base}:{options}nodes={nodes}"),
        other => other.to_string(),
    };
    if let Err(e) = make_bot(&opponent, 0) {
        fail(&format!("argument 5 ({opponent:?}): {e}"));
    }
    let open = |which: &str| {
        let path = format!("{prefix}-{which}.csv");
        let mut file = std::fs::File::create(&path)
            .map(std::io::BufWriter::new)
            .unwrap_or_else(|e| fail(&format!("cannot write {path}: {e}")));
        writeln!(file, "{SAMPLES_HEADER}").unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        (path, file)
    };
    let mut files: Vec<_> = Kind::ALL.iter().map(|k| open(k.name())).collect();
    let mut game_number = 0;
    for deal in first..first + games {
        for role in [Role::Chaos, Role::Order] {
            game_number += 1;
            let (decisions, final_score) = play(deal, (&ours, role), nodes, &opponent);
            for d in decisions {
                let index = Kind::ALL.iter().position(|k| *k == d.kind).unwrap();
                let (path, file) = &mut files[index];
                let sample = DecisionSample {
                    game: game_number,
                    final_score: f64::from(final_score),
                    ..d.sample
                };
                writeln!(file, "{sample}").unwrap_or_else(|e| fail(&format!("{path}: {e}")));
            }
        }
        // Each deal's rows written as it ends: a run stopped part-way keeps its whole deals.
        for (path, file) in &mut files {
            file.flush()
                .unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        }
        eprint!("\rdeal {} of {games}", deal - first + 1);
    }
    eprintln!();
    for (path, _) in files {
        println!("wrote {path}");
    }
}

/// One game of the deal `deal` with our bot (`search`, `search-linear` or `search-hand`) as `ours`: its
/// decisions and Order's final score.
fn play(deal: u64, (name, ours): (&str, Role), nodes: u64, opponent: &str) -> (Vec<Decision>, u32) {
    let options = SearchOptions {
        limits: Some(Limits::nodes(nodes)),
        ..SearchOptions::default()
    };
    let mut bot = match name {
        "search-hand" => SearchBot::new(name, LinearEval::hand(), options),
        "search-linear" => SearchBot::new(name, LinearEval::trained(), options),
        _ => SearchBot::with_eval(name, BotEval::shipped(), LinearEval::trained(), options),
    };
    let mut other = make_bot(opponent, deal).unwrap_or_else(|e| fail(&e.to_string()));
    let mut decisions = Vec::new();
    let position = common::play_against(&mut bot, ours, &mut *other, deal, |bot, position| {
        let result = bot.last_search().expect("the bot searched");
        decisions.push(Decision {
            sample: DecisionSample {
                game: 0,
                turn: position.placed() + usize::from(ours == Role::Chaos),
                role: ours,
                depth: result.depth,
                solved: result.solved,
                horizon: horizon(position, result.depth, result.solved),
                score: f64::from(position.score()),
                raw: result.value,
                final_score: 0.0,
            },
            kind: Kind::of(bot),
        });
    });
    (decisions, position.score())
}
