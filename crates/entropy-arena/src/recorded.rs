//! A match played into its record: the games already recorded are read back and kept, only the
//! missing ones are played, each is appended as it ends, and a record named compressed is
//! sealed when the match is done ([`crate::store`]). The display is the caller's: it hears of
//! every step through [`MatchEvent`].

use std::collections::HashSet;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;

use crate::record::{read_records, GameRecord, MatchKey};
use crate::sprt::{MatchSprt, SprtConfig, SprtStatus};
use crate::store;
use crate::tournament::{MatchConfig, Task};

/// What a recorded match reports as it goes.
pub enum MatchEvent<'a> {
    /// An unreadable line (a game cut off mid-write) was dropped from the record.
    Dropped(&'a str),
    /// The record already held games: how many, and how many are left to play.
    Resumed {
        /// Games recorded before.
        recorded: usize,
        /// Games to play now.
        to_play: usize,
    },
    /// The record's SPRT had already decided: no game is played.
    AlreadyDecided,
    /// A game ended and was recorded (with the SPRT's status, if there is a test).
    Played(&'a GameRecord),
}

/// The luck depth of the games already in a record (none: margins as played), or nothing when
/// it holds no game.
pub fn recorded_luck(path: &Path) -> Result<Option<Option<u32>>, String> {
    let file = read_records(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(file.records.first().map(|r| r.key.luck))
}

/// The games already in a record, checked to belong to this match. Unreadable lines of the
/// plain part (a game cut off mid-write) are dropped from the file and reported; the
/// compressed part is never rewritten, so an unreadable line there is an error.
pub fn load_previous(
    path: &Path,
    key: &MatchKey,
    mut on_event: impl FnMut(MatchEvent),
) -> Result<Vec<GameRecord>, String> {
    let file = read_records(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if let Some(other) = file.records.iter().find(|r| &r.key != key) {
        return Err(format!(
            "{} holds games of another match ({} vs {}, seed {}, clock {}, size {}, luck {}); \
             choose another file with --out, or start again with --fresh",
            path.display(),
            other.key.players[0],
            other.key.players[1],
            other.key.seed,
            other.key.clock_text(),
            other.key.size,
            other
                .key
                .luck
                .map_or("not measured".to_owned(), |d| format!("depth {d}"))
        ));
    }
    if !file.problems.is_empty() {
        if file.sealed_problems {
            return Err(format!(
                "{}: unreadable lines in the compressed part ({}); it is never rewritten: \
                 repair it, or start again with --fresh",
                path.display(),
                file.problems[0]
            ));
        }
        for problem in &file.problems {
            on_event(MatchEvent::Dropped(problem));
        }
        let mut text = String::new();
        for record in &file.records[file.sealed..] {
            text.push_str(&serde_json::to_string(record).expect("records serialise"));
            text.push('\n');
        }
        store::rewrite_open(path, &text)
            .map_err(|e| format!("cannot rewrite {}: {e}", path.display()))?;
    }
    Ok(file.records)
}

/// Plays the games of a match missing from its record, appending each as it ends, and returns
/// all its records (those already there and the new ones) for deals below the count. With an
/// SPRT, the test is run over the records already there (in deal order, whatever order the
/// file holds them in), each new record carries its status, and no further game starts once
/// it decides; its final status is returned too.
pub fn play_recorded(
    config: &MatchConfig,
    path: &Path,
    sprt: Option<SprtConfig>,
    mut on_event: impl FnMut(MatchEvent),
) -> Result<(Vec<GameRecord>, Option<SprtStatus>), String> {
    let mut records = load_previous(path, &config.key, &mut on_event)?;
    records.retain(|r| r.deal < config.deals);
    let mut test = sprt.map(MatchSprt::new);
    if let Some(test) = &mut test {
        for record in &records {
            test.add(record.deal, record.game, record.skill_score());
        }
    }
    let decided = |test: &Option<MatchSprt>| test.as_ref().is_some_and(|t| t.decision().is_some());
    let done: HashSet<Task> = records
        .iter()
        .map(|r| Task {
            deal: r.deal,
            game: r.game,
        })
        .collect();
    let tasks = if decided(&test) {
        on_event(MatchEvent::AlreadyDecided);
        Vec::new()
    } else {
        config.tasks(&done)
    };
    if !done.is_empty() {
        on_event(MatchEvent::Resumed {
            recorded: done.len(),
            to_play: tasks.len(),
        });
    }
    let mut file = store::open_for_append(path)
        .map_err(|e| format!("cannot open {} for writing: {e}", path.display()))?;
    let mut write_error = None;
    config.run(&tasks, |mut record| {
        if let Some(test) = &mut test {
            test.add(record.deal, record.game, record.skill_score());
            record.sprt = Some(test.status());
        }
        if write_error.is_none() {
            let line = serde_json::to_string(&record).expect("records serialise");
            if let Err(e) = writeln!(file, "{line}").and_then(|()| file.flush()) {
                write_error = Some(e);
            }
        }
        on_event(MatchEvent::Played(&record));
        records.push(record);
        if write_error.is_some() || decided(&test) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if let Some(e) = write_error {
        return Err(format!("cannot write to {}: {e}", path.display()));
    }
    drop(file);
    // Every game played (or the test decided): a record named `.gz` is compressed now.
    store::seal(path).map_err(|e| format!("cannot compress {}: {e}", path.display()))?;
    Ok((records, test.map(|t| t.status())))
}
