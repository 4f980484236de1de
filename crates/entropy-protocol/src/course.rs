//! The course assignment's Entropy(N) protocol (document 002), over any line transport.
//!
//! The server sends each client `N` and its role (`ORDER` or `CHAOS`). Chaos receives a colour
//! (one upper-case letter) and answers `row column` (0-indexed); Order receives
//! `row column C` and answers `row1 column1 row2 column2`; then Chaos receives Order's move and
//! the next colour, and so on until the board is full. There is no pass: Order must move a chip
//! at least one cell (while a cell is empty some chip always can). Our server also sends Order
//! the last placement, so that it sees the final board. For the second game the server sends
//! `N` and the swapped role again on the same connection.
//!
//! Our server names colours `R G Y B W K P` (the first N). The document does not fix the
//! letters, so [`Client`] learns them by first appearance and works with any server.

use entropy_core::notation::course as notation;
use entropy_core::{Cell, Colour, IllegalMove, Move, ParseError, Phase, Position, Role, Size};

/// A line that does not fit the game.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CourseError {
    /// The line is not what the protocol allows here.
    #[error("unexpected line {line:?}: expected {expected}")]
    Unexpected {
        /// The line.
        line: String,
        /// What was allowed.
        expected: &'static str,
    },
    /// The line cannot be read.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The move is against the rules (or a pass, which this protocol does not have).
    #[error("invalid move {line:?}: {reason}")]
    Invalid {
        /// The line.
        line: String,
        /// Why.
        reason: String,
    },
}

fn invalid(line: &str, reason: impl ToString) -> CourseError {
    CourseError::Invalid {
        line: line.to_owned(),
        reason: reason.to_string(),
    }
}

/// What a client should do after a line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Choose a move for [`Client::position`] and send [`Client::answer`]'s line.
    Answer,
    /// Read another line.
    Read,
}

/// A player's side of the protocol, game after game.
#[derive(Clone, Debug, Default)]
pub struct Client {
    size: Option<Size>,
    role: Option<Role>,
    position: Option<Position>,
    letters: Vec<char>,
}

impl Client {
    /// A client waiting for `N`.
    pub fn new() -> Client {
        Client::default()
    }

    /// The position, once a game has started.
    pub fn position(&self) -> Option<&Position> {
        self.position.as_ref()
    }

    /// The role in the current game.
    pub fn role(&self) -> Option<Role> {
        self.role
    }

    fn colour(&mut self, letter: &str) -> Result<Colour, CourseError> {
        let size = self.size.expect("a game is on");
        let mut chars = letter.trim().chars();
        let (Some(ch @ 'A'..='Z'), None) = (chars.next(), chars.next()) else {
            return Err(CourseError::Unexpected {
                line: letter.to_owned(),
                expected: "a colour: one upper-case letter",
            });
        };
        let index = match self.letters.iter().position(|&l| l == ch) {
            Some(i) => i,
            None if self.letters.len() < size.colours() => {
                self.letters.push(ch);
                self.letters.len() - 1
            }
            None => {
                return Err(invalid(
                    letter,
                    format!(
                        "more than {} colours in an Entropy({size}) game",
                        size.colours()
                    ),
                ))
            }
        };
        Ok(Colour::ALL[index])
    }

    /// Takes one line from the server and says what to do next.
    pub fn receive(&mut self, line: &str) -> Result<Next, CourseError> {
        let text = line.trim();
        let between_games = self.position.as_ref().is_none_or(Position::is_over);
        // A lone number while a game is on starts the next game: a server need not send Order
        // the last placement, after which Order has no move.
        let new_game = self.role.is_some() && text.parse::<usize>().is_ok();
        if self.size.is_none() || (between_games && self.role.is_some()) || new_game {
            let side: usize = text.parse().map_err(|_| CourseError::Unexpected {
                line: text.to_owned(),
                expected: "the board size N",
            })?;
            let size = Size::new(side).ok_or_else(|| invalid(text, "N must be between 2 and 7"))?;
            *self = Client {
                size: Some(size),
                ..Client::default()
            };
            return Ok(Next::Read);
        }
        let Some(size) = self.size else {
            unreachable!("checked above")
        };
        let Some(role) = self.role else {
            self.role = Some(match text {
                "ORDER" => Role::Order,
                "CHAOS" => Role::Chaos,
                _ => {
                    return Err(CourseError::Unexpected {
                        line: text.to_owned(),
                        expected: "ORDER or CHAOS",
                    })
                }
            });
            self.position = Some(Position::new(size));
            return Ok(Next::Read);
        };
        let position = self.position.expect("set with the role");
        match (role, position.phase()) {
            (Role::Chaos, Phase::Draw) => {
                let colour = self.colour(text)?;
                self.play(text, Move::Draw(colour))?;
                Ok(Next::Answer)
            }
            (Role::Chaos, Phase::Slide) => {
                let mv = notation::parse_slide(text)?;
                self.play(text, mv)?;
                Ok(Next::Read)
            }
            (Role::Order, Phase::Draw) => {
                let fields: Vec<&str> = text.split_whitespace().collect();
                if fields.len() != 3 {
                    return Err(CourseError::Unexpected {
                        line: text.to_owned(),
                        expected: "row column COLOUR",
                    });
                }
                let cell = notation::parse_cell(&fields[..2].join(" "))?;
                let colour = self.colour(fields[2])?;
                self.play(text, Move::Draw(colour))?;
                self.play(text, Move::Place { colour, cell })?;
                Ok(if self.position.as_ref().is_some_and(Position::is_over) {
                    Next::Read
                } else {
                    Next::Answer
                })
            }
            _ => Err(CourseError::Unexpected {
                line: text.to_owned(),
                expected: "no line now: it is our move",
            }),
        }
    }

    fn play(&mut self, line: &str, mv: Move) -> Result<(), CourseError> {
        let position = self.position.as_mut().expect("a game is on");
        position.play(mv).map_err(|e| invalid(line, e))
    }

    /// Plays our move and returns the line to send (`row column`, or `r1 c1 r2 c2`).
    pub fn answer(&mut self, mv: Move) -> Result<String, CourseError> {
        let position = self
            .position
            .as_mut()
            .ok_or_else(|| invalid("", "no game is on"))?;
        if position.to_move() != self.role || mv == Move::Pass {
            return Err(invalid(
                &mv.to_string(),
                "not a move of ours now (and there is no pass)",
            ));
        }
        position.play(mv).map_err(|e| invalid(&mv.to_string(), e))?;
        Ok(match mv {
            Move::Place { cell, .. } => notation::format_cell(cell),
            other => notation::format_slide(other).expect("a slide"),
        })
    }
}

/// The referee's side of one game: lines to send and replies to check.
#[derive(Clone, Debug)]
pub struct Referee {
    position: Position,
}

impl Referee {
    /// A new game of this size.
    pub fn new(size: Size) -> Referee {
        Referee {
            position: Position::new(size),
        }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The lines that start a game for a client in this role.
    pub fn greeting(size: Size, role: Role) -> [String; 2] {
        let role = match role {
            Role::Order => "ORDER",
            Role::Chaos => "CHAOS",
        };
        [size.side().to_string(), role.to_owned()]
    }

    /// Draws `colour` and returns the line for Chaos.
    pub fn draw(&mut self, colour: Colour) -> String {
        self.position
            .play(Move::Draw(colour))
            .expect("the referee draws from the bag");
        notation::format_colour(colour)
    }

    /// Checks Chaos's reply; returns its move and the line for Order.
    pub fn chaos_reply(&mut self, line: &str) -> Result<(Move, String), CourseError> {
        let Phase::Place(colour) = self.position.phase() else {
            return Err(CourseError::Unexpected {
                line: line.to_owned(),
                expected: "no move from Chaos now",
            });
        };
        let cell = notation::parse_cell(line.trim())?;
        let mv = Move::Place { colour, cell };
        self.position
            .play(mv)
            .map_err(|e: IllegalMove| invalid(line, e))?;
        Ok((mv, notation::format_placement(cell, colour)))
    }

    /// Checks Order's reply (a slide of at least one cell); returns its move and the line for
    /// Chaos.
    pub fn order_reply(&mut self, line: &str) -> Result<(Move, String), CourseError> {
        let mv = notation::parse_slide(line.trim())?;
        if let Move::Slide { from, to } = mv {
            if from == to {
                return Err(invalid(
                    line,
                    "Order must move a chip at least one cell (there is no pass)",
                ));
            }
        }
        self.position.play(mv).map_err(|e| invalid(line, e))?;
        Ok((mv, notation::format_slide(mv).expect("a slide")))
    }

    /// Plays a move for a player that has forfeited (the jury), returning the line the other
    /// player would have received.
    pub fn jury(&mut self, mv: Move) -> String {
        self.position.play(mv).expect("the jury plays legal moves");
        match mv {
            Move::Place { colour, cell } => notation::format_placement(cell, colour),
            other => notation::format_slide(other).unwrap_or_default(),
        }
    }
}

/// The cell of a 0-indexed `row column` pair, for tests and tools.
pub fn cell(row: usize, column: usize) -> Option<Cell> {
    Cell::new(row, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_and_a_referee_play_a_turn() {
        let mut referee = Referee::new(Size::FIVE);
        let mut chaos = Client::new();
        let mut order = Client::new();
        for line in Referee::greeting(Size::FIVE, Role::Chaos) {
            assert_eq!(chaos.receive(&line), Ok(Next::Read));
        }
        for line in Referee::greeting(Size::FIVE, Role::Order) {
            assert_eq!(order.receive(&line), Ok(Next::Read));
        }
        let colour_line = referee.draw(Colour::Green);
        assert_eq!(colour_line, "G");
        assert_eq!(chaos.receive(&colour_line), Ok(Next::Answer));
        let place = chaos
            .answer(Move::Place {
                colour: Colour::Red,
                cell: cell(1, 2).unwrap(),
            })
            .unwrap();
        assert_eq!(place, "1 2");
        let (_, to_order) = referee.chaos_reply(&place).unwrap();
        assert_eq!(to_order, "1 2 G");
        assert_eq!(order.receive(&to_order), Ok(Next::Answer));
        assert!(
            order.answer(Move::Pass).is_err(),
            "no pass in this protocol"
        );
        let slide = order
            .answer(Move::Slide {
                from: cell(1, 2).unwrap(),
                to: cell(1, 4).unwrap(),
            })
            .unwrap();
        assert_eq!(slide, "1 2 1 4");
        assert!(referee.order_reply("1 4 1 4").is_err());
        let (_, to_chaos) = referee.order_reply(&slide).unwrap();
        assert_eq!(chaos.receive(&to_chaos), Ok(Next::Read));
        assert_eq!(chaos.position(), order.position());
    }

    #[test]
    fn bad_lines_are_errors() {
        let mut client = Client::new();
        assert!(client.receive("seven").is_err());
        client.receive("5").unwrap();
        assert!(client.receive("KING").is_err());
        client.receive("ORDER").unwrap();
        assert!(client.receive("9 9 R").is_err());
        let mut referee = Referee::new(Size::FIVE);
        referee.draw(Colour::Red);
        assert!(referee.chaos_reply("0 5").is_err(), "off a 5x5 board");
        assert!(referee.chaos_reply("garbage").is_err());
        assert!(referee.chaos_reply("0 0").is_ok());
        assert!(referee.order_reply("1 1 1 2").is_err(), "no chip there");
    }

    #[test]
    fn letters_are_learnt_by_first_appearance() {
        let mut client = Client::new();
        client.receive("5").unwrap();
        client.receive("CHAOS").unwrap();
        client.receive("A").unwrap();
        assert_eq!(
            client.position().unwrap().phase(),
            Phase::Place(Colour::Red)
        );
    }
}
