//! Entropy protocols without I/O: each module turns lines of text into moves and positions and
//! back, keeping the state a player or referee needs. Sockets, pipes and clocks belong to the
//! caller.
//!
//! - [`codecup`]: the CodeCup 2023 referee protocol on stdin/stdout.

#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod codecup;
