//! Games read back from files of any kind the project writes or reads: `entropy match` records
//! and the web page's downloads (JSON lines, one game a line), CodeCup transcripts and plain
//! move lists (one game a file); and running work over many games in parallel, in game order.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use entropy_core::{Move, Position, Size};
use entropy_engine::learned::BotEval;
use entropy_engine::search::Searcher;
use serde_json::Value;

use crate::record::parse_moves;

/// A game read from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedGame {
    /// Where it came from: `FILE` or `FILE:LINE`.
    pub source: String,
    /// The board's size.
    pub size: Size,
    /// Who played Order (`order` where the file does not say).
    pub order: String,
    /// Who played Chaos (`chaos` where the file does not say).
    pub chaos: String,
    /// The moves, the chance draws included.
    pub moves: Vec<Move>,
}

impl RecordedGame {
    /// Order's final score, for a finished game whose moves are all legal; otherwise what is
    /// wrong with it.
    pub fn final_score(&self) -> Result<u32, String> {
        let mut position = Position::new(self.size);
        for (i, &mv) in self.moves.iter().enumerate() {
            position
                .play(mv)
                .map_err(|e| format!("move {} ({mv}) is illegal: {e}", i + 1))?;
        }
        if !position.is_over() {
            return Err("the game is not finished".into());
        }
        Ok(position.score())
    }
}

/// The games of every file, and a problem for each game that cannot be read; an error if a
/// file cannot be read or no game can be.
pub fn read_all(paths: &[PathBuf]) -> Result<(Vec<RecordedGame>, Vec<String>), String> {
    let mut games = Vec::new();
    let mut unreadable = Vec::new();
    for path in paths {
        let (read, problems) = read_games(path)?;
        games.extend(read);
        unreadable.extend(problems);
    }
    if games.is_empty() {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let why = unreadable
            .first()
            .map_or(String::new(), |first| format!(" ({first})"));
        return Err(format!("no game in {}{why}", names.join(", ")));
    }
    Ok((games, unreadable))
}

/// Reads the games of a file (either part of a compressed record, [`crate::store`]): JSON lines
/// (one game per line) or one CodeCup transcript or move list. Returns the games and a problem
/// for each line that is not a readable game.
pub fn read_games(path: &Path) -> Result<(Vec<RecordedGame>, Vec<String>), String> {
    let text = crate::store::read_text(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let name = path.display().to_string();
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    if first.is_some_and(|l| l.starts_with('{')) {
        let mut games = Vec::new();
        let mut problems = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let source = format!("{name}:{}", i + 1);
            match game_of_json(line, source.clone()) {
                Ok(game) => games.push(game),
                Err(e) => problems.push(format!("{source}: {e}")),
            }
        }
        return Ok((games, problems));
    }
    match moves_of_transcript(&text) {
        Ok(moves) => Ok((
            vec![RecordedGame {
                source: name,
                size: Size::SEVEN,
                order: "order".into(),
                chaos: "chaos".into(),
                moves,
            }],
            Vec::new(),
        )),
        Err(e) => Ok((Vec::new(), vec![format!("{name}: {e}")])),
    }
}

/// A game from a JSON line: `entropy match`'s records or the web page's downloads.
pub fn game_of_json(line: &str, source: String) -> Result<RecordedGame, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not a JSON object: {e}"))?;
    let entries: Vec<String> = serde_json::from_value(value["moves"].clone())
        .map_err(|_| "no \"moves\" list of strings".to_owned())?;
    let moves = parse_moves(&entries).map_err(|e| format!("a move that cannot be read: {e}"))?;
    let side = match value["match"]["size"].as_u64() {
        Some(side) => side as usize,
        // The web page's download: the final board's rows.
        None => value["board"]
            .as_str()
            .map_or(7, |board| board.split('/').count()),
    };
    let size = Size::new(side).ok_or_else(|| format!("board size {side} is not supported"))?;
    let name = |role: &str| value[role]["name"].as_str().unwrap_or(role).to_string();
    Ok(RecordedGame {
        source,
        size,
        order: name("order"),
        chaos: name("chaos"),
        moves,
    })
}

/// The moves of a CodeCup transcript (`> 6Fe`, `< FeFe`, a colour then a cell, `Start`,
/// `Quit`) or of a list of recorded moves, with the draws.
pub fn moves_of_transcript(text: &str) -> Result<Vec<Move>, String> {
    let mut entries = Vec::new();
    let mut colour: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line
            .strip_prefix('>')
            .or_else(|| line.strip_prefix('<'))
            .unwrap_or(line);
        for token in line.split_whitespace() {
            match token {
                "Start" | "Quit" => {}
                t if t.len() == 1 => colour = Some(t.to_string()),
                t if t.len() == 2 => match colour.take() {
                    Some(c) => entries.push(format!("{c}{t}")),
                    None => {
                        return Err(format!(
                            "line {}: a cell ({t}) with no colour drawn before it",
                            i + 1
                        ))
                    }
                },
                t => entries.push(t.to_string()),
            }
        }
    }
    if entries.is_empty() {
        return Err(
            "no moves (expected JSON lines, a CodeCup transcript or recorded moves)".into(),
        );
    }
    parse_moves(&entries).map_err(|e| format!("a move that cannot be read: {e}"))
}

/// The decisions (placements and slides) of the games: a progress bar's length.
pub fn decisions_in(games: &[RecordedGame]) -> u64 {
    games
        .iter()
        .flat_map(|g| &g.moves)
        .filter(|m| !matches!(m, Move::Draw(_)))
        .count() as u64
}

/// Runs `work` on every game on `jobs` threads, each with its own searcher over `eval`, and
/// hands the results to `done` in game order as they finish.
pub fn in_game_order<R: Send>(
    games: &[RecordedGame],
    jobs: usize,
    eval: &BotEval,
    work: impl Fn(&mut Searcher<BotEval>, &RecordedGame) -> R + Sync,
    mut done: impl FnMut(usize, R),
) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<(usize, R)>();
        for _ in 0..jobs.max(1) {
            let sender = sender.clone();
            let (next, work) = (&next, &work);
            scope.spawn(move || {
                let mut searcher = Searcher::new(eval.clone(), 16);
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = games.get(index) else { break };
                    if sender.send((index, work(&mut searcher, game))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut handed = 0;
        for (index, result) in receiver {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&handed) {
                done(handed, result);
                handed += 1;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_and_move_lists_give_the_same_moves() {
        let transcript = "# a comment\n> Start\n> 6\n< Fe\n> FeFe\n> 2Fa\n< FaFb\n> Quit\n";
        let list = "6Fe pass 2Fa FaFb";
        let a = moves_of_transcript(transcript).unwrap();
        let b = moves_of_transcript(list).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 6);
        assert!(moves_of_transcript("> Fe").is_err());
        assert!(moves_of_transcript("").is_err());
    }

    #[test]
    fn web_downloads_read_their_size_from_the_board() {
        let line = r#"{"moves":["3Cc","CcCa"],"board":"....././....././.....","order":{"name":"you"},"chaos":{"name":"greedy"}}"#;
        let game = game_of_json(line, "x".into()).unwrap();
        assert_eq!(game.size, Size::FIVE);
        assert_eq!(
            (game.order.as_str(), game.chaos.as_str()),
            ("you", "greedy")
        );
        assert_eq!(game.moves.len(), 3);
        assert_eq!(game.final_score().unwrap_err(), "the game is not finished");
        assert!(game_of_json(r#"{"moves": 3}"#, "x".into()).is_err());
        assert!(game_of_json("{not json", "x".into()).is_err());
    }

    #[test]
    fn work_comes_back_in_game_order_whatever_the_threads() {
        let game = |i: usize| RecordedGame {
            source: i.to_string(),
            size: Size::FIVE,
            order: "order".into(),
            chaos: "chaos".into(),
            moves: Vec::new(),
        };
        let games: Vec<RecordedGame> = (0..9).map(game).collect();
        for jobs in [1, 3] {
            let mut seen = Vec::new();
            in_game_order(
                &games,
                jobs,
                &BotEval::shipped(),
                |_, g| g.source.clone(),
                |i, source| seen.push((i, source)),
            );
            let expected: Vec<(usize, String)> = (0..9).map(|i| (i, i.to_string())).collect();
            assert_eq!(seen, expected);
        }
    }
}
