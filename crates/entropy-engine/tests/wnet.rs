//! The whole-board network in Rust (tract over the ONNX model) against its Python twin (numpy
//! over the same weights): the same move and value on every decision of the golden file that
//! `python -m hyle_entropy.board_net golden` wrote from the shipped model. Needs the `wnet`
//! feature: `cargo test -p entropy-engine --features wnet`.
#![cfg(feature = "wnet")]

use entropy_core::notation::text::parse_position;
use entropy_engine::bots::WnetBot;
use entropy_engine::learned::networks::BoardNet;
use entropy_engine::{make_bot, Budget};

const GOLDEN: &str = include_str!("../weights/wnet7-golden.txt");

#[test]
fn rust_plays_the_move_and_value_python_does() {
    let bot = WnetBot::new("wnet", BoardNet::shipped(), 1);
    let mut checked = 0;
    for line in GOLDEN.lines().filter(|l| !l.is_empty()) {
        let mut fields = line.split('\t');
        let (position, mv, value) = (
            fields.next().unwrap(),
            fields.next().unwrap(),
            fields.next().unwrap(),
        );
        let position = parse_position(position).unwrap();
        let (best, best_value) = bot.best(&position).expect("a decision");
        assert_eq!(best.to_string(), mv, "the move in {line}");
        let expected: f64 = value.parse().unwrap();
        assert!(
            (best_value - expected).abs() < 2e-3,
            "value {best_value} against Python's {expected} in {line}"
        );
        checked += 1;
    }
    assert!(checked >= 150, "only {checked} golden decisions");
}

#[test]
fn the_bot_plays_legal_moves_and_reports_a_bad_model() {
    let mut bot = make_bot("wnet", 1).unwrap();
    let position =
        parse_position(GOLDEN.lines().next().unwrap().split('\t').next().unwrap()).unwrap();
    let mv = bot.choose(&position, Budget::UNLIMITED);
    assert!(position.check(mv).is_ok());
    let error = make_bot("wnet:model=/nonexistent.onnx", 1).err().unwrap();
    assert!(error.0.contains("cannot read model"), "{}", error.0);
    let error = BoardNet::from_onnx(b"not a model", 7).unwrap_err();
    assert!(error.contains("not a usable ONNX model"), "{error}");
}

#[test]
fn the_shipped_placement_policy_places_on_empty_cells_only() {
    use entropy_core::{Move, Phase, Position, Size};
    use entropy_engine::learned::networks::PolicyNet;
    let net = PolicyNet::shipped_chaos();
    assert!(!net.plays_order());
    assert!(!PolicyNet::shipped_chaos_greedy().plays_order());
    let mut bot = make_bot(
        concat!(
            "pnet:model=",
            env!("CARGO_MANIFEST_DIR"),
            "/weights/pnet7-chaos.onnx"
        ),
        1,
    )
    .expect("pnet with the shipped model");
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/pnet7-chaos.onnx");
    let twice = make_bot(&format!("pnet:model={model},model={model}"), 1).err();
    assert!(
        twice.is_some_and(|e| e.0.contains("second model for Chaos")),
        "two Chaos models are refused"
    );
    let mut position = Position::new(Size::SEVEN);
    let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(5);
    while !position.is_over() {
        let mv = match position.phase() {
            Phase::Place(_) => {
                let mv = net.best_move(&position).expect("a placement");
                assert!(matches!(mv, Move::Place { .. }));
                assert!(position.legal_moves().iter().any(|&m| m == mv));
                assert_eq!(net.best_move(&position), Some(mv), "deterministic");
                bot.choose(&position, Budget::UNLIMITED)
            }
            _ => entropy_engine::bots::random_move(&position, &mut rng),
        };
        position.play_unchecked(mv);
    }
}

#[test]
fn pnet_plays_its_greedy_policy_only_against_a_greedy_opponent() {
    use entropy_core::{Phase, Position, Role, Size};
    use entropy_engine::bots::PnetBot;
    use entropy_engine::learned::networks::PolicyNet;
    use entropy_engine::Bot;
    // Chaos's moves over a game against this Order: did pnet switch to its greedy policy?
    let switched = |order: &str| {
        let mut pnet = PnetBot::new(
            "pnet",
            vec![PolicyNet::shipped_chaos()],
            vec![PolicyNet::shipped_chaos()],
            1,
        );
        let mut order = make_bot(order, 2).unwrap();
        pnet.new_game(Size::SEVEN, Role::Chaos);
        order.new_game(Size::SEVEN, Role::Order);
        let mut position = Position::new(Size::SEVEN);
        let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(5);
        let mut switched = Vec::new();
        while !position.is_over() {
            let mv = match position.phase() {
                Phase::Place(_) => {
                    let mv = pnet.choose(&position, Budget::UNLIMITED);
                    switched.push(pnet.exploits_greedy());
                    mv
                }
                Phase::Slide => order.choose(&position, Budget::UNLIMITED),
                _ => entropy_engine::bots::random_move(&position, &mut rng),
            };
            position.play(mv).expect("a legal move");
        }
        switched
    };
    let greedy = switched("greedy");
    // Six Order moves watched before it may switch: the seventh placement is the first that can.
    assert!(!greedy[..6].iter().any(|&s| s), "{greedy:?}");
    assert!(greedy[6..].iter().all(|&s| s), "{greedy:?}");
    let random = switched("random");
    assert!(!random.iter().any(|&s| s), "{random:?}");
    let model = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/pnet7-chaos.onnx");
    let error = make_bot(&format!("pnet:greedy={model},greedy={model}"), 1).err();
    assert!(
        error.is_some_and(|e| e.0.contains("second greedy model for Chaos")),
        "two greedy Chaos models are refused"
    );
}
