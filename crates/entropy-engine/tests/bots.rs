//! Bots in whole games: every built-in bot plays legal moves in both roles, the greedy models
//! agree with the greedy bot, and the searching bot learns when its opponent is greedy or weak.

use entropy_core::{Phase, Position, Role, Size};
use entropy_engine::bots::{random_move, SearchBot, SearchOptions, Tuning};
use entropy_engine::eval::{Calibration, LinearEval};
use entropy_engine::learned::BotEval;
use entropy_engine::search::model::{greedy_chaos_moves, greedy_order_moves};
use entropy_engine::search::{horizon, Limits};
use entropy_engine::{make_bot, Bot, Budget, BOTS};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Plays a game between two bots with chips drawn by a seeded random chance; returns the score.
fn play(order: &mut dyn Bot, chaos: &mut dyn Bot, size: Size, seed: u64) -> u32 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pos = Position::new(size);
    order.new_game(size, Role::Order);
    chaos.new_game(size, Role::Chaos);
    while !pos.is_over() {
        let mv = match pos.phase() {
            Phase::Draw => random_move(&pos, &mut rng),
            Phase::Place(_) => chaos.choose(&pos, Budget::UNLIMITED),
            _ => order.choose(&pos, Budget::UNLIMITED),
        };
        pos.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    pos.score()
}

#[test]
fn every_bot_plays_legally_in_both_roles() {
    for bot in BOTS {
        let name = if bot.name.starts_with("search") {
            format!("{}:nodes=300", bot.name)
        } else if bot.name == "expecti" {
            "expecti:depth=2".to_owned()
        } else {
            bot.name.to_owned()
        };
        let mut a = make_bot(&name, 1).unwrap();
        let mut b = make_bot("random", 2).unwrap();
        play(a.as_mut(), b.as_mut(), Size::FIVE, 3);
        play(b.as_mut(), a.as_mut(), Size::FIVE, 4);
    }
    assert!(make_bot("search:nodes=x", 1).is_err());
    assert!(make_bot("greedy:nodes=5", 1).is_err());
    for bad in [
        "expecti:depth=0",
        "expecti:depth=7",
        "expecti:depth=x",
        "expecti:nodes=5",
    ] {
        let error = make_bot(bad, 1).err().expect(bad).to_string();
        assert!(error.contains(bad), "{error}");
    }
}

#[test]
fn the_greedy_models_contain_the_greedy_bots_choices() {
    let mut greedy = make_bot("greedy", 5).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
    for _ in 0..5 {
        let mut pos = Position::new(Size::SEVEN);
        while !pos.is_over() {
            let mv = match pos.phase() {
                Phase::Draw => random_move(&pos, &mut rng),
                Phase::Slide => {
                    let mv = greedy.choose(&pos, Budget::UNLIMITED);
                    assert!(greedy_order_moves(&pos).contains(&mv), "{mv}");
                    random_move(&pos, &mut rng)
                }
                _ => {
                    let mv = greedy.choose(&pos, Budget::UNLIMITED);
                    assert!(greedy_chaos_moves(&pos).contains(&mv), "{mv}");
                    mv
                }
            };
            pos.play_unchecked(mv);
        }
    }
}

/// Our searching bot (500 nodes a move, `eval` at its leaves) as `role` against the built-in
/// `opponent` for 30 turns, then its search of the next decision; the bot and that position.
fn thirty_turns_against(role: Role, opponent: &str, eval: BotEval) -> (SearchBot, Position) {
    let options = SearchOptions {
        limits: Some(Limits::nodes(500)),
        tuning: Tuning {
            weak: 0,
            ..Tuning::default()
        },
        ..SearchOptions::default()
    };
    let mut ours = SearchBot::with_eval("search", eval, LinearEval::trained(), options);
    let mut other = make_bot(opponent, 3).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let mut pos = Position::new(Size::SEVEN);
    ours.new_game(Size::SEVEN, role);
    other.new_game(Size::SEVEN, role.opponent());
    while pos.placed() < 30 || pos.to_move() != Some(role) {
        let mv = match pos.to_move() {
            None => random_move(&pos, &mut rng),
            Some(r) if r == role => ours.choose(&pos, Budget::UNLIMITED),
            Some(_) => other.choose(&pos, Budget::UNLIMITED),
        };
        pos.play_unchecked(mv);
    }
    ours.choose(&pos, Budget::UNLIMITED);
    (ours, pos)
}

#[test]
fn the_search_bot_models_a_greedy_opponent_and_not_a_random_one() {
    for (opponent, expected) in [("greedy", true), ("random", false)] {
        let (mut ours, pos) = thirty_turns_against(Role::Chaos, opponent, BotEval::shipped());
        assert_eq!(ours.models_opponent(), expected, "against {opponent}");
        // As Chaos against a greedy Order the hand weights stand in, until the next game.
        assert_eq!(ours.uses_hand_weights(), expected, "against {opponent}");
        // The expected score shown is corrected by the table fitted for what was searched.
        let table = match expected {
            true => Calibration::hand_vs_greedy(),
            false => Calibration::tables(),
        };
        assert_shows_value_corrected_by(&ours, &pos, table);
        ours.new_game(Size::SEVEN, Role::Order);
        assert!(!ours.uses_hand_weights());
    }
}

#[test]
fn as_order_against_greedy_the_search_bot_shows_values_corrected_for_a_greedy_chaos() {
    // Each shipped evaluation with the table fitted for its own values.
    for (eval, table) in [
        (BotEval::shipped(), Calibration::tables_vs_greedy_chaos()),
        (
            BotEval::Linear(LinearEval::trained()),
            Calibration::trained_vs_greedy_chaos(),
        ),
    ] {
        let (ours, pos) = thirty_turns_against(Role::Order, "greedy", eval);
        // Read as greedy, searched as any Chaos: the reading picks the table alone.
        assert!(ours.reads_opponent_greedy());
        assert!(!ours.models_opponent());
        assert!(!ours.uses_hand_weights());
        assert_shows_value_corrected_by(&ours, &pos, table);
    }
}

/// The expected score `bot` shows after its search of `pos` is the search's value plus
/// `table`'s offset for the search's horizon.
fn assert_shows_value_corrected_by(bot: &SearchBot, pos: &Position, table: &Calibration) {
    let last = bot.last_search().unwrap();
    let offset = table.offset(7, horizon(pos, last.depth, last.solved));
    assert_ne!(offset, 0.0);
    assert_eq!(bot.expected_score(), Some(last.value + offset));
}

/// Plays a game of `order` against the built-in `chaos` (made with `bot_seed`; chips drawn
/// with `chip_seed`) and returns `probe` of Order after each of its decisions.
fn watch_order<B: Bot, T>(
    order: &mut B,
    (chaos, bot_seed): (&str, u64),
    chip_seed: u64,
    mut probe: impl FnMut(&B) -> T,
) -> Vec<T> {
    let mut chaos = make_bot(chaos, bot_seed).unwrap();
    order.new_game(Size::SEVEN, Role::Order);
    chaos.new_game(Size::SEVEN, Role::Chaos);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(chip_seed);
    let mut position = Position::new(Size::SEVEN);
    let mut probed = Vec::new();
    while !position.is_over() {
        let mv = match position.phase() {
            Phase::Draw => random_move(&position, &mut rng),
            Phase::Place(_) => chaos.choose(&position, Budget::UNLIMITED),
            _ => {
                let mv = order.choose(&position, Budget::UNLIMITED);
                probed.push(probe(order));
                mv
            }
        };
        position.play(mv).unwrap();
    }
    probed
}

/// Order's decisions in one game at which the searching bot (2,000 nodes a move, these
/// options otherwise) read its Chaos opponent as greedy, and those at which it searched it
/// as greedy or weak.
fn decisions_read(options: SearchOptions, chaos: &str, seed: u64) -> (usize, usize) {
    let options = SearchOptions {
        limits: Some(Limits::nodes(2000)),
        ..options
    };
    let mut ours = SearchBot::new("search", LinearEval::trained(), options);
    let read = watch_order(&mut ours, (chaos, seed), seed, |bot| {
        (bot.reads_opponent_greedy(), bot.models_opponent())
    });
    let count = |on: fn(&(bool, bool)) -> bool| read.iter().filter(|r| on(r)).count();
    (count(|r| r.0), count(|r| r.1))
}

#[test]
fn a_searching_chaos_that_plays_greedy_placements_is_not_read_as_greedy() {
    // A searching Chaos plays mostly placements greedy could have played (the ones that leave
    // Order's best reply lowest), often enough to read as greedy by their share alone; its
    // regret, a tenth of greedy's, tells them apart: the default gates the reading on it.
    let gated = SearchOptions::default();
    assert!(gated.tuning.greedy_regret().is_some());
    for seed in 0..2 {
        assert_eq!(
            decisions_read(gated.clone(), "search:nodes=2000", seed),
            (0, 0),
            "seed {seed}"
        );
        // Greedy itself still is, from its seventh placement or soon after, and is searched
        // as any Chaos all the same.
        let (read, modelled) = decisions_read(gated.clone(), "greedy", seed);
        assert!(read >= 35, "seed {seed}: {read}");
        assert_eq!(modelled, 0, "seed {seed}");
    }
}

#[test]
fn the_search_bot_reads_a_weak_opponent_by_its_regret() {
    let options = SearchOptions {
        limits: Some(Limits::nodes(2000)),
        tuning: Tuning {
            weak: 8,
            ..Tuning::default()
        },
        ..SearchOptions::default()
    };
    for (opponent, role, weak) in [
        ("random", Role::Chaos, true),
        ("random", Role::Order, true),
        ("search:nodes=3000", Role::Chaos, false),
    ] {
        let mut ours = SearchBot::new("search", LinearEval::trained(), options.clone());
        let mut other = make_bot(opponent, 3).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let mut pos = Position::new(Size::SEVEN);
        ours.new_game(Size::SEVEN, role);
        other.new_game(Size::SEVEN, role.opponent());
        for _ in 0..60 {
            if pos.phase() == Phase::Draw {
                let chip = random_move(&pos, &mut rng);
                pos.play_unchecked(chip);
            }
            let mover = if pos.to_move() == Some(role) {
                &mut ours as &mut dyn Bot
            } else {
                other.as_mut()
            };
            let mv = mover.choose(&pos, Budget::UNLIMITED);
            pos.play_unchecked(mv);
        }
        let regret = ours.opponent_regret().expect("enough moves watched");
        assert_eq!(
            regret > 0.8,
            weak,
            "{opponent} as {:?}: {regret}",
            role.opponent()
        );
        // The weak model is on exactly when the regret says so (neither opponent is greedy).
        assert_eq!(ours.models_opponent(), weak, "{opponent}");
    }
}

#[test]
fn net_plays_order_over_its_greedy_model_only_against_a_greedy_chaos() {
    use entropy_engine::bots::NetBot;
    // Order's slides over a game against this Chaos: had net switched to its greedy model?
    let switched = |chaos: &str| {
        let mut net = NetBot::new(1);
        watch_order(&mut net, (chaos, 2), 5, NetBot::exploits_greedy)
    };
    let greedy = switched("greedy");
    // Six placements watched (each after a slide of its own) before it may switch: the
    // seventh slide is the first that can.
    assert!(!greedy[..6].iter().any(|&s| s), "{greedy:?}");
    assert!(greedy[6..].iter().all(|&s| s), "{greedy:?}");
    // Nor against a one-move lookahead, whose placements are nearly always among greedy's
    // but break its ties by the evaluation, not at random. Its first six may all look like
    // greedy's (early placements give Order nothing wherever they go), so the first slide
    // that may switch can; by the ninth the evidence says otherwise. (The lookahead over the
    // linear evaluation, which retraining the tables leaves alone: over the fifth generation's
    // tables this deal's lookahead played eight placements in a row from the 20th as greedy's,
    // and net read it as greedy for those slides.)
    for chaos in ["heuristic", "search:depth=1,eval=linear"] {
        let switched = switched(chaos);
        assert!(!switched[8..].iter().any(|&s| s), "{chaos}: {switched:?}");
    }
    // Early on most placements give Order nothing wherever they go, and random's then look
    // like greedy's (both break ties at random); once the board fills they no longer do.
    let random = switched("random");
    assert!(!random[24..].iter().any(|&s| s), "{random:?}");
    // With weights of its own and no greedy model, it never switches.
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/net7.bin");
    let mut own = make_bot(&format!("net:model={weights}"), 1).unwrap();
    let mut greedy = make_bot("greedy", 1).unwrap();
    let with_model = make_bot(&format!("net:model={weights},against_greedy={weights}"), 1);
    assert!(with_model.is_ok());
    assert!(play(own.as_mut(), greedy.as_mut(), Size::SEVEN, 3) > 0);
    let twice = make_bot(&format!("net:model={weights},model={weights}"), 1).err();
    assert!(twice.is_some_and(|e| e.0.contains("given twice")));
}

#[test]
fn net_plays_each_role_over_its_own_model() {
    use entropy_engine::bots::best_afterstate;
    use entropy_engine::learned::NTupleModel;
    let chaos_model = NTupleModel::trained();
    let order_model = NTupleModel::trained_order();
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/net7.bin");
    let order = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/net7-order.bin");
    let mut shipped = make_bot("net", 1).unwrap();
    let mut given = make_bot(&format!("net:model={weights},order={order}"), 1).unwrap();
    let mut position = Position::new(Size::SEVEN);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    let (mut differ, mut decisions) = (0, 0);
    while !position.is_over() {
        let mv = match position.phase() {
            Phase::Draw => random_move(&position, &mut rng),
            phase => {
                let model = if phase == Phase::Slide {
                    &order_model
                } else {
                    &chaos_model
                };
                let (best, _) = best_afterstate(&position, |p| model.value(p)).unwrap();
                let (other, _) = best_afterstate(&position, |p| {
                    let other = if phase == Phase::Slide {
                        &chaos_model
                    } else {
                        &order_model
                    };
                    other.value(p)
                })
                .unwrap();
                differ += usize::from(best != other);
                decisions += 1;
                // Its first slides, before it could read Chaos as greedy.
                if decisions < 12 {
                    assert_eq!(shipped.choose(&position, Budget::UNLIMITED), best);
                    assert_eq!(given.choose(&position, Budget::UNLIMITED), best);
                }
                random_move(&position, &mut rng)
            }
        };
        position.play(mv).unwrap();
    }
    // The two models disagree often enough for the test to tell them apart.
    assert!(differ > 10, "{differ} of {decisions}");
}

#[test]
fn both_searching_bots_show_calibrated_expected_scores_in_the_opening() {
    // Uncorrected, either evaluation's search of the first placement reads 30-40 points;
    // self-play games end near 77-80.
    for name in ["search:nodes=2000", "search-hand:nodes=2000"] {
        let mut bot = make_bot(name, 1).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        let mut pos = Position::new(Size::SEVEN);
        bot.new_game(Size::SEVEN, Role::Chaos);
        pos.play_unchecked(random_move(&pos, &mut rng));
        bot.choose(&pos, Budget::UNLIMITED);
        let expected = bot.expected_score().unwrap();
        assert!((65.0..95.0).contains(&expected), "{name}: {expected}");
    }
}
