//! The bot specification's notation (document 004): cells `a1`..`g7` (row letter a-g from the top,
//! column number 1-7 from the left, so `c4` is row 2, column 3, index 17), Order's move `a1-b1`
//! or `pass`, Chaos's move a cell, and colours `R G Y B W K P` (`""` for an empty cell).

use super::ParseError;
use crate::{Cell, Colour, Move};

/// Parses a cell such as `c4` (the row letter may be upper-case).
pub fn parse_cell(text: &str) -> Result<Cell, ParseError> {
    let err = |position, problem: &str| ParseError::new("cell", text, position, problem);
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 2 {
        return Err(err(
            None,
            "expected a row letter a-g and a column number 1-7, as in c4",
        ));
    }
    let row = match chars[0].to_ascii_lowercase() {
        letter @ 'a'..='g' => letter as usize - 'a' as usize,
        _ => return Err(err(Some(1), "the row must be a letter a-g")),
    };
    let column = match chars[1] {
        digit @ '1'..='7' => digit as usize - '1' as usize,
        _ => return Err(err(Some(2), "the column must be a number 1-7")),
    };
    Ok(Cell::new(row, column).expect("a-g and 1-7 are on the grid"))
}

/// Formats a cell, e.g. `c4`.
pub fn format_cell(cell: Cell) -> String {
    let row = (b'a' + cell.row() as u8) as char;
    format!("{row}{}", cell.column() + 1)
}

/// Parses a colour letter `R G Y B W K P` (either case).
pub fn parse_colour(text: &str) -> Result<Colour, ParseError> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(letter), None) => Colour::from_letter(letter).ok_or_else(|| {
            ParseError::new("colour", text, Some(1), "expected one of R G Y B W K P")
        }),
        _ => Err(ParseError::new(
            "colour",
            text,
            None,
            "expected one letter: R G Y B W K P",
        )),
    }
}

/// Formats a colour as its letter.
pub fn format_colour(colour: Colour) -> String {
    colour.letter().to_string()
}

/// Parses Order's move: `a1-b1` or `pass`.
pub fn parse_order_move(text: &str) -> Result<Move, ParseError> {
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let err = |position, problem: &str| ParseError::new("Order move", text, position, problem);
    let Some((from, to)) = text.split_once('-') else {
        return Err(err(
            None,
            "expected two cells joined by '-', as in a1-b1, or pass",
        ));
    };
    let from = parse_cell(from).map_err(|e| err(e.position(), e.problem()))?;
    let offset = text.find('-').expect("split on '-'") + 1;
    let to = parse_cell(to).map_err(|e| err(e.position().map(|p| p + offset), e.problem()))?;
    Ok(Move::Slide { from, to })
}

/// Formats Order's move: `a1-b1` or `pass` (anything but a slide is written as `pass`).
pub fn format_order_move(mv: Move) -> String {
    match mv {
        Move::Slide { from, to } => format!("{}-{}", format_cell(from), format_cell(to)),
        _ => "pass".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_example() {
        let c4 = parse_cell("c4").unwrap();
        assert_eq!((c4.row(), c4.column(), c4.index()), (2, 3, 17));
        assert_eq!(format_cell(c4), "c4");
    }

    #[test]
    fn cells_and_moves_round_trip() {
        for from in Cell::all() {
            assert_eq!(parse_cell(&format_cell(from)), Ok(from));
            for to in Cell::all() {
                let mv = Move::Slide { from, to };
                assert_eq!(parse_order_move(&format_order_move(mv)), Ok(mv));
            }
        }
        assert_eq!(parse_order_move("pass"), Ok(Move::Pass));
        assert_eq!(format_order_move(Move::Pass), "pass");
        for colour in Colour::ALL {
            assert_eq!(parse_colour(&format_colour(colour)), Ok(colour));
        }
    }

    #[test]
    fn errors_point_at_the_problem() {
        assert_eq!(parse_cell("h1").unwrap_err().position(), Some(1));
        assert_eq!(parse_cell("a8").unwrap_err().position(), Some(2));
        assert_eq!(parse_order_move("a1-b9").unwrap_err().position(), Some(5));
        assert!(parse_order_move("a1b1").is_err());
        assert!(parse_colour("X").is_err());
        assert!(parse_colour("").is_err());
    }
}
