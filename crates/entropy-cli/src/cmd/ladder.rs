//! `entropy ladder`: every bot against one reference, and a table of the results.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use entropy_arena::player::PlayerSpec;
use entropy_arena::record::{read_records, GameRecord, MatchKey};
use entropy_arena::stats::{format_ci, summarize};
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
    let table = table(&args, &reference)?;
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

/// The markdown table of every match file in the directory played against the reference.
fn table(args: &Args, reference: &PlayerSpec) -> Result<String> {
    let mut rows: Vec<(f64, String)> = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&args.dir)
        .with_context(|| format!("cannot list {}", args.dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|p| {
            // Each record once, by its compressed name, whichever of its parts is there.
            let name = p.to_string_lossy().into_owned();
            if name.ends_with(".jsonl.gz") {
                Some(p)
            } else {
                name.ends_with(".jsonl")
                    .then(|| PathBuf::from(format!("{name}.gz")))
            }
        })
        .collect();
    entries.sort();
    entries.dedup();
    for path in entries {
        let file =
            read_records(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let records: Vec<GameRecord> = file
            .records
            .into_iter()
            .filter(|r| &r.key.players[1] == reference)
            .collect();
        let Some(first) = records.first() else {
            continue;
        };
        let clock = first.key.clock_ms as f64 / 1000.0;
        let summary = summarize(&records);
        let player = &summary.players[0];
        let forfeits = if player.forfeits.is_empty() {
            "0".to_owned()
        } else {
            player
                .forfeits
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let margin = summary
            .paired
            .as_ref()
            .map_or(f64::NEG_INFINITY, |c| c.mean);
        let paired = match &summary.paired {
            Some(ci) if ci.n >= 2 => format!("{:+.1} ± {:.1}", ci.mean, ci.half_width),
            Some(ci) => format!("{:+.1}", ci.mean),
            None => "-".to_owned(),
        };
        let deals = summary.paired.as_ref().map_or(0, |c| c.n);
        rows.push((
            margin,
            format!(
                "| {} | {} | {} | {} | {} | {:.1} | {} | {:.2} |\n",
                player.name,
                format_ci(&player.as_order),
                format_ci(&player.as_chaos),
                paired,
                deals,
                clock,
                forfeits,
                player.mean_seconds
            ),
        ));
    }
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| player | S as Order | S conceded as Chaos | paired margin vs {} | deals | clock s | forfeits | s/game |",
        reference.short_label()
    );
    out.push_str("|---|---|---|---|---|---|---|---|\n");
    for (_, row) in rows {
        out.push_str(&row);
    }
    let _ = writeln!(
        out,
        "\nEvery row plays {} on the same paired deals (seed {}): each deal twice, roles swapped, \
         same chips. S as Order: the row's mean score as Order; S conceded: {}'s mean score \
         against the row as Chaos; paired margin: per deal, the row's S as Order minus {}'s, \
         with its 95% confidence interval.",
        reference.short_label(),
        args.seed,
        reference.short_label(),
        reference.short_label()
    );
    Ok(out)
}
