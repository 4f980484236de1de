//! The referee: plays Entropy games between players (built-in bots or external programs speaking
//! the CodeCup protocol) on paired deals with enforced clocks, rules forfeits as CodeCup does,
//! records every game as a JSON line and summarises a match with confidence intervals.
//!
//! - [`bench`]: `entropy bench`'s fixed workloads, their signature and speeds.
//! - [`calibration`]: the expected scores shown against the final scores, turn by turn.
//! - [`course`]: a client of the course assignment's protocol as a player.
//! - [`deal`]: the chip order of each deal, from a seed.
//! - [`player`]: the [`player::Player`] trait, built-in bots and subprocesses.
//! - [`game`]: one game under the clocks, with forfeits and the jury player.
//! - [`games`]: games read back from records, downloads and transcripts.
//! - [`ladder`]: the bot ladder's table, from its records.
//! - [`luck`]: the luck of a game's draws, taken out of paired margins to measure with less
//!   noise.
//! - [`record`]: the JSON line written for every game, and reading a file of them back.
//! - [`recorded`]: a match played into its record: resumed, appended, sealed.
//! - [`store`]: where records live: a plain part being written and a compressed part.
//! - [`results`]: the results page, generated from the records and the index naming them.
//! - [`review`]: every decision of recorded games valued against the best move.
//! - [`tournament`]: a match of paired deals, run in parallel, resumable.
//! - [`stats`]: means, paired differences and t-based confidence intervals.
//! - [`sprt`]: the sequential probability ratio test on paired margins.
//! - [`spsa`]: tuning numeric options by simultaneous perturbation (SPSA) on paired deals.

#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod bench;
pub mod calibration;
pub mod course;
pub mod deal;
pub mod game;
pub mod games;
pub mod ladder;
pub mod luck;
pub mod player;
pub mod record;
pub mod recorded;
pub mod results;
pub mod review;
pub mod sprt;
pub mod spsa;
pub mod stats;
pub mod store;
pub mod tournament;

pub use entropy_core::derive_seed;
