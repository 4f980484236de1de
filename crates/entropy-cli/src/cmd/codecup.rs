//! `entropy codecup`: play one game with the CodeCup 2023 referee on stdin/stdout.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use entropy_core::Position;
use entropy_engine::{make_bot, Budget};
use entropy_protocol::codecup::{Next, Session};

/// Play one game of the CodeCup 2023 protocol on standard input and output.
///
/// Chaos reads `Start`, then the colour of each chip (`3`) and answers a cell (`Bc`); from the
/// second turn it first reads Order's move. Order's first line is already a placement (`3Bc`)
/// and it answers a move (`BcBg`; a chip moved onto its own cell passes). The game ends on
/// `Quit`. Every answer is flushed at once; anything else is written to standard error.
#[derive(clap::Args)]
pub struct Args {
    /// The built-in bot that plays (see `entropy bots`); options after a colon, e.g.
    /// `search:nodes=20000` for reproducible play.
    #[arg(long, default_value = "search")]
    bot: String,
    /// Seconds of thinking time for the whole game (CodeCup allows 30).
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    time_budget: f64,
    /// Seed for the bot's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Describe every move on standard error.
    #[arg(long, short)]
    verbose: bool,
}

/// Time kept back from the game's budget for what the referee's clock counts and the program
/// cannot see: its start and every move's trip through the pipes. Measured against the arena's
/// referee at `--clock 3`: the referee counted 0.10-0.13 s a game more than the program did
/// (2-3 ms a decision), more with two games at once, and programs that planned to end with
/// the search's 50 ms margin lost on time near the end. So 0.1 s for the start, and 4 ms for
/// each decision left (about 0.3 s of a 30 s game, all told).
fn referee_margin(position: &Position) -> Duration {
    let decisions_left = position.board().vacant_count() as u32;
    Duration::from_millis(100) + Duration::from_millis(4) * decisions_left
}

pub fn run(args: Args) -> Result<ExitCode> {
    if !(args.time_budget.is_finite() && args.time_budget > 0.0) {
        bail!(
            "--time-budget must be a positive number of seconds, not {}",
            args.time_budget
        );
    }
    let budget = Duration::from_secs_f64(args.time_budget);
    let mut bot = make_bot(&args.bot, args.seed)?;
    let mut session = Session::new();
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    let mut used = Duration::ZERO;
    let mut started = false;
    for line in stdin.lock().lines() {
        let line = line.context("cannot read standard input")?;
        let received = Instant::now();
        let next = session
            .receive(&line)
            .with_context(|| format!("the referee's line {line:?} does not fit the game"))?;
        if !started {
            if let Some(role) = session.role() {
                bot.new_game(session.position().size(), role);
                started = true;
            }
        }
        match next {
            Next::Quit => {
                if args.verbose {
                    eprintln!(
                        "Quit; score now {}; {:.3} s used",
                        session.position().score(),
                        used.as_secs_f64()
                    );
                }
                return Ok(ExitCode::SUCCESS);
            }
            Next::Read => continue,
            Next::Answer => {
                let position = *session.position();
                let left = budget
                    .saturating_sub(used)
                    .saturating_sub(referee_margin(&position));
                let mv = bot.choose(
                    &position,
                    Budget {
                        game_left: left,
                        per_move: None,
                    },
                );
                let answer = session
                    .answer(mv)
                    .with_context(|| format!("bot {} chose an illegal move", args.bot))?;
                writeln!(stdout, "{answer}")?;
                stdout.flush().context("cannot write to standard output")?;
                used += received.elapsed();
                if args.verbose {
                    eprintln!(
                        "turn {:>2}: {answer} (score {}, {:.3} s used)",
                        session.position().placed(),
                        session.position().score(),
                        used.as_secs_f64()
                    );
                }
            }
        }
    }
    bail!("standard input ended before Quit")
}
