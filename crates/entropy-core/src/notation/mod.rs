//! Every notation the source documents use, each with parse and format:
//!
//! | module       | document                | cell  | placement  | slide       | pass     |
//! |--------------|-------------------------|-------|------------|-------------|----------|
//! | [`codecup`]  | CodeCup 2023 rules      | `Bc`  | `3Bc`      | `BcBg`      | `BcBc`   |
//! | [`spec`]     | bot specification (004) | `b3`  | `b3`       | `b3-b7`     | `pass`   |
//! | [`course`]   | course assignment (002) | `1 2` | `1 2 R`    | `1 2 1 6`   | (none)   |
//! | [`text`]     | board text (ours)       | one character per cell, `.` empty, rows split by `/` |
//!
//! [`lenient`] reads what a person types at a prompt, in the CodeCup's or the specification's
//! notation, and [`terminal`] draws a position for a person.
//!
//! Parsing only checks syntax: `Gg` parses on a 5x5 board and is then refused by
//! [`crate::Position::play`] as off the board. Syntax errors are [`ParseError`]s; legality errors
//! are [`crate::IllegalMove`]s.

pub mod codecup;
pub mod course;
pub mod lenient;
pub mod spec;
pub mod terminal;
pub mod text;

use std::fmt;

/// Text that does not follow a notation: names what was being read, the text, where (a 1-based
/// character position, when one can be named) and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    what: &'static str,
    input: String,
    position: Option<usize>,
    problem: String,
}

impl ParseError {
    /// Makes an error about reading `what` (e.g. "CodeCup cell") from `input`.
    pub fn new(
        what: &'static str,
        input: &str,
        position: Option<usize>,
        problem: impl Into<String>,
    ) -> ParseError {
        ParseError {
            what,
            input: input.to_owned(),
            position,
            problem: problem.into(),
        }
    }

    /// What was being read.
    pub fn what(&self) -> &'static str {
        self.what
    }

    /// The text that was read.
    pub fn input(&self) -> &str {
        &self.input
    }

    /// The 1-based character position of the problem, if there is one.
    pub fn position(&self) -> Option<usize> {
        self.position
    }

    /// The problem, in words.
    pub fn problem(&self) -> &str {
        &self.problem
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Long inputs (board texts) are cut so the message stays one readable line.
        let shown: String = self.input.chars().take(80).collect();
        let ellipsis = if self.input.chars().count() > 80 {
            "..."
        } else {
            ""
        };
        write!(f, "invalid {} {:?}{}", self.what, shown, ellipsis)?;
        if let Some(position) = self.position {
            write!(f, " at character {position}")?;
        }
        write!(f, ": {}", self.problem)
    }
}

impl std::error::Error for ParseError {}
