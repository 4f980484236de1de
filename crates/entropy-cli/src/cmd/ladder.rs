//! `entropy ladder`: every bot against one reference, and a table of the results.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use entropy_arena::player::PlayerSpec;
use entropy_arena::record::MatchKey;
use entropy_arena::tournament::MatchConfig;

/// Play each row's player against a reference on paired deals and tabulate the results.
///
/// Every row is an `entropy match` against the reference, kept in DIR/ROW.jsonl.gz, so an
/// interrupted ladder resumes and a row can be extended by running again with more deals. The
/// table (written to DIR/ladder.md and printed) is made from every match file in DIR against
/// the reference, whatever run made it: slow rows can be played with fewer deals.
#[derive(clap::Args)]
pub struct Args {
    /// A player for a row (repeat the option): a built-in bot or `cmd:COMMAND`.
    #[arg(long = "row", value_name = "PLAYER")]
    rows: Vec<String>,
    /// The opponent of every row.
    #[arg(long, default_value = "greedy")]
    reference: String,
    /// Deals per row; each is played twice with roles swapped.
    #[arg(long, default_value_t = 100)]
    deals: u32,
    /// Seed of the deals, the bots and the jury (the same for every row).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Each player's thinking time per game, in seconds.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    clock: f64,
    /// Games played at the same time [default: the number of CPUs].
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Where the match files and the table go.
    #[arg(long, default_value = "ladder")]
    dir: PathBuf,
    /// Only make the table from the files already in DIR.
    #[arg(long)]
    report: bool,
    /// No progress bars.
    #[arg(long, short)]
    quiet: bool,
}

const DEFAULT_ROWS: [&str; 8] = [
    "random",
    "pass",
    "greedy",
    "gap",
    "spoiler",
    "heuristic",
    "search-hand",
    "search",
];

pub fn run(args: Args) -> Result<ExitCode> {
    if !(args.clock.is_finite() && args.clock > 0.0) {
        bail!(
            "--clock must be a positive number of seconds, not {}",
            args.clock
        );
    }
    let reference = PlayerSpec::parse(&args.reference);
    reference
        .validate()
        .map_err(anyhow::Error::msg)
        .context("the reference")?;
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot create {}", args.dir.display()))?;
    if !args.report {
        let rows: Vec<String> = if args.rows.is_empty() {
            DEFAULT_ROWS.iter().map(|s| s.to_string()).collect()
        } else {
            args.rows.clone()
        };
        let jobs = super::jobs_or_cpus(args.jobs);
        for row in &rows {
            let spec = PlayerSpec::parse(row);
            spec.validate()
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("row {row}"))?;
            let config = MatchConfig {
                key: MatchKey {
                    players: [spec.clone(), reference.clone()],
                    seed: args.seed,
                    clock_ms: (args.clock * 1000.0).round() as u64,
                    clock_b_ms: None,
                    size: 7,
                    luck: None,
                },
                deals: args.deals,
                jobs,
            };
            let path = args
                .dir
                .join(format!("{}.jsonl.gz", slug(&spec.short_label())));
            eprintln!(
                "row {}: {} deals against {}",
                spec.short_label(),
                args.deals,
                reference.short_label()
            );
            super::play_with_progress(&config, &path, None, args.quiet)?;
        }
    }
    let table = entropy_arena::ladder::table(&args.dir, &reference, args.seed)
        .map_err(anyhow::Error::msg)?;
    let path = args.dir.join("ladder.md");
    std::fs::write(&path, &table).with_context(|| format!("cannot write {}", path.display()))?;
    print!("{table}");
    Ok(ExitCode::SUCCESS)
}

fn slug(label: &str) -> String {
    let text: String = label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    text.trim_matches('_').chars().take(48).collect()
}
