//! `entropy train-net`: train the learned agent's n-tuple evaluation by self-play.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use entropy_core::Size;
use entropy_engine::eval::LinearEval;
use entropy_engine::eval::Weights;
use entropy_engine::learned::{load_model, NTupleEval, NTupleModel};
use entropy_engine::search::Searcher;
use entropy_train::distill::{
    fit_teacher_data, teacher_data, DistillConfig, FitConfig, DISTILL_CURVE_HEADER,
};
use entropy_train::td::{feature_scales, resume_run, train, TdConfig, TD_CURVE_HEADER};

/// Train the learned agent (`net`): TD(0) on afterstates in self-play.
///
/// Both roles play one move ahead over the current n-tuple evaluation (per-line pattern tables
/// plus linear features); each position after a move learns the value of the best position
/// the opponent reaches next. Games run in batches on `--jobs` threads with the weights frozen,
/// and each batch's updates are applied in game order, so the weights depend on the seed, not
/// on the number of threads.
///
/// The weights are written to `--out` after every evaluation (every `--eval-every` games) with
/// the games done; run the same command again to resume an interrupted run. Each evaluation
/// plays `--eval-deals` deals against greedy in both roles and appends a line to `--curve`
/// (CSV). With the defaults it reproduces the shipped weights
/// (crates/entropy-engine/weights/net7.bin).
#[derive(clap::Args)]
pub struct Args {
    /// Seed of the chip orders and exploring moves.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Self-play games in all.
    #[arg(long, default_value_t = 200_000)]
    games: usize,
    /// Games played with frozen weights before their updates are applied.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Step size at the start (share of each error corrected).
    #[arg(long, default_value_t = 0.05)]
    rate: f32,
    /// Step size at the end (it falls linearly).
    #[arg(long, default_value_t = 0.005)]
    rate_end: f32,
    /// Chance of a random move instead of the best one.
    #[arg(long, default_value_t = 0.02)]
    explore: f64,
    /// Other afterstates of each decision, chosen at random, that learn their own targets.
    #[arg(long, default_value_t = 2)]
    candidates: usize,
    /// Games between evaluations (and checkpoints).
    #[arg(long, default_value_t = 10_000)]
    eval_every: usize,
    /// Deals played against greedy at each evaluation (both roles on each).
    #[arg(long, default_value_t = 100)]
    eval_deals: usize,
    /// Threads [default: the number of CPUs].
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Where to write the weights (and resume from).
    #[arg(long, default_value = "net.bin")]
    out: PathBuf,
    /// The learning curve, one CSV line per evaluation.
    #[arg(long, default_value = "net-curve.csv")]
    curve: PathBuf,
    /// How to learn: `distill` (the searcher's values of afterstates: expert iteration, the
    /// default) or `td` (temporal differences in self-play of the agent itself).
    #[arg(long, default_value = "distill")]
    method: String,
    /// distill: self-play games of the teacher (the searcher with the linear evaluation).
    #[arg(long, default_value_t = 1200)]
    teacher_games: usize,
    /// distill: positions each of the teacher's searches visits.
    #[arg(long, default_value_t = 2000)]
    teacher_nodes: u64,
    /// distill: other afterstates of each decision that learn their own targets, chosen as the
    /// ones the linear evaluation likes best after the teacher's choice (besides the
    /// `--candidates` chosen at random).
    #[arg(long, default_value_t = 0)]
    best_candidates: usize,
    /// distill: value each afterstate where a chip is to be drawn by the mean over the bag's
    /// colours of the searches after it (the exact expectation, a search per colour) instead
    /// of one search after a chip drawn at random.
    #[arg(long)]
    average_draws: bool,
    /// distill: value the teacher's played move like the other afterstates (a search of its
    /// own after it); `--consistent false` takes its root search's value instead, which comes
    /// from a shallower search and is biased against the played move.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    consistent: bool,
    /// distill: search all the afterstates of a decision to one depth (the one the first
    /// search completes within `--teacher-nodes`), so that their leaves fall in the same phase
    /// and the order of their targets does not carry the evaluation's bias between phases.
    #[arg(long)]
    same_depth: bool,
    /// distill: choose the `--best-candidates` by this `net` model's evaluation instead of the
    /// linear one (a round of expert iteration: the afterstates a trained agent would pick are
    /// the ones whose errors decide its play).
    #[arg(long, value_name = "NET_FILE")]
    candidates_from: Option<PathBuf>,
    /// distill: step size of a pass of pairwise (ranking) steps after each epoch: the
    /// difference of the values of two afterstates of one decision moves towards the
    /// difference of their targets; 0: none.
    #[arg(long, default_value_t = 0.0)]
    pairwise: f32,
    /// distill: passes over the teacher's data.
    #[arg(long, default_value_t = 4)]
    epochs: usize,
    /// td: Chaos is greedy and only Order learns (values of what Order can expect against
    /// greedy, for playing Order once the opponent reads as greedy); the same as `--chaos
    /// greedy`.
    #[arg(long, conflicts_with = "chaos")]
    greedy_chaos: bool,
    /// td: this bot plays Chaos and only Order learns (values of what Order can expect
    /// against it); given several times, each game's Chaos is one of them, chosen by the
    /// game's seed. Bots that watch their opponent must not watch (`search:depth=1,watch=0`):
    /// they are also asked about the candidate moves' positions.
    #[arg(long, value_name = "BOT")]
    chaos: Vec<String>,
    /// td: start from this `net` model (e.g. the shipped crates/entropy-engine/weights/net7.bin)
    /// instead of the linear evaluation with empty tables.
    #[arg(long, value_name = "NET_FILE")]
    init: Option<PathBuf>,
    /// Start afresh even if `--out` holds a run of the same settings.
    #[arg(long)]
    fresh: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.method.as_str() {
        "td" => run_td(args),
        "distill" => run_distill(args),
        other => bail!("unknown --method {other:?}: use distill or td"),
    }
}

/// Expert iteration: the searcher's values of afterstates, fitted by the model.
fn run_distill(args: Args) -> Result<ExitCode> {
    if args.teacher_games == 0 || args.teacher_nodes == 0 || args.epochs == 0 {
        bail!("--teacher-games, --teacher-nodes and --epochs must be at least 1");
    }
    let jobs = super::jobs_or_cpus(args.jobs);
    if args.candidates_from.is_some() && args.best_candidates == 0 {
        bail!("--candidates-from chooses the --best-candidates: give --best-candidates N too");
    }
    let candidate_model = match &args.candidates_from {
        Some(path) => Some(NTupleEval::new(read_model("--candidates-from", path)?)),
        None => None,
    };
    let config = DistillConfig {
        seed: args.seed,
        games: args.teacher_games,
        nodes: args.teacher_nodes,
        candidates: args.candidates,
        average_draws: args.average_draws,
        consistent: args.consistent,
        same_depth: args.same_depth,
        candidate_model,
        best_candidates: args.best_candidates,
        jobs,
        size: Size::SEVEN,
    };
    let settings = format!(
        "entropy train-net --method distill --seed {} --teacher-games {} --teacher-nodes {} --candidates {} --epochs {} --rate {} --rate-end {}",
        args.seed, args.teacher_games, args.teacher_nodes, args.candidates, args.epochs, args.rate, args.rate_end
    ) + if args.average_draws { " --average-draws" } else { "" }
        + if args.consistent { "" } else { " --consistent false" }
        + if args.same_depth { " --same-depth" } else { "" }
        + &match &args.candidates_from { Some(p) => format!(" --candidates-from {}", p.display()), None => String::new() }
        + &if args.best_candidates > 0 { format!(" --best-candidates {}", args.best_candidates) } else { String::new() }
        + &if args.pairwise > 0.0 { format!(" --pairwise {}", args.pairwise) } else { String::new() };
    let started = Instant::now();
    let bar = super::progress_bar(args.quiet, args.teacher_games as u64, 0, "teacher games");
    let data = teacher_data(&config, || Searcher::new(LinearEval::trained(), 4), &|| {
        bar.inc(1)
    });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{} afterstates valued by the teacher in {seconds:.0} s ({:.0} decisions/s)",
        data.len(),
        data.len() as f64 / (args.candidates + 1) as f64 / seconds
    );
    let mut file = std::fs::File::create(&args.curve)
        .with_context(|| format!("cannot write {}", args.curve.display()))?;
    writeln!(file, "{DISTILL_CURVE_HEADER}")?;
    let fit_config = FitConfig {
        seed: args.seed,
        games: args.teacher_games,
        epochs: args.epochs,
        rate: args.rate,
        rate_end: args.rate_end,
        eval_deals: args.eval_deals,
        jobs,
        size: config.size,
        pairwise: args.pairwise,
    };
    fit_teacher_data(&data, &fit_config, |report, model| -> Result<()> {
        let seconds = started.elapsed().as_secs_f64();
        writeln!(file, "{}", report.csv_line(seconds))?;
        println!("{}", report.line());
        if report.epoch > 0 {
            let mut model = model.clone();
            model.set_provenance(&format!(
                "made by: {settings}\nepochs done: {}",
                report.epoch
            ));
            super::write_atomically(&args.out, &model.to_bytes())?;
        }
        Ok(())
    })?;
    println!("weights written to {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

/// Temporal differences in the agent's own self-play.
fn run_td(args: Args) -> Result<ExitCode> {
    if args.games == 0 || args.batch == 0 || args.eval_every == 0 {
        bail!("--games, --batch and --eval-every must be at least 1");
    }
    if !(0.0..1.0).contains(&args.explore) || args.rate <= 0.0 || args.rate_end <= 0.0 {
        bail!("--explore must be in [0, 1) and the rates positive");
    }
    let config = TdConfig {
        seed: args.seed,
        games: args.games,
        batch: args.batch,
        jobs: super::jobs_or_cpus(args.jobs),
        rate: args.rate,
        rate_end: args.rate_end,
        explore: args.explore,
        candidates: args.candidates,
        size: Size::SEVEN,
        chaos: if args.greedy_chaos {
            vec!["greedy".to_owned()]
        } else {
            args.chaos.clone()
        },
    };
    if let Err(e) = entropy_train::td::check_chaos(&config.chaos) {
        bail!("--chaos: {e}");
    }
    let mut settings = format!(
        "entropy train-net --method td --seed {} --games {} --batch {} --rate {} --rate-end {} --explore {} --candidates {} --eval-every {}",
        args.seed, args.games, args.batch, args.rate, args.rate_end, args.explore, args.candidates, args.eval_every
    );
    if args.greedy_chaos {
        settings += " --greedy-chaos";
    }
    for name in &args.chaos {
        settings += &format!(" --chaos {name}");
    }
    if let Some(path) = &args.init {
        settings += &format!(" --init {}", path.display());
    }
    let (mut model, done) = match resume(&args, &settings)? {
        Some(state) => state,
        None => {
            let model = match &args.init {
                Some(path) => read_model("--init", path)?,
                None => {
                    let (mean, scale) = feature_scales(&config, 200);
                    NTupleModel::zero(7, Weights::trained(), mean, scale)
                }
            };
            let mut file = std::fs::File::create(&args.curve)
                .with_context(|| format!("cannot write {}", args.curve.display()))?;
            writeln!(file, "{TD_CURVE_HEADER}")?;
            (model, 0)
        }
    };
    if done > 0 {
        println!("resuming from {} after {done} games", args.out.display());
    }
    let bar = super::progress_bar(
        args.quiet,
        args.games as u64,
        done as u64,
        "self-play games  {per_sec}",
    );
    train(
        &mut model,
        &config,
        done,
        args.eval_every,
        args.eval_deals,
        |games| bar.set_position(games as u64),
        |report, model| -> Result<()> {
            bar.set_message(format!(
                "  vs greedy: {:.1} as Order, {:.1} conceded",
                report.as_order, report.conceded
            ));
            bar.suspend(|| {
                println!(
                    "{} games: {:.0} decisions/s, TD error {:.2}, self-play {:.1}; vs greedy {:.1} as Order, {:.1} conceded as Chaos ({} deals)",
                    report.games,
                    report.decisions_per_second,
                    report.td_error,
                    report.self_play,
                    report.as_order,
                    report.conceded,
                    args.eval_deals
                )
            });
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .open(&args.curve)
                .with_context(|| format!("cannot append to {}", args.curve.display()))?;
            writeln!(file, "{}", report.csv_line())?;
            let mut model = model.clone();
            model.set_provenance(&format!("made by: {settings}\ndone: {}", report.games));
            super::write_atomically(&args.out, &model.to_bytes())
        },
    )?;
    bar.finish_and_clear();
    println!(
        "weights written to {} after {} games",
        args.out.display(),
        args.games
    );
    Ok(ExitCode::SUCCESS)
}

/// The `net` model in the file an option names.
fn read_model(option: &str, path: &std::path::Path) -> Result<NTupleModel> {
    load_model(&path.to_string_lossy()).map_err(|e| anyhow::anyhow!("{option}: {e}"))
}

/// The model and games done of an earlier run of the same settings in `--out`, if any.
fn resume(args: &Args, settings: &str) -> Result<Option<(NTupleModel, usize)>> {
    if args.fresh {
        return Ok(None);
    }
    let state = resume_run(&args.out, settings).map_err(anyhow::Error::msg)?;
    if state.is_some() && !args.curve.exists() {
        bail!(
            "{} is missing: cannot resume the learning curve",
            args.curve.display()
        );
    }
    Ok(state)
}
