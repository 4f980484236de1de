//! `entropy records`: a match's summary from its records file, and its margins compared with
//! other matches' on the same deals.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use entropy_arena::record::{read_match, GameRecord};
use entropy_arena::stats::{compare, summarize, summary_text, MeanCi};

/// Summarise a match from its records file, and compare it with other matches on the same
/// deals, without playing a game.
///
/// Prints what `entropy match` prints when a match ends: each player's score as Order and as
/// Chaos, its mean and median seconds a game, its forfeits, the paired margin as played and
/// less the draws' luck, and where the SPRT stood after the last game recorded. A match still
/// running or stopped half-way is read as far as it got.
///
/// With `--against OTHER`: the difference between this match's paired margin and OTHER's, deal
/// by deal over the deals both completed with the same chips (matches of the same --seed and
/// --size), with its 95% confidence interval. That is how much more this match's player A beat
/// its B than OTHER's A beat its B, with the luck of the deals cancelled: the gauntlet's "the
/// new default against expecti, against the old default against expecti, on the same deals"
/// (docs/testing.md).
#[derive(clap::Args)]
pub struct Args {
    /// A JSON lines file of game records, as `entropy match --out` writes them.
    file: PathBuf,
    /// Another match's records file to compare with on the deals both played; may be given
    /// more than once.
    #[arg(long, value_name = "OTHER")]
    against: Vec<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let records = load(&args.file)?;
    let key = &records[0].key;
    let deals = records.iter().map(|r| r.deal + 1).max().unwrap_or(0);
    let sprt = records.iter().rev().find_map(|r| r.sprt);
    let record = args.file.display().to_string();
    print!(
        "{}",
        summary_text(key, deals, &summarize(&records), sprt.as_ref(), &record)
    );
    for other in &args.against {
        let theirs = load(other)?;
        let comparison = compare(&records, &theirs)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("comparing with {}", other.display()))?;
        let their_key = &theirs[0].key;
        println!(
            "against {} ({} (A) vs {} (B), {} clock): {} deals both played on the same chips{}",
            other.display(),
            their_key.players[0].short_label(),
            their_key.players[1].short_label(),
            their_key.clock_text(),
            comparison.shared,
            match comparison.dealt_otherwise {
                0 => String::new(),
                n => format!(" ({n} more dealt other chips, left out)"),
            }
        );
        println!(
            "  paired margins there: this match {}, the other {}",
            signed(&comparison.first),
            signed(&comparison.second)
        );
        println!(
            "  this match's margin less the other's, deal by deal: {} (95% CI)",
            signed(&comparison.difference)
        );
        if let Some(adjusted) = &comparison.difference_adjusted {
            println!(
                "  the same less the draws' luck: {} (95% CI)",
                signed(adjusted)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A mean with its interval, signed: `+3.9 ± 3.0`, or the mean alone for one deal.
fn signed(ci: &MeanCi) -> String {
    if ci.n < 2 {
        format!("{:+.1} (one deal)", ci.mean)
    } else {
        format!("{:+.1} ± {:.1}", ci.mean, ci.half_width)
    }
}

/// The records of one match's file, with a warning for each unreadable line.
fn load(path: &Path) -> Result<Vec<GameRecord>> {
    let (records, problems) = read_match(path).map_err(anyhow::Error::msg)?;
    for problem in &problems {
        eprintln!("warning: skipping unreadable {problem}");
    }
    Ok(records)
}
