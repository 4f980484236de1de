//! CodeCup 2023 notation: cells `Aa`..`Gg` (row letter upper-case, column letter lower-case),
//! colours `1`..`7`, a placement as colour then cell (`3Bc`), Order's move as two cells (`BcBg`),
//! and a pass as a chip moved onto its own cell (`BcBc`).

use super::ParseError;
use crate::{Cell, Colour, Move};

/// Parses a cell such as `Bc`.
pub fn parse_cell(text: &str) -> Result<Cell, ParseError> {
    let err = |position, problem: &str| ParseError::new("CodeCup cell", text, position, problem);
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 2 {
        return Err(err(
            None,
            "expected two letters, row A-G then column a-g, as in Bc",
        ));
    }
    let row = match chars[0] {
        'A'..='G' => chars[0] as usize - 'A' as usize,
        _ => return Err(err(Some(1), "the row must be an upper-case letter A-G")),
    };
    let column = match chars[1] {
        'a'..='g' => chars[1] as usize - 'a' as usize,
        _ => return Err(err(Some(2), "the column must be a lower-case letter a-g")),
    };
    Ok(Cell::new(row, column).expect("A-G and a-g are on the grid"))
}

/// Formats a cell, e.g. `Bc`.
pub fn format_cell(cell: Cell) -> String {
    cell.to_string()
}

/// Parses a colour number `1`..`7`.
pub fn parse_colour(text: &str) -> Result<Colour, ParseError> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(digit), None) => Colour::from_digit(digit).ok_or_else(|| {
            ParseError::new("CodeCup colour", text, Some(1), "expected a digit 1-7")
        }),
        _ => Err(ParseError::new(
            "CodeCup colour",
            text,
            None,
            "expected one digit 1-7",
        )),
    }
}

/// Formats a colour as its number.
pub fn format_colour(colour: Colour) -> String {
    colour.digit().to_string()
}

/// Parses a placement as Order receives it: colour then cell, `3Bc`.
pub fn parse_placement(text: &str) -> Result<(Colour, Cell), ParseError> {
    let err =
        |position, problem: &str| ParseError::new("CodeCup placement", text, position, problem);
    if text.chars().count() != 3 {
        return Err(err(None, "expected a colour 1-7 and a cell, as in 3Bc"));
    }
    let mut chars = text.chars();
    let colour = chars
        .next()
        .and_then(Colour::from_digit)
        .ok_or_else(|| err(Some(1), "the colour must be a digit 1-7"))?;
    let cell_text: String = chars.collect();
    let cell = parse_cell(&cell_text).map_err(|e| err(e.position().map(|p| p + 1), e.problem()))?;
    Ok((colour, cell))
}

/// Formats a placement as Order receives it, `3Bc`.
pub fn format_placement(colour: Colour, cell: Cell) -> String {
    format!("{colour}{cell}")
}

/// Parses Order's move: two cells, `BcBg`; the same cell twice is a pass.
pub fn parse_order_move(text: &str) -> Result<Move, ParseError> {
    let err = |position, problem: &str| ParseError::new("CodeCup move", text, position, problem);
    if text.chars().count() != 4 {
        return Err(err(
            None,
            "expected two cells, from and to, as in BcBg (BcBc to pass)",
        ));
    }
    let chars: Vec<char> = text.chars().collect();
    let half = |i: usize| -> Result<Cell, ParseError> {
        let cell_text: String = chars[i..i + 2].iter().collect();
        parse_cell(&cell_text).map_err(|e| err(e.position().map(|p| p + i), e.problem()))
    };
    let (from, to) = (half(0)?, half(2)?);
    Ok(if from == to {
        Move::Pass
    } else {
        Move::Slide { from, to }
    })
}

/// Formats Order's move. A pass is written as the chip on `pass_cell` moved onto its own cell;
/// give a cell that holds a chip (the one just placed always does).
pub fn format_order_move(mv: Move, pass_cell: Cell) -> String {
    match mv {
        Move::Slide { from, to } => format!("{from}{to}"),
        _ => format!("{pass_cell}{pass_cell}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        for cell in Cell::all() {
            assert_eq!(parse_cell(&format_cell(cell)), Ok(cell));
        }
        assert_eq!(parse_cell("Bc"), Ok(Cell::new(1, 2).unwrap()));
    }

    #[test]
    fn bad_cells_name_the_problem() {
        assert_eq!(parse_cell("bc").unwrap_err().position(), Some(1));
        assert_eq!(parse_cell("BC").unwrap_err().position(), Some(2));
        assert_eq!(parse_cell("Hc").unwrap_err().position(), Some(1));
        assert!(parse_cell("Bch").is_err());
        assert!(parse_cell("").is_err());
        let message = parse_placement("3Bz").unwrap_err().to_string();
        assert_eq!(
            message,
            "invalid CodeCup placement \"3Bz\" at character 3: the column must be a lower-case letter a-g"
        );
    }

    #[test]
    fn placements_and_moves_round_trip() {
        let bc = Cell::new(1, 2).unwrap();
        let bg = Cell::new(1, 6).unwrap();
        assert_eq!(parse_placement("3Bc"), Ok((Colour::Yellow, bc)));
        assert_eq!(format_placement(Colour::Yellow, bc), "3Bc");
        let slide = Move::Slide { from: bc, to: bg };
        assert_eq!(parse_order_move("BcBg"), Ok(slide));
        assert_eq!(format_order_move(slide, bc), "BcBg");
        assert_eq!(parse_order_move("BcBc"), Ok(Move::Pass));
        assert_eq!(format_order_move(Move::Pass, bc), "BcBc");
        assert_eq!(parse_order_move("BcBx").unwrap_err().position(), Some(4));
        assert_eq!(parse_colour("7"), Ok(Colour::Purple));
        assert!(parse_colour("8").is_err());
        assert!(parse_colour("12").is_err());
    }
}
