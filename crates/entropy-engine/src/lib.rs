//! Entropy players: the [`Bot`] trait that every player implements for both roles, and what
//! they are made of, each module using only those listed before it:
//!
//! - [`playout`]: random moves and fast random playouts.
//! - [`eval`]: the linear evaluation (features, weights per phase, calibration) and the
//!   one-move scans the greedy players share.
//! - [`search`]: *-minimax with iterative deepening, the transposition table, time management,
//!   the opponent model and observer, and analysis.
//! - [`learned`]: the learned models (n-tuple, networks) and the agents that play them.
//! - [`bots`]: the built-in bots and the registry that makes them by name.
//!
//! The engine never prints.

#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod bot;
pub mod bots;
pub mod eval;
pub mod learned;
pub mod playout;
pub mod search;

pub use bot::{Bot, Budget};
pub use bots::{make_bot, BotInfo, UnknownBot, BOTS, NETWORK_BOTS};
