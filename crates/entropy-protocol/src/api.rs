//! The bot specification's JSON API (document 004): a `GameState` in, a move out.
//!
//! ```json
//! {"state": ["R", "", "G", ...49 entries...], "nextToken": "B", "turn": "order"}
//! ```
//! `state` lists the 49 cells row by row (`a1`..`g7`), each a colour letter `R G Y B W K P` or
//! `""` for empty; `nextToken` is the chip Chaos places next (Order knows it); `turn` is whose
//! move it is. Order answers `{"move": "a1-b1"}` or `{"move": "pass"}`, Chaos `{"move": "a1"}`.

use entropy_core::notation::spec;
use entropy_core::{Board, Cell, Colour, Move, Phase, Position, Role, Size};
use serde::{Deserialize, Serialize};

/// The game state of the specification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GameState {
    /// The 49 cells, row-major: a colour letter or `""`.
    pub state: Vec<String>,
    /// The chip Chaos places next.
    pub next_token: String,
    /// `"order"` or `"chaos"`.
    pub turn: String,
}

/// A move as the specification writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveReply {
    /// `"a1-b1"`, `"pass"` or `"a1"`.
    #[serde(rename = "move")]
    pub mv: String,
}

/// Why a game state is not a position of the game.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum StateError {
    /// Not 49 cells.
    #[error("state has {0} cells; expected 49 (7 rows of 7, row-major)")]
    CellCount(usize),
    /// A cell that is not a colour letter or empty.
    #[error("state[{index}] (cell {cell}) is {value:?}; expected one of R G Y B W K P or \"\"")]
    BadCell {
        /// Position in the array.
        index: usize,
        /// The cell's name.
        cell: String,
        /// What was there.
        value: String,
    },
    /// `nextToken` is not a colour letter.
    #[error("nextToken is {0:?}; expected one of R G Y B W K P")]
    BadToken(String),
    /// `turn` is not `order` or `chaos`.
    #[error("turn is {0:?}; expected \"order\" or \"chaos\"")]
    BadTurn(String),
    /// The endpoint is for the other player.
    #[error("turn is {turn:?} but this endpoint answers for {endpoint}")]
    WrongTurn {
        /// The state's turn.
        turn: String,
        /// The endpoint's role.
        endpoint: Role,
    },
    /// A colour used more often than the bag holds, or the next chip not left in the bag.
    #[error("{0}")]
    Inconsistent(String),
}

/// Turns a game state into the position of the player to move: Order to slide (the next chip
/// is not drawn yet in our turn structure, so `nextToken` is only checked to be in the bag), or
/// Chaos holding `nextToken`.
pub fn position_of(state: &GameState, endpoint: Role) -> Result<Position, StateError> {
    if state.state.len() != 49 {
        return Err(StateError::CellCount(state.state.len()));
    }
    let mut board = Board::empty(Size::SEVEN);
    for (index, value) in state.state.iter().enumerate() {
        let cell = Cell::from_index(index).expect("49 cells");
        let colour = match value.as_str() {
            "" => None,
            text => Some(spec::parse_colour(text).map_err(|_| StateError::BadCell {
                index,
                cell: spec::format_cell(cell),
                value: value.clone(),
            })?),
        };
        board.set(cell, colour).expect("7x7 cells and colours");
    }
    let token = spec::parse_colour(&state.next_token)
        .map_err(|_| StateError::BadToken(state.next_token.clone()))?;
    let turn = match state.turn.as_str() {
        "order" => Role::Order,
        "chaos" => Role::Chaos,
        other => return Err(StateError::BadTurn(other.to_owned())),
    };
    if turn != endpoint {
        return Err(StateError::WrongTurn {
            turn: state.turn.clone(),
            endpoint,
        });
    }
    let counts = board.colour_counts();
    if let Some(colour) = Colour::ALL.iter().find(|c| counts[c.index()] > 7) {
        return Err(StateError::Inconsistent(format!(
            "colour {} appears {} times; the bag holds 7 of each",
            colour.letter(),
            counts[colour.index()]
        )));
    }
    if counts[token.index()] >= 7 {
        return Err(StateError::Inconsistent(format!(
            "nextToken {} is not in the bag: all 7 are on the board",
            token.letter()
        )));
    }
    if board.is_full() {
        return Err(StateError::Inconsistent(
            "the board is full: the game is over".to_owned(),
        ));
    }
    let phase = match turn {
        Role::Chaos => Phase::Place(token),
        Role::Order => Phase::Slide,
    };
    Position::from_board(board, phase).map_err(|e| StateError::Inconsistent(e.to_string()))
}

/// The reply for a move of the player to move.
pub fn reply(mv: Move) -> MoveReply {
    let text = match mv {
        Move::Place { cell, .. } => spec::format_cell(cell),
        other => spec::format_order_move(other),
    };
    MoveReply { mv: text }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(cells: &[(&str, &str)], token: &str, turn: &str) -> GameState {
        let mut state = vec![String::new(); 49];
        for (cell, colour) in cells {
            state[spec::parse_cell(cell).unwrap().index()] = colour.to_string();
        }
        GameState {
            state,
            next_token: token.into(),
            turn: turn.into(),
        }
    }

    #[test]
    fn states_become_positions() {
        let chaos = position_of(&state(&[("c4", "R")], "B", "chaos"), Role::Chaos).unwrap();
        assert_eq!(chaos.phase(), Phase::Place(Colour::Blue));
        assert_eq!(
            chaos.board().get(spec::parse_cell("c4").unwrap()),
            Some(Colour::Red)
        );
        let order = position_of(&state(&[("c4", "R")], "B", "order"), Role::Order).unwrap();
        assert_eq!(order.phase(), Phase::Slide);
        assert_eq!(reply(Move::Pass).mv, "pass");
        let json = serde_json_like(&reply(Move::Place {
            colour: Colour::Red,
            cell: Cell::new(2, 3).unwrap(),
        }));
        assert_eq!(json, "c4");
    }

    fn serde_json_like(reply: &MoveReply) -> String {
        reply.mv.clone()
    }

    #[test]
    fn inconsistent_states_are_named() {
        assert_eq!(
            position_of(&state(&[], "B", "order"), Role::Chaos),
            Err(StateError::WrongTurn {
                turn: "order".into(),
                endpoint: Role::Chaos
            })
        );
        let err = position_of(&state(&[("a1", "X")], "B", "chaos"), Role::Chaos).unwrap_err();
        assert!(err.to_string().contains("state[0] (cell a1)"), "{err}");
        let sevens: Vec<(String, &str)> = (1..=7).map(|c| (format!("a{c}"), "R")).collect();
        let cells: Vec<(&str, &str)> = sevens.iter().map(|(c, k)| (c.as_str(), *k)).collect();
        let err = position_of(&state(&cells, "R", "chaos"), Role::Chaos).unwrap_err();
        assert!(err.to_string().contains("not in the bag"), "{err}");
        assert!(matches!(
            position_of(&state(&[], "B", "order"), Role::Order),
            Err(StateError::Inconsistent(_))
        ));
        assert!(matches!(
            position_of(
                &GameState {
                    state: vec![],
                    next_token: "R".into(),
                    turn: "chaos".into()
                },
                Role::Chaos
            ),
            Err(StateError::CellCount(0))
        ));
    }
}
