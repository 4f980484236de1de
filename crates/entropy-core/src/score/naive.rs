//! Slow, obviously correct line scoring: the oracle every fast scorer is tested against.
//!
//! This file is also compiled into the crate's build script (which generates the lookup table),
//! so it must stay free of `crate::` paths.

/// Number of distinct 21-bit line keys (7 cells, 3 bits each).
pub const LINE_KEYS: usize = 1 << 21;

/// Splits a line key into its seven cells, first cell in the lowest three bits; 0 is empty.
pub fn decode_line(key: u32) -> [u8; 7] {
    let mut cells = [0u8; 7];
    for (i, cell) in cells.iter_mut().enumerate() {
        *cell = ((key >> (3 * i)) & 7) as u8;
    }
    cells
}

/// Scores a line by brute force: for every contiguous run of length >= 2, if no cell of it is
/// empty and it reads the same both ways, add its length.
pub fn brute_force_score(cells: &[u8]) -> u32 {
    let mut total = 0;
    for start in 0..cells.len() {
        for end in start + 2..=cells.len() {
            let run = &cells[start..end];
            let filled = run.iter().all(|&c| c != 0);
            if filled && run.iter().eq(run.iter().rev()) {
                total += run.len() as u32;
            }
        }
    }
    total
}

/// Scores a line by growing palindromes outwards from each centre (a cell for odd lengths, a gap
/// between two cells for even lengths) while both ends are filled and equal.
pub fn centre_expansion_score(cells: &[u8]) -> u32 {
    let n = cells.len() as isize;
    let mut total = 0;
    // `left`/`right` are the two cells compared first: equal for odd centres, adjacent for even.
    for centre in 0..(2 * n - 1) {
        let mut left = centre / 2;
        let mut right = left + centre % 2;
        if cells[left as usize] == 0 {
            continue;
        }
        while left >= 0 && right < n {
            let (a, b) = (cells[left as usize], cells[right as usize]);
            if a == 0 || a != b {
                break;
            }
            let length = right - left + 1;
            if length >= 2 {
                total += length as u32;
            }
            left -= 1;
            right += 1;
        }
    }
    total
}
