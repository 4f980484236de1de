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

/// The most slides along one line of seven cells (chips on both ends: 5 + 5; one chip: 6; ...),
/// rounded up.
pub const MAX_LINE_SLIDES: usize = 12;

/// `NTH_SLIDE[n][occupancy][k]`: slide number `k` along the line as `from << 4 | to`, numbered by
/// chip (lowest first), then by destination (lowest first).
static NTH_SLIDE: [[[u8; MAX_LINE_SLIDES]; OCCUPANCIES]; MAX_SIDE + 1] = build_nth_slide();

/// `NTH_BIT[mask][k]`: the position of the `k`-th lowest set bit of a 7-bit mask.
static NTH_BIT: [[u8; MAX_SIDE]; OCCUPANCIES] = build_nth_bit();

const fn build_nth_slide() -> [[[u8; MAX_LINE_SLIDES]; OCCUPANCIES]; MAX_SIDE + 1] {
    let slides = build_slides();
    let mut table = [[[0u8; MAX_LINE_SLIDES]; OCCUPANCIES]; MAX_SIDE + 1];
    let mut n = 0;
    while n <= MAX_SIDE {
        let mut occupancy = 0;
        while occupancy < OCCUPANCIES {
            let mut k = 0;
            let mut p = 0;
            while p < MAX_SIDE {
                let mut q = 0;
                while q < MAX_SIDE {
                    if slides[n][occupancy][p] & (1 << q) != 0 {
                        table[n][occupancy][k] = (p << 4 | q) as u8;
                        k += 1;
                    }
                    q += 1;
                }
                p += 1;
            }
            occupancy += 1;
        }
        n += 1;
    }
    table
}

const fn build_nth_bit() -> [[u8; MAX_SIDE]; OCCUPANCIES] {
    let mut table = [[0u8; MAX_SIDE]; OCCUPANCIES];
    let mut mask = 0;
    while mask < OCCUPANCIES {
        let mut k = 0;
        let mut bit = 0;
        while bit < MAX_SIDE {
            if mask & (1 << bit) != 0 {
                table[mask][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        mask += 1;
    }
    table
}

/// Slide number `k` (below [`slide_count`]) along a line of `n` cells: (from, to) positions.
#[inline]
pub fn nth_slide(n: usize, occupancy: u8, k: usize) -> (usize, usize) {
    let packed = NTH_SLIDE[n][occupancy as usize & (OCCUPANCIES - 1)][k];
    ((packed >> 4) as usize, (packed & 15) as usize)
}

/// The position of the `k`-th lowest set bit (k below the number of set bits) of a 7-bit mask.
#[inline]
pub fn nth_bit(mask: u8, k: usize) -> usize {
    NTH_BIT[mask as usize & (OCCUPANCIES - 1)][k] as usize
}

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

/// A byte of ones, repeated: multiplying byte counts by it gives their prefix sums.
const BYTE_ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte.
const BYTE_HIGHS: u64 = 0x8080_8080_8080_8080;

/// Finds where `index` falls among eight byte-sized counts laid end to end (byte 0 first):
/// returns the byte number `i` and the offset of `index` within count `i`.
///
/// Branch-free: byte `i` of `counts * 0x0101..01` is the prefix sum of counts `0..=i`, and `i`
/// is the number of prefix sums not above `index`. Every prefix sum must stay below 128 (so the
/// bytewise subtraction cannot borrow) and `index` must be below the sum of all counts.
#[inline(always)]
pub fn select_byte(counts: u64, index: u32) -> (usize, u32) {
    let prefix = counts.wrapping_mul(BYTE_ONES);
    debug_assert!(prefix & BYTE_HIGHS == 0 && (index as u64) < prefix >> 56);
    let at_most = ((index as u64 * BYTE_ONES) | BYTE_HIGHS).wrapping_sub(prefix) & BYTE_HIGHS;
    // Counting the flags by multiply-add: baseline x86-64 has no popcount instruction.
    let i = byte_sum(at_most >> 7) as usize;
    // Byte i of `prefix << 8` is the sum of the counts before count i.
    let before = ((prefix << 8) >> (8 * i)) as u32 & 0xFF;
    (i, index - before)
}

/// The sum of eight byte-sized counts (the total below 256).
#[inline(always)]
pub fn byte_sum(counts: u64) -> u32 {
    (counts.wrapping_mul(BYTE_ONES) >> 56) as u32
}

/// The number of set bits of each byte, bytewise.
#[inline(always)]
pub fn byte_popcounts(x: u64) -> u64 {
    let x = x - ((x >> 1) & 0x5555_5555_5555_5555);
    let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    (x + (x >> 4)) & 0x0F0F_0F0F_0F0F_0F0F
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
    fn nth_tables_follow_the_masks() {
        for n in 0..=MAX_SIDE {
            for occupancy in 0..(1u16 << n) as u8 {
                let listed: Vec<(usize, usize)> = bits(occupancy)
                    .flat_map(|p| bits(slides(n, occupancy, p)).map(move |q| (p, q)))
                    .collect();
                assert!(listed.len() <= MAX_LINE_SLIDES);
                assert_eq!(listed.len(), slide_count(n, occupancy) as usize);
                for (k, &pair) in listed.iter().enumerate() {
                    assert_eq!(nth_slide(n, occupancy, k), pair);
                }
            }
        }
        for mask in 0..128u8 {
            for (k, bit) in bits(mask).enumerate() {
                assert_eq!(nth_bit(mask, k), bit);
            }
        }
    }

    #[test]
    fn select_byte_finds_the_count() {
        let counts: [u8; 8] = [3, 0, 5, 1, 0, 0, 12, 0];
        let packed = u64::from_le_bytes(counts);
        assert_eq!(byte_sum(packed), 21);
        let mut index = 0;
        for (i, &count) in counts.iter().enumerate() {
            for offset in 0..count as u32 {
                assert_eq!(select_byte(packed, index), (i, offset));
                index += 1;
            }
        }
        assert_eq!(byte_popcounts(0x00FF_0103_0000_8001), 0x0008_0102_0000_0101);
    }

    #[test]
    fn bits_iterates_in_order() {
        assert_eq!(bits(0b1010_0101).collect::<Vec<_>>(), vec![0, 2, 5, 7]);
    }
}
