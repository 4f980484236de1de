//! Per-line feature tables: one entry per line key of an N-cell line, built once on first use
//! from the score table (about 0.1 s for N = 7 in a release build).

use std::sync::OnceLock;

use entropy_core::score::{line_score, naive, BITS_PER_CELL};
use entropy_core::MAX_SIDE;

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

/// The per-line features of every line key of an N-cell line.
pub struct LineTables {
    side: usize,
    entries: Vec<LineEntry>,
}

impl LineTables {
    fn build(side: usize) -> LineTables {
        let keys = 1usize << (BITS_PER_CELL as usize * side);
        let entries = (0..keys as u32)
            .map(|key| {
                let cells = naive::decode_line(key);
                LineEntry::of(key, &cells[..side])
            })
            .collect();
        LineTables { side, entries }
    }

    /// The side of the lines this table describes.
    pub fn side(&self) -> usize {
        self.side
    }

    /// Every per-line feature of a line key.
    #[inline]
    pub fn entry(&self, key: u32) -> LineEntry {
        self.entries[key as usize]
    }

    /// See [`LineEntry::potential`].
    #[inline]
    pub fn potential(&self, key: u32) -> u32 {
        self.entry(key).potential as u32
    }

    /// See [`LineEntry::sandwiches`].
    #[inline]
    pub fn sandwiches(&self, key: u32) -> u32 {
        self.entry(key).sandwiches as u32
    }

    /// See [`LineEntry::cover`].
    #[inline]
    pub fn cover(&self, key: u32) -> u8 {
        self.entry(key).cover
    }

    /// See [`LineEntry::open_windows`].
    #[inline]
    pub fn open_windows(&self, key: u32) -> u32 {
        self.entry(key).open_windows as u32
    }

    /// See [`LineEntry::gap_pairs`].
    #[inline]
    pub fn gap_pairs(&self, key: u32) -> u32 {
        self.entry(key).gap_pairs as u32
    }
}

impl LineEntry {
    /// The features of the line `key`, whose cells are `cells`.
    fn of(key: u32, cells: &[u8]) -> LineEntry {
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

static TABLES: [OnceLock<LineTables>; MAX_SIDE + 1] = [const { OnceLock::new() }; MAX_SIDE + 1];

/// The tables for lines of `side` cells, built on first use.
pub fn line_tables(side: usize) -> &'static LineTables {
    TABLES[side].get_or_init(|| LineTables::build(side))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_one_word() {
        assert_eq!(std::mem::size_of::<LineEntry>(), 8);
    }

    #[test]
    fn tables_follow_their_definitions() {
        let tables = line_tables(5);
        let key = |cells: &[u8]| {
            cells
                .iter()
                .enumerate()
                .fold(0u32, |k, (i, &c)| k | (c as u32) << (3 * i))
        };
        // 1 . 1 2 2: the gap is a sandwich; 22 and the 1s around the gap once filled.
        let k = key(&[1, 0, 1, 2, 2]);
        assert_eq!(tables.sandwiches(k), 1);
        assert_eq!(tables.cover(k), 0b11000);
        // Filling the gap: colour 1 makes 111 (7 - 0 = 7 more, since 2 2 already scores 2):
        // line 1 1 1 2 2 = 7 + 2 = 9, gain 7; any other colour c makes 1 c 1: gain 3, or with
        // c = 2, 1 2 1 2 2 = 3 + 3 + 2 = 8, gain 6.
        assert_eq!(tables.potential(k), 7 + 6 + 3 + 3 + 3);
        assert_eq!(cover(&[1, 2, 1, 0, 3]), 0b00111);
        // 1 . 1 2 2: windows 1.1 (open, matched) and 1.12 2? no; .122? no mirror pair of one
        // colour... 1.122 has (1,2) mismatched.
        assert_eq!(open_windows(&[1, 0, 1, 2, 2]), 1);
        assert_eq!(open_windows(&[1, 0, 0, 0, 1]), 1);
        assert_eq!(gap_pairs(&[1, 0, 1, 0, 0, 1, 0]), 10 + 5);
        assert_eq!(cover(&[1, 2, 3, 0, 3]), 0);
    }
}
