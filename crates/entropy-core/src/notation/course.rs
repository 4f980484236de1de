//! The course assignment's notation (document 002): 0-indexed `row column` pairs separated by
//! spaces, colours as one upper-case letter. Chaos receives a colour line `C` and answers
//! `row column`; Order receives `row column C` and answers `row1 column1 row2 column2`.
//!
//! The document does not fix the colour letters; we use the bot specification's `R G Y B W K P`
//! (the first N of them in Entropy(N)). The document also has no pass: Order must move a chip.

use super::ParseError;
use crate::{Cell, Colour, Move};

fn numbers<const K: usize>(what: &'static str, text: &str) -> Result<[usize; K], ParseError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != K {
        let problem = format!(
            "expected {K} numbers separated by spaces, found {}",
            fields.len()
        );
        return Err(ParseError::new(what, text, None, problem));
    }
    let mut out = [0; K];
    for (i, field) in fields.iter().enumerate() {
        out[i] = field
            .parse::<usize>()
            .ok()
            .filter(|&v| v < 7)
            .ok_or_else(|| {
                let position = text.find(field).map(|p| p + 1);
                ParseError::new(
                    what,
                    text,
                    position,
                    format!("{field:?} is not a row or column 0-6"),
                )
            })?;
    }
    Ok(out)
}

fn cell(row: usize, column: usize) -> Cell {
    Cell::new(row, column).expect("rows and columns below 7 are on the grid")
}

/// Parses Chaos's move `row column`.
pub fn parse_cell(text: &str) -> Result<Cell, ParseError> {
    let [row, column] = numbers::<2>("course cell", text)?;
    Ok(cell(row, column))
}

/// Formats Chaos's move, `row column`.
pub fn format_cell(cell: Cell) -> String {
    format!("{} {}", cell.row(), cell.column())
}

/// Parses a colour line, one upper-case letter.
pub fn parse_colour(text: &str) -> Result<Colour, ParseError> {
    let trimmed = text.trim();
    let mut chars = trimmed.chars();
    match (chars.next(), chars.next()) {
        (Some(letter @ 'A'..='Z'), None) => Colour::from_letter(letter).ok_or_else(|| {
            ParseError::new(
                "course colour",
                text,
                Some(1),
                "expected one of R G Y B W K P",
            )
        }),
        _ => Err(ParseError::new(
            "course colour",
            text,
            None,
            "expected one upper-case letter",
        )),
    }
}

/// Formats a colour as its letter.
pub fn format_colour(colour: Colour) -> String {
    colour.letter().to_string()
}

/// Parses the placement Order receives, `row column C`.
pub fn parse_placement(text: &str) -> Result<(Cell, Colour), ParseError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 3 {
        return Err(ParseError::new(
            "course placement",
            text,
            None,
            "expected row, column and colour letter, as in 2 3 R",
        ));
    }
    let place = parse_cell(&fields[..2].join(" "))
        .map_err(|e| ParseError::new("course placement", text, None, e.problem()))?;
    let colour = parse_colour(fields[2])
        .map_err(|e| ParseError::new("course placement", text, None, e.problem()))?;
    Ok((place, colour))
}

/// Formats the placement Order receives, `row column C`.
pub fn format_placement(cell: Cell, colour: Colour) -> String {
    format!("{} {}", format_cell(cell), colour.letter())
}

/// Parses Order's move `row1 column1 row2 column2` as a slide (the same cell twice is kept as a
/// slide, which [`crate::Position::play`] refuses: this protocol has no pass).
pub fn parse_slide(text: &str) -> Result<Move, ParseError> {
    let [r1, c1, r2, c2] = numbers::<4>("course slide", text)?;
    Ok(Move::Slide {
        from: cell(r1, c1),
        to: cell(r2, c2),
    })
}

/// Formats a slide, `row1 column1 row2 column2`; `None` for anything else (there is no pass).
pub fn format_slide(mv: Move) -> Option<String> {
    match mv {
        Move::Slide { from, to } => Some(format!("{} {}", format_cell(from), format_cell(to))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for from in Cell::all() {
            assert_eq!(parse_cell(&format_cell(from)), Ok(from));
            for colour in Colour::ALL {
                assert_eq!(
                    parse_placement(&format_placement(from, colour)),
                    Ok((from, colour))
                );
            }
            let to = Cell::new(from.row(), 6 - from.column()).unwrap();
            let slide = Move::Slide { from, to };
            assert_eq!(parse_slide(&format_slide(slide).unwrap()), Ok(slide));
        }
        assert_eq!(format_slide(Move::Pass), None);
    }

    #[test]
    fn errors() {
        assert!(parse_cell("1").is_err());
        assert!(parse_cell("1 7").is_err());
        assert!(parse_cell("a b").is_err());
        assert!(parse_slide("0 0 0").is_err());
        assert!(parse_colour("r").is_err());
        assert!(parse_colour("Q").is_err());
        assert!(parse_placement("0 0").is_err());
        let err = parse_cell("1 9").unwrap_err();
        assert_eq!(err.position(), Some(3));
    }
}
