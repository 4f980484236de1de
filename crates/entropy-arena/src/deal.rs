//! Deals: the order in which the bag gives out its chips. Both games of a paired deal use the
//! same order, so luck cancels out of the paired difference.

use entropy_core::{Colour, Size};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The full bag of an Entropy(N) game, shuffled by the seed: chip `i` is drawn on turn `i + 1`.
pub fn shuffled_bag(size: Size, seed: u64) -> Vec<Colour> {
    let mut chips: Vec<Colour> = size
        .game_colours()
        .flat_map(|colour| std::iter::repeat_n(colour, size.side()))
        .collect();
    chips.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
    chips
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deal_is_a_permutation_of_the_bag_fixed_by_its_seed() {
        let deal = shuffled_bag(Size::SEVEN, 9);
        assert_eq!(deal.len(), 49);
        for colour in Colour::ALL {
            assert_eq!(deal.iter().filter(|&&c| c == colour).count(), 7);
        }
        assert_eq!(deal, shuffled_bag(Size::SEVEN, 9));
        assert_ne!(deal, shuffled_bag(Size::SEVEN, 10));
        assert_eq!(shuffled_bag(Size::FIVE, 1).len(), 25);
    }
}
