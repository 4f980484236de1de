//! A position drawn for a person in a terminal: coordinates, chips as letters (on ANSI colours
//! when asked), each row's and column's score, the bag. Plain strings: the caller prints them.

use std::fmt::Write;

use crate::{Cell, Colour, Move, Position};

/// The ANSI background colour of each chip colour, and a foreground that reads on it.
fn ansi(colour: Colour) -> (&'static str, &'static str) {
    match colour {
        Colour::Red => ("41", "97"),
        Colour::Green => ("42", "30"),
        Colour::Yellow => ("43", "30"),
        Colour::Blue => ("44", "97"),
        Colour::White => ("47", "30"),
        Colour::Black => ("40", "97"),
        Colour::Purple => ("45", "97"),
    }
}

/// A chip as a person sees it: its letter, on its colour when `colour` is on.
pub fn chip(colour: Colour, use_colour: bool) -> String {
    if use_colour {
        let (background, foreground) = ansi(colour);
        format!(
            "\x1b[{background};{foreground};1m {} \x1b[0m",
            colour.letter()
        )
    } else {
        format!(" {} ", colour.letter())
    }
}

/// The colour names with letters and numbers, for a legend.
pub fn legend(position: &Position) -> String {
    const NAMES: [&str; 7] = ["red", "green", "yellow", "blue", "white", "black", "purple"];
    position
        .size()
        .game_colours()
        .map(|c| format!("{}={} {}", c.letter(), c.number(), NAMES[c.index()]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Draws the board with CodeCup coordinates (rows `A`.., columns `a`..), the score of each row
/// (right) and column (below), the total, and the bag. The cells touched by the `recent` moves
/// are underlined (bracketed without colour).
pub fn render(position: &Position, recent: &[Move], use_colour: bool) -> String {
    let board = position.board();
    let n = position.size().side();
    let (rows, columns) = board.line_scores();
    let marked = |cell: Cell| {
        recent.iter().any(|mv| match *mv {
            Move::Place { cell: c, .. } => c == cell,
            Move::Slide { from, to } => from == cell || to == cell,
            _ => false,
        })
    };
    let mut out = String::new();
    out.push_str("     ");
    for c in 0..n {
        let _ = write!(out, " {} ", (b'a' + c as u8) as char);
    }
    out.push_str("   score\n");
    for (r, row_score) in rows.iter().enumerate().take(n) {
        let _ = write!(out, "  {}  ", (b'A' + r as u8) as char);
        for c in 0..n {
            let cell = Cell::new(r, c).expect("on the grid");
            let text = match board.get(cell) {
                Some(colour) => chip(colour, use_colour),
                None => " . ".to_owned(),
            };
            if marked(cell) && !use_colour {
                let _ = write!(out, "[{}]", text.trim());
            } else if marked(cell) {
                let _ = write!(out, "\x1b[4m{text}\x1b[0m");
            } else {
                out.push_str(&text);
            }
        }
        let _ = writeln!(out, "   {row_score:>3}");
    }
    out.push_str("     ");
    for score in columns.iter().take(n) {
        let _ = write!(out, "{score:^3}");
    }
    let _ = writeln!(out, "   {:>3} total", position.score());
    let bag: Vec<String> = position
        .bag()
        .colours()
        .map(|(colour, count)| format!("{}x{count}", colour.letter()))
        .collect();
    let _ = writeln!(
        out,
        "  bag ({} chips): {}",
        position.bag().total(),
        bag.join(" ")
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::text::parse_position;

    #[test]
    fn the_board_shows_coordinates_line_scores_and_the_bag() {
        let position =
            parse_position("11...../......./......./......./......./......./....... slide")
                .unwrap();
        let plain = render(&position, &[], false);
        assert!(plain.starts_with("      a  b  c"), "{plain}");
        assert!(plain.contains("  A   R  R  . "), "{plain}");
        assert!(plain.contains("2 total"), "{plain}");
        assert!(plain.contains("bag (47 chips)"), "{plain}");
        assert!(!plain.contains('\x1b'));
        assert!(render(&position, &[], true).contains("\x1b[41"));
    }
}
