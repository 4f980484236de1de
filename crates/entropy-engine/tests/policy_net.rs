//! The policy network in plain Rust (`learned::policy_net`) against PyTorch: in every position
//! of `tests/data/policy-net-golden.txt` (written with the weights `tests/data/policy-net.bin` by
//! `python python/tests/test_policy_net_export.py crates/entropy-engine/tests/data`: a small
//! evals policy with every parameter random), Rust picks PyTorch's action with PyTorch's logit,
//! and gives the same mean legal logit and value.

use entropy_core::notation::text::parse_position;
use entropy_engine::learned::policy_net::{PolicyNet, ILLEGAL};

#[test]
fn the_rust_forward_pass_gives_pytorchs_moves_logits_and_values() {
    let net = PolicyNet::from_bytes(include_bytes!("data/policy-net.bin")).unwrap();
    assert!(net.provenance().contains("made by: python"));
    let golden = include_str!("data/policy-net-golden.txt");
    let mut positions = 0;
    for line in golden.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [position, action, logit, mean, value] = fields[..] else {
            panic!("a golden line of five fields: {line:?}");
        };
        let position = parse_position(position).unwrap();
        let out = net.evaluate(&position).unwrap();
        let (best, best_logit) = out
            .logits
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .unwrap();
        let legal: Vec<f32> = out
            .logits
            .iter()
            .copied()
            .filter(|&l| l > ILLEGAL)
            .collect();
        let legal_mean = legal.iter().sum::<f32>() / legal.len() as f32;
        let close =
            |a: f32, b: &str| (a - b.parse::<f32>().unwrap()).abs() <= 1e-3 * (1.0 + a.abs());
        assert_eq!(best.to_string(), action, "{line}");
        assert!(close(*best_logit, logit), "logit {best_logit}: {line}");
        assert!(close(legal_mean, mean), "mean {legal_mean}: {line}");
        assert!(close(out.value, value), "value {}: {line}", out.value);
        positions += 1;
    }
    assert!(positions > 100, "{positions} positions");
}
