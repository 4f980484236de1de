//! The policy network in plain Rust (`learned::policy_net`) against PyTorch: in every position
//! of `tests/data/policy-net-golden.txt` (written with the weights `tests/data/policy-net.bin` by
//! `python python/tests/test_policy_net_export.py crates/entropy-engine/tests/data`: a small
//! policy over the read observation with every parameter random, in games against random and
//! greedy, the line ending `greedy` where its opponent read as greedy), Rust picks PyTorch's
//! action with PyTorch's logit, and gives the same mean legal logit and value.

use entropy_core::notation::text::parse_position;
use entropy_engine::learned::policy_net::{PolicyNet, PolicyOutput, ILLEGAL};

/// The action with the highest logit, and its logit.
fn best(out: &PolicyOutput) -> (usize, f32) {
    let (action, logit) = out
        .logits
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .unwrap();
    (action, *logit)
}

/// Whether Rust's `a` is PyTorch's printed `b` within 1e-3 relative.
fn close(a: f32, b: &str) -> bool {
    (a - b.parse::<f32>().unwrap()).abs() <= 1e-3 * (1.0 + a.abs())
}

#[test]
fn the_rust_forward_pass_gives_pytorchs_moves_logits_and_values() {
    let net = PolicyNet::from_bytes(include_bytes!("data/policy-net.bin")).unwrap();
    assert!(net.provenance().contains("made by: python"));
    let golden = include_str!("data/policy-net-golden.txt");
    let (mut positions, mut read) = (0, 0);
    for line in golden.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let (position, action, logit, mean, value, greedy) = match fields[..] {
            [p, a, l, m, v] => (p, a, l, m, v, false),
            [p, a, l, m, v, "greedy"] => (p, a, l, m, v, true),
            _ => panic!("a golden line of five fields (and `greedy`): {line:?}"),
        };
        let position = parse_position(position).unwrap();
        read += usize::from(greedy);
        let out = net.evaluate_reading(&position, greedy).unwrap();
        let (best, best_logit) = best(&out);
        let legal: Vec<f32> = out
            .logits
            .iter()
            .copied()
            .filter(|&l| l > ILLEGAL)
            .collect();
        let legal_mean = legal.iter().sum::<f32>() / legal.len() as f32;
        assert_eq!(best.to_string(), action, "{line}");
        assert!(close(best_logit, logit), "logit {best_logit}: {line}");
        assert!(close(legal_mean, mean), "mean {legal_mean}: {line}");
        assert!(close(out.value, value), "value {}: {line}", out.value);
        positions += 1;
    }
    assert!(positions > 100, "{positions} positions");
    // The reading's terms are tested too: Chaos's decisions against greedy, once read.
    assert!(
        read > 20,
        "{read} of {positions} positions read the opponent as greedy"
    );
}

/// The bot `policy` over the golden file's network plays, in every golden position, the move
/// of PyTorch's action, and whole 7x7 games in both roles with legal moves only.
#[test]
fn the_policy_bot_plays_pytorchs_move() {
    use entropy_core::{Phase, Position, Role, Size};
    use entropy_engine::bots::random_move;
    use entropy_engine::learned::actions::move_of;
    use entropy_engine::learned::policy_move_reading;
    use entropy_engine::{make_bot, Budget};
    use rand::SeedableRng;

    let net = PolicyNet::from_bytes(include_bytes!("data/policy-net.bin")).unwrap();
    for line in include_str!("data/policy-net-golden.txt").lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let position = parse_position(fields[0]).unwrap();
        let action: usize = fields[1].parse().unwrap();
        let greedy = fields.last() == Some(&"greedy");
        assert_eq!(
            policy_move_reading(&net, &position, greedy),
            move_of(&position, action),
            "{line}"
        );
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/policy-net.bin");
    let mut bot = make_bot(&format!("policy:model={path}"), 1).unwrap();
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(2);
    for role in [Role::Order, Role::Chaos] {
        let mut position = Position::new(Size::SEVEN);
        bot.new_game(Size::SEVEN, role);
        while !position.is_over() {
            let mv = match position.phase() {
                Phase::Draw => random_move(&position, &mut rng),
                _ if position.to_move() == Some(role) => bot.choose(&position, Budget::UNLIMITED),
                _ => random_move(&position, &mut rng),
            };
            position.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        }
    }
}

/// The shipped network (`weights/policy7.bin`) picks PyTorch's action with PyTorch's logit in
/// every position of `weights/policy7-golden.txt` (written by `python -m
/// hyle_entropy.ppo_policy runs/distill/policy.pt --golden FILE` from the same policy).
#[test]
fn the_shipped_policy_plays_pytorchs_moves() {
    let net = PolicyNet::shipped();
    assert!(net
        .provenance()
        .contains("made by: python -m hyle_entropy.distill_policy"));
    let mut positions = 0;
    for line in include_str!("../weights/policy7-golden.txt").lines() {
        let (position, action, logit, greedy) = match line.split('\t').collect::<Vec<_>>()[..] {
            [p, a, l] => (p, a, l, false),
            [p, a, l, "greedy"] => (p, a, l, true),
            _ => panic!("a golden line of three fields (and `greedy`): {line:?}"),
        };
        let out = net
            .evaluate_reading(&parse_position(position).unwrap(), greedy)
            .unwrap();
        let (best, best_logit) = best(&out);
        assert_eq!(best.to_string(), action, "{line}");
        assert!(close(best_logit, logit), "logit {best_logit}: {line}");
        positions += 1;
    }
    assert!(positions > 100, "{positions} positions");
}
