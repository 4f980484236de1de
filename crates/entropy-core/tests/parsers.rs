//! Every parser on arbitrary text: an error or a value, never a panic; and formatting then
//! parsing gives the value back.

use entropy_core::notation::{codecup, course, spec, text};
use entropy_core::{Board, Move};
use proptest::prelude::*;

/// Text that looks like notation often enough to reach deep into the parsers.
fn notation_like() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[A-Ha-h1-8./ \\-]{0,12}",
        "[0-8 ]{0,10}[A-Z]?",
        "[1-8.]{20,52}( (draw|slide|over|[0-9]))?",
        "([1-7.]{7}/){6}[1-7.]{7}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parsers_never_panic(input in notation_like()) {
        let _ = codecup::parse_cell(&input);
        let _ = codecup::parse_colour(&input);
        let _ = codecup::parse_placement(&input);
        let _ = codecup::parse_order_move(&input);
        let _ = spec::parse_cell(&input);
        let _ = spec::parse_colour(&input);
        let _ = spec::parse_order_move(&input);
        let _ = course::parse_cell(&input);
        let _ = course::parse_colour(&input);
        let _ = course::parse_placement(&input);
        let _ = course::parse_slide(&input);
        let _ = input.parse::<Move>();
        if let Ok(board) = input.parse::<Board>() {
            prop_assert_eq!(board.to_string().parse::<Board>().unwrap(), board);
            prop_assert_eq!(board.score(), board.score_naive());
        }
        if let Ok(position) = text::parse_position(&input) {
            let again = text::parse_position(&text::format_position(&position)).unwrap();
            prop_assert_eq!(again, position);
        }
    }
}
