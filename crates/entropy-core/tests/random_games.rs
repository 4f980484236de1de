//! Property tests over random games: every fast path against its slow twin after every move.

use std::collections::HashSet;

use entropy_core::notation::text::parse_position;
use entropy_core::{
    Board, Cell, Colour, IllegalMove, Move, Phase, Position, Size, Symmetry, MAX_MOVES,
};
use proptest::prelude::*;

/// SplitMix64, so a failing case is reproducible from its seed alone.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// Order's moves found by walking from every chip in the four directions, cell by cell.
fn slow_order_moves(board: &Board) -> HashSet<Move> {
    let n = board.size().side() as isize;
    let mut moves = HashSet::from([Move::Pass]);
    for (from, _) in board.chips() {
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let (mut r, mut c) = (from.row() as isize + dr, from.column() as isize + dc);
            while (0..n).contains(&r) && (0..n).contains(&c) {
                let to = Cell::new(r as usize, c as usize).unwrap();
                if board.get(to).is_some() {
                    break;
                }
                moves.insert(Move::Slide { from, to });
                r += dr;
                c += dc;
            }
        }
    }
    moves
}

fn slow_legal_moves(pos: &Position) -> HashSet<Move> {
    match pos.phase() {
        Phase::Draw => pos
            .size()
            .game_colours()
            .filter(|&c| pos.bag().count(c) > 0)
            .map(Move::Draw)
            .collect(),
        Phase::Place(colour) => pos
            .size()
            .board_cells()
            .filter(|&cell| pos.board().get(cell).is_none())
            .map(|cell| Move::Place { colour, cell })
            .collect(),
        Phase::Slide => slow_order_moves(pos.board()),
        Phase::Over => HashSet::new(),
    }
}

fn check_invariants(pos: &Position, rng: &mut Rng) {
    let board = pos.board();
    assert_eq!(pos.score(), board.score(), "incremental vs table score");
    assert_eq!(board.score(), board.score_naive(), "table vs naive score");
    assert_eq!(
        pos.hash(),
        pos.hash_from_scratch(),
        "incremental vs fresh hash"
    );
    // (A full board is Over whatever phase it is given.)
    let other_phase = Position::from_board(*board, Phase::Draw).unwrap();
    assert_eq!(
        pos.board_hash(),
        other_phase.board_hash(),
        "the board's hash does not depend on the phase"
    );
    let rebuilt = Position::from_board(*board, pos.phase()).unwrap();
    assert_eq!(&rebuilt, pos, "bag and line scores derive from the board");

    let in_hand = |c: Colour| u8::from(pos.phase() == Phase::Place(c));
    let on_board = board.colour_counts();
    for colour in pos.size().game_colours() {
        let total = pos.bag().count(colour) + on_board[colour.index()] + in_hand(colour);
        assert_eq!(total, pos.size().chips_per_colour());
    }

    let mut lined_up = pos
        .bag()
        .colours()
        .flat_map(|(c, n)| std::iter::repeat_n(c, n as usize));
    for index in 0..pos.bag().total() {
        assert_eq!(pos.bag().nth_chip(index), lined_up.next(), "chip {index}");
    }
    assert_eq!(pos.bag().nth_chip(pos.bag().total()), None);

    let moves = pos.legal_moves();
    assert!(moves.len() <= MAX_MOVES);
    let fast: HashSet<Move> = moves.iter().copied().collect();
    assert_eq!(fast.len(), moves.len(), "no duplicate moves");
    assert_eq!(fast, slow_legal_moves(pos), "move generation vs walking");
    for &mv in moves.iter() {
        assert_eq!(pos.check(mv), Ok(()), "{mv} is generated but refused");
        let mut after = *pos;
        after.play_unchecked(mv);
        match mv {
            Move::Slide { from, to } => assert_eq!(pos.score_after_slide(from, to), after.score()),
            Move::Place { colour, cell } => {
                assert_eq!(pos.score_after_place(cell, colour), after.score())
            }
            _ => {}
        }
    }
    if pos.phase() == Phase::Slide {
        assert_eq!(pos.order_move_count(), moves.len());
        for (i, &mv) in moves.iter().enumerate() {
            assert_eq!(pos.order_move(i), mv);
        }
        // A random pair of cells is accepted exactly when it is generated.
        for _ in 0..20 {
            let from = Cell::from_index(rng.below(49)).unwrap();
            let to = Cell::from_index(rng.below(49)).unwrap();
            let mv = Move::Slide { from, to };
            assert_eq!(pos.check(mv).is_ok(), fast.contains(&mv), "{mv}");
        }
    }
    if matches!(pos.phase(), Phase::Place(_)) {
        let vacant = board.vacant_count();
        let cells: Vec<Cell> = (0..vacant).map(|i| pos.nth_vacant(i).unwrap()).collect();
        assert_eq!(cells, board.vacant_cells().collect::<Vec<_>>());
        assert_eq!(pos.nth_vacant(vacant), None);
    }

    for symmetry in Symmetry::ALL {
        let image = pos.transformed(symmetry);
        assert_eq!(image.score(), pos.score(), "{symmetry:?}");
        assert_eq!(image.legal_moves().len(), moves.len(), "{symmetry:?}");
    }
    let n = pos.size().colours();
    let mut permutation = Colour::ALL;
    for i in (1..n).rev() {
        permutation.swap(i, rng.below(i + 1));
    }
    let recoloured = pos.recoloured(&permutation).unwrap();
    assert_eq!(recoloured.score(), pos.score(), "{permutation:?}");
}

fn random_game(seed: u64, size: Size) {
    let mut rng = Rng(seed);
    let mut pos = Position::new(size);
    let mut plies = 0;
    while !pos.is_over() {
        check_invariants(&pos, &mut rng);
        let moves = pos.legal_moves();
        // Order passes now and then so that boards fill in varied shapes.
        let mv = moves[rng.below(moves.len())];
        let mut checked = pos;
        checked.play(mv).unwrap();
        pos.play_unchecked(mv);
        assert_eq!(checked, pos, "play and play_unchecked agree");
        plies += 1;
    }
    check_invariants(&pos, &mut rng);
    assert!(pos.legal_moves().is_empty());
    assert!(pos.board().is_full());
    assert_eq!(
        plies,
        3 * size.cells() - 1,
        "every turn but the last has three moves"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_keep_every_invariant(seed in any::<u64>(), seven in any::<bool>()) {
        random_game(seed, if seven { Size::SEVEN } else { Size::FIVE });
    }

    #[test]
    fn score_is_invariant_under_symmetry_and_recolouring(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let mut board = Board::empty(Size::SEVEN);
        let mut bag: Vec<Colour> = Colour::ALL.iter().flat_map(|&c| [c; 7]).collect();
        for cell in Size::SEVEN.board_cells() {
            if rng.below(4) > 0 {
                let colour = bag.swap_remove(rng.below(bag.len()));
                board.set(cell, Some(colour)).unwrap();
            }
        }
        let mut permutation = Colour::ALL;
        for i in (1..7).rev() {
            permutation.swap(i, rng.below(i + 1));
        }
        for symmetry in Symmetry::ALL {
            let image = board.transformed(symmetry).recoloured(&permutation);
            prop_assert_eq!(image.score(), board.score());
            prop_assert_eq!(image.score_naive(), board.score());
        }
    }
}

#[test]
fn every_size_plays_to_the_end() {
    for side in 2..=7 {
        random_game(side as u64, Size::new(side).unwrap());
    }
}

fn position(text: &str) -> Position {
    parse_position(text).unwrap()
}

#[test]
fn illegal_moves_are_named() {
    let cell = |s: &str| entropy_core::notation::codecup::parse_cell(s).unwrap();
    // Row A: chips on Aa and Ad; Order to move.
    let pos = position("1..2.../......./......./......./......./......./....... slide");
    let slide = |from: &str, to: &str| Move::Slide {
        from: cell(from),
        to: cell(to),
    };
    assert_eq!(
        pos.check(slide("Aa", "Ae")),
        Err(IllegalMove::Blocked {
            from: cell("Aa"),
            to: cell("Ae"),
            at: cell("Ad")
        })
    );
    assert_eq!(
        pos.check(slide("Aa", "Ad")),
        Err(IllegalMove::Occupied(cell("Ad")))
    );
    assert_eq!(
        pos.check(slide("Ab", "Ac")),
        Err(IllegalMove::NoChip(cell("Ab")))
    );
    assert_eq!(
        pos.check(slide("Aa", "Aa")),
        Err(IllegalMove::SameCell(cell("Aa")))
    );
    assert_eq!(
        pos.check(slide("Aa", "Bb")),
        Err(IllegalMove::NotInLine {
            from: cell("Aa"),
            to: cell("Bb")
        })
    );
    assert_eq!(pos.check(slide("Aa", "Ac")), Ok(()));
    assert_eq!(pos.check(slide("Aa", "Ga")), Ok(()));
    let wrong = Move::Draw(Colour::Red);
    assert!(matches!(
        pos.check(wrong),
        Err(IllegalMove::WrongPhase { .. })
    ));
    let message = pos.check(slide("Aa", "Ae")).unwrap_err().to_string();
    assert_eq!(message, "the slide Aa to Ae is blocked by the chip on Ad");

    let holding = position("1..2.../......./......./......./......./......./....... 3");
    let place = |colour, at: &str| Move::Place {
        colour,
        cell: cell(at),
    };
    assert_eq!(
        holding.check(place(Colour::Red, "Bb")),
        Err(IllegalMove::NotTheDrawnColour {
            drawn: Colour::Yellow,
            placed: Colour::Red
        })
    );
    assert_eq!(
        holding.check(place(Colour::Yellow, "Aa")),
        Err(IllegalMove::Occupied(cell("Aa")))
    );
    assert!(matches!(
        holding.check(Move::Pass),
        Err(IllegalMove::WrongPhase { .. })
    ));

    let small = position("...../...../...../...../..... 2");
    assert_eq!(
        small.check(place(Colour::Green, "Af")),
        Err(IllegalMove::OffBoard(cell("Af")))
    );

    let mut drawing = position(&format!("{}{} draw", "1".repeat(7), ".".repeat(42)));
    assert_eq!(
        drawing.play(Move::Draw(Colour::Red)),
        Err(IllegalMove::NotInBag(Colour::Red))
    );
    assert_eq!(drawing.play(Move::Draw(Colour::Blue)), Ok(()));
}
