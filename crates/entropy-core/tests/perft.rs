//! Perft vectors: move-sequence counts from fixed positions, chance draws as branches.

use entropy_core::notation::text::parse_position;
use entropy_core::perft::{divide, perft};

#[test]
fn perft_vectors() {
    let path = format!("{}/../../tests/data/perft.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut count = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split(';').collect();
        let position = parse_position(fields[0]).unwrap();
        let depth: u32 = fields[1].parse().unwrap();
        let expected: u64 = fields[2].parse().unwrap();
        assert_eq!(perft(&position, depth), expected, "{line}");
        if depth > 0 && depth <= 3 {
            let total: u64 = divide(&position, depth).iter().map(|d| d.1).sum();
            assert_eq!(total, expected, "divide of {line}");
        }
        count += 1;
    }
    assert!(count >= 50, "only {count} perft vectors");
}
