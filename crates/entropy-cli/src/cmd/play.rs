//! `entropy play`: a person against a built-in bot in the terminal.

use std::io::{self, BufRead, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::{bail, Result};
use entropy_arena::deal::shuffled_bag;
use entropy_arena::review::side_review;
use entropy_core::notation::lenient;
use entropy_core::{Move, Phase, Position, Role};
use entropy_engine::learned::BotEval;
use entropy_engine::search::analysis::{eval_text, hint_text};
use entropy_engine::search::{Limits, Searcher};
use entropy_engine::{make_bot, Budget};

use entropy_core::notation::terminal as view;

/// Play a game against a built-in bot in the terminal.
///
/// Cells are written as on the board, row letter then column letter (`Bc`), or as in the bot
/// specification, row letter then column number (`b3`). As Chaos you type the cell for the
/// drawn chip; as Order you type a slide as two cells (`BcBg`, `Bc Bg` or `b3-b7`) or `pass`.
/// Other commands: `hint` (the best move and why), `eval` (the best moves with Order's expected
/// final score after each), `moves` lists your legal moves, `board` redraws, `help`, `quit`.
/// After the game, a short review: each side's three biggest mistakes by the searcher.
#[derive(clap::Args)]
pub struct Args {
    /// The role you play.
    #[arg(long, value_enum, default_value = "order")]
    role: RoleArg,
    /// The bot you play against (see `entropy bots`).
    #[arg(long, default_value = "greedy")]
    bot: String,
    /// Seed of the chip order and the bot [default: from the clock; printed so the game can be
    /// replayed].
    #[arg(long)]
    seed: Option<u64>,
    /// Board side: 7, or 5 for Entropy(5).
    #[arg(long, default_value_t = 7)]
    size: usize,
    /// No colours (also when output is not a terminal or NO_COLOR is set).
    #[arg(long)]
    no_color: bool,
    /// Positions the analyst searches for `hint` and `eval`.
    #[arg(long, default_value_t = 300_000, value_name = "N")]
    hint_nodes: u64,
    /// Positions the analyst searches per decision in the review after the game (0: no review).
    #[arg(long, default_value_t = 20_000, value_name = "N")]
    review_nodes: u64,
}

#[derive(Copy, Clone, clap::ValueEnum)]
enum RoleArg {
    Order,
    Chaos,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let size = super::parse_size(args.size)?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64 % 1_000_000)
    });
    let human = match args.role {
        RoleArg::Order => Role::Order,
        RoleArg::Chaos => Role::Chaos,
    };
    let mut bot = make_bot(&args.bot, seed)?;
    bot.new_game(size, human.opponent());
    let use_colour =
        !args.no_color && io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let deal = shuffled_bag(size, seed);
    let mut position = Position::new(size);
    // The moves since the person last moved, marked on the board.
    let mut recent: Vec<Move> = Vec::new();
    let mut input = io::stdin().lock();
    let mut analyst = Analyst {
        searcher: Searcher::new(BotEval::shipped(), 16),
        limits: Limits::nodes(args.hint_nodes.max(1)),
    };
    // Every move of the game, draws included, for the review.
    let mut history: Vec<Move> = Vec::new();
    println!(
        "Entropy({}): you are {human}, {} is {}. Seed {seed} (replay with --seed {seed}).",
        size.side(),
        args.bot,
        human.opponent()
    );
    println!(
        "Colours: {}. Type `help` for help.",
        view::legend(&position)
    );
    for chip in deal {
        position.play(Move::Draw(chip))?;
        history.push(Move::Draw(chip));
        for role in [Role::Chaos, Role::Order] {
            if position.is_over() {
                break;
            }
            let mv = if role == human {
                print!("{}", view::render(&position, &recent, use_colour));
                recent.clear();
                match ask(&mut input, &position, use_colour, &mut analyst)? {
                    Some(mv) => mv,
                    None => {
                        println!("Game abandoned. Replay it with --seed {seed}.");
                        return Ok(ExitCode::SUCCESS);
                    }
                }
            } else {
                let mv = bot.choose(&position, Budget::UNLIMITED);
                println!("{} ({role}) plays {}", args.bot, lenient::describe(mv));
                mv
            };
            position.play(mv)?;
            recent.push(mv);
            history.push(mv);
        }
    }
    print!("{}", view::render(&position, &recent, use_colour));
    println!("Game over: Order scores {}.", position.score());
    if args.review_nodes > 0 {
        review(
            &mut analyst.searcher,
            size,
            &history,
            args.review_nodes,
            human,
            &args.bot,
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The searcher that answers `hint` and `eval`.
struct Analyst {
    searcher: Searcher<BotEval>,
    limits: Limits,
}

impl Analyst {
    /// The best move and why, from a clean table so that `hint` and `eval` agree.
    fn hint(&mut self, position: &Position) -> String {
        self.searcher.clear();
        let analysis = self.searcher.analyse(position, self.limits, 2, None);
        hint_text(position, &analysis)
    }

    /// The best moves with their values.
    fn eval(&mut self, position: &Position) -> String {
        self.searcher.clear();
        let analysis = self.searcher.analyse(position, self.limits, 3, None);
        eval_text(position, &analysis)
    }
}

/// Prints each side's expected points given away and three biggest mistakes.
fn review(
    searcher: &mut Searcher<BotEval>,
    size: entropy_core::Size,
    history: &[Move],
    nodes: u64,
    human: Role,
    bot: &str,
) {
    println!("Review ({nodes} positions a decision):");
    // The game was played here move by move, so every move is legal.
    let decisions = searcher
        .review(&Position::new(size), history, Limits::nodes(nodes), |_| {})
        .decisions;
    for role in [Role::Order, Role::Chaos] {
        let who = if role == human { "you" } else { bot };
        println!("  {role} ({who}): {}", side_review(&decisions, role, 3));
    }
}

const HELP: &str = "\
Cells: row letter then column letter as on the board (Bc), or row letter then column number (b3).
As Chaos: type the cell for the drawn chip, e.g. Bc.
As Order: type a slide as two cells (BcBg, Bc Bg, b3-b7), or pass. A chip slides like a rook
through empty cells and may stop on any of them.
Commands: hint (the best move and why), eval (the best moves and Order's expected final score),
moves (your legal moves), board (draw it again), help, quit.";

/// Asks until the person types a legal move; `None` if they quit or input ends.
fn ask(
    input: &mut impl BufRead,
    position: &Position,
    use_colour: bool,
    analyst: &mut Analyst,
) -> Result<Option<Move>> {
    loop {
        match position.phase() {
            Phase::Place(colour) => print!(
                "You drew {}. Place it on: ",
                view::chip(colour, use_colour).trim()
            ),
            Phase::Slide => print!("Your move (slide like BcBg, or pass): "),
            phase => bail!("no decision for a person now: {phase}"),
        }
        io::stdout().flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            println!();
            return Ok(None);
        }
        let text = line.trim();
        match text.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "exit" => return Ok(None),
            "help" | "?" => {
                println!("{HELP}");
                continue;
            }
            "board" => {
                print!("{}", view::render(position, &[], use_colour));
                continue;
            }
            "hint" => {
                println!("{}", analyst.hint(position));
                continue;
            }
            "eval" => {
                println!("{}", analyst.eval(position));
                continue;
            }
            "moves" => {
                let moves: Vec<String> = position
                    .legal_moves()
                    .iter()
                    .map(|&m| lenient::describe(m))
                    .collect();
                println!("{} legal moves: {}", moves.len(), moves.join(", "));
                continue;
            }
            _ => {}
        }
        match lenient::parse_move(text, position) {
            Ok(mv) => match position.check(mv) {
                Ok(()) => return Ok(Some(mv)),
                Err(error) => println!("Not allowed: {error}. Try again (`moves` lists them)."),
            },
            Err(problem) => {
                println!("Cannot read {text:?}: {problem}. Type `help` for the notation.")
            }
        }
    }
}
