//! `entropy perft`: count move sequences from a position.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use entropy_core::notation::text::parse_position;
use entropy_core::perft::{divide, perft};
use entropy_core::Position;

/// Count the move sequences of each length from a position (perft).
///
/// Chance draws count as branches, one per colour left in the bag. Prints one line per depth
/// with the count, the time taken and the speed.
#[derive(clap::Args)]
pub struct Args {
    /// A position text (board text, then `draw`, `slide`, a colour digit or `over`); the empty
    /// 7x7 board by default.
    position: Option<String>,
    /// Count up to this many moves.
    #[arg(long, short, default_value_t = 5)]
    depth: u32,
    /// Also split the deepest count by first move.
    #[arg(long)]
    divide: bool,
    /// Board side of the default start position.
    #[arg(long, default_value_t = 7)]
    size: usize,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let position = match &args.position {
        Some(text) => parse_position(text).context("cannot read the position")?,
        None => Position::new(super::parse_size(args.size)?),
    };
    for depth in 1..=args.depth {
        let started = Instant::now();
        let count = perft(&position, depth);
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "depth {depth:>2}  {count:>14}  {seconds:>8.3} s  {:>8.1} M/s",
            count as f64 / seconds.max(1e-9) / 1e6
        );
    }
    if args.divide && args.depth > 0 {
        for (mv, count) in divide(&position, args.depth) {
            println!("{mv:>6}  {count}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
