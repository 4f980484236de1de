//! The rules of Entropy (Hyle 7, Eric Solomon) and Entropy(N): board, bag, turn structure with
//! explicit chance, legal moves, exact table scoring, Zobrist hashing, symmetries, notations and
//! perft. No dependencies and no I/O.
//!
//! # The game
//! A bag holds N chips of each of N colours (N = 7; 5 in the original). Each turn Chaos draws a
//! chip at random ([`Move::Draw`], the chance move) and places it on any empty cell
//! ([`Move::Place`]); then Order may slide any one chip like a rook through empty cells, stopping
//! on any empty cell of its path ([`Move::Slide`]), or pass ([`Move::Pass`]). When the board is
//! full, Order scores, over every row and column, the lengths of all palindromic runs of length
//! at least 2: `RGBGR` scores 5 + 3 = 8 and `AAA` scores 2 + 2 + 3 = 7.
//!
//! ```
//! use entropy_core::{Board, Position, Phase, Size};
//!
//! let board: Board = format!("1234321{}", ".".repeat(42)).parse().unwrap();
//! assert_eq!(board.score(), 7 + 5 + 3); // 1234321 holds 7, 5 and 3 long palindromes
//! let pos = Position::from_board(board, Phase::Draw).unwrap();
//! assert_eq!(pos.score(), board.score());
//! ```

#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod board;
pub mod cell;
pub mod colour;
pub mod line;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod score;
pub mod seed;
pub mod symmetry;
pub mod zobrist;

pub use board::{Board, SetError, SlideCounts};
pub use cell::{Cell, Role, Size, GRID_CELLS, MAX_SIDE};
pub use colour::Colour;
pub use moves::{Move, MoveList, MAX_MOVES};
pub use notation::ParseError;
pub use position::{Bag, IllegalMove, Phase, Position, SetupError};
pub use seed::derive_seed;
pub use symmetry::Symmetry;
