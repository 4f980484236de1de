//! `entropy match`: the arena.

use std::collections::HashSet;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use entropy_arena::luck;
use entropy_arena::player::PlayerSpec;
use entropy_arena::record::{read_records, GameRecord, MatchKey};
use entropy_arena::sprt::{MatchSprt, SprtConfig, SprtStatus};
use entropy_arena::stats::{summarize, MeanCi, Summary};
use entropy_arena::store;
use entropy_arena::tournament::{MatchConfig, Task};

/// Play a match between two players on paired deals and summarise it.
///
/// Each deal is a shuffled bag (from the seed) played twice on the same chip order, once with
/// A as Order and once with B as Order, so the paired difference of the two scores measures
/// skill with most of the luck of the draw cancelled. Each player has its own clock per game; a
/// player that runs out of time, crashes, answers garbage or plays an illegal move forfeits the
/// game as CodeCup rules it (0 points; a random jury player finishes the game) and the match
/// goes on.
///
/// Every game is appended to a JSON lines file as soon as it ends. Running the same command again
/// resumes: recorded games are kept and only the missing ones are played.
///
/// Players: a built-in bot's name (see `entropy bots`), `bot:NAME`, or a shell command that
/// speaks the CodeCup protocol, e.g. `cmd:./mybot` or `"entropy codecup --bot greedy"`.
///
/// With `--sprt M0,M1` the match is a sequential probability ratio test on the paired margins
/// (H0: A's mean margin over B is at most M0 points per deal; H1: at least M1): it stops as soon
/// as the deals played decide, says which hypothesis it accepted, and writes its log-likelihood
/// ratio and bounds in the summary and in every record. `--deals` is then the most it plays.
/// To test a change against a git revision: `scripts/sprt.sh REV BASE stc` (docs/testing.md).
///
/// The rest of the luck, what the same chip is worth on two boards that have grown apart, is
/// taken out too: each game's luck in the draws (what the chips drawn were worth to Order over
/// the bag's average, valued by a `--luck`-deep search) is recorded, and the SPRT and the
/// summary's adjusted margin take it out of the scores: the same mean, a narrower interval, so
/// a test decides in fewer deals (docs/testing.md).
#[derive(clap::Args)]
pub struct Args {
    /// Player A.
    #[arg(default_value = "greedy")]
    a: String,
    /// Player B.
    #[arg(default_value = "random")]
    b: String,
    /// Number of deals; each is played twice with roles swapped [default: 100, or 1000 with
    /// --sprt, which usually stops long before].
    #[arg(long)]
    deals: Option<u32>,
    /// Seed of the deals, the bots and the jury.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Each player's thinking time per game, in seconds.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    clock: f64,
    /// Player A's thinking time per game, in seconds, for time odds [default: --clock].
    #[arg(long, value_name = "SECONDS")]
    clock_a: Option<f64>,
    /// Player B's thinking time per game, in seconds, for time odds [default: --clock].
    #[arg(long, value_name = "SECONDS")]
    clock_b: Option<f64>,
    /// Run a sequential probability ratio test of H0 "A's mean paired margin <= M0" against
    /// H1 "A's mean paired margin >= M1" (points per deal), and stop when it decides.
    #[arg(long, value_name = "M0,M1")]
    sprt: Option<String>,
    /// The SPRT's alpha: the chance of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    alpha: f64,
    /// The SPRT's beta: the chance of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    beta: f64,
    /// Value each game's luck in the draws by a search this many moves deep and take it out of
    /// the paired margins the SPRT tests; 0: test the margins as played [default: 2, or what
    /// the records file being resumed used].
    #[arg(long, value_name = "DEPTH")]
    luck: Option<u32>,
    /// Games played at the same time [default: the number of CPUs]; given twice, the last
    /// counts (scripts pass a default that the caller's options may override).
    #[arg(long, short, overrides_with = "jobs")]
    jobs: Option<usize>,
    /// Board side: 7, or 5 for Entropy(5) (built-in bots only).
    #[arg(long, default_value_t = 7)]
    size: usize,
    /// The JSON lines file of game records [default: match-A-vs-B-sSEED.jsonl]; a name ending in
    /// `.gz` is written plain beside it while the match runs and compressed when it ends.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Start again: delete the records file first instead of resuming from it.
    #[arg(long)]
    fresh: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let size = super::parse_size(args.size)?;
    let sprt = args
        .sprt
        .as_deref()
        .map(|text| {
            let (m0, m1) = SprtConfig::parse_margins(text)?;
            SprtConfig::new(m0, m1, args.alpha, args.beta)
        })
        .transpose()
        .map_err(anyhow::Error::msg)
        .context("--sprt")?;
    // A's clock is --clock-a where given, B's --clock-b, each --clock otherwise.
    let clock_a = args
        .clock_a
        .map_or(("--clock", args.clock), |s| ("--clock-a", s));
    let clock_b = args
        .clock_b
        .map_or(("--clock", args.clock), |s| ("--clock-b", s));
    let key = MatchKey::checked(
        [("A", &args.a), ("B", &args.b)],
        args.seed,
        [clock_a, clock_b],
        size.side(),
    )
    .map_err(anyhow::Error::msg)?;
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let default_deals = if sprt.is_some() { 1000 } else { 100 };
    let path = args.out.clone().unwrap_or_else(|| default_path(&key));
    if args.fresh {
        store::remove(&path).with_context(|| format!("cannot delete {}", path.display()))?;
    }
    // A resumed match keeps the luck depth its records were made with unless told otherwise.
    let luck = match args.luck {
        Some(depth) => Some(depth),
        None => recorded_luck(&path)?.unwrap_or(Some(luck::DEFAULT_DEPTH)),
    };
    let config = MatchConfig {
        key: key.with_luck(luck),
        deals: args.deals.unwrap_or(default_deals),
        jobs,
    };
    let (records, sprt) = play_match(&config, &path, sprt, args.quiet)?;
    let summary = summarize(&records);
    print_summary(&config.key, config.deals, &summary, sprt.as_ref(), &path);
    Ok(ExitCode::SUCCESS)
}

/// Plays the games of a match missing from its records file, appending each as it ends, and
/// returns all its records (those already there and the new ones) for deals below the count.
/// With an SPRT, the test is run over the records already there and no further game starts
/// once it decides; its final status is returned too.
pub fn play_match(
    config: &MatchConfig,
    path: &Path,
    sprt: Option<SprtConfig>,
    quiet: bool,
) -> Result<(Vec<GameRecord>, Option<SprtStatus>)> {
    let mut records = load_previous(path, &config.key)?;
    records.retain(|r| r.deal < config.deals);
    let mut test = sprt.map(MatchSprt::new);
    if let Some(test) = &mut test {
        // The test takes deals in deal order whatever order the file holds the games in.
        for record in &records {
            test.add(record);
        }
    }
    let decided = |test: &Option<MatchSprt>| test.as_ref().is_some_and(|t| t.decision().is_some());
    let done: HashSet<Task> = records
        .iter()
        .map(|r| Task {
            deal: r.deal,
            game: r.game,
        })
        .collect();
    let tasks = if decided(&test) {
        eprintln!(
            "{}: the SPRT had already decided; no game to play",
            path.display()
        );
        Vec::new()
    } else {
        config.tasks(&done)
    };
    if !done.is_empty() {
        eprintln!(
            "resuming from {}: {} games recorded, {} to play",
            path.display(),
            done.len(),
            tasks.len()
        );
    }
    let mut file = store::open_for_append(path)
        .with_context(|| format!("cannot open {} for writing", path.display()))?;
    let bar = super::progress_bar(quiet, config.deals as u64 * 2, done.len() as u64, "games");
    let mut write_error = None;
    config.run(&tasks, |mut record| {
        if let Some(test) = &mut test {
            test.add(&record);
            record.sprt = Some(test.status());
        }
        if write_error.is_none() {
            let line = serde_json::to_string(&record).expect("records serialise");
            if let Err(e) = writeln!(file, "{line}").and_then(|()| file.flush()) {
                write_error = Some(e);
            }
        }
        if !record.forfeits.is_empty() {
            for f in &record.forfeits {
                let player = if f.role == "order" {
                    &record.order
                } else {
                    &record.chaos
                };
                bar.suspend(|| {
                    eprintln!(
                        "deal {} game {}: {} ({}) forfeits on turn {}: {}: {}",
                        record.deal, record.game, player.name, f.role, f.turn, f.reason, f.detail
                    )
                });
            }
        }
        bar.inc(1);
        if let Some(status) = record.sprt {
            bar.set_message(format!(
                "  SPRT LLR {:+.2} ({:.2}, {:.2}) after {} deals",
                status.llr, status.lower, status.upper, status.deals
            ));
        }
        records.push(record);
        if write_error.is_some() || decided(&test) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e).with_context(|| format!("cannot write to {}", path.display()));
    }
    drop(file);
    // Every game played (or the test decided): a record named `.gz` is compressed now.
    store::seal(path).with_context(|| format!("cannot compress {}", path.display()))?;
    Ok((records, test.map(|t| t.status())))
}

pub fn default_path(key: &MatchKey) -> PathBuf {
    let slug = |spec: &PlayerSpec| -> String {
        let text: String = spec
            .short_label()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        text.trim_matches('_').chars().take(24).collect()
    };
    let [a, b] = &key.players;
    PathBuf::from(format!(
        "match-{}-vs-{}-s{}.jsonl",
        slug(a),
        slug(b),
        key.seed
    ))
}

/// The luck depth of the records already in the file (none: margins as played), or nothing
/// when it holds no record.
fn recorded_luck(path: &Path) -> Result<Option<Option<u32>>> {
    let file = read_records(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(file.records.first().map(|r| r.key.luck))
}

/// Reads the records already in the file, checking they belong to this match. Lines that cannot
/// be read (a game cut off mid-write) are dropped from the file, with a warning.
fn load_previous(path: &Path, key: &MatchKey) -> Result<Vec<GameRecord>> {
    let file = read_records(path).with_context(|| format!("cannot read {}", path.display()))?;
    if let Some(other) = file.records.iter().find(|r| &r.key != key) {
        bail!(
            "{} holds games of another match ({} vs {}, seed {}, clock {}, size {}, luck {}); \
             choose another file with --out, or start again with --fresh",
            path.display(),
            other.key.players[0],
            other.key.players[1],
            other.key.seed,
            other.key.clock_text(),
            other.key.size,
            other
                .key
                .luck
                .map_or("not measured".to_owned(), |d| format!("depth {d}"))
        );
    }
    if !file.problems.is_empty() {
        if file.sealed_problems {
            bail!(
                "{}: unreadable lines in the compressed part ({}); it is never rewritten: \
                 repair it, or start again with --fresh",
                path.display(),
                file.problems[0]
            );
        }
        for problem in &file.problems {
            eprintln!("warning: dropping unreadable {problem}");
        }
        let mut text = String::new();
        for record in &file.records[file.sealed..] {
            text.push_str(&serde_json::to_string(record).expect("records serialise"));
            text.push('\n');
        }
        store::rewrite_open(path, &text)
            .with_context(|| format!("cannot rewrite {}", path.display()))?;
    }
    Ok(file.records)
}

pub fn format_ci(ci: &Option<MeanCi>) -> String {
    match ci {
        None => "-".to_owned(),
        Some(ci) if ci.n < 2 => format!("{:.1}", ci.mean),
        Some(ci) => format!("{:.1} ± {:.1}", ci.mean, ci.half_width),
    }
}

/// Prints a match's summary: `entropy match` when it ends, `entropy records` from a file.
pub fn print_summary(
    key: &MatchKey,
    deals: u32,
    summary: &Summary,
    sprt: Option<&SprtStatus>,
    path: &Path,
) {
    println!(
        "{} (A) vs {} (B): {} deals x 2 games, seed {}, {} clock, {}x{} board",
        key.players[0].short_label(),
        key.players[1].short_label(),
        deals,
        key.seed,
        key.clock_text(),
        key.size,
        key.size
    );
    println!(
        "{:<3}{:>16}{:>22}{:>9}{:>9}{:>9}  {:<24}player",
        "", "S as Order", "S conceded as Chaos", "points", "s/game", "median", "forfeits"
    );
    for (label, player) in ["A", "B"].iter().zip(&summary.players) {
        let forfeits = if player.forfeits.is_empty() {
            "none".to_owned()
        } else {
            player
                .forfeits
                .iter()
                .map(|(kind, n)| format!("{kind} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!(
            "{label:<3}{:>16}{:>22}{:>9}{:>9.3}{:>9.3}  {forfeits:<24}{}",
            format_ci(&player.as_order),
            format_ci(&player.as_chaos),
            player.points,
            player.mean_seconds,
            player.median_seconds,
            player.name
        );
    }
    match &summary.paired {
        Some(ci) => {
            let [won, drawn, lost] = summary.deals_won_drawn_lost;
            let verdict = if ci.n < 2 {
                "too few deals for an interval"
            } else if ci.significant() {
                if ci.mean > 0.0 {
                    "A is stronger"
                } else {
                    "B is stronger"
                }
            } else {
                "no significant difference"
            };
            println!(
                "paired margin (A's S as Order - B's S as Order, same chips): {:+.1} ± {:.1} (95% CI, {} deals; A won {won}, drew {drawn}, lost {lost}): {verdict}",
                ci.mean, ci.half_width, ci.n
            );
        }
        None => println!("paired margin: no complete deal yet"),
    }
    if let (Some(ci), Some(depth)) = (&summary.adjusted, key.luck) {
        println!(
            "less the draws' luck (valued by a depth-{depth} search; the same mean, less noise): {:+.1} ± {:.1} (95% CI, sd {:.1} where the margins as played have {:.1})",
            ci.mean,
            ci.half_width,
            ci.sd,
            summary.paired.as_ref().map_or(f64::NAN, |p| p.sd)
        );
    }
    if let Some(status) = sprt {
        let on = if key.luck.is_some() {
            "margins less the draws' luck"
        } else {
            "margins as played"
        };
        // The line as the Ray runner prints it, then which margins it counted.
        println!("{}", status.line());
        println!("  (the SPRT counts the {on})");
    }
    println!("records: {} ({} games)", path.display(), summary.games);
}
