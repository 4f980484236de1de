//! The transposition table: search results by Zobrist key, with a narrow probe/store interface.

use entropy_core::{Cell, Move, Phase, Position};

/// What a stored value says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least the stored value (the search failed high).
    Lower,
    /// The true value is at most the stored value (the search failed low).
    Upper,
}

/// A probe's answer.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Entry {
    /// The stored value.
    pub value: f64,
    /// The depth it was searched to.
    pub depth: u32,
    /// What kind of bound it is.
    pub bound: Bound,
    /// The best move found, if any.
    pub best: Option<Move>,
}

/// One slot: 16 bytes.
#[derive(Copy, Clone, Default)]
struct Slot {
    key: u64,
    value: f32,
    depth: u8,
    /// Bound in the low two bits (0 = empty), the search generation above.
    flags: u8,
    /// The best move's code in the low 12 bits, the table's epoch when stored in the top 4.
    mv: u16,
}

/// Bits of [`Slot::mv`] that hold the move's code (the largest code is 3,184).
const MOVE_BITS: u16 = 12;

/// Epochs a table counts through before it must be filled with empty slots again.
const EPOCHS: u16 = 1 << (16 - MOVE_BITS);

impl Slot {
    /// Whether the slot holds an entry stored since the table was last cleared.
    #[inline(always)]
    fn is_live(&self, epoch: u16) -> bool {
        self.flags & 3 != 0 && self.mv >> MOVE_BITS == epoch
    }
}

/// A fixed-size table of search results, replaced by depth and age.
pub struct Table {
    slots: Vec<Slot>,
    generation: u8,
    /// Advanced by [`Table::clear`]: a slot stored in another epoch counts as empty.
    epoch: u16,
}

impl Table {
    /// A table using about `mebibytes` MiB (at least one slot).
    pub fn new(mebibytes: usize) -> Table {
        let count = (mebibytes * 1024 * 1024 / std::mem::size_of::<Slot>()).max(1);
        Table {
            slots: vec![Slot::default(); count],
            generation: 0,
            epoch: 0,
        }
    }

    /// Forgets everything. Each slot carries the epoch it was stored in, so a clear only moves
    /// to the next epoch; the slots are emptied for real once every [`EPOCHS`] clears, before
    /// an epoch could come round again. Filling 16 MiB every time took a tenth of the bench.
    pub fn clear(&mut self) {
        self.epoch = (self.epoch + 1) % EPOCHS;
        if self.epoch == 0 {
            self.slots.fill(Slot::default());
        }
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3F;
    }

    fn index(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the table without a division.
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry for this position, if stored.
    #[inline]
    pub fn probe(&self, position: &Position) -> Option<Entry> {
        let slot = self.slots[self.index(position.hash())];
        if !slot.is_live(self.epoch) || slot.key != position.hash() {
            return None;
        }
        let bound = match slot.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            value: slot.value as f64,
            depth: slot.depth as u32,
            bound,
            best: decode(slot.mv & ((1 << MOVE_BITS) - 1), position),
        })
    }

    /// Stores a result, replacing an entry searched less deep or in an older search.
    #[inline]
    pub fn store(
        &mut self,
        position: &Position,
        depth: u32,
        value: f64,
        bound: Bound,
        best: Option<Move>,
    ) {
        let index = self.index(position.hash());
        let slot = &mut self.slots[index];
        let old = slot.flags >> 2 != self.generation;
        if slot.is_live(self.epoch)
            && slot.key != position.hash()
            && !old
            && (slot.depth as u32) > depth
        {
            return;
        }
        let bound = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *slot = Slot {
            key: position.hash(),
            value: value as f32,
            depth: depth.min(255) as u8,
            flags: bound | self.generation << 2,
            mv: best.map_or(0, encode) | self.epoch << MOVE_BITS,
        };
    }
}

fn encode(mv: Move) -> u16 {
    match mv {
        Move::Pass => 1,
        Move::Place { cell, .. } => 2 + cell.index() as u16,
        Move::Slide { from, to } => 64 + (from.index() as u16) * 64 + to.index() as u16,
        Move::Draw(_) => 0,
    }
}

fn decode(code: u16, position: &Position) -> Option<Move> {
    let cell = |i: u16| Cell::from_index(i as usize);
    let mv = match (code, position.phase()) {
        (1, Phase::Slide) => Move::Pass,
        (2..=50, Phase::Place(colour)) => Move::Place {
            colour,
            cell: cell(code - 2)?,
        },
        (64.., Phase::Slide) => Move::Slide {
            from: cell((code - 64) / 64)?,
            to: cell((code - 64) % 64)?,
        },
        _ => return None,
    };
    // A key collision could hand back a move of another position: check it.
    position.check(mv).ok().map(|()| mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_core::notation::text::parse_position;

    #[test]
    fn stores_and_probes() {
        let mut table = Table::new(1);
        let pos = parse_position("1....../......./......./......./......./......./....... slide")
            .unwrap();
        assert_eq!(table.probe(&pos), None);
        let mv = pos.legal_moves()[3];
        table.store(&pos, 3, 12.5, Bound::Lower, Some(mv));
        let entry = table.probe(&pos).unwrap();
        assert_eq!(
            (entry.value, entry.depth, entry.bound, entry.best),
            (12.5, 3, Bound::Lower, Some(mv))
        );
        let placing =
            parse_position("1....../......./......./......./......./......./....... 2").unwrap();
        let place = placing.legal_moves()[7];
        table.store(&placing, 2, 4.0, Bound::Exact, Some(place));
        assert_eq!(table.probe(&placing).unwrap().best, Some(place));
        table.clear();
        assert_eq!(table.probe(&placing), None);
    }

    #[test]
    fn move_codes_leave_room_for_the_epoch() {
        let last = Cell::from_index(entropy_core::GRID_CELLS - 1).unwrap();
        let first = Cell::from_index(0).unwrap();
        for mv in [
            Move::Slide {
                from: last,
                to: first,
            },
            Move::Slide {
                from: last,
                to: last,
            },
        ] {
            assert!(encode(mv) < 1 << MOVE_BITS);
        }
    }

    #[test]
    fn every_clear_forgets_everything_even_when_epochs_come_round() {
        let mut table = Table::new(1);
        let pos = parse_position("1....../......./......./......./......./......./....... slide")
            .unwrap();
        let deep = pos.legal_moves()[0];
        for clear in 0..3 * EPOCHS as usize {
            assert_eq!(table.probe(&pos), None, "after clear {clear}");
            // A deep entry must not keep a shallower one out after a clear either.
            table.store(&pos, 9, 1.0, Bound::Exact, Some(deep));
            table.clear();
            table.store(&pos, 1, 2.0, Bound::Upper, None);
            assert_eq!(table.probe(&pos).map(|e| e.depth), Some(1));
            table.clear();
        }
    }
}
