//! `entropy match`: the arena.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use entropy_arena::luck;
use entropy_arena::player::PlayerSpec;
use entropy_arena::record::MatchKey;
use entropy_arena::recorded::recorded_luck;
use entropy_arena::sprt::SprtConfig;
use entropy_arena::stats::{summarize, summary_text};
use entropy_arena::store;
use entropy_arena::tournament::MatchConfig;

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
    let jobs = super::jobs_or_cpus(args.jobs);
    let default_deals = if sprt.is_some() { 1000 } else { 100 };
    let path = args.out.clone().unwrap_or_else(|| default_path(&key));
    if args.fresh {
        store::remove(&path).with_context(|| format!("cannot delete {}", path.display()))?;
    }
    // A resumed match keeps the luck depth its records were made with unless told otherwise.
    let luck = match args.luck {
        Some(depth) => Some(depth),
        None => recorded_luck(&path)
            .map_err(anyhow::Error::msg)?
            .unwrap_or(Some(luck::DEFAULT_DEPTH)),
    };
    let config = MatchConfig {
        key: key.with_luck(luck),
        deals: args.deals.unwrap_or(default_deals),
        jobs,
    };
    let (records, sprt) = super::play_with_progress(&config, &path, sprt, args.quiet)?;
    let summary = summarize(&records);
    let record = path.display().to_string();
    print!(
        "{}",
        summary_text(&config.key, config.deals, &summary, sprt.as_ref(), &record)
    );
    Ok(ExitCode::SUCCESS)
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
