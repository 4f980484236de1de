//! Players as the referee sees them: built-in bots in this process, or external programs that
//! speak the CodeCup protocol on their standard input and output.

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use entropy_core::{Move, Phase, Position, Role, Size};
use entropy_engine::{make_bot, Bot, Budget, UnknownBot};
use entropy_protocol::codecup;
use serde::{Deserialize, Serialize};

/// The ways a player can lose a game by fault, as CodeCup rules them: its score for the game is
/// 0 and a random jury player finishes the game in its place.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// The player's clock ran out (or it never answered).
    Timeout,
    /// The program could not be started, exited, or closed its output.
    Crash,
    /// The answer could not be read as a move.
    Garbage,
    /// The answer was a move the rules forbid.
    Illegal,
}

impl FaultKind {
    /// The name used in records and summaries.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Timeout => "timeout",
            FaultKind::Crash => "crash",
            FaultKind::Garbage => "garbage",
            FaultKind::Illegal => "illegal",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A fault with the details a person needs to find its cause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Which kind of fault.
    pub kind: FaultKind,
    /// What happened, in words (the line sent, the exit status, the end of its stderr...).
    pub detail: String,
}

impl Fault {
    /// A fault of this kind with this detail.
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }
}

/// A participant in a game. The referee calls [`Player::start`] once, [`Player::request`] each
/// time the player is to move, and [`Player::finish`] when the game ends or the player forfeits.
pub trait Player: Send {
    /// Prepares for a game in this role.
    fn start(&mut self, size: Size, role: Role) -> Result<(), Fault>;

    /// Asks for a move in `position`, where this player is to move. `history` holds every move
    /// of the game so far, chance draws included; `time_left` is what remains on its clock.
    /// The referee measures the time and checks the move.
    fn request(
        &mut self,
        position: &Position,
        history: &[Move],
        time_left: Duration,
    ) -> Result<Move, Fault>;

    /// Ends the game for this player (a program is sent `Quit` and reaped).
    fn finish(&mut self);
}

/// A built-in bot playing in the referee's process.
pub struct BuiltinPlayer {
    bot: Box<dyn Bot>,
}

impl BuiltinPlayer {
    /// The built-in bot with this name, seeded.
    pub fn new(name: &str, seed: u64) -> Result<BuiltinPlayer, UnknownBot> {
        Ok(BuiltinPlayer {
            bot: make_bot(name, seed)?,
        })
    }
}

impl Player for BuiltinPlayer {
    fn start(&mut self, size: Size, role: Role) -> Result<(), Fault> {
        self.bot.new_game(size, role);
        Ok(())
    }

    fn request(
        &mut self,
        position: &Position,
        _: &[Move],
        time_left: Duration,
    ) -> Result<Move, Fault> {
        let budget = Budget {
            game_left: time_left,
            per_move: None,
        };
        Ok(self.bot.choose(position, budget))
    }

    fn finish(&mut self) {}
}

/// How much of a program's standard error is kept to explain a crash.
const STDERR_TAIL: usize = 2048;

/// An external program speaking the CodeCup protocol, started afresh for each game through
/// `sh -c COMMAND` (so the command may carry arguments and redirections).
pub struct ProcessPlayer {
    command: String,
    running: Option<Running>,
    transcript: Option<Vec<String>>,
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Option<String>>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    role: Role,
}

impl ProcessPlayer {
    /// A player that runs this shell command for every game.
    pub fn new(command: impl Into<String>) -> ProcessPlayer {
        ProcessPlayer {
            command: command.into(),
            running: None,
            transcript: None,
        }
    }

    /// Keeps a transcript of the game from the program's side: `> LINE` for each line it reads,
    /// `< LINE` for each line it writes.
    pub fn with_transcript(mut self) -> ProcessPlayer {
        self.transcript = Some(Vec::new());
        self
    }

    /// The transcript kept so far (empty unless [`ProcessPlayer::with_transcript`] was called).
    pub fn transcript(&self) -> &[String] {
        self.transcript.as_deref().unwrap_or_default()
    }

    fn note(&mut self, direction: char, line: &str) {
        if let Some(transcript) = self.transcript.as_mut() {
            transcript.push(format!("{direction} {line}"));
        }
    }

    fn spawn(&self, role: Role) -> std::io::Result<Running> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(line) => {
                        if sender.send(Some(line)).is_err() {
                            return;
                        }
                    }
                    Err(_) => break,
                }
            }
            let _ = sender.send(None);
        });
        let stderr = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL)));
        let tail = Arc::clone(&stderr);
        std::thread::spawn(move || keep_tail(stderr_pipe, &tail));
        Ok(Running {
            child,
            stdin,
            lines,
            stderr,
            role,
        })
    }

    /// What to say about a program that stopped talking: its exit status and its last words.
    fn crash_detail(running: &mut Running, what: &str) -> String {
        // Give the process a moment to exit so the status is known.
        let deadline = Instant::now() + Duration::from_millis(200);
        let mut status = None;
        while Instant::now() < deadline {
            if let Ok(Some(s)) = running.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let status = status.map_or("still running".to_owned(), |s| s.to_string());
        let tail = running
            .stderr
            .lock()
            .map(|t| t.iter().copied().collect::<Vec<u8>>());
        let tail = String::from_utf8_lossy(&tail.unwrap_or_default())
            .trim()
            .to_owned();
        if tail.is_empty() {
            format!("{what} ({status})")
        } else {
            format!("{what} ({status}); end of its stderr: {tail}")
        }
    }
}

fn keep_tail(mut pipe: impl Read, tail: &Mutex<VecDeque<u8>>) {
    let mut buffer = [0u8; 1024];
    while let Ok(n) = pipe.read(&mut buffer) {
        if n == 0 {
            break;
        }
        let Ok(mut tail) = tail.lock() else { break };
        tail.extend(&buffer[..n]);
        let excess = tail.len().saturating_sub(STDERR_TAIL);
        tail.drain(..excess);
    }
}

/// The lines the referee sends before asking for the move in `position`.
fn prompt(role: Role, position: &Position, history: &[Move]) -> Vec<String> {
    let placed = |mv: &Move| match mv {
        Move::Place { colour, cell } => Some((*colour, *cell)),
        _ => None,
    };
    match (role, position.phase()) {
        (Role::Order, _) => {
            let (colour, cell) = history
                .iter()
                .rev()
                .find_map(placed)
                .expect("a chip was placed");
            vec![codecup::order_prompt(colour, cell)]
        }
        (Role::Chaos, Phase::Place(colour)) => {
            // History ends with [..., Place, Order's move, Draw] after the first turn.
            let previous = match history.len() {
                0..=1 => None,
                n => {
                    let pass_cell = placed(&history[n - 3]).expect("placement before Order").1;
                    Some((history[n - 2], pass_cell))
                }
            };
            codecup::chaos_prompt(previous, colour)
        }
        (Role::Chaos, _) => Vec::new(),
    }
}

impl Player for ProcessPlayer {
    fn start(&mut self, size: Size, role: Role) -> Result<(), Fault> {
        if size != Size::SEVEN {
            return Err(Fault::new(
                FaultKind::Crash,
                "the CodeCup protocol is played on the 7x7 board only",
            ));
        }
        let running = self.spawn(role).map_err(|e| {
            Fault::new(
                FaultKind::Crash,
                format!("could not start `{}`: {e}", self.command),
            )
        })?;
        self.running = Some(running);
        Ok(())
    }

    fn request(
        &mut self,
        position: &Position,
        history: &[Move],
        time_left: Duration,
    ) -> Result<Move, Fault> {
        let running = self
            .running
            .as_mut()
            .ok_or_else(|| Fault::new(FaultKind::Crash, "the program is not running"))?;
        let lines = prompt(running.role, position, history);
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        if let Some(transcript) = self.transcript.as_mut() {
            transcript.extend(lines.iter().map(|l| format!("> {l}")));
        }
        if let Err(e) = running
            .stdin
            .write_all(text.as_bytes())
            .and_then(|()| running.stdin.flush())
        {
            let detail =
                ProcessPlayer::crash_detail(running, &format!("could not write to it: {e}"));
            return Err(Fault::new(FaultKind::Crash, detail));
        }
        let answer = match running.lines.recv_timeout(time_left) {
            Ok(Some(line)) => line,
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                let detail = ProcessPlayer::crash_detail(running, "it closed its output");
                return Err(Fault::new(FaultKind::Crash, detail));
            }
            Err(RecvTimeoutError::Timeout) => {
                let _ = running.child.kill();
                let sent = lines.join(" / ");
                let detail = format!(
                    "no answer to {sent:?} within the {:.3} s left",
                    time_left.as_secs_f64()
                );
                return Err(Fault::new(FaultKind::Timeout, detail));
            }
        };
        self.note('<', &answer);
        let parsed = match position.phase() {
            Phase::Place(colour) => codecup::parse_chaos_answer(&answer, colour),
            _ => codecup::parse_order_answer(&answer),
        };
        parsed.map_err(|e| Fault::new(FaultKind::Garbage, e.to_string()))
    }

    fn finish(&mut self) {
        let Some(mut running) = self.running.take() else {
            return;
        };
        self.note('>', codecup::QUIT);
        let _ = writeln!(running.stdin, "{}", codecup::QUIT);
        let _ = running.stdin.flush();
        drop(running.stdin);
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = running.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = running.child.kill();
        let _ = running.child.wait();
    }
}

impl Drop for ProcessPlayer {
    fn drop(&mut self) {
        if let Some(running) = self.running.as_mut() {
            let _ = running.child.kill();
            let _ = running.child.wait();
        }
    }
}

/// Who plays: a built-in bot by name, or a shell command speaking the CodeCup protocol.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerSpec {
    /// A built-in bot (see `entropy_engine::BOTS`).
    Builtin(String),
    /// A program, run through `sh -c`.
    Command(String),
}

impl PlayerSpec {
    /// Reads a player from the command line: `bot:NAME` or `cmd:COMMAND` explicitly, otherwise
    /// a built-in bot's name (the network bots' too in a build without them, which
    /// [`PlayerSpec::validate`] then refuses with the reason), otherwise a command.
    pub fn parse(text: &str) -> PlayerSpec {
        let base = text.split(':').next().unwrap_or(text);
        if let Some(name) = text.strip_prefix("bot:") {
            PlayerSpec::Builtin(name.to_owned())
        } else if let Some(command) = text.strip_prefix("cmd:") {
            PlayerSpec::Command(command.to_owned())
        } else if entropy_engine::BOTS.iter().any(|b| b.name == base)
            || entropy_engine::NETWORK_BOTS.contains(&base)
        {
            PlayerSpec::Builtin(text.to_owned())
        } else {
            PlayerSpec::Command(text.to_owned())
        }
    }

    /// The player's name in records: the bot's name, or the whole command.
    pub fn label(&self) -> &str {
        match self {
            PlayerSpec::Builtin(name) | PlayerSpec::Command(name) => name,
        }
    }

    /// A shorter name for tables: a command loses the directories of its program
    /// (`/opt/bots/mybot --fast` is `mybot --fast`).
    pub fn short_label(&self) -> String {
        match self {
            PlayerSpec::Builtin(name) => name.clone(),
            PlayerSpec::Command(command) => {
                let command = command.trim();
                let (program, rest) = command.split_once(' ').unwrap_or((command, ""));
                let program = program.rsplit('/').next().unwrap_or(program);
                format!("{program} {rest}").trim_end().to_owned()
            }
        }
    }

    /// Checks the spec before a match starts: the bot exists, the command is not empty.
    pub fn validate(&self) -> Result<(), String> {
        match self {
            PlayerSpec::Builtin(name) => make_bot(name, 0).map(|_| ()).map_err(|e| e.to_string()),
            PlayerSpec::Command(command) if command.trim().is_empty() => {
                Err("empty player command".to_owned())
            }
            PlayerSpec::Command(_) => Ok(()),
        }
    }

    /// Makes the player for one game, seeding a built-in bot.
    pub fn instantiate(&self, seed: u64) -> Result<Box<dyn Player>, UnknownBot> {
        Ok(match self {
            PlayerSpec::Builtin(name) => Box::new(BuiltinPlayer::new(name, seed)?),
            PlayerSpec::Command(command) => Box::new(ProcessPlayer::new(command.clone())),
        })
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Builtin(name) => write!(f, "bot:{name}"),
            PlayerSpec::Command(command) => write!(f, "cmd:{command}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        let builtin = |name: &str| PlayerSpec::Builtin(name.into());
        let command = |line: &str| PlayerSpec::Command(line.into());
        for (spec, parsed) in [
            ("greedy", builtin("greedy")),
            ("bot:greedy", builtin("greedy")),
            ("./mybot --fast", command("./mybot --fast")),
            ("cmd:greedy", command("greedy")),
        ] {
            assert_eq!(PlayerSpec::parse(spec), parsed, "{spec}");
        }
        assert!(PlayerSpec::parse("bot:nobody").validate().is_err());
        assert_eq!(
            PlayerSpec::parse("/opt/bots/mybot --fast").short_label(),
            "mybot --fast"
        );
        assert_eq!(PlayerSpec::parse("./mybot").short_label(), "mybot");
        assert!(PlayerSpec::parse("cmd: ").validate().is_err());
        // The network bots are bots in every build: one without them says why, rather than
        // running a program called `ppo`.
        for name in ["ppo", "pnet:model=x.onnx", "wnet"] {
            assert!(
                matches!(PlayerSpec::parse(name), PlayerSpec::Builtin(_)),
                "{name}"
            );
        }
        if let Err(e) = PlayerSpec::parse("ppo").validate() {
            assert!(e.contains("build with --features onnx"), "{e}");
        }
    }

    #[test]
    fn a_missing_program_is_a_crash_not_a_panic() {
        let mut player = ProcessPlayer::new("exec /nonexistent/program");
        player.start(Size::SEVEN, Role::Order).unwrap();
        let mut pos = Position::new(Size::SEVEN);
        let mut history = Vec::new();
        for mv in [
            Move::Draw(entropy_core::Colour::Red),
            Move::Place {
                colour: entropy_core::Colour::Red,
                cell: entropy_core::Cell::new(0, 0).unwrap(),
            },
        ] {
            pos.play(mv).unwrap();
            history.push(mv);
        }
        let fault = player
            .request(&pos, &history, Duration::from_secs(5))
            .unwrap_err();
        assert_eq!(fault.kind, FaultKind::Crash, "{fault:?}");
        player.finish();
    }
}
