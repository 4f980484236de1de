//! Self-play data kept in a file as it is made, so that a long generation (the line-pattern
//! tables' tens of thousands of games, the policy's teacher data) resumes where it stopped:
//! each finished game is appended whole, a settings line first says what made them, and a run
//! with the same settings plays only the games the file lacks.
//!
//! The file: `# SETTINGS`, then each game's lines ([`SavedLine::to_line`]) followed by `end
//! GAME`, games in the order they finished. A game cut off by an interruption (no `end` line)
//! is cut off the file and played again. The lines come back in game order, so a resumed run
//! returns what an uninterrupted one would (the tables' samples as [`crate::generate`] returns
//! them, so a resumed run fits the same model).

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use entropy_engine::eval::Evaluator;

use crate::linear::{self_play_with, Sample, TrainConfig};

/// One line of a game's data in a saved file.
pub trait SavedLine: Sized + Send {
    /// The game it belongs to.
    fn game(&self) -> usize;
    /// The line, without its newline.
    fn to_line(&self) -> String;
    /// Reads a line written by [`SavedLine::to_line`].
    fn from_line(line: &str) -> Result<Self, String>;
}

impl SavedLine for Sample {
    fn game(&self) -> usize {
        self.game
    }

    fn to_line(&self) -> String {
        Sample::to_line(self)
    }

    fn from_line(line: &str) -> Result<Self, String> {
        Sample::from_line(line).map_err(|e| e.to_string())
    }
}

/// The games already in a file made with `settings`, by game; a trailing game without its `end`
/// line is cut off the file. An error if the file holds another run's games or a line that
/// cannot be read.
pub fn read_saved<T: SavedLine>(
    path: &Path,
    settings: &str,
) -> Result<BTreeMap<usize, Vec<T>>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let mut games = BTreeMap::new();
    let mut pending: Vec<T> = Vec::new();
    // Bytes read so far, and up to the end of the last whole game.
    let (mut offset, mut whole) = (0, 0);
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if !line.ends_with('\n') {
            break;
        }
        offset += line.len();
        let content = line.trim_end();
        let at = || format!("{} line {}", path.display(), n + 1);
        if n == 0 {
            if content != format!("# {settings}") {
                return Err(format!(
                    "{} holds the games of another run ({content}); use another --data, or \
                     delete it to start again",
                    path.display()
                ));
            }
            whole = offset;
            continue;
        }
        match content.strip_prefix("end ") {
            Some(game) => {
                let game: usize = game
                    .parse()
                    .map_err(|_| format!("{}: {content:?} is not `end GAME`", at()))?;
                if pending.iter().any(|s| s.game() != game) {
                    return Err(format!("{}: samples of another game before it", at()));
                }
                games.insert(game, std::mem::take(&mut pending));
                whole = offset;
            }
            None => pending.push(T::from_line(content).map_err(|e| format!("{}: {e}", at()))?),
        }
    }
    if whole < text.len() {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        file.set_len(whole as u64)
            .map_err(|e| format!("cannot cut {} to its whole games: {e}", path.display()))?;
    }
    Ok(games)
}

/// Plays the games `0..config.games` the samples file at `path` lacks on `config.jobs` threads,
/// `eval` at the searches' leaves ([`self_play_with`]), appending each as it finishes
/// (`progress` after each, and once for each game found), and returns every game's samples in
/// game order.
pub fn generate_saved<E: Evaluator + Clone>(
    eval: &E,
    config: &TrainConfig,
    path: &Path,
    settings: &str,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Sample>, String> {
    let play = |game| Ok(self_play_with(eval.clone(), config, game));
    play_saved(path, settings, config.games, config.jobs, &play, progress)
}

/// Plays the games `0..games` the file at `path` lacks on `jobs` threads (`play(game)` gives a
/// game's lines), appending each as it finishes (`progress` after each, and once for each game
/// found), and returns every game's lines in game order. The first error of `play` or of
/// writing stops the run (the games written stay).
pub fn play_saved<T: SavedLine>(
    path: &Path,
    settings: &str,
    games: usize,
    jobs: usize,
    play: &(dyn Fn(usize) -> Result<Vec<T>, String> + Sync),
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<T>, String> {
    let mut found = read_saved(path, settings)?;
    found.retain(|&game, _| game < games);
    for _ in 0..found.len() {
        progress();
    }
    let fresh = !path.exists() || std::fs::metadata(path).is_ok_and(|m| m.len() == 0);
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    if fresh {
        writeln!(file, "# {settings}")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let missing: Vec<usize> = (0..games).filter(|g| !found.contains_key(g)).collect();
    let next = AtomicUsize::new(0);
    let file = Mutex::new(file);
    let played = Mutex::new(Vec::with_capacity(missing.len()));
    let error = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&game) = missing.get(i) else { break };
                if error
                    .lock()
                    .expect("no panics while holding the lock")
                    .is_some()
                {
                    break;
                }
                let lines = match play(game) {
                    Ok(lines) => lines,
                    Err(e) => {
                        *error.lock().expect("no panics while holding the lock") =
                            Some(format!("game {game}: {e}"));
                        break;
                    }
                };
                let mut text: String = lines.iter().map(|s| s.to_line() + "\n").collect();
                text.push_str(&format!("end {game}\n"));
                let written = {
                    let mut file = file.lock().expect("no panics while holding the lock");
                    file.write_all(text.as_bytes()).and_then(|()| file.flush())
                };
                if let Err(e) = written {
                    *error.lock().expect("no panics while holding the lock") =
                        Some(format!("cannot write {}: {e}", path.display()));
                    break;
                }
                played
                    .lock()
                    .expect("no panics while holding the lock")
                    .push((game, lines));
                progress();
            });
        }
    });
    if let Some(e) = error
        .into_inner()
        .expect("no panics while holding the lock")
    {
        return Err(e);
    }
    found.extend(
        played
            .into_inner()
            .expect("no panics while holding the lock"),
    );
    Ok(found.into_values().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::generate;
    use entropy_engine::eval::{LinearEval, Weights};

    #[test]
    fn an_interrupted_generation_resumes_to_the_same_samples() {
        let config = TrainConfig {
            games: 4,
            nodes: 60,
            jobs: 2,
            ..TrainConfig::default()
        };
        let weights = Weights::trained();
        let path = std::env::temp_dir().join(format!("saved-{}.txt", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let direct = generate(&weights, &config, 0, &|| {});
        let eval = LinearEval::new(weights.clone());
        let saved = generate_saved(&eval, &config, &path, "test", &|| {}).unwrap();
        assert_eq!(saved.len(), direct.len());
        assert!(saved
            .iter()
            .zip(&direct)
            .all(|(a, b)| a.to_line() == b.to_line()));
        // Half of the last game written, as an interruption leaves it: cut off and played again.
        let text = std::fs::read_to_string(&path).unwrap();
        let last_end = text.trim_end().rfind("\nend ").unwrap();
        std::fs::write(&path, &text[..last_end - 20]).unwrap();
        let resumed = generate_saved(&eval, &config, &path, "test", &|| {}).unwrap();
        assert!(resumed
            .iter()
            .zip(&direct)
            .all(|(a, b)| a.to_line() == b.to_line()));
        assert_eq!(resumed.len(), direct.len());
        // More games play only the new ones; other settings are refused.
        let more = TrainConfig { games: 5, ..config };
        let extended = generate_saved(&eval, &more, &path, "test", &|| {}).unwrap();
        assert!(extended.len() > direct.len());
        assert!(generate_saved(&eval, &more, &path, "other", &|| {}).is_err());
        std::fs::remove_file(&path).unwrap();
    }
}
