//! Regenerates the checked-in golden files of the core from fixed seeds:
//!
//! ```text
//! cargo run -p entropy-core --release --example golden -- scores > tests/data/score_vectors.txt
//! cargo run -p entropy-core --release --example golden -- perft  > tests/data/perft.txt
//! ```
//!
//! Scores come from the slow oracle ([`Board::score_naive`]), so the files check the table scorer.

use entropy_core::notation::text::format_position;
use entropy_core::perft::perft;
use entropy_core::{Board, Cell, Colour, Position, Size};

/// SplitMix64: a tiny fixed generator so the files never depend on a crate's version.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A board with `chips` chips from a shuffled bag on random cells.
fn random_board(rng: &mut SplitMix, size: Size, chips: usize) -> Board {
    let mut bag: Vec<Colour> = size
        .game_colours()
        .flat_map(|c| std::iter::repeat_n(c, size.side()))
        .collect();
    let mut cells: Vec<Cell> = size.board_cells().collect();
    for i in (1..bag.len()).rev() {
        bag.swap(i, rng.below(i + 1));
        cells.swap(i, rng.below(i + 1));
    }
    let mut board = Board::empty(size);
    for (&cell, &colour) in cells.iter().zip(&bag).take(chips) {
        board
            .set(cell, Some(colour))
            .expect("cell and colour of this size");
    }
    board
}

/// A position after `turns` turns of random play (random placements, random slides or passes).
fn random_game(rng: &mut SplitMix, size: Size, turns: usize) -> Position {
    let mut pos = Position::new(size);
    for _ in 0..turns {
        let chip = pos
            .bag()
            .nth_chip(rng.below(pos.bag().total() as usize) as u8)
            .expect("chip");
        pos.play_unchecked(entropy_core::Move::Draw(chip));
        let cell = pos
            .nth_vacant(rng.below(pos.board().vacant_count()))
            .expect("vacant cell");
        pos.play_unchecked(entropy_core::Move::Place { colour: chip, cell });
        if pos.is_over() {
            break;
        }
        let mv = pos.order_move(rng.below(pos.order_move_count()));
        pos.play_unchecked(mv);
    }
    pos
}

fn scores() {
    println!(
        "# Board texts with Order's score from the brute-force oracle (examples/golden.rs scores)."
    );
    let mut rng = SplitMix(2023);
    for (size, count) in [(Size::SEVEN, 200), (Size::FIVE, 100)] {
        for i in 0..count {
            // Half the boards are full; the rest are filled 10% to 90%.
            let chips = if i % 2 == 0 {
                size.cells()
            } else {
                size.cells() * (1 + rng.below(9)) / 10
            };
            let board = random_board(&mut rng, size, chips);
            println!("{board} {}", board.score_naive());
        }
    }
}

fn perft_vectors() {
    println!("# position text;depth;perft count (examples/golden.rs perft). Draws are branches.");
    let mut rng = SplitMix(7);
    let mut cases: Vec<(Position, Vec<u32>)> = vec![
        (Position::new(Size::SEVEN), vec![1, 2, 3, 4, 5]),
        (Position::new(Size::FIVE), vec![1, 2, 3, 4, 5]),
    ];
    for (size, turns, depths) in [
        (Size::SEVEN, 10, vec![1, 2, 3]),
        (Size::SEVEN, 25, vec![1, 2, 3]),
        (Size::SEVEN, 46, vec![3, 6, 8]),
        (Size::FIVE, 12, vec![1, 2, 3, 4]),
        (Size::FIVE, 22, vec![3, 6, 8]),
    ] {
        let at_draw = random_game(&mut rng, size, turns);
        cases.push((at_draw, depths.clone()));
        // The same game one step on: Chaos holding a chip, then Order to move.
        let mut holding = at_draw;
        let chip = holding.bag().nth_chip(0).expect("chip left");
        holding.play_unchecked(entropy_core::Move::Draw(chip));
        cases.push((holding, depths.clone()));
        let mut sliding = holding;
        let cell = sliding.nth_vacant(0).expect("vacant");
        sliding.play_unchecked(entropy_core::Move::Place { colour: chip, cell });
        if !sliding.is_over() {
            cases.push((sliding, depths));
        }
    }
    for (pos, depths) in cases {
        for depth in depths {
            println!("{};{depth};{}", format_position(&pos), perft(&pos, depth));
        }
    }
}

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("scores") => scores(),
        Some("perft") => perft_vectors(),
        _ => eprintln!("usage: golden scores|perft"),
    }
}
