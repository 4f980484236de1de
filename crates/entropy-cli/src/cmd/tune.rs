//! `entropy tune`: SPSA over the searching bot's numeric options, on paired deals.

use std::fs::{self, OpenOptions};
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use entropy_arena::player::PlayerSpec;
use entropy_arena::spsa::{
    play_iteration, resume_trajectory, trajectory_header, trajectory_row, tunable_params,
    tuned_spec, IterationGames, Spsa,
};
use entropy_engine::bots::TUNABLES;

/// Tune the searching bot's numeric options by SPSA (simultaneous perturbation stochastic
/// approximation), as fishtest and OpenBench tune chess engines.
///
/// Each iteration moves every option at once by plus or minus its current step, plays the two
/// players so made against each other on paired deals (each deal twice, roles swapped, the same
/// chips), and moves every option towards the side that won, by the paired margin in points
/// (each score less its luck in the draws, as `entropy match` measures it by default). The
/// steps and the learning rate shrink on fishtest's schedule (crates/entropy-arena/src/spsa.rs).
///
/// Every iteration is appended to a CSV file as it ends (the iteration, the margin, both
/// players' values and the estimates after it); running the same command again resumes from the
/// last line. `python3 scripts/plot_tune.py FILE.csv` draws the trajectory. A tuned set becomes
/// the default only by passing the test ladder (docs/testing.md):
/// `scripts/sprt.sh search:weak=X,greedy=Y search stc`.
///
/// The options it knows (`--param NAME` or `NAME=START`): see `--list`.
#[derive(clap::Args)]
pub struct Args {
    /// An option to tune, as NAME or NAME=START (repeat for each) [default: every tunable, from
    /// its default].
    #[arg(long = "param", value_name = "NAME[=START]")]
    params: Vec<String>,
    /// List the options it can tune, with their defaults, ranges and steps, and stop.
    #[arg(long)]
    list: bool,
    /// The planned number of iterations (the schedule's horizon): the run stops there.
    #[arg(long, default_value_t = 500, value_name = "N")]
    iterations: u32,
    /// Paired deals per iteration (each is two games).
    #[arg(long, default_value_t = 1, value_name = "P")]
    pairs: u32,
    /// Each player's thinking time per game, in seconds.
    #[arg(long, default_value_t = 3.0, value_name = "SECONDS")]
    clock: f64,
    /// Search this many positions per move instead of playing to the clock (reproducible).
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// The player both sides start from: `search` or `search` with fixed options
    /// (`search:eval=linear`); the tuned options are appended to it.
    #[arg(long, default_value = "search", value_name = "SPEC")]
    base: String,
    /// The learning rate at the last iteration, per point of paired margin (fishtest's r_end).
    #[arg(long, default_value_t = 0.002, value_name = "R")]
    r_end: f64,
    /// Seed of the deals and of the perturbations.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The CSV file the trajectory is appended to [default: tune-NAMES.csv].
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Delete the file first instead of resuming.
    #[arg(long)]
    fresh: bool,
    /// Games played at the same time [default: the number of CPUs].
    #[arg(short, long)]
    jobs: Option<usize>,
}

/// Runs `entropy tune`.
pub fn run(args: Args) -> Result<ExitCode> {
    if args.list {
        print_list();
        return Ok(ExitCode::SUCCESS);
    }
    let spsa = schedule(&args)?;
    if !args.base.starts_with("search") {
        bail!(
            "--base {:?}: tune a searching bot (`search`, `search-hand`, with options)",
            args.base
        );
    }
    // The base must be a bot that exists with the tuned options given.
    let probe = PlayerSpec::Builtin(tuned_spec(
        &args.base,
        &spsa,
        &spsa.perturb(0).plus,
        args.nodes,
    ));
    probe
        .validate()
        .map_err(anyhow::Error::msg)
        .context("the tuned player")?;
    if !(args.clock.is_finite() && args.clock > 0.0) {
        bail!(
            "--clock must be a positive number of seconds, not {}",
            args.clock
        );
    }
    let path = args.out.clone().unwrap_or_else(|| {
        let names: Vec<&str> = spsa.params.iter().map(|p| p.name.as_str()).collect();
        PathBuf::from(format!("tune-{}.csv", names.join("-")))
    });
    if args.fresh && path.exists() {
        fs::remove_file(&path).with_context(|| format!("cannot delete {}", path.display()))?;
    }
    let settings = settings_line(&args, &spsa);
    let (mut spsa, start) =
        resume_trajectory(&path, spsa, &settings).map_err(anyhow::Error::msg)?;
    if start >= spsa.iterations {
        eprintln!(
            "{}: all {} iterations done",
            path.display(),
            spsa.iterations
        );
        print_result(&args, &spsa);
        return Ok(ExitCode::SUCCESS);
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("cannot open {} for writing", path.display()))?;
    if start == 0 {
        writeln!(file, "{settings}")?;
        writeln!(file, "{}", trajectory_header(&spsa))?;
    } else {
        eprintln!("resuming from {}: {start} iterations done", path.display());
    }
    let games = IterationGames {
        base: args.base.clone(),
        clock_ms: (args.clock * 1000.0).round().max(1.0) as u64,
        nodes: args.nodes,
        pairs: args.pairs,
        jobs: super::jobs_or_cpus(args.jobs),
    };
    let bar = super::progress_bar(false, spsa.iterations as u64, start as u64, "iterations");
    for k in start..spsa.iterations {
        let perturbation = spsa.perturb(k);
        let (margin, forfeits) = play_iteration(&games, &spsa, &perturbation);
        spsa.update(&perturbation, margin);
        writeln!(
            file,
            "{}",
            trajectory_row(&spsa, &perturbation, margin, forfeits)
        )?;
        file.flush()?;
        bar.set_message(format!("  {}", estimates(&spsa)));
        bar.inc(1);
    }
    bar.finish();
    print_result(&args, &spsa);
    Ok(ExitCode::SUCCESS)
}

/// The parameters asked for, at their starting values, with the schedule.
fn schedule(args: &Args) -> Result<Spsa> {
    if args.iterations == 0 || args.pairs == 0 {
        bail!("--iterations and --pairs must be at least 1");
    }
    if !(args.r_end.is_finite() && args.r_end > 0.0) {
        bail!("--r-end must be a positive number, not {}", args.r_end);
    }
    Ok(Spsa {
        params: tunable_params(&args.params).map_err(anyhow::Error::msg)?,
        iterations: args.iterations,
        r_end: args.r_end,
        seed: args.seed,
    })
}

/// The first line of the file: every setting that must match for a run to resume.
fn settings_line(args: &Args, spsa: &Spsa) -> String {
    let params: Vec<String> = spsa
        .params
        .iter()
        .map(|p| format!("{}={}", p.name, p.value))
        .collect();
    let limit = match args.nodes {
        Some(nodes) => format!("nodes={nodes}"),
        None => format!("clock={}", args.clock),
    };
    format!(
        "# entropy tune base={} {limit} pairs={} iterations={} r_end={} seed={} start={}",
        args.base,
        args.pairs,
        args.iterations,
        args.r_end,
        args.seed,
        params.join(",")
    )
}

fn estimates(spsa: &Spsa) -> String {
    let values: Vec<String> = spsa
        .params
        .iter()
        .map(|p| format!("{}={:.3}", p.name, p.value))
        .collect();
    values.join(" ")
}

fn print_result(args: &Args, spsa: &Spsa) {
    let values: Vec<f64> = spsa.params.iter().map(|p| p.playable(p.value)).collect();
    let spec = tuned_spec(&args.base, spsa, &values, None);
    println!(
        "estimates after {} iterations: {}",
        spsa.iterations,
        estimates(spsa)
    );
    println!("as a player: {spec}");
    println!(
        "before it becomes the default: scripts/sprt.sh '{spec}' {} stc",
        args.base
    );
}

fn print_list() {
    println!(
        "{:<6} {:>8} {:>14} {:>6}  what it sets",
        "name", "default", "range", "step"
    );
    for t in TUNABLES {
        let range = format!("{}..{}", t.min, t.max);
        println!(
            "{:<6} {:>8} {:>14} {:>6}  {}{}",
            t.name,
            t.default_value(),
            range,
            t.step,
            t.help,
            if t.integer { " (whole numbers)" } else { "" }
        );
    }
}
