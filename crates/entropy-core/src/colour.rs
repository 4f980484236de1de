//! Chip colours.

use std::fmt;

/// One of the seven chip colours.
///
/// The numeric value (1..=7) is the CodeCup colour number and the digit of the board text; the
/// letter is the bot specification's (`R G Y B W K P`). An Entropy(N) game uses the first N
/// colours.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Colour {
    /// Colour 1, `R`.
    Red = 1,
    /// Colour 2, `G`.
    Green = 2,
    /// Colour 3, `Y`.
    Yellow = 3,
    /// Colour 4, `B`.
    Blue = 4,
    /// Colour 5, `W`.
    White = 5,
    /// Colour 6, `K`.
    Black = 6,
    /// Colour 7, `P`.
    Purple = 7,
}

impl Colour {
    /// All seven colours in numeric order.
    pub const ALL: [Colour; 7] = [
        Colour::Red,
        Colour::Green,
        Colour::Yellow,
        Colour::Blue,
        Colour::White,
        Colour::Black,
        Colour::Purple,
    ];

    /// The bot specification's colour letters, indexed by `number() - 1`.
    pub const LETTERS: [char; 7] = ['R', 'G', 'Y', 'B', 'W', 'K', 'P'];

    /// Returns the colour with this number (1..=7).
    pub const fn from_number(number: u8) -> Option<Colour> {
        match number {
            1..=7 => Some(Colour::ALL[number as usize - 1]),
            _ => None,
        }
    }

    /// The colour's number, 1..=7.
    pub const fn number(self) -> u8 {
        self as u8
    }

    /// The colour's zero-based index, 0..=6, for arrays.
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    /// The colour's digit, `'1'..='7'`.
    pub const fn digit(self) -> char {
        (b'0' + self as u8) as char
    }

    /// The colour's letter in the bot specification, one of `R G Y B W K P`.
    pub const fn letter(self) -> char {
        Colour::LETTERS[self.index()]
    }

    /// Parses a digit `'1'..='7'`.
    pub fn from_digit(digit: char) -> Option<Colour> {
        digit
            .to_digit(10)
            .and_then(|d| Colour::from_number(d as u8))
    }

    /// Parses a bot-specification letter (`R G Y B W K P`, either case).
    pub fn from_letter(letter: char) -> Option<Colour> {
        let upper = letter.to_ascii_uppercase();
        Colour::LETTERS
            .iter()
            .position(|&l| l == upper)
            .map(|i| Colour::ALL[i])
    }
}

/// Displays the colour as its digit, as in the board text and CodeCup.
impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.digit())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_digits_and_letters_round_trip() {
        for colour in Colour::ALL {
            assert_eq!(Colour::from_number(colour.number()), Some(colour));
            assert_eq!(Colour::from_digit(colour.digit()), Some(colour));
            assert_eq!(Colour::from_letter(colour.letter()), Some(colour));
            assert_eq!(
                Colour::from_letter(colour.letter().to_ascii_lowercase()),
                Some(colour)
            );
        }
        assert_eq!(Colour::from_number(0), None);
        assert_eq!(Colour::from_number(8), None);
        assert_eq!(Colour::from_digit('8'), None);
        assert_eq!(Colour::from_letter('X'), None);
    }
}
