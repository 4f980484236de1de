//! The one-line board text for people, tests and tools: the cells row by row from the top, left
//! to right, `.` for an empty cell and the digits `1`..`7` for colours, with an optional `/`
//! between rows. 49 cells make a 7x7 board, 25 a 5x5 one (any N x N with 2 <= N <= 7 is read).
//!
//! ```text
//! 1234567/......./.......        (first rows of a 7x7 board)
//! 12345..........................  (the same cells, no separators: 49 characters in all)
//! ```
//!
//! [`crate::Board`] implements `FromStr` and `Display` with this format.
//!
//! A position text is a board text, a space and the phase: `draw` (a chip is to be drawn),
//! `slide` (Order to move), a colour digit `1`..`7` (Chaos holds that colour and must place it),
//! or `over`. Without the phase a position is at `draw` (or `over` on a full board).

use std::fmt;
use std::str::FromStr;

use super::ParseError;
use crate::{Board, Cell, Colour, Phase, Position, Size};

const WHAT: &str = "board text";

impl FromStr for Board {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Board, ParseError> {
        parse_board(text)
    }
}

/// Reads a board text (see the module documentation).
pub fn parse_board(text: &str) -> Result<Board, ParseError> {
    let err = |position, problem: String| ParseError::new(WHAT, text, position, problem);
    // Cell values with the 1-based character position each came from.
    let mut cells: Vec<(Option<Colour>, usize)> = Vec::with_capacity(49);
    let mut row_lengths = vec![0usize];
    // Surrounding white space is ignored; positions still count it.
    let leading = text.chars().count() - text.trim_start().chars().count();
    for (i, ch) in text.trim().chars().enumerate() {
        let position = leading + i + 1;
        match ch {
            '.' => cells.push((None, position)),
            '1'..='7' => cells.push((Colour::from_digit(ch), position)),
            '/' => row_lengths.push(0),
            _ => {
                let problem = format!(
                    "{ch:?} is not a cell: use '.' for empty, 1-7 for a colour, '/' between rows"
                );
                return Err(err(Some(position), problem));
            }
        }
        if ch != '/' {
            *row_lengths.last_mut().expect("one row at least") += 1;
        }
    }
    let count = cells.len();
    let side = (2..=7).find(|n| n * n == count).ok_or_else(|| {
        err(
            None,
            format!("{count} cells: expected 49 (a 7x7 board) or 25 (5x5)"),
        )
    })?;
    if row_lengths.len() > 1 {
        if row_lengths.len() != side {
            let problem = format!(
                "{} rows separated by '/', but {count} cells make {side} rows",
                row_lengths.len()
            );
            return Err(err(None, problem));
        }
        if let Some(row) = row_lengths.iter().position(|&len| len != side) {
            let problem = format!(
                "row {} has {} cells, expected {side}",
                row + 1,
                row_lengths[row]
            );
            return Err(err(None, problem));
        }
    }
    let size = Size::new(side).expect("2..=7");
    let mut board = Board::empty(size);
    for (index, &(colour, position)) in cells.iter().enumerate() {
        let cell = Cell::new(index / side, index % side).expect("on the grid");
        board
            .set(cell, colour)
            .map_err(|e| err(Some(position), e.to_string()))?;
    }
    Ok(board)
}

/// Writes a board text with `/` between rows.
pub fn format_board(board: &Board) -> String {
    board.to_string()
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size().side();
        for r in 0..n {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..n {
                let cell = Cell::new(r, c).expect("on the grid");
                match self.get(cell) {
                    Some(colour) => write!(f, "{}", colour.digit())?,
                    None => f.write_str(".")?,
                }
            }
        }
        Ok(())
    }
}

/// Reads a position text: a board text, optionally followed by a space and the phase.
pub fn parse_position(text: &str) -> Result<Position, ParseError> {
    let trimmed = text.trim();
    let (board_text, phase_text) = match trimmed.rsplit_once(char::is_whitespace) {
        Some((board, phase)) => (board.trim_end(), Some(phase)),
        None => (trimmed, None),
    };
    let board = parse_board(board_text)
        .map_err(|e| ParseError::new("position text", text, e.position(), e.problem()))?;
    let phase = match phase_text {
        None => Phase::Draw,
        Some(word) => parse_phase(word).ok_or_else(|| {
            let position = text.rfind(word).map(|p| text[..p].chars().count() + 1);
            ParseError::new(
                "position text",
                text,
                position,
                format!("{word:?} is not a phase: use draw, slide, over or a colour digit 1-7"),
            )
        })?,
    };
    Position::from_board(board, phase)
        .map_err(|e| ParseError::new("position text", text, None, e.to_string()))
}

fn parse_phase(word: &str) -> Option<Phase> {
    match word {
        "draw" => Some(Phase::Draw),
        "slide" => Some(Phase::Slide),
        "over" => Some(Phase::Over),
        _ => {
            let mut chars = word.chars();
            match (chars.next(), chars.next()) {
                (Some(digit), None) => Colour::from_digit(digit).map(Phase::Place),
                _ => None,
            }
        }
    }
}

/// Writes a position text: board text, a space, the phase.
pub fn format_position(position: &Position) -> String {
    let phase = match position.phase() {
        Phase::Draw => "draw".to_owned(),
        Phase::Slide => "slide".to_owned(),
        Phase::Over => "over".to_owned(),
        Phase::Place(colour) => colour.digit().to_string(),
    };
    format!("{} {phase}", position.board())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_with_and_without_separators() {
        let text = "1234567/7654321/......./1.1.1.1/......./.......
/2222222";
        let text = text.replace('\n', "");
        let board: Board = text.parse().unwrap();
        assert_eq!(board.to_string(), text);
        let flat: Board = text.replace('/', "").parse().unwrap();
        assert_eq!(flat, board);
        let small: Board = "12345/...../...../...../54321".parse().unwrap();
        assert_eq!(small.size(), Size::FIVE);
        assert_eq!(small.to_string(), "12345/...../...../...../54321");
    }

    #[test]
    fn positions_round_trip() {
        for text in [
            "12...../......./......./......./......./......./....... slide",
            "12...../......./......./......./......./......./....... draw",
            "12...../......./......./......./......./......./....... 3",
            "11111/22222/33333/44444/55555 over",
        ] {
            let position = parse_position(text).unwrap();
            assert_eq!(format_position(&position), text);
        }
        let implicit = parse_position(&".".repeat(49)).unwrap();
        assert_eq!(implicit.phase(), Phase::Draw);
        let err = parse_position(&format!("{} jump", ".".repeat(49))).unwrap_err();
        assert_eq!(err.position(), Some(51));
        let err = parse_position(&format!("{} slide", ".".repeat(49))).unwrap_err();
        assert!(err.problem().contains("empty"), "{err}");
        let err = parse_position(&format!("{} 1", "1".repeat(7) + &".".repeat(42))).unwrap_err();
        assert!(err.problem().contains("8 chips of colour 1"), "{err}");
    }

    #[test]
    fn errors_name_position_and_problem() {
        let err = "123x".parse::<Board>().unwrap_err();
        assert_eq!(err.position(), Some(4));
        let err = ".".repeat(48).parse::<Board>().unwrap_err();
        assert!(err.problem().contains("48 cells"), "{err}");
        let err = "......../....../......./......./......./......./......."
            .parse::<Board>()
            .unwrap_err();
        assert!(err.problem().contains("row 1 has 8 cells"), "{err}");
        let err = " 12x".parse::<Board>().unwrap_err();
        assert_eq!(err.position(), Some(4));
        let err = "....6/...../...../...../....."
            .parse::<Board>()
            .unwrap_err();
        assert_eq!(err.position(), Some(5));
        assert!(err.problem().contains("colour 6"), "{err}");
    }
}
