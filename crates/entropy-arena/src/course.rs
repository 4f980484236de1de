//! The course assignment's Entropy(N) protocol on the referee's side: a client connected over
//! any line transport (a TCP socket for `entropy course-server`) as a [`Player`], so that its
//! games are played by the arena's game loop, clocks, forfeits and jury ([`crate::game`])
//! under the protocol's [`Rules`] (there is no pass).

use std::io::{self, BufRead, Write};
use std::net::TcpStream;
use std::time::Duration;

use entropy_core::notation::course as notation;
use entropy_core::{Move, Phase, Position, Role, Size};
use entropy_protocol::course::{Client, Next, Referee};

use crate::game::Rules;
use crate::player::{Fault, FaultKind, Player};

/// The course protocol's rules: Order may not pass.
pub const COURSE_RULES: Rules = Rules {
    order_may_pass: false,
};

/// A line transport with a read deadline: what a [`CoursePeer`] talks through.
pub trait Lines: Send {
    /// Sends one line.
    fn send(&mut self, line: &str) -> io::Result<()>;
    /// Reads one line within `deadline`: `Ok(None)` when the other side closed, an error of
    /// kind `TimedOut` or `WouldBlock` when the deadline passed.
    fn read(&mut self, deadline: Duration) -> io::Result<Option<String>>;
}

/// A TCP connection as lines.
pub struct TcpLines {
    reader: io::BufReader<TcpStream>,
    writer: TcpStream,
}

impl TcpLines {
    /// Lines over this connection.
    pub fn new(stream: TcpStream) -> io::Result<TcpLines> {
        stream.set_nodelay(true).ok();
        Ok(TcpLines {
            reader: io::BufReader::new(stream.try_clone()?),
            writer: stream,
        })
    }
}

impl Lines for TcpLines {
    fn send(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.writer, "{line}")?;
        self.writer.flush()
    }

    fn read(&mut self, deadline: Duration) -> io::Result<Option<String>> {
        self.reader.get_ref().set_read_timeout(Some(deadline))?;
        let mut line = String::new();
        match self.reader.read_line(&mut line)? {
            0 => Ok(None),
            _ => Ok(Some(line.trim_end().to_owned())),
        }
    }
}

/// A client of the course protocol, playing one role per game.
pub struct CoursePeer<L: Lines> {
    lines: L,
    role: Role,
    /// How many moves of the game's history the client has been told of.
    told: usize,
}

impl<L: Lines> CoursePeer<L> {
    /// A client on this transport.
    pub fn new(lines: L) -> CoursePeer<L> {
        CoursePeer {
            lines,
            role: Role::Order,
            told: 0,
        }
    }

    /// Sends a line outside a game's turns (the last placement Order is shown when the board
    /// fills, so that it sees the final board).
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        self.lines.send(line)
    }

    /// The lines telling this client what happened since it last moved (and marks them told):
    /// for Chaos, Order's move and the colour drawn; for Order, the placement, which is also
    /// what Order is shown when the board fills.
    pub fn news(&mut self, history: &[Move]) -> Vec<String> {
        let new = &history[self.told.min(history.len())..];
        self.told = history.len();
        new.iter()
            .filter_map(|&mv| match (mv, self.role) {
                (Move::Draw(colour), Role::Chaos) => Some(notation::format_colour(colour)),
                (Move::Place { cell, colour }, Role::Order) => {
                    Some(notation::format_placement(cell, colour))
                }
                (Move::Slide { .. }, Role::Chaos) => notation::format_slide(mv),
                _ => None,
            })
            .collect()
    }
}

fn fault(error: io::Error) -> Fault {
    match error.kind() {
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => {
            Fault::new(FaultKind::Timeout, "no answer within its clock")
        }
        _ => Fault::new(FaultKind::Crash, format!("connection failed: {error}")),
    }
}

impl<L: Lines> Player for CoursePeer<L> {
    fn start(&mut self, size: Size, role: Role) -> Result<(), Fault> {
        self.role = role;
        self.told = 0;
        for line in Referee::greeting(size, role) {
            self.lines.send(&line).map_err(|e| {
                Fault::new(
                    FaultKind::Crash,
                    format!("disconnected before the game: {e}"),
                )
            })?;
        }
        Ok(())
    }

    fn request(
        &mut self,
        position: &Position,
        history: &[Move],
        time_left: Duration,
    ) -> Result<Move, Fault> {
        for line in self.news(history) {
            self.lines
                .send(&line)
                .map_err(|e| Fault::new(FaultKind::Crash, format!("write failed: {e}")))?;
        }
        if time_left.is_zero() {
            return Err(Fault::new(FaultKind::Timeout, "no time left on its clock"));
        }
        let line = self
            .lines
            .read(time_left)
            .map_err(fault)?
            .ok_or_else(|| Fault::new(FaultKind::Crash, "disconnected"))?;
        let garbage = |e: &dyn std::fmt::Display| {
            Fault::new(FaultKind::Garbage, format!("{line:?} is not a move: {e}"))
        };
        let mv = match position.phase() {
            Phase::Place(colour) => {
                let cell = notation::parse_cell(line.trim()).map_err(|e| garbage(&e))?;
                Move::Place { colour, cell }
            }
            _ => match notation::parse_slide(line.trim()).map_err(|e| garbage(&e))? {
                Move::Slide { from, to } if from == to => {
                    return Err(Fault::new(
                        FaultKind::Illegal,
                        format!("{line:?} moves no chip: this protocol has no pass"),
                    ))
                }
                mv => mv,
            },
        };
        // The client's own move is news it needs no telling of.
        self.told = history.len() + 1;
        Ok(mv)
    }

    fn finish(&mut self) {}
}

/// Plays the client's side of the course protocol until the server closes the connection:
/// reads the server's lines, and at every turn sends the move `choose` picks. The protocol has
/// no pass, so a pass from `choose` is replaced by the first legal move.
pub fn play_as_client(
    mut reader: impl BufRead,
    mut writer: impl Write,
    mut choose: impl FnMut(&Position) -> Result<Move, String>,
) -> Result<(), String> {
    let mut client = Client::new();
    let mut line = String::new();
    loop {
        line.clear();
        let read = reader
            .read_line(&mut line)
            .map_err(|e| format!("cannot read from the server: {e}"))?;
        if read == 0 {
            return Ok(());
        }
        let next = client.receive(&line).map_err(|e| {
            format!(
                "the server's line {:?} does not fit the game: {e}",
                line.trim()
            )
        })?;
        if next == Next::Read {
            continue;
        }
        let position = *client.position().expect("a game is on");
        let mv = match choose(&position)? {
            Move::Pass => position.legal_moves()[0],
            mv => mv,
        };
        let answer = client
            .answer(mv)
            .map_err(|e| format!("our move {mv} was refused: {e}"))?;
        writeln!(writer, "{answer}")
            .and_then(|()| writer.flush())
            .map_err(|e| format!("cannot write to the server: {e}"))?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::shuffled_bag;
    use crate::game::play_game_with;
    use std::collections::VecDeque;

    /// A scripted client: answers each read from a list, records what it was sent.
    struct Script {
        answers: VecDeque<String>,
        sent: Vec<String>,
    }

    impl Lines for Script {
        fn send(&mut self, line: &str) -> io::Result<()> {
            self.sent.push(line.to_owned());
            Ok(())
        }
        fn read(&mut self, _: Duration) -> io::Result<Option<String>> {
            Ok(self.answers.pop_front())
        }
    }

    #[test]
    fn a_client_that_passes_or_talks_nonsense_forfeits_and_the_jury_never_passes() {
        let script = |answers: &[&str]| Script {
            answers: answers.iter().map(|s| s.to_string()).collect(),
            sent: Vec::new(),
        };
        for (answers, kind) in [
            (&["0 0 0 0"][..], FaultKind::Illegal),
            (&["hello"][..], FaultKind::Garbage),
            (&[][..], FaultKind::Crash),
        ] {
            let mut order = CoursePeer::new(script(answers));
            let mut chaos = crate::player::BuiltinPlayer::new("random", 1).unwrap();
            let deal = shuffled_bag(Size::FIVE, 3);
            let clocks = [Duration::from_secs(5); 2];
            let outcome = play_game_with(
                COURSE_RULES,
                Size::FIVE,
                &deal,
                clocks,
                4,
                &mut order,
                &mut chaos,
            );
            assert_eq!(outcome.forfeits.len(), 1);
            assert_eq!(outcome.forfeits[0].fault.kind, kind);
            assert!(outcome.position.is_over());
            assert!(
                !outcome.moves.contains(&Move::Pass),
                "the jury never passes"
            );
            // Greeted, then told the first placement before its first answer.
            assert_eq!(order.lines.sent[..2], ["5", "ORDER"]);
            assert_eq!(order.lines.sent.len(), 3);
        }
    }
}
