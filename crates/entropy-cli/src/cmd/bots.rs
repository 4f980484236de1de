//! `entropy bots`: the built-in bots.

use std::process::ExitCode;

use anyhow::Result;

/// List the built-in bots and how each plays.
#[derive(clap::Args)]
pub struct Args {}

pub fn run(_: Args) -> Result<ExitCode> {
    for bot in entropy_engine::BOTS {
        println!("{:<8} {}", bot.name, bot.description);
    }
    Ok(ExitCode::SUCCESS)
}
