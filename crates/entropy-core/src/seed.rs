//! The tree's one seed mixer: every deal, game, role and environment gets an independent random
//! stream from one seed and the numbers that name it.

/// Mixes a seed with further numbers (SplitMix64's finaliser), so that every deal, game and role
/// gets an independent stream from one match seed. Changing it would deal other chips to every
/// recorded match, so it never changes.
pub fn derive_seed(seed: u64, parts: &[u64]) -> u64 {
    parts
        .iter()
        .fold(seed ^ 0x5EED_0FE7_7209_u64, |acc, &part| {
            let mut z = acc.wrapping_add(part).wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_in_another_order_give_another_seed() {
        assert_ne!(derive_seed(1, &[2, 3]), derive_seed(1, &[3, 2]));
        assert_ne!(derive_seed(1, &[0]), derive_seed(1, &[0, 0]));
        assert_eq!(derive_seed(7, &[1, 2]), derive_seed(7, &[1, 2]));
    }
}
