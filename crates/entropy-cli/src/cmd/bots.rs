//! `entropy bots`: the built-in bots, and the searching bots' options.

use std::process::ExitCode;

use anyhow::Result;

/// List the built-in bots and how each plays; with `--options`, every option the searching bots
/// take after their name (`search:nodes=20000,tt=32`).
#[derive(clap::Args)]
pub struct Args {
    /// List the searching bots' options, by group, instead of the bots.
    #[arg(long)]
    options: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if args.options {
        println!("search and search-hand take options after a colon, comma-separated:");
        let mut group = "";
        for option in entropy_engine::bots::search_options() {
            if option.group != group {
                group = option.group;
                println!("\n{group}:");
            }
            let key = format!("{}={}", option.key, option.value);
            let default = option
                .default_text()
                .map_or(String::new(), |d| format!(" [default: {d}]"));
            println!("  {key:<24} {}{default}", option.help);
        }
        println!(
            "\nweak and greedy are what `entropy tune` adjusts (`entropy tune --list`); an old \
             default is `scripts/baseline.sh REV`."
        );
        return Ok(ExitCode::SUCCESS);
    }
    for bot in entropy_engine::BOTS {
        println!("{:<8} {}", bot.name, bot.description);
    }
    println!("\n`entropy bots --options` lists the searching bots' options.");
    Ok(ExitCode::SUCCESS)
}
