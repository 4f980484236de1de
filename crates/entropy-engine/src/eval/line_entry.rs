//! One line's features ([`LineEntry`]), from its cells alone. Shared with the crate's build
//! script, which tabulates them for every 7-cell line key (`line_entries_7.bin`), so this file
//! uses nothing but `entropy_core` and `std`.

use entropy_core::score::{line_score, naive, BITS_PER_CELL};

/// Features of one line that depend on nothing else, packed together so that a line costs
/// one memory access: the tables are too large for the processor's caches, and five separate
/// arrays cost five misses per line.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[repr(C, align(8))]
pub struct LineEntry {
    /// Sum over the line's empty cells and the game's colours of the score a chip there would add.
    pub potential: u16,
    /// Empty cells between two chips of one colour (`A.A`): filled by any chip they score 3.
    pub sandwiches: u8,
    /// Bit `p` set when the chip at `p` lies in a palindromic run of length two or more.
    pub cover: u8,
    /// Windows of three or more cells that can still become palindromes (no mirrored pair of
    /// different colours) and already hold a mirrored pair of one colour.
    pub open_windows: u8,
    /// The bot specification's pattern potential: pairs of one colour with only empty cells
    /// between them, 10 points one cell apart, 5 two apart, 2 three apart.
    pub gap_pairs: u8,
}

impl LineEntry {
    /// The features of the line `key`, whose cells are `cells`.
    pub fn of(key: u32, cells: &[u8]) -> LineEntry {
        let side = cells.len();
        let base = line_score(key);
        let mut potential = 0;
        let mut sandwiches = 0;
        for p in 0..side {
            if cells[p] != 0 {
                continue;
            }
            for colour in 1..=side as u32 {
                potential += line_score(key | colour << (BITS_PER_CELL * p as u32)) - base;
            }
            if p > 0 && p + 1 < side && cells[p - 1] != 0 && cells[p - 1] == cells[p + 1] {
                sandwiches += 1;
            }
        }
        LineEntry {
            potential: potential as u16,
            sandwiches,
            cover: cover(cells),
            open_windows: open_windows(cells),
            gap_pairs: gap_pairs(cells),
        }
    }

    /// The entry packed into one word, as the table file stores it (little-endian).
    pub fn to_bits(self) -> u64 {
        u64::from(self.potential)
            | u64::from(self.sandwiches) << 16
            | u64::from(self.cover) << 24
            | u64::from(self.open_windows) << 32
            | u64::from(self.gap_pairs) << 40
    }

    /// The entry of [`LineEntry::to_bits`].
    #[inline(always)]
    pub fn from_bits(bits: u64) -> LineEntry {
        LineEntry {
            potential: bits as u16,
            sandwiches: (bits >> 16) as u8,
            cover: (bits >> 24) as u8,
            open_windows: (bits >> 32) as u8,
            gap_pairs: (bits >> 40) as u8,
        }
    }
}

/// Windows of three or more cells with no mirrored pair of different colours and at least one
/// mirrored pair of the same colour.
pub fn open_windows(cells: &[u8]) -> u8 {
    let n = cells.len();
    let mut count = 0;
    for length in 3..=n {
        for start in 0..=n - length {
            let window = &cells[start..start + length];
            let mut matched = false;
            let mut open = true;
            for i in 0..length / 2 {
                let (a, b) = (window[i], window[length - 1 - i]);
                if a != 0 && b != 0 {
                    if a == b {
                        matched = true;
                    } else {
                        open = false;
                        break;
                    }
                }
            }
            count += u8::from(open && matched);
        }
    }
    count
}

/// Pairs of one colour with one, two or three empty cells between them, weighted 10, 5, 2.
pub fn gap_pairs(cells: &[u8]) -> u8 {
    let mut total = 0u32;
    for i in 0..cells.len() {
        if cells[i] == 0 {
            continue;
        }
        for gap in 1..=3 {
            let j = i + gap + 1;
            if j < cells.len() && cells[j] == cells[i] && cells[i + 1..j].iter().all(|&c| c == 0) {
                total += [10, 5, 2][gap - 1];
            }
        }
    }
    total.min(255) as u8
}

/// The cells that lie in some palindromic run of length two or more, by centre expansion.
pub fn cover(cells: &[u8]) -> u8 {
    let n = cells.len() as isize;
    let mut mask = 0u8;
    for centre in 0..(2 * n - 1) {
        let (mut left, mut right) = (centre / 2, centre / 2 + centre % 2);
        while left >= 0 && right < n {
            let (a, b) = (cells[left as usize], cells[right as usize]);
            if a == 0 || a != b {
                break;
            }
            if right > left {
                for p in left..=right {
                    mask |= 1 << p;
                }
            }
            left -= 1;
            right += 1;
        }
    }
    mask
}

/// Every key of a `side`-cell line, its entry packed by [`LineEntry::to_bits`], eight bytes
/// each, little-endian: what the build script writes for 7 cells and what other sizes build on
/// first use.
pub fn packed_table(side: usize) -> Vec<u8> {
    let keys = 1u32 << (BITS_PER_CELL as usize * side);
    (0..keys)
        .flat_map(|key| {
            let cells = naive::decode_line(key);
            LineEntry::of(key, &cells[..side]).to_bits().to_le_bytes()
        })
        .collect()
}
