//! `entropy course-server` and `entropy course-client`: the course assignment's Entropy(N)
//! protocol over TCP (see `entropy_protocol::course`).

use std::io::{self, BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use entropy_arena::course::{play_as_client, CoursePeer, TcpLines, COURSE_RULES};
use entropy_arena::deal::shuffled_bag;
use entropy_arena::game::{play_game_with, GameOutcome};
use entropy_arena::record::format_moves;
use entropy_core::{Move, Phase, Position, Role, Size};
use entropy_engine::search::{Limits, Searcher};
use entropy_engine::{make_bot, Budget};

/// Serve the course assignment's Entropy(N) game to two TCP clients.
///
/// Waits for two clients; the first to connect is ORDER in game 1 and CHAOS in game 2. Sends
/// each `N` and its role, draws chips uniformly from the bag, relays moves in the document's
/// formats (`row column C`, `r1 c1 r2 c2`, 0-indexed), and checks them: a client that sends an
/// invalid move (Order must move a chip at least one cell: this protocol has no pass), runs out
/// of its time or disconnects forfeits the game, and a random jury player finishes it. Each
/// game is logged as a JSON line; the summary gives both scores. One match by default.
#[derive(clap::Args)]
pub struct ServerArgs {
    /// TCP port to listen on (0 picks a free one, printed on stderr).
    #[arg(long, default_value_t = 12345)]
    port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// N: the board side, colours and chips per colour (5 or 7).
    #[arg(long, default_value_t = 5)]
    size: usize,
    /// Each client's thinking time per game, in seconds.
    #[arg(long, default_value_t = 60.0)]
    time: f64,
    /// Seed of the chips drawn.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Append one JSON line per game to this file.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Keep serving matches instead of exiting after one.
    #[arg(long)]
    forever: bool,
}

/// One connected client.
struct Client {
    name: String,
    peer: CoursePeer<TcpLines>,
}

fn accept(listener: &TcpListener, number: usize) -> Result<Client> {
    let (stream, address) = listener.accept().context("accept failed")?;
    let name = format!("client {number} ({address})");
    eprintln!("{name} connected");
    Ok(Client {
        name,
        peer: CoursePeer::new(TcpLines::new(stream).context("socket clone failed")?),
    })
}

/// Plays one game between two clients through the arena's game loop under the course's rules,
/// and shows Order the last placement so that it sees the final board.
fn play_course_game(
    size: Size,
    seed: u64,
    clock: Duration,
    order: &mut Client,
    chaos: &mut Client,
) -> GameOutcome {
    let deal = shuffled_bag(size, seed);
    let outcome = play_game_with(
        COURSE_RULES,
        size,
        &deal,
        [clock; 2],
        seed ^ 0x4A55_5259,
        &mut order.peer,
        &mut chaos.peer,
    );
    for forfeit in &outcome.forfeits {
        let name = if forfeit.role == Role::Order {
            &order.name
        } else {
            &chaos.name
        };
        eprintln!(
            "{name} ({}) forfeits: {}: {}",
            forfeit.role, forfeit.fault.kind, forfeit.fault.detail
        );
    }
    if !outcome.forfeited(Role::Order) {
        for line in order.peer.news(&outcome.moves) {
            let _ = order.peer.send(&line);
        }
    }
    outcome
}

/// The game as one JSON line of the server's log.
fn log_line(
    size: Size,
    game: u64,
    seed: u64,
    order: &Client,
    chaos: &Client,
    outcome: &GameOutcome,
) -> String {
    let forfeits: Vec<serde_json::Value> = outcome
        .forfeits
        .iter()
        .map(|f| {
            serde_json::json!({"role": f.role.name(),
                               "reason": format!("{}: {}", f.fault.kind, f.fault.detail)})
        })
        .collect();
    serde_json::json!({
        "size": size.side(), "game": game + 1, "seed": seed,
        "order": order.name, "chaos": chaos.name,
        "moves": format_moves(&outcome.moves),
        "board": outcome.position.board().to_string(), "score": outcome.score(),
        "seconds": {"order": outcome.time_used[0].as_secs_f64(),
                    "chaos": outcome.time_used[1].as_secs_f64()},
        "termination": if forfeits.is_empty() { "normal" } else { "forfeit" },
        "forfeits": forfeits,
    })
    .to_string()
}

pub fn run_server(args: ServerArgs) -> Result<ExitCode> {
    let size = super::parse_size(args.size)?;
    if !(args.time.is_finite() && args.time > 0.0) {
        bail!("--time must be a positive number of seconds");
    }
    let listener = TcpListener::bind((args.host.as_str(), args.port))
        .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
    eprintln!(
        "listening on {} for Entropy({})",
        listener.local_addr()?,
        size
    );
    let clock = Duration::from_secs_f64(args.time);
    let mut round = 0u64;
    loop {
        let mut first = accept(&listener, 1)?;
        let mut second = accept(&listener, 2)?;
        let mut scores = [0u32; 2];
        for game in 0..2u64 {
            let seed = args.seed.wrapping_add(round * 2 + game);
            let (order, chaos, order_index) = if game == 0 {
                (&mut first, &mut second, 0)
            } else {
                (&mut second, &mut first, 1)
            };
            let outcome = play_course_game(size, seed, clock, order, chaos);
            scores[order_index] = outcome.score();
            eprintln!(
                "game {}: {} as Order scored {}",
                game + 1,
                order.name,
                outcome.score()
            );
            if let Some(path) = &args.log {
                let line = log_line(size, game, seed, order, chaos, &outcome);
                let mut file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .with_context(|| format!("cannot open {}", path.display()))?;
                writeln!(file, "{line}")
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
        }
        println!(
            "{} scored {} as Order; {} scored {} as Order; {}",
            first.name,
            scores[0],
            second.name,
            scores[1],
            match scores[0].cmp(&scores[1]) {
                std::cmp::Ordering::Greater => format!("{} wins", first.name),
                std::cmp::Ordering::Less => format!("{} wins", second.name),
                std::cmp::Ordering::Equal => "a draw".to_owned(),
            }
        );
        round += 1;
        if !args.forever {
            return Ok(ExitCode::SUCCESS);
        }
    }
}

/// Play the course assignment's protocol as a client of a server: our bot, or you (`--manual`).
///
/// Connects, reads `N` and the role, and answers every turn (Chaos: `row column`; Order:
/// `r1 c1 r2 c2`, always a real move: the protocol has no pass). Plays as many games as the
/// server sends and exits when it closes the connection.
#[derive(clap::Args)]
pub struct ClientArgs {
    /// Server host.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Server port.
    #[arg(long, default_value_t = 12345)]
    port: u16,
    /// Seconds of thinking per move.
    #[arg(long, default_value_t = 1.0)]
    move_time: f64,
    /// Type the moves yourself, as the assignment's starter client let you.
    #[arg(long)]
    manual: bool,
    /// Bot for the baseline (`search` by default; any built-in bot).
    #[arg(long, default_value = "search")]
    bot: String,
}

pub fn run_client(args: ClientArgs) -> Result<ExitCode> {
    let address = (args.host.as_str(), args.port)
        .to_socket_addrs()
        .with_context(|| format!("cannot resolve {}:{}", args.host, args.port))?
        .next()
        .context("no address")?;
    let stream =
        TcpStream::connect(address).with_context(|| format!("cannot connect to {address}"))?;
    stream.set_nodelay(true).ok();
    let reader = BufReader::new(stream.try_clone()?);
    let mut bot = make_bot(&args.bot, 1)?;
    let mut searcher = Searcher::new(entropy_engine::learned::BotEval::shipped(), 16);
    let move_time = Duration::from_secs_f64(args.move_time.max(0.01));
    let stdin = io::stdin();
    play_as_client(reader, stream, |position| {
        Ok(if args.manual {
            manual_move(position, &mut stdin.lock()).map_err(|e| e.to_string())?
        } else if args.bot.starts_with("search") && position.phase() == Phase::Slide {
            // This protocol has no pass: search Order's real moves only.
            searcher
                .search_without_pass(position, Limits::time(move_time))
                .best
        } else {
            bot.choose(
                position,
                Budget {
                    game_left: move_time * 40,
                    per_move: Some(move_time),
                },
            )
        })
    })
    .map_err(anyhow::Error::msg)?;
    eprintln!("the server closed the connection");
    Ok(ExitCode::SUCCESS)
}

fn manual_move(position: &Position, input: &mut impl BufRead) -> Result<Move> {
    loop {
        eprintln!(
            "{}",
            entropy_core::notation::terminal::render(position, &[], false)
        );
        match position.phase() {
            Phase::Place(colour) => eprint!("place {} at (row column): ", colour.letter()),
            _ => eprint!("slide (r1 c1 r2 c2): "),
        }
        let mut text = String::new();
        if input.read_line(&mut text)? == 0 {
            bail!("input ended");
        }
        let parsed = match position.phase() {
            Phase::Place(colour) => entropy_core::notation::course::parse_cell(text.trim())
                .map(|cell| Move::Place { colour, cell }),
            _ => entropy_core::notation::course::parse_slide(text.trim()),
        };
        match parsed {
            Ok(mv) => match position.check(mv) {
                Ok(()) => return Ok(mv),
                Err(e) => eprintln!("not allowed: {e}"),
            },
            Err(e) => eprintln!("{e}"),
        }
    }
}
