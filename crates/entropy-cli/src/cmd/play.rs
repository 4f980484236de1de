//! `entropy play`: a person against a built-in bot in the terminal.

use std::io::{self, BufRead, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::{bail, Result};
use entropy_arena::deal::shuffled_bag;
use entropy_core::{Cell, Move, Phase, Position, Role};
use entropy_engine::{make_bot, Budget};

use crate::view;

/// Play a game against a built-in bot in the terminal.
///
/// Cells are written as on the board, row letter then column letter (`Bc`), or as in the bot
/// specification, row letter then column number (`b3`). As Chaos you type the cell for the
/// drawn chip; as Order you type a slide as two cells (`BcBg`, `Bc Bg` or `b3-b7`) or `pass`.
/// Other commands: `moves` lists your legal moves, `board` redraws, `help`, `quit`.
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
        for role in [Role::Chaos, Role::Order] {
            if position.is_over() {
                break;
            }
            let mv = if role == human {
                print!("{}", view::render(&position, &recent, use_colour));
                recent.clear();
                match ask(&mut input, &position, use_colour)? {
                    Some(mv) => mv,
                    None => {
                        println!("Game abandoned. Replay it with --seed {seed}.");
                        return Ok(ExitCode::SUCCESS);
                    }
                }
            } else {
                let mv = bot.choose(&position, Budget::UNLIMITED);
                println!("{} ({role}) plays {}", args.bot, describe(mv));
                mv
            };
            position.play(mv)?;
            recent.push(mv);
        }
    }
    print!("{}", view::render(&position, &recent, use_colour));
    println!("Game over: Order scores {}.", position.score());
    Ok(ExitCode::SUCCESS)
}

fn describe(mv: Move) -> String {
    match mv {
        Move::Place { colour, cell } => format!("{} on {cell}", colour.letter()),
        Move::Slide { from, to } => format!("{from} to {to}"),
        Move::Pass => "pass".to_owned(),
        Move::Draw(colour) => format!("draw {}", colour.letter()),
    }
}

const HELP: &str = "\
Cells: row letter then column letter as on the board (Bc), or row letter then column number (b3).
As Chaos: type the cell for the drawn chip, e.g. Bc.
As Order: type a slide as two cells (BcBg, Bc Bg, b3-b7), or pass. A chip slides like a rook
through empty cells and may stop on any of them.
Commands: moves (your legal moves), board (draw it again), help, quit.";

/// Asks until the person types a legal move; `None` if they quit or input ends.
fn ask(input: &mut impl BufRead, position: &Position, use_colour: bool) -> Result<Option<Move>> {
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
            "moves" => {
                let moves: Vec<String> = position
                    .legal_moves()
                    .iter()
                    .map(|&m| describe(m))
                    .collect();
                println!("{} legal moves: {}", moves.len(), moves.join(", "));
                continue;
            }
            _ => {}
        }
        match read_move(text, position) {
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

/// Reads a cell leniently: row letter a-g in either case, then a column letter a-g or number 1-7.
fn read_cell(text: &str) -> Result<Cell, String> {
    let chars: Vec<char> = text.chars().collect();
    let [row, column] = chars[..] else {
        return Err(format!(
            "{text:?} is not a cell: write a row letter and a column, as Bc or b3"
        ));
    };
    let row = match row.to_ascii_lowercase() {
        r @ 'a'..='g' => r as usize - 'a' as usize,
        _ => return Err(format!("{row:?} is not a row: rows are A to G")),
    };
    let column = match column.to_ascii_lowercase() {
        c @ 'a'..='g' => c as usize - 'a' as usize,
        c @ '1'..='7' => c as usize - '1' as usize,
        _ => {
            return Err(format!(
                "{column:?} is not a column: columns are a to g (or 1 to 7)"
            ))
        }
    };
    Ok(Cell::new(row, column).expect("on the grid"))
}

/// Reads the person's move for the phase: a cell to place on, or a slide or `pass`.
fn read_move(text: &str, position: &Position) -> Result<Move, String> {
    match position.phase() {
        Phase::Place(colour) => Ok(Move::Place {
            colour,
            cell: read_cell(text)?,
        }),
        _ if text.eq_ignore_ascii_case("pass") => Ok(Move::Pass),
        _ => {
            let parts: Vec<&str> = text
                .split(|c: char| c == '-' || c.is_whitespace())
                .filter(|p| !p.is_empty())
                .collect();
            let (from, to) = match parts[..] {
                [both] if both.chars().count() == 4 => {
                    let split = both.char_indices().nth(2).map_or(both.len(), |(i, _)| i);
                    (&both[..split], &both[split..])
                }
                [from, to] => (from, to),
                _ => return Err("a slide is two cells, as BcBg or b3-b7, or type pass".to_owned()),
            };
            let (from, to) = (read_cell(from)?, read_cell(to)?);
            Ok(if from == to {
                Move::Pass
            } else {
                Move::Slide { from, to }
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use entropy_core::notation::text::parse_position;

    #[test]
    fn moves_are_read_in_every_notation() {
        let pos = parse_position("1....../......./......./......./......./......./....... slide")
            .unwrap();
        let slide = Move::Slide {
            from: Cell::new(0, 0).unwrap(),
            to: Cell::new(0, 3).unwrap(),
        };
        for text in ["AaAd", "Aa Ad", "a1-a4", "aa ad", "A1A4"] {
            assert_eq!(read_move(text, &pos), Ok(slide), "{text}");
        }
        assert_eq!(read_move("pass", &pos), Ok(Move::Pass));
        assert_eq!(read_move("AaAa", &pos), Ok(Move::Pass));
        assert!(read_move("Aa", &pos).is_err());
        assert!(read_move("Za Ab", &pos).unwrap_err().contains("not a row"));
        let placing =
            parse_position("1....../......./......./......./......./......./....... 2").unwrap();
        assert!(matches!(read_move("c4", &placing), Ok(Move::Place { .. })));
        assert!(read_move("c9", &placing)
            .unwrap_err()
            .contains("not a column"));
    }
}
