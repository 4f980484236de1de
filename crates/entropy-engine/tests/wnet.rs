//! The whole-board network in Rust (tract over the ONNX model) against its Python twin (numpy
//! over the same weights), both ways: Rust plays the move and value of every decision of the
//! golden file that `python -m hyle_entropy.board_net golden` wrote from the shipped model, and
//! writes `weights/wnet7-golden-rust.txt` (its own moves and values on other decisions), which
//! python/tests/test_board_net.py checks numpy against. Needs the `onnx` feature:
//! `cargo test -p entropy-engine --features onnx`; `ENTROPY_WRITE_GOLDEN=1` rewrites the Rust
//! file from tract instead of checking it.
#![cfg(feature = "onnx")]

use entropy_core::notation::text::parse_position;
use entropy_engine::bots::WnetBot;
use entropy_engine::learned::networks::BoardNet;
use entropy_engine::{make_bot, Budget};

const GOLDEN: &str = include_str!("../weights/wnet7-golden.txt");
const RUST_GOLDEN: &str = "weights/wnet7-golden-rust.txt";

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

/// Decisions of random 7x7 games (every fifth), where the network's best move leads the next
/// by more than the two sides' float differences, as golden lines: position, move, value.
fn rust_golden_lines() -> Vec<String> {
    use entropy_core::notation::text::format_position;
    use entropy_core::{Phase, Position, Size};
    use rand::SeedableRng;
    let net = BoardNet::shipped();
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(2026);
    let mut lines = Vec::new();
    for _ in 0..12 {
        let mut position = Position::new(Size::SEVEN);
        let mut decisions = 0;
        while !position.is_over() {
            let deciding = matches!(position.phase(), Phase::Slide | Phase::Place(_));
            if deciding {
                decisions += 1;
            }
            if deciding && decisions % 5 == 0 {
                let moves = position.legal_moves();
                let afters: Vec<Position> = moves
                    .iter()
                    .map(|&mv| position.after(mv).unwrap())
                    .collect();
                let values = net.values(&afters);
                let order = position.phase() == Phase::Slide;
                let mut ranked: Vec<(f64, usize)> = values
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| (if order { -v } else { v }, i))
                    .collect();
                ranked.sort_by(|a, b| a.partial_cmp(b).unwrap());
                if ranked.len() >= 2 && ranked[1].0 - ranked[0].0 > 1e-3 {
                    let best = ranked[0].1;
                    lines.push(format!(
                        "{}\t{}\t{:.4}",
                        format_position(&position),
                        moves[best],
                        values[best]
                    ));
                }
            }
            let mv = entropy_engine::bots::random_move(&position, &mut rng);
            position.play_unchecked(mv);
        }
    }
    lines
}

#[test]
fn rust_golden_file_holds_what_tract_plays() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(RUST_GOLDEN);
    let lines = rust_golden_lines();
    assert!(lines.len() >= 150, "only {} decisions", lines.len());
    let text = lines.join("\n") + "\n";
    if std::env::var_os("ENTROPY_WRITE_GOLDEN").is_some() {
        std::fs::write(&path, text).unwrap();
        return;
    }
    let kept = std::fs::read_to_string(&path).unwrap();
    for (line, want) in lines.iter().zip(kept.lines()) {
        let (a, b): (Vec<&str>, Vec<&str>) =
            (line.split('\t').collect(), want.split('\t').collect());
        assert_eq!(a[..2], b[..2], "the move");
        let (x, y): (f64, f64) = (a[2].parse().unwrap(), b[2].parse().unwrap());
        assert!((x - y).abs() < 2e-3, "{line} against {want}");
    }
    assert_eq!(lines.len(), kept.lines().count());
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
    let error = make_bot(
        &format!("pnet:against_greedy={model},against_greedy={model}"),
        1,
    )
    .err();
    assert!(
        error.is_some_and(|e| e.0.contains("second greedy model for Chaos")),
        "two greedy Chaos models are refused"
    );
}
