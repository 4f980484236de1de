//! Entropy players: the [`Bot`] trait that every player implements for both roles, the baseline
//! bots, a registry by name, and fast random playouts. The engine never prints.

#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod bot;
pub mod bots;
pub mod eval;
pub mod playout;
pub mod search;

pub use bot::{Bot, Budget};
pub use bots::{make_bot, BotInfo, UnknownBot, BOTS};
