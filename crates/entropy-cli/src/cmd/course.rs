//! `entropy course-server` and `entropy course-client`: the course assignment's Entropy(N)
//! protocol over TCP (see `entropy_protocol::course`).

use std::io::{self, BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use entropy_arena::deal::shuffled_bag;
use entropy_core::{Move, Phase, Position, Role, Size};
use entropy_engine::bots::random_move;
use entropy_engine::search::{Limits, Searcher};
use entropy_engine::{make_bot, Budget};
use entropy_protocol::course::{Client, Next, Referee};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

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
struct Peer {
    name: String,
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Peer {
    fn send(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.writer, "{line}")?;
        self.writer.flush()
    }

    /// Reads a line within `left`; `Err` names the fault.
    fn read(&mut self, left: Duration) -> std::result::Result<String, String> {
        if left.is_zero() {
            return Err("time".to_owned());
        }
        self.reader
            .get_ref()
            .set_read_timeout(Some(left))
            .map_err(|e| format!("socket: {e}"))?;
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) => Err("disconnected".to_owned()),
            Ok(_) => Ok(line.trim_end().to_owned()),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                Err("time".to_owned())
            }
            Err(e) => Err(format!("read failed: {e}")),
        }
    }
}

/// What happened in one game.
struct GameLog {
    score: u32,
    forfeits: Vec<(Role, String)>,
    moves: Vec<String>,
    seconds: [f64; 2],
    board: String,
}

/// A game's state on the server's side: the referee, the jury that moves for a player who
/// forfeited, each player's time used, who is out and why.
struct Table {
    referee: Referee,
    jury: Xoshiro256PlusPlus,
    used: [Duration; 2],
    out: [bool; 2],
    forfeits: Vec<(Role, String)>,
    clock: Duration,
}

/// The index of a role in the table's pairs.
fn index(role: Role) -> usize {
    usize::from(role == Role::Chaos)
}

impl Table {
    /// One decision: prompt the player, read and check its reply (or let the jury move).
    fn turn(
        &mut self,
        role: Role,
        peer: &mut Peer,
        prompt: impl FnOnce(&mut Peer) -> io::Result<()>,
    ) -> (Move, String) {
        let i = index(role);
        if !self.out[i] {
            let started = Instant::now();
            let reply = prompt(peer)
                .map_err(|e| format!("write failed: {e}"))
                .and_then(|()| peer.read(self.clock.saturating_sub(self.used[i])));
            self.used[i] += started.elapsed();
            let checked = reply.and_then(|line| {
                let result = match role {
                    Role::Chaos => self.referee.chaos_reply(&line),
                    Role::Order => self.referee.order_reply(&line),
                };
                result.map_err(|e| e.to_string())
            });
            match checked {
                Ok(done) => return done,
                Err(reason) => self.forfeit(role, &peer.name, reason),
            }
        }
        // The jury plays for a player that forfeited; Order's jury never passes in this
        // protocol.
        let position = *self.referee.position();
        let mv = loop {
            let mv = random_move(&position, &mut self.jury);
            if mv != Move::Pass {
                break mv;
            }
        };
        let line = self.referee.jury(mv);
        (mv, line)
    }

    /// Puts a player out of the game for `reason` (the jury moves for it from now on).
    fn forfeit(&mut self, role: Role, name: &str, reason: String) {
        eprintln!("{name} ({role}) forfeits: {reason}");
        self.out[index(role)] = true;
        self.forfeits.push((role, reason));
    }
}

fn play_course_game(
    size: Size,
    seed: u64,
    clock: Duration,
    order: &mut Peer,
    chaos: &mut Peer,
) -> GameLog {
    let mut table = Table {
        referee: Referee::new(size),
        jury: Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x4A55_5259),
        used: [Duration::ZERO; 2],
        out: [false; 2],
        forfeits: Vec::new(),
        clock,
    };
    let mut moves = Vec::new();
    for (peer, role) in [(&mut *order, Role::Order), (&mut *chaos, Role::Chaos)] {
        for line in Referee::greeting(size, role) {
            if peer.send(&line).is_err() && !table.out[index(role)] {
                table.out[index(role)] = true;
                table
                    .forfeits
                    .push((role, "disconnected before the game".to_owned()));
            }
        }
    }
    let mut pending_for_chaos: Option<String> = None;
    for colour in shuffled_bag(size, seed) {
        let colour_line = table.referee.draw(colour);
        // Chaos: Order's last move (if any) and the colour, then its placement.
        let (placement, to_order) = table.turn(Role::Chaos, chaos, |peer| {
            if let Some(line) = pending_for_chaos.take() {
                peer.send(&line)?;
            }
            peer.send(&colour_line)
        });
        moves.push(placement.to_string());
        if table.referee.position().is_over() {
            // Order has no move left, but is shown the last chip so it sees the final board.
            if !table.out[index(Role::Order)] {
                let _ = order.send(&to_order);
            }
            break;
        }
        let (slide, to_chaos) = table.turn(Role::Order, order, |peer| peer.send(&to_order));
        moves.push(slide.to_string());
        pending_for_chaos = Some(to_chaos);
    }
    GameLog {
        score: table.referee.position().score(),
        forfeits: table.forfeits,
        moves,
        seconds: [table.used[0].as_secs_f64(), table.used[1].as_secs_f64()],
        board: table.referee.position().board().to_string(),
    }
}

fn accept(listener: &TcpListener, number: usize) -> Result<Peer> {
    let (stream, address) = listener.accept().context("accept failed")?;
    stream.set_nodelay(true).ok();
    let name = format!("client {number} ({address})");
    eprintln!("{name} connected");
    Ok(Peer {
        name,
        reader: BufReader::new(stream.try_clone().context("socket clone failed")?),
        writer: stream,
    })
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
            let log = play_course_game(size, seed, clock, order, chaos);
            scores[order_index] = log.score;
            eprintln!(
                "game {}: {} as Order scored {}",
                game + 1,
                order.name,
                log.score
            );
            if let Some(path) = &args.log {
                let line = serde_json::json!({
                    "size": size.side(), "game": game + 1, "seed": seed,
                    "order": order.name, "chaos": chaos.name,
                    "moves": log.moves, "board": log.board, "score": log.score,
                    "seconds": {"order": log.seconds[0], "chaos": log.seconds[1]},
                    "termination": if log.forfeits.is_empty() { "normal" } else { "forfeit" },
                    "forfeits": log.forfeits.iter().map(|(role, reason)| serde_json::json!({"role": role.name(), "reason": reason})).collect::<Vec<_>>(),
                });
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
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    let mut client = Client::new();
    let mut bot = make_bot(&args.bot, 1)?;
    let mut searcher = Searcher::new(entropy_engine::learned::BotEval::shipped(), 16);
    let move_time = Duration::from_secs_f64(args.move_time.max(0.01));
    let stdin = io::stdin();
    let mut line = String::new();
    loop {
        line.clear();
        if reader
            .read_line(&mut line)
            .context("cannot read from the server")?
            == 0
        {
            eprintln!("the server closed the connection");
            return Ok(ExitCode::SUCCESS);
        }
        match client
            .receive(&line)
            .with_context(|| format!("the server's line {:?} does not fit the game", line.trim()))?
        {
            Next::Read => continue,
            Next::Answer => {}
        }
        let position = *client.position().expect("a game is on");
        let mv = if args.manual {
            manual_move(&position, &mut stdin.lock())?
        } else if args.bot.starts_with("search") && position.phase() == Phase::Slide {
            // This protocol has no pass: search Order's real moves only.
            searcher
                .search_without_pass(&position, Limits::time(move_time))
                .best
        } else {
            let mv = bot.choose(
                &position,
                Budget {
                    game_left: move_time * 40,
                    per_move: Some(move_time),
                },
            );
            if mv == Move::Pass {
                position.legal_moves()[0]
            } else {
                mv
            }
        };
        let answer = client
            .answer(mv)
            .with_context(|| format!("our move {mv} was refused"))?;
        writeln!(writer, "{answer}")?;
        writer.flush()?;
    }
}

fn manual_move(position: &Position, input: &mut impl BufRead) -> Result<Move> {
    loop {
        eprintln!("{}", crate::view::render(position, &[], false));
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
