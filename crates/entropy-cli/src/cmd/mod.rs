//! One module per subcommand. Each has `Args` (clap) and `run(Args) -> Result<ExitCode>`.

pub mod analyse;
pub mod bench;
pub mod bots;
pub mod codecup;
pub mod course;
pub mod ladder;
pub mod matches;
pub mod perft;
pub mod play;
pub mod policy_data;
pub mod score;
pub mod serve;
pub mod train;
pub mod train_net;

use anyhow::{bail, Result};
use entropy_core::Size;

/// Reads a board side given on the command line.
pub fn parse_size(side: usize) -> Result<Size> {
    match Size::new(side) {
        Some(size) => Ok(size),
        None => bail!("board size {side} is not supported: use 7 (the game) or 5 (Entropy(5))"),
    }
}
