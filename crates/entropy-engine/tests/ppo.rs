//! The PPO policy in Rust (tract over the shipped ONNX model) against PyTorch over the same
//! weights: in every position of the golden file that `python -m hyle_entropy.ppo_policy
//! policy.pt --golden` wrote, Rust picks the same action with the same logit (the shipped
//! policy reads the evals observation: the engine's evaluation of every move, which the bot
//! computes as the environment does; the file keeps the positions with more than three empty
//! cells, whose evaluations did not change when the last two empty cells came to be valued
//! exactly, after the file was written); the same for the policies shipped before, over the lines
//! observation and over the gains (`tests/data/ppo/`); and the bot `ppo` plays legal moves in
//! both roles. Needs the `onnx` feature: `cargo test -p entropy-engine --features onnx --test ppo`.
#![cfg(feature = "onnx")]

use entropy_core::notation::text::parse_position;
use entropy_core::{Phase, Position, Size};
use entropy_engine::learned::actions::move_of;
use entropy_engine::learned::ppo::PpoNet;
use entropy_engine::{make_bot, Budget};
use rand::SeedableRng;

const GOLDEN: &str = include_str!("../weights/ppo7-golden.txt");

/// A policy reading the gains observation, and its golden file.
const GAINS_MODEL: &[u8] = include_bytes!("../../../tests/data/ppo/ppo7-gains.onnx");
const GAINS_GOLDEN: &str = include_str!("../../../tests/data/ppo/ppo7-gains-golden.txt");

/// The policy shipped before over the lines observation (the default command when the lines
/// were the default observation), and its golden file.
const LINES_MODEL: &[u8] = include_bytes!("../../../tests/data/ppo/ppo7-lines.onnx");
const LINES_GOLDEN: &str = include_str!("../../../tests/data/ppo/ppo7-lines-golden.txt");

#[test]
fn rust_picks_the_action_and_logit_pytorch_does() {
    let net = PpoNet::shipped();
    assert!(format!("{net:?}").contains("Evals"), "{net:?}");
    check_golden(&net, GOLDEN);
}

#[test]
fn a_policy_over_the_lines_observation_plays_pytorchs_actions() {
    let net = PpoNet::from_onnx(LINES_MODEL).expect("the lines policy loads");
    assert!(format!("{net:?}").contains("Lines"), "{net:?}");
    check_golden(&net, LINES_GOLDEN);
}

#[test]
fn a_policy_over_the_gains_observation_plays_pytorchs_actions() {
    let net = PpoNet::from_onnx(GAINS_MODEL).expect("the gains policy loads");
    assert!(format!("{net:?}").contains("Gains"), "{net:?}");
    check_golden(&net, GAINS_GOLDEN);
}

/// Every golden line (position, action, logit): the policy's best move is the action, with the
/// logit.
fn check_golden(net: &PpoNet, golden: &str) {
    let mut checked = 0;
    for line in golden.lines().filter(|l| !l.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [text, action, logit] = fields[..] else {
            panic!("a golden line is position, action, logit: {line:?}");
        };
        let (position, action, logit): (_, usize, f32) = (
            parse_position(text).unwrap(),
            action.parse().unwrap(),
            logit.parse().unwrap(),
        );
        let expected = move_of(&position, action).expect("a move of the player to move");
        assert_eq!(
            net.best_move(&position),
            Some(expected),
            "the move in {line}"
        );
        let logits = net.logits(&position).unwrap();
        assert!(
            (logits[action] - logit).abs() < 1e-3 * logit.abs().max(1.0),
            "logit {} against PyTorch's {logit} in {line}",
            logits[action]
        );
        checked += 1;
    }
    assert!(checked >= 300, "only {checked} golden positions");
}

#[test]
fn ppo_plays_legal_moves_in_both_roles_and_on_5x5() {
    for size in [Size::SEVEN, Size::FIVE] {
        let mut bot = make_bot("ppo", 3).unwrap();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let mut position = Position::new(size);
        while !position.is_over() {
            let mv = match position.phase() {
                Phase::Place(_) | Phase::Slide => bot.choose(&position, Budget::UNLIMITED),
                _ => entropy_engine::bots::random_move(&position, &mut rng),
            };
            assert!(position.check(mv).is_ok(), "{mv} is not legal");
            position.play_unchecked(mv);
        }
        assert_eq!(bot.expected_score(), None);
    }
}

#[test]
fn a_model_that_is_not_a_policy_is_refused_with_its_path() {
    let error = match make_bot("ppo:model=/nonexistent/ppo.onnx", 1) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("a missing model was accepted"),
    };
    assert!(error.contains("/nonexistent/ppo.onnx"), "{error}");
    let wnet = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/wnet7.onnx");
    assert!(make_bot(&format!("ppo:model={wnet}"), 1).is_err());
}
