//! `entropy policy-data`: teacher data for the policy network `pnet`.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use entropy_arena::deal::shuffled_bag;
use entropy_core::Role;
use entropy_engine::eval::LinearEval;
use entropy_engine::make_bot;
use entropy_engine::search::model::OpponentModel;
use entropy_engine::search::Searcher;
use entropy_train::policy::{
    label_bytes, open_at, policy_games, policy_planes, resume_log, GameBots, PolicyDataConfig,
};

/// Write teacher data for the policy network (`pnet`): the searcher plays itself and each
/// decision of one role is written as its input planes and the move the searcher chose.
///
/// Three files: PREFIX.x (each decision's planes, little-endian f32: 21 planes of the board for
/// Chaos, 42 for Order), PREFIX.y (each decision's move: a cell, one byte, for Chaos; a slide
/// index, two bytes, for Order) and PREFIX.games (the settings, then a line per game: its deal
/// seed and decisions). Game i is played on deal `--first-seed + i` (the deals of `entropy
/// match --seed`), games are written in order as they finish, and running the same command
/// again resumes after the last whole game (a larger `--games` adds games). Then train with
/// `python -m hyle_entropy.placement_net train --data PREFIX`.
#[derive(clap::Args)]
pub struct Args {
    /// Whose decisions: chaos (placements) or order (slides).
    #[arg(long, default_value = "chaos", value_parser = ["chaos", "order"])]
    role: String,
    /// Games in all.
    #[arg(long, default_value_t = 3000)]
    games: usize,
    /// Positions each of the teacher's searches visits.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// The first game's deal seed.
    #[arg(long, default_value_t = 0)]
    first_seed: u64,
    /// Threads [default: the number of CPUs].
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Where to write PREFIX.x, PREFIX.y and PREFIX.games (and resume from).
    #[arg(long, default_value = "policy")]
    out: PathBuf,
    /// A bot that labels the role's decisions (and plays them, unless a student does) instead
    /// of the searcher, e.g. `spoiler` against `--opponent greedy` (it simulates greedy's
    /// reply). Made afresh for each game, with the game's deal seed.
    #[arg(long, value_name = "BOT")]
    teacher: Option<String>,
    /// A bot that plays the role instead of the teacher, every one of its decisions labelled
    /// with the teacher's move (DAgger): e.g. `pnet` in a `--features onnx` build, so that the
    /// examples come from the positions the trained policy reaches. Made afresh for each game,
    /// with the game's deal seed.
    #[arg(long, value_name = "BOT")]
    student: Option<String>,
    /// A bot that plays the other role instead of the teacher (made afresh for each game, with
    /// the game's deal seed): examples from games against another kind of player, e.g.
    /// `greedy`.
    #[arg(long, value_name = "BOT")]
    opponent: Option<String>,
    /// The teacher searches as if the other role played greedily (the model the searcher
    /// switches to once it has read a greedy opponent): with `--opponent greedy`, examples of
    /// how to exploit it.
    #[arg(long)]
    assume_greedy: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let role = if args.role == "order" {
        Role::Order
    } else {
        Role::Chaos
    };
    let size = entropy_core::Size::SEVEN;
    let file = |suffix: &str| {
        let mut name = args.out.clone().into_os_string();
        name.push(format!(".{suffix}"));
        PathBuf::from(name)
    };
    let bots = [
        ("--teacher", &args.teacher),
        ("--student", &args.student),
        ("--opponent", &args.opponent),
    ];
    for (option, name) in bots {
        if let Some(name) = name {
            make_bot(name, args.first_seed).map_err(|e| anyhow::anyhow!("{option}: {e}"))?;
        }
    }
    let mut settings = format!(
        "# entropy policy-data --role {role} --nodes {} --first-seed {}",
        args.nodes, args.first_seed
    );
    if let Some(name) = &args.teacher {
        settings += &format!(" --teacher {name}");
    }
    if let Some(name) = &args.student {
        settings += &format!(" --student {name}");
    }
    if let Some(name) = &args.opponent {
        settings += &format!(" --opponent {name}");
    }
    if args.assume_greedy {
        settings += " --assume-greedy";
    }
    // The searcher's model of the other role, below the root of each of its searches.
    let model = OpponentModel {
        greedy_order: args.assume_greedy && role == Role::Chaos,
        greedy_chaos: args.assume_greedy && role == Role::Order,
        ..OpponentModel::default()
    };
    let fresh = !file("games").exists();
    for data in [file("x"), file("y")] {
        if fresh && data.metadata().is_ok_and(|m| m.len() > 0) {
            bail!(
                "{} holds data but {} is missing: choose another --out (nothing was changed)",
                data.display(),
                file("games").display()
            );
        }
    }
    let done =
        resume_log(&file("games"), &settings, args.first_seed).map_err(anyhow::Error::msg)?;
    let decisions: usize = done.iter().sum();
    let example_bytes = (policy_planes(role) * size.cells() * 4) as u64;
    let mut planes =
        open_at(&file("x"), decisions as u64 * example_bytes).map_err(anyhow::Error::msg)?;
    let mut labels =
        open_at(&file("y"), (decisions * label_bytes(role)) as u64).map_err(anyhow::Error::msg)?;
    let mut games = OpenOptions::new()
        .create(true)
        .append(true)
        .open(file("games"))
        .with_context(|| format!("cannot open {}", file("games").display()))?;
    if done.is_empty() {
        writeln!(games, "{settings}")?;
    }
    let start = done.len();
    if start >= args.games {
        println!(
            "{} already holds {start} games ({decisions} decisions): nothing to do",
            file("games").display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let bar = super::progress_bar(args.quiet, args.games as u64, start as u64, "games");
    bar.reset_eta();
    let jobs = super::jobs_or_cpus(args.jobs);
    let started = Instant::now();
    let mut written = decisions;
    let config = PolicyDataConfig {
        size,
        games: args.games - start,
        jobs,
        nodes: args.nodes,
        role,
    };
    policy_games(
        config,
        || {
            let mut teacher = Searcher::new(LinearEval::trained(), 16);
            teacher.set_model(model);
            teacher
        },
        |i| {
            // Each name was made once above, so making it again succeeds.
            let bot = |name: &Option<String>| {
                make_bot(name.as_deref()?, args.first_seed + (start + i) as u64).ok()
            };
            GameBots {
                teacher: bot(&args.teacher),
                student: bot(&args.student),
                opponent: bot(&args.opponent),
            }
        },
        |i| shuffled_bag(size, args.first_seed + (start + i) as u64),
        |i, game| -> Result<()> {
            // The game's line goes last: a game counts only once its examples are written.
            planes.write_all(&game.plane_bytes())?;
            labels.write_all(&game.labels)?;
            planes.flush()?;
            labels.flush()?;
            let seed = args.first_seed + (start + i) as u64;
            writeln!(games, "{seed} {}", game.decisions)?;
            written += game.decisions;
            bar.inc(1);
            Ok(())
        },
    )
    .with_context(|| format!("policy data for {}.* stopped", args.out.display()))?;
    bar.finish_and_clear();
    println!(
        "{} games, {written} {role} decisions in {}.x / .y ({:.0} s for {} new games)",
        args.games,
        args.out.display(),
        started.elapsed().as_secs_f64(),
        args.games - start
    );
    Ok(ExitCode::SUCCESS)
}
