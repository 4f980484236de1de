//! Per-line tables for sliding: where a chip can go within one row or column.
//!
//! A line of `n` cells (the board side) is described by its occupancy, a bit per cell. The tables
//! are built at compile time by `const fn`s from the definition (walk outwards until a chip or the
//! end of the line) and checked against a walk on the board in the position tests.

use crate::cell::MAX_SIDE;

/// Number of distinct occupancies of a line of at most seven cells.
const OCCUPANCIES: usize = 1 << MAX_SIDE;

/// `SLIDES[n][occupancy][p]`: the cells (as a bit mask) that the chip at `p` can slide to in a
/// line of `n` cells with this occupancy; 0 where `p` holds no chip or lies past the end.
static SLIDES: [[[u8; MAX_SIDE]; OCCUPANCIES]; MAX_SIDE + 1] = build_slides();

/// `SLIDE_COUNTS[n][occupancy]`: the number of slides along a line of `n` cells.
static SLIDE_COUNTS: [[u8; OCCUPANCIES]; MAX_SIDE + 1] = build_counts();

const fn slide_mask(n: usize, occupancy: usize, p: usize) -> u8 {
    if p >= n || occupancy & (1 << p) == 0 {
        return 0;
    }
    let mut mask = 0u8;
    let mut q = p;
    while q > 0 && occupancy & (1 << (q - 1)) == 0 {
        q -= 1;
        mask |= 1 << q;
    }
    q = p + 1;
    while q < n && occupancy & (1 << q) == 0 {
        mask |= 1 << q;
        q += 1;
    }
    mask
}

const fn build_slides() -> [[[u8; MAX_SIDE]; OCCUPANCIES]; MAX_SIDE + 1] {
    let mut table = [[[0u8; MAX_SIDE]; OCCUPANCIES]; MAX_SIDE + 1];
    let mut n = 0;
    while n <= MAX_SIDE {
        let mut occupancy = 0;
        while occupancy < (1 << n) {
            let mut p = 0;
            while p < MAX_SIDE {
                table[n][occupancy][p] = slide_mask(n, occupancy, p);
                p += 1;
            }
            occupancy += 1;
        }
        n += 1;
    }
    table
}

const fn build_counts() -> [[u8; OCCUPANCIES]; MAX_SIDE + 1] {
    let slides = build_slides();
    let mut table = [[0u8; OCCUPANCIES]; MAX_SIDE + 1];
    let mut n = 0;
    while n <= MAX_SIDE {
        let mut occupancy = 0;
        while occupancy < OCCUPANCIES {
            let mut count = 0;
            let mut p = 0;
            while p < MAX_SIDE {
                count += slides[n][occupancy][p].count_ones();
                p += 1;
            }
            table[n][occupancy] = count as u8;
            occupancy += 1;
        }
        n += 1;
    }
    table
}

/// The positions the chip at `p` can slide to along a line of `n` cells with this occupancy.
#[inline]
pub fn slides(n: usize, occupancy: u8, p: usize) -> u8 {
    SLIDES[n][occupancy as usize & (OCCUPANCIES - 1)][p]
}

/// The number of slides along a line of `n` cells with this occupancy.
#[inline]
pub fn slide_count(n: usize, occupancy: u8) -> u32 {
    SLIDE_COUNTS[n][occupancy as usize & (OCCUPANCIES - 1)] as u32
}

/// Iterates over the set bits of a mask, lowest first.
#[inline]
pub fn bits(mut mask: u8) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let bit = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(bit)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slides_stop_at_chips_and_ends() {
        // Chips at 1 and 4 of 7: the chip at 1 reaches 0, 2, 3; the one at 4 reaches 2, 3, 5, 6.
        let occupancy = 0b001_0010;
        assert_eq!(slides(7, occupancy, 1), 0b000_1101);
        assert_eq!(slides(7, occupancy, 4), 0b110_1100);
        assert_eq!(slides(7, occupancy, 0), 0);
        assert_eq!(slide_count(7, occupancy), 7);
        // On a line of 5 cells the chip at 4 reaches only 2 and 3.
        assert_eq!(slides(5, occupancy, 4), 0b000_1100);
    }

    #[test]
    fn full_and_empty_lines_have_no_slides() {
        for n in 0..=MAX_SIDE {
            assert_eq!(slide_count(n, 0), 0);
            assert_eq!(slide_count(n, ((1u16 << n) - 1) as u8), 0);
        }
    }

    #[test]
    fn bits_iterates_in_order() {
        assert_eq!(bits(0b1010_0101).collect::<Vec<_>>(), vec![0, 2, 5, 7]);
    }
}
