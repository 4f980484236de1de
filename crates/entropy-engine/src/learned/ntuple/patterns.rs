//! Line patterns: a line's contents up to renaming its colours and reading it backwards, as one
//! dense id per line key (the n-tuple evaluation's table index, and the lines observation's).

use std::sync::OnceLock;

/// The patterns of lines of one length: a dense id for every line key.
#[derive(Debug)]
pub struct LinePatterns {
    side: usize,
    /// Pattern id of every line key (`8^side` keys).
    ids: Vec<u16>,
    /// How many patterns there are.
    count: usize,
}

impl LinePatterns {
    /// The pattern id of a line key.
    #[inline]
    pub fn id(&self, key: u32) -> usize {
        self.ids[key as usize] as usize
    }

    /// The number of patterns.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The line length.
    pub fn side(&self) -> usize {
        self.side
    }
}

/// A line's cells with colours renamed 1, 2, .. in order of first appearance, as a line key.
fn relabelled(cells: impl Iterator<Item = u32>) -> u32 {
    let mut names = [0u32; 8];
    let mut next = 1;
    let mut key = 0;
    for (i, cell) in cells.enumerate() {
        let name = if cell == 0 {
            0
        } else {
            if names[cell as usize] == 0 {
                names[cell as usize] = next;
                next += 1;
            }
            names[cell as usize]
        };
        key |= name << (3 * i);
    }
    key
}

/// The canonical key of a line: colours renamed, the smaller of both directions. This is the
/// slow, obviously correct definition; [`LinePatterns`] tabulates it.
pub fn canonical_line(key: u32, side: usize) -> u32 {
    let cell = |i: usize| (key >> (3 * i)) & 7;
    let forward = relabelled((0..side).map(cell));
    let backward = relabelled((0..side).rev().map(cell));
    forward.min(backward)
}

fn build_patterns(side: usize) -> LinePatterns {
    let keys = 1usize << (3 * side);
    let canonical: Vec<u32> = (0..keys as u32).map(|k| canonical_line(k, side)).collect();
    let mut distinct = canonical.clone();
    distinct.sort_unstable();
    distinct.dedup();
    let ids = canonical
        .iter()
        .map(|c| {
            distinct
                .binary_search(c)
                .expect("a canonical key is listed") as u16
        })
        .collect();
    LinePatterns {
        side,
        ids,
        count: distinct.len(),
    }
}

/// The line patterns of one side length (5 or 7), built on first use (4 MiB and about 50 ms for
/// seven cells).
pub fn line_patterns(side: usize) -> &'static LinePatterns {
    static FIVE: OnceLock<LinePatterns> = OnceLock::new();
    static SEVEN: OnceLock<LinePatterns> = OnceLock::new();
    match side {
        5 => FIVE.get_or_init(|| build_patterns(5)),
        7 => SEVEN.get_or_init(|| build_patterns(7)),
        _ => panic!("no line patterns for side {side}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn cells(key: u32, side: usize) -> Vec<u32> {
        (0..side).map(|i| (key >> (3 * i)) & 7).collect()
    }

    fn key_of(cells: &[u32]) -> u32 {
        cells
            .iter()
            .enumerate()
            .fold(0, |k, (i, &c)| k | (c << (3 * i)))
    }

    #[test]
    fn patterns_are_lines_up_to_colour_names_and_direction() {
        let patterns = line_patterns(7);
        assert_eq!(patterns.count(), 2152);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..20_000 {
            let key = rng.random_range(0..1u32 << 21);
            let line = cells(key, 7);
            // Renaming the colours by a random permutation and reading backwards keep the id.
            let mut names: Vec<u32> = (1..=7).collect();
            for i in (1..7).rev() {
                names.swap(i, rng.random_range(0..=i));
            }
            let renamed: Vec<u32> = line
                .iter()
                .map(|&c| if c == 0 { 0 } else { names[c as usize - 1] })
                .collect();
            let mut reversed = renamed.clone();
            reversed.reverse();
            assert_eq!(patterns.id(key), patterns.id(key_of(&renamed)), "{line:?}");
            assert_eq!(patterns.id(key), patterns.id(key_of(&reversed)), "{line:?}");
            // And the id is the slow definition's: equal ids, equal canonical lines.
            let other = rng.random_range(0..1u32 << 21);
            assert_eq!(
                patterns.id(key) == patterns.id(other),
                canonical_line(key, 7) == canonical_line(other, 7)
            );
        }
        // Every key of a five-cell line against the definition.
        let five = line_patterns(5);
        for key in 0..1u32 << 15 {
            let same = canonical_line(key, 5);
            assert_eq!(five.id(key), five.id(same), "{key}");
        }
    }
}
