//! What a person types at a prompt, read leniently: a cell as row letter then column letter
//! (`Bc`, the CodeCup's) or column number (`b3`, the bot specification's), in either case; a
//! slide as two cells (`BcBg`, `Bc Bg`, `b3-b7`), and `pass`; and moves described in words.

use crate::{Cell, Move, Phase, Position};

/// Reads a cell leniently: row letter a-g in either case, then a column letter a-g or number 1-7.
pub fn parse_cell(text: &str) -> Result<Cell, String> {
    let chars: Vec<char> = text.chars().collect();
    let [row, column] = chars[..] else {
        return Err(format!(
            "{text:?} is not a cell: write a row letter and a column, as Bc or b3"
        ));
    };
    let row = match row.to_ascii_lowercase() {
        r @ 'a'..='g' => r as usize - 'a' as usize,
        _ => return Err(format!("{row:?} is not a row: rows are A to G")),
    };
    let column = match column.to_ascii_lowercase() {
        c @ 'a'..='g' => c as usize - 'a' as usize,
        c @ '1'..='7' => c as usize - '1' as usize,
        _ => {
            return Err(format!(
                "{column:?} is not a column: columns are a to g (or 1 to 7)"
            ))
        }
    };
    Ok(Cell::new(row, column).expect("on the grid"))
}

/// Reads the person's move for the phase: a cell to place on, or a slide or `pass`.
pub fn parse_move(text: &str, position: &Position) -> Result<Move, String> {
    match position.phase() {
        Phase::Place(colour) => Ok(Move::Place {
            colour,
            cell: parse_cell(text)?,
        }),
        _ if text.eq_ignore_ascii_case("pass") => Ok(Move::Pass),
        _ => {
            let parts: Vec<&str> = text
                .split(|c: char| c == '-' || c.is_whitespace())
                .filter(|p| !p.is_empty())
                .collect();
            let (from, to) = match parts[..] {
                [both] if both.chars().count() == 4 => {
                    let split = both.char_indices().nth(2).map_or(both.len(), |(i, _)| i);
                    (&both[..split], &both[split..])
                }
                [from, to] => (from, to),
                _ => return Err("a slide is two cells, as BcBg or b3-b7, or type pass".to_owned()),
            };
            let (from, to) = (parse_cell(from)?, parse_cell(to)?);
            Ok(if from == to {
                Move::Pass
            } else {
                Move::Slide { from, to }
            })
        }
    }
}

/// A move in words: `R on Bc`, `Bc to Bg`, `pass`.
pub fn describe(mv: Move) -> String {
    match mv {
        Move::Place { colour, cell } => format!("{} on {cell}", colour.letter()),
        Move::Slide { from, to } => format!("{from} to {to}"),
        Move::Pass => "pass".to_owned(),
        Move::Draw(colour) => format!("draw {}", colour.letter()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::text::parse_position;

    #[test]
    fn moves_are_read_in_every_notation() {
        let pos = parse_position("1....../......./......./......./......./......./....... slide")
            .unwrap();
        let slide = Move::Slide {
            from: Cell::new(0, 0).unwrap(),
            to: Cell::new(0, 3).unwrap(),
        };
        for text in ["AaAd", "Aa Ad", "a1-a4", "aa ad", "A1A4"] {
            assert_eq!(parse_move(text, &pos), Ok(slide), "{text}");
        }
        assert_eq!(parse_move("pass", &pos), Ok(Move::Pass));
        assert_eq!(parse_move("AaAa", &pos), Ok(Move::Pass));
        assert!(parse_move("Aa", &pos).is_err());
        assert!(parse_move("Za Ab", &pos).unwrap_err().contains("not a row"));
        let placing =
            parse_position("1....../......./......./......./......./......./....... 2").unwrap();
        assert!(matches!(parse_move("c4", &placing), Ok(Move::Place { .. })));
        assert!(parse_move("c9", &placing)
            .unwrap_err()
            .contains("not a column"));
    }
}
