//! `entropy score`: Order's score for board texts.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use entropy_core::Board;

/// Print Order's score for each board text, one integer per input line, in order.
///
/// A board text lists the cells row by row from the top: `.` for empty, `1`-`7` for colours,
/// optionally `/` between rows; 49 cells make a 7x7 board, 25 a 5x5 one. Example:
/// `1234321/......./......./......./......./......./.......` scores 15 (7 + 5 + 3).
///
/// A line that is not a board gets an error on stderr naming the file and line, and an empty
/// line on stdout (so outputs stay aligned with inputs); the others are still scored and the
/// exit code is 1. Blank lines and lines starting with `#` are skipped.
#[derive(clap::Args)]
pub struct Args {
    /// Files of board texts, one per line; `-` or none reads standard input.
    files: Vec<PathBuf>,
    /// Also print each row's and column's score: `S rows=r1,..,r7 columns=c1,..,c7`.
    #[arg(long)]
    lines: bool,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut failures = 0usize;
    let sources: Vec<Option<PathBuf>> = if args.files.is_empty() {
        vec![None]
    } else {
        args.files
            .iter()
            .map(|p| (p.as_os_str() != "-").then(|| p.clone()))
            .collect()
    };
    for source in sources {
        let (name, reader): (String, Box<dyn BufRead>) = match &source {
            None => ("<stdin>".to_owned(), Box::new(BufReader::new(io::stdin()))),
            Some(path) => {
                let file =
                    File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
                (path.display().to_string(), Box::new(BufReader::new(file)))
            }
        };
        for (index, line) in reader.lines().enumerate() {
            let line = line.with_context(|| format!("cannot read {name}"))?;
            let text = line.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            match text.parse::<Board>() {
                Ok(board) if args.lines => writeln!(out, "{}", board.scores_text())?,
                Ok(board) => writeln!(out, "{}", board.score())?,
                Err(error) => {
                    failures += 1;
                    writeln!(out)?;
                    out.flush()?;
                    eprintln!("entropy score: {name}: line {}: {error}", index + 1);
                }
            }
        }
    }
    out.flush()?;
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
