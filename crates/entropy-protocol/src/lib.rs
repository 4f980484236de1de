//! Entropy protocols without I/O: each module turns lines of text into moves and positions and
//! back, keeping the state a player or referee needs. Sockets, pipes and clocks belong to the
//! caller.
//!
//! - [`codecup`]: the CodeCup 2023 referee protocol on stdin/stdout.
//! - [`course`]: the course assignment's Entropy(N) protocol over TCP, both sides.
//! - [`api`]: the bot specification's JSON API (`orderNextTurn` / `chaosNextTurn`).

#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod api;
pub mod codecup;
pub mod course;
