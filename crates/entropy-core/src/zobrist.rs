//! Zobrist keys: a random 64-bit key per (cell, colour), per phase and per board size.
//!
//! The keys come from a fixed SplitMix64 stream, so hashes are the same in every build and on
//! every machine. The bag is derived from the board and the phase, so it needs no key of its own.

use crate::cell::{GRID_CELLS, MAX_SIDE};
use crate::Colour;

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Keys for every cell and colour (index 0, the empty cell, is unused and zero), then the phase
/// keys (draw, slide, over, place colour 1..=7) and the size keys.
struct Keys {
    chips: [[u64; 8]; GRID_CELLS],
    draw: u64,
    slide: u64,
    over: u64,
    place: [u64; 8],
    size: [u64; MAX_SIDE + 1],
}

const fn build_keys() -> Keys {
    let mut state = 0x456E_7472_6F70_7921; // "Entropy!"
    let mut keys = Keys {
        chips: [[0; 8]; GRID_CELLS],
        draw: 0,
        slide: 0,
        over: 0,
        place: [0; 8],
        size: [0; MAX_SIDE + 1],
    };
    let mut cell = 0;
    while cell < GRID_CELLS {
        let mut colour = 1;
        while colour < 8 {
            let (s, k) = splitmix64(state);
            state = s;
            keys.chips[cell][colour] = k;
            colour += 1;
        }
        cell += 1;
    }
    let (s, k) = splitmix64(state);
    keys.draw = k;
    let (s, k) = splitmix64(s);
    keys.slide = k;
    let (s, k) = splitmix64(s);
    keys.over = k;
    state = s;
    let mut colour = 1;
    while colour < 8 {
        let (s, k) = splitmix64(state);
        state = s;
        keys.place[colour] = k;
        colour += 1;
    }
    let mut side = 0;
    while side <= MAX_SIDE {
        let (s, k) = splitmix64(state);
        state = s;
        keys.size[side] = k;
        side += 1;
    }
    keys
}

static KEYS: Keys = build_keys();

/// The key of a chip of this colour on the cell with this grid index.
#[inline(always)]
pub fn chip(cell: usize, colour: Colour) -> u64 {
    KEYS.chips[cell][colour.number() as usize]
}

/// The key of the chance node: a chip is about to be drawn.
pub fn draw() -> u64 {
    KEYS.draw
}

/// The key of Order's turn.
pub fn slide() -> u64 {
    KEYS.slide
}

/// The key of a finished game.
pub fn over() -> u64 {
    KEYS.over
}

/// The key of Chaos's turn holding a drawn chip of this colour.
pub fn place(colour: Colour) -> u64 {
    KEYS.place[colour.number() as usize]
}

/// The key of the board side.
pub fn size(side: usize) -> u64 {
    KEYS.size[side]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut seen = HashSet::new();
        for cell in 0..GRID_CELLS {
            for colour in Colour::ALL {
                assert!(seen.insert(chip(cell, colour)));
            }
        }
        for key in [draw(), slide(), over()] {
            assert!(seen.insert(key));
        }
        for colour in Colour::ALL {
            assert!(seen.insert(place(colour)));
        }
        for side in 2..=MAX_SIDE {
            assert!(seen.insert(size(side)));
        }
        assert!(!seen.contains(&0));
    }
}
