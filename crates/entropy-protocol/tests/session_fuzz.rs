//! A CodeCup session fed arbitrary lines: errors, never panics, and a session that answers
//! keeps a consistent position.

use entropy_core::Phase;
use entropy_protocol::codecup::{Next, Session};
use proptest::prelude::*;

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        Just("Start".to_owned()),
        Just("Quit".to_owned()),
        "[1-8]",
        "[1-8][A-H][a-h]",
        "[A-H][a-h][A-H][a-h]",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn sessions_survive_any_input(lines in proptest::collection::vec(line(), 0..60)) {
        let mut session = Session::new();
        for line in lines {
            match session.receive(&line) {
                Ok(Next::Answer) => {
                    let moves = session.position().legal_moves();
                    let mv = moves[moves.len() / 2];
                    session.answer(mv).unwrap();
                }
                Ok(Next::Quit) => break,
                Ok(Next::Read) | Err(_) => {}
            }
            let position = session.position();
            prop_assert_eq!(position.score(), position.board().score());
            prop_assert!(position.phase() != Phase::Over || position.board().is_full());
        }
    }
}
