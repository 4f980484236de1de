//! The evaluation cache: leaf evaluations by Zobrist key. Most nodes of a search are leaves,
//! and about a quarter of them repeat within a search (Star2 probes a grandchild, then searches
//! it again with another window; iterative deepening revisits), so remembering them saves a
//! quarter of the evaluation's time. The evaluation is a function of the position alone, so a
//! cached value is the value the evaluation would return: the search is unchanged.

use entropy_core::Position;

/// Entries in the cache: 16 bytes each, 1 MiB in all (measured on the bench: 2^13 to 2^19
/// entries all help; 2^15 to 2^17 the most).
const ENTRIES: usize = 1 << 16;

/// A direct-mapped table of evaluations, keyed by the full 64-bit Zobrist key.
pub struct EvalCache {
    slots: Vec<(u64, f64)>,
}

impl Default for EvalCache {
    fn default() -> EvalCache {
        // Key 0 with a NaN value marks an empty slot: a lookup compares keys and never accepts
        // a NaN as an evaluation, so even a position whose key is 0 is only ever computed.
        EvalCache {
            slots: vec![(0, f64::NAN); ENTRIES],
        }
    }
}

impl EvalCache {
    /// Forgets every stored evaluation.
    pub fn clear(&mut self) {
        self.slots.fill((0, f64::NAN));
    }

    /// The evaluation of `position`, from the cache or computed by `evaluate` and stored.
    #[inline]
    pub fn get_or_insert(&mut self, position: &Position, evaluate: impl FnOnce() -> f64) -> f64 {
        let key = position.hash();
        let slot = &mut self.slots[key as usize & (ENTRIES - 1)];
        if slot.0 == key && !slot.1.is_nan() {
            return slot.1;
        }
        let value = evaluate();
        *slot = (key, value);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_core::{Move, Size};

    #[test]
    fn a_stored_evaluation_comes_back_and_only_for_its_position() {
        let mut cache = EvalCache::default();
        let start = Position::new(Size::SEVEN);
        let mut other = start;
        other.play_unchecked(Move::Draw(entropy_core::Colour::ALL[0]));
        assert_eq!(cache.get_or_insert(&start, || 1.5), 1.5);
        assert_eq!(cache.get_or_insert(&start, || unreachable!()), 1.5);
        assert_eq!(cache.get_or_insert(&other, || 2.5), 2.5);
        cache.clear();
        assert_eq!(cache.get_or_insert(&start, || 3.5), 3.5);
    }
}
