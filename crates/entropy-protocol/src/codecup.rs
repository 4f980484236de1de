//! The CodeCup 2023 protocol, as the referee speaks it.
//!
//! Chaos first reads `Start`, then the colour of its chip (`3`), and answers a cell (`Bc`); from
//! the second turn it reads Order's move (`BcBg`) and then the colour. Order's first line is
//! already a placement (`3Bc`) and it answers a move (`BcBg`, or a chip moved onto its own cell,
//! `BcBc`, to pass). After the 49th chip is placed the game ends: Chaos receives `Quit` after its
//! last placement, and Order receives only `Quit`. A player that sends an illegal move is sent
//! `Quit` too. Every line is flushed; debug output goes to standard error.
//!
//! [`Session`] is the player's side: feed it each line read and it says whether to answer.
//! [`order_prompt`] and [`chaos_prompt`] are the referee's side: the lines to send a player.

use entropy_core::notation::codecup;
use entropy_core::{Cell, Colour, IllegalMove, Move, ParseError, Phase, Position, Role, Size};

/// The line that ends a game.
pub const QUIT: &str = "Quit";
/// The line that tells a player it is Chaos.
pub const START: &str = "Start";

/// What went wrong with a line from the referee.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ProtocolError {
    /// The line is not what the protocol allows at this point.
    #[error("unexpected line {line:?}: expected {expected}")]
    Unexpected {
        /// The line received.
        line: String,
        /// What the protocol allows here.
        expected: String,
    },
    /// The line has the right place in the protocol but cannot be read.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The line reads as a move that the rules forbid.
    #[error("illegal move {line:?}: {error}")]
    Illegal {
        /// The line received.
        line: String,
        /// Why the move is illegal.
        error: IllegalMove,
    },
    /// The caller tried to answer when no answer was due, or with a move of the wrong kind.
    #[error("cannot answer {mv} now: {phase}")]
    NotOurTurn {
        /// The move offered.
        mv: Move,
        /// The phase the game is in.
        phase: Phase,
    },
}

/// What the player should do after a line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Choose a move for [`Session::position`] and send [`Session::answer`]'s line.
    Answer,
    /// Read another line.
    Read,
    /// The game is over; exit.
    Quit,
}

/// A player's view of one CodeCup game: its role (known from the first line), the position, and
/// the last placed cell (used to write a pass).
#[derive(Clone, Debug)]
pub struct Session {
    position: Position,
    role: Option<Role>,
    last_placed: Option<Cell>,
    quit: bool,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A new game on the 7x7 board; the role is learnt from the first line.
    pub fn new() -> Session {
        Session {
            position: Position::new(Size::SEVEN),
            role: None,
            last_placed: None,
            quit: false,
        }
    }

    /// The position as the player sees it.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The player's role, once the first line has told it.
    pub fn role(&self) -> Option<Role> {
        self.role
    }

    /// Whether `Quit` was received.
    pub fn is_over(&self) -> bool {
        self.quit
    }

    /// Takes one line from the referee (without its line ending; surrounding white space is
    /// ignored) and says what to do next.
    pub fn receive(&mut self, line: &str) -> Result<Next, ProtocolError> {
        let text = line.trim();
        if text == QUIT {
            self.quit = true;
            return Ok(Next::Quit);
        }
        if self.quit {
            return Err(self.unexpected(text, "nothing after Quit"));
        }
        match (self.role, self.position.phase()) {
            (None, _) if text == START => {
                self.role = Some(Role::Chaos);
                Ok(Next::Read)
            }
            (None, _) => {
                self.role = Some(Role::Order);
                self.receive_placement(text)
            }
            (Some(Role::Chaos), Phase::Draw) => {
                let colour = codecup::parse_colour(text)
                    .map_err(|_| self.unexpected(text, "the colour of the next chip, 1-7"))?;
                self.apply(text, Move::Draw(colour))?;
                Ok(Next::Answer)
            }
            (Some(Role::Chaos), Phase::Slide) => {
                let mv = codecup::parse_order_move(text)?;
                self.apply(text, mv)?;
                Ok(Next::Read)
            }
            (Some(Role::Order), Phase::Draw) => self.receive_placement(text),
            (Some(role), phase) => {
                let expected = match (role, phase) {
                    (_, Phase::Over) => "Quit (the board is full)",
                    _ => "no line: it is our turn to answer",
                };
                Err(self.unexpected(text, expected))
            }
        }
    }

    fn receive_placement(&mut self, text: &str) -> Result<Next, ProtocolError> {
        let (colour, cell) = codecup::parse_placement(text)?;
        self.apply(text, Move::Draw(colour))?;
        self.apply(text, Move::Place { colour, cell })?;
        self.last_placed = Some(cell);
        Ok(if self.position.is_over() {
            Next::Read
        } else {
            Next::Answer
        })
    }

    fn apply(&mut self, text: &str, mv: Move) -> Result<(), ProtocolError> {
        self.position
            .play(mv)
            .map_err(|error| ProtocolError::Illegal {
                line: text.to_owned(),
                error,
            })
    }

    fn unexpected(&self, line: &str, expected: &str) -> ProtocolError {
        ProtocolError::Unexpected {
            line: line.to_owned(),
            expected: expected.to_owned(),
        }
    }

    /// Plays our move and returns the line to send (`Bc` as Chaos, `BcBg` or `BcBc` as Order).
    pub fn answer(&mut self, mv: Move) -> Result<String, ProtocolError> {
        let ours = self.role.is_some() && self.position.to_move() == self.role;
        let legal = ours && mv.role() == self.role && self.position.check(mv).is_ok();
        if !legal {
            return Err(ProtocolError::NotOurTurn {
                mv,
                phase: self.position.phase(),
            });
        }
        self.position.play_unchecked(mv);
        Ok(match mv {
            Move::Place { cell, .. } => {
                self.last_placed = Some(cell);
                codecup::format_cell(cell)
            }
            _ => codecup::format_order_move(mv, self.last_placed.expect("a chip was placed")),
        })
    }
}

/// The line the referee sends Order: the colour drawn and where Chaos put it (`3Bc`).
pub fn order_prompt(colour: Colour, cell: Cell) -> String {
    codecup::format_placement(colour, cell)
}

/// The lines the referee sends Chaos before each placement: `Start` on the first turn, Order's
/// previous move on later turns (a pass written as the chip on `pass_cell` moved onto itself),
/// then the colour drawn.
pub fn chaos_prompt(previous: Option<(Move, Cell)>, colour: Colour) -> Vec<String> {
    let first = match previous {
        None => START.to_owned(),
        Some((mv, pass_cell)) => codecup::format_order_move(mv, pass_cell),
    };
    vec![first, codecup::format_colour(colour)]
}

/// Reads Chaos's answer: a cell (`Bc`) for the drawn colour.
pub fn parse_chaos_answer(line: &str, colour: Colour) -> Result<Move, ParseError> {
    let cell = codecup::parse_cell(line.trim())?;
    Ok(Move::Place { colour, cell })
}

/// Reads Order's answer: `BcBg`, or a cell twice to pass.
pub fn parse_order_answer(line: &str) -> Result<Move, ParseError> {
    codecup::parse_order_move(line.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(text: &str) -> Cell {
        codecup::parse_cell(text).unwrap()
    }

    #[test]
    fn chaos_session_follows_the_documented_example() {
        let mut s = Session::new();
        assert_eq!(s.receive("Start"), Ok(Next::Read));
        assert_eq!(s.role(), Some(Role::Chaos));
        assert_eq!(s.receive("3"), Ok(Next::Answer));
        let place = Move::Place {
            colour: Colour::Yellow,
            cell: cell("Bc"),
        };
        assert_eq!(s.answer(place).unwrap(), "Bc");
        assert_eq!(s.receive("BcBg"), Ok(Next::Read));
        assert_eq!(s.receive("7"), Ok(Next::Answer));
        assert!(s.answer(Move::Pass).is_err(), "Chaos cannot pass");
        let place = Move::Place {
            colour: Colour::Purple,
            cell: cell("Ee"),
        };
        assert_eq!(s.answer(place).unwrap(), "Ee");
        assert_eq!(s.receive("EeGe"), Ok(Next::Read));
        assert_eq!(s.position().score(), 0);
        assert_eq!(s.receive("Quit"), Ok(Next::Quit));
        assert!(s.is_over());
    }

    #[test]
    fn order_session_follows_the_documented_example() {
        let mut s = Session::new();
        assert_eq!(s.receive("3Bc"), Ok(Next::Answer));
        assert_eq!(s.role(), Some(Role::Order));
        let slide = Move::Slide {
            from: cell("Bc"),
            to: cell("Bg"),
        };
        assert_eq!(s.answer(slide).unwrap(), "BcBg");
        assert_eq!(s.receive("7Ee"), Ok(Next::Answer));
        assert_eq!(s.answer(Move::Pass).unwrap(), "EeEe");
        assert_eq!(s.receive("7Ag"), Ok(Next::Answer));
        assert_eq!(s.receive("Quit"), Ok(Next::Quit));
    }

    #[test]
    fn bad_lines_are_named() {
        let mut s = Session::new();
        assert!(matches!(s.receive("hello"), Err(ProtocolError::Parse(_))));
        let mut s = Session::new();
        s.receive("Start").unwrap();
        let err = s.receive("Bc").unwrap_err();
        assert!(
            err.to_string().contains("the colour of the next chip"),
            "{err}"
        );
        let mut s = Session::new();
        s.receive("3Bc").unwrap();
        s.answer(Move::Pass).unwrap();
        let err = s.receive("3Bc").unwrap_err();
        assert!(matches!(err, ProtocolError::Illegal { .. }), "{err}");
        assert_eq!(
            err.to_string(),
            "illegal move \"3Bc\": Bc is already occupied"
        );
    }

    #[test]
    fn referee_prompts() {
        assert_eq!(order_prompt(Colour::Yellow, cell("Bc")), "3Bc");
        assert_eq!(chaos_prompt(None, Colour::Yellow), ["Start", "3"]);
        let slide = Move::Slide {
            from: cell("Bc"),
            to: cell("Bg"),
        };
        assert_eq!(
            chaos_prompt(Some((slide, cell("Aa"))), Colour::Purple),
            ["BcBg", "7"]
        );
        assert_eq!(
            chaos_prompt(Some((Move::Pass, cell("Aa"))), Colour::Red),
            ["AaAa", "1"]
        );
        assert_eq!(parse_order_answer("AaAa\r\n"), Ok(Move::Pass));
        assert!(parse_chaos_answer("Zz", Colour::Red).is_err());
    }
}
