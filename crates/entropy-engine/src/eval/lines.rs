//! Per-line feature tables: one entry per line key of an N-cell line. The 7-cell table (16 MiB)
//! is made by the build script and compiled in, so a fresh process pays nothing for it (built on
//! first use it cost 0.1-0.3 s, most of a short game's first move); other sizes are built on
//! first use.

use std::sync::OnceLock;

use entropy_core::MAX_SIDE;

pub use super::line_entry::{cover, gap_pairs, open_windows, LineEntry};

/// Every 7-cell line key's [`LineEntry`], packed by [`LineEntry::to_bits`], little-endian.
static SEVEN: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/line_entries_7.bin"));

/// The per-line features of every line key of an N-cell line.
pub struct LineTables {
    side: usize,
    /// The entries packed by [`LineEntry::to_bits`], eight bytes each, little-endian.
    entries: &'static [u8],
}

impl LineTables {
    /// The entries of every key of a `side`-cell line, computed here.
    fn build(side: usize) -> LineTables {
        let entries = super::line_entry::packed_table(side);
        // Built once per side for the life of the process, as the compiled-in table lives.
        LineTables {
            side,
            entries: Box::leak(entries.into_boxed_slice()),
        }
    }

    /// The side of the lines this table describes.
    pub fn side(&self) -> usize {
        self.side
    }

    /// Every per-line feature of a line key.
    #[inline]
    pub fn entry(&self, key: u32) -> LineEntry {
        let at = 8 * key as usize;
        let bytes = self.entries[at..at + 8]
            .try_into()
            .expect("eight bytes per entry");
        LineEntry::from_bits(u64::from_le_bytes(bytes))
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

static TABLES: [OnceLock<LineTables>; MAX_SIDE + 1] = [const { OnceLock::new() }; MAX_SIDE + 1];

/// The tables for lines of `side` cells: compiled in for 7 cells, built on first use for others.
pub fn line_tables(side: usize) -> &'static LineTables {
    TABLES[side].get_or_init(|| {
        if side == 7 {
            LineTables {
                side,
                entries: SEVEN,
            }
        } else {
            LineTables::build(side)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_core::score::naive;

    #[test]
    fn an_entry_is_one_word() {
        assert_eq!(std::mem::size_of::<LineEntry>(), 8);
    }

    #[test]
    fn the_compiled_in_table_is_the_built_one() {
        // The slow twin: every 7-cell key computed here, against the build script's file.
        let built = LineTables::build(7);
        assert_eq!(SEVEN.len(), 8 << 21);
        assert!(
            SEVEN == built.entries,
            "line_entries_7.bin differs from LineEntry::of"
        );
        let tables = line_tables(7);
        for key in [
            0,
            1,
            0o1111111,
            0o1234567,
            0o7654321,
            0o1010101,
            (1 << 21) - 1,
        ] {
            let cells = naive::decode_line(key);
            assert_eq!(
                tables.entry(key),
                LineEntry::of(key, &cells[..7]),
                "{key:o}"
            );
        }
    }

    #[test]
    fn entries_pack_into_a_word_and_back() {
        for key in (0..1u32 << 21).step_by(997) {
            let cells = naive::decode_line(key);
            let entry = LineEntry::of(key, &cells[..7]);
            assert_eq!(LineEntry::from_bits(entry.to_bits()), entry);
        }
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
