//! `entropy teacher-data`: the searcher's decisions as one policy network's targets, both roles.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use entropy_arena::deal::shuffled_bag;
use entropy_core::{Role, Size};
use entropy_engine::learned::BotEval;
use entropy_engine::make_bot;
use entropy_engine::search::Searcher;
use entropy_train::saved::play_saved;
use entropy_train::teacher::{teacher_game, Opponent, TeacherConfig};

/// Write teacher data for one policy network for both roles: the default bot's searcher
/// analyses each of its decisions (`--nodes` positions each), and every decision is written as
/// one line: the game, its final score, the move played and the `--top` best moves with Order's
/// expected final score after each (the analysis's calibrated values, a soft target over the
/// moves and the position's value), then the position.
///
/// A line: `GAME FINAL PLAYED ACTION:VALUE,...[ greedy] | POSITION`, moves as the learning
/// environment's action numbers (docs/python.md), `greedy` where the searcher read its
/// opponent as the greedy bot, the position in the text notation (`entropy score`'s); each
/// game ends with `end GAME`.
///
/// Games cycle through self-play (both roles recorded) and one game against each
/// `--opponent` (the searcher's role alone recorded, Order and Chaos in turn). Against an
/// opponent the searcher watches it as the `policy` agent does; as Chaos, once Order reads as
/// greedy, it searches as the default bot then does (Order greedy below the root). With
/// `--explore`, a decision now and then plays a random legal move, and `--temperature` draws
/// the move played among the best moves, so the positions are not all the searcher's own line.
/// Game i is played on deal `--seed + i` (the deals of `entropy match --seed`); each game is
/// written as it ends, and the same command resumes an interrupted run (a larger `--games` adds
/// games). The data are the same on any number of `--jobs`.
#[derive(clap::Args)]
pub struct Args {
    /// Games in all.
    #[arg(long, default_value_t = 3000)]
    games: usize,
    /// Positions each analysis may visit.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// The best moves valued at each decision.
    #[arg(long, default_value_t = 8)]
    top: usize,
    /// The chance that a decision plays a random legal move instead of the searcher's.
    #[arg(long, default_value_t = 0.05)]
    explore: f64,
    /// Points: the move played is drawn among the best moves, the weights falling by e every
    /// this many points a move loses against the best (0: always the best).
    #[arg(long, default_value_t = 1.0)]
    temperature: f64,
    /// A bot that plays one game in turn against the searcher (any built-in bot with options,
    /// e.g. greedy or expecti:depth=2); may be given more than once.
    #[arg(long, value_name = "BOT")]
    opponent: Vec<String>,
    /// The first game's deal seed, and the seed of the exploration.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once [default: the number of CPUs].
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Where to write the decisions (and resume from).
    #[arg(long, default_value = "teacher.txt")]
    out: PathBuf,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    if args.games == 0 || args.nodes == 0 || args.top == 0 {
        bail!("--games, --nodes and --top must be at least 1");
    }
    if !(0.0..=1.0).contains(&args.explore) {
        bail!("--explore must be a chance in [0, 1], not {}", args.explore);
    }
    if !(args.temperature >= 0.0 && args.temperature.is_finite()) {
        bail!(
            "--temperature must be 0 or more points, not {}",
            args.temperature
        );
    }
    for name in &args.opponent {
        make_bot(name, args.seed).map_err(|e| anyhow::anyhow!("--opponent: {e}"))?;
    }
    super::make_folder_of(&args.out)?;
    let mut settings = format!(
        "entropy teacher-data --seed {} --nodes {} --top {} --explore {} --temperature {}",
        args.seed, args.nodes, args.top, args.explore, args.temperature
    );
    for name in &args.opponent {
        settings += &format!(" --opponent {name}");
    }
    let config = TeacherConfig {
        size: Size::SEVEN,
        seed: args.seed,
        nodes: args.nodes,
        top: args.top,
        explore: args.explore,
        temperature: args.temperature,
    };
    // Self-play, then each opponent in turn; against an opponent the searcher is Order, and
    // Chaos the next time round.
    let slots = args.opponent.len() + 1;
    let play = |game: usize| {
        let deal = shuffled_bag(config.size, args.seed + game as u64);
        let mut searcher = Searcher::new(BotEval::shipped(), 16);
        match (game % slots).checked_sub(1) {
            None => teacher_game(&mut searcher, &config, game, &deal, Opponent::SelfPlay),
            Some(slot) => {
                let mut bot = make_bot(&args.opponent[slot], args.seed + game as u64)
                    .map_err(|e| e.to_string())?;
                let role = if (game / slots) % 2 == 0 {
                    Role::Order
                } else {
                    Role::Chaos
                };
                let opponent = Opponent::Bot(bot.as_mut(), role);
                teacher_game(&mut searcher, &config, game, &deal, opponent)
            }
        }
    };
    let bar = super::progress_bar(args.quiet, args.games as u64, 0, "games");
    let started = Instant::now();
    let jobs = super::jobs_or_cpus(args.jobs);
    let decisions = play_saved(&args.out, &settings, args.games, jobs, &play, &|| {
        bar.inc(1)
    })
    .map_err(|e| anyhow::anyhow!("teacher data in {}: {e}", args.out.display()))?;
    bar.finish_and_clear();
    println!(
        "{} games, {} decisions in {} ({:.0} s)",
        args.games,
        decisions.len(),
        args.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
