//! The JSON line written for every game, and reading a file of them back (to resume a match or
//! summarise it again).

use std::path::Path;
use std::time::Duration;

use entropy_core::{Move, Role};
use serde::{Deserialize, Serialize};

use crate::game::GameOutcome;
use crate::player::{FaultKind, PlayerSpec};
use crate::sprt::SprtStatus;

/// What makes games belong to the same match: a file is resumed only with the same settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchKey {
    /// Player A and player B.
    pub players: [PlayerSpec; 2],
    /// The match seed (deals, bots and jury are derived from it).
    pub seed: u64,
    /// Player A's clock per game, in milliseconds (and B's, unless `clock_b_ms` is given).
    pub clock_ms: u64,
    /// Player B's clock per game, in milliseconds, where it differs from A's (time odds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_b_ms: Option<u64>,
    /// The board side N.
    pub size: u8,
    /// The depth of the search that values the luck of each game's draws ([`crate::luck`]),
    /// taken out of the paired margins the SPRT and the summary measure; none: the margins
    /// as played (and so in matches recorded before luck was measured).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck: Option<u32>,
}

impl MatchKey {
    /// The settings of a match as a person gives them, checked: each player as a label (how the
    /// caller names it in errors, `A` or `a`) and a spec (a built-in bot with options, or a
    /// CodeCup program, which plays 7x7 only), each player's clock as the option's name and
    /// seconds (positive, kept to the millisecond), and the board side (7 or 5). B's clock is
    /// recorded only where it differs from A's. `entropy match` and the Python bindings both
    /// build their matches here, so they accept and refuse the same settings.
    pub fn checked(
        players: [(&str, &str); 2],
        seed: u64,
        clocks: [(&str, f64); 2],
        size: usize,
    ) -> Result<MatchKey, String> {
        if entropy_core::Size::new(size).is_none() {
            return Err(format!(
                "board size {size} is not supported: use 7 (the game) or 5 (Entropy(5))"
            ));
        }
        let specs = players.map(|(_, spec)| PlayerSpec::parse(spec));
        for ((label, _), spec) in players.iter().zip(&specs) {
            spec.validate()
                .map_err(|e| format!("player {label}: {e}"))?;
            if matches!(spec, PlayerSpec::Command(_)) && size != 7 {
                return Err(format!(
                    "player {label} is a program, and the CodeCup protocol is played on 7x7 only"
                ));
            }
        }
        let millis = |(name, seconds): (&str, f64)| {
            if seconds.is_finite() && seconds > 0.0 {
                Ok((seconds * 1000.0).round().max(1.0) as u64)
            } else {
                Err(format!(
                    "{name} must be a positive number of seconds, not {seconds}"
                ))
            }
        };
        let clock_ms = millis(clocks[0])?;
        let clock_b = millis(clocks[1])?;
        Ok(MatchKey {
            players: specs,
            seed,
            clock_ms,
            clock_b_ms: (clock_b != clock_ms).then_some(clock_b),
            size: size as u8,
            luck: None,
        })
    }

    /// The same match with each game's luck valued by a search this deep and taken out of the
    /// margins; 0 or none: the margins as played.
    pub fn with_luck(self, depth: Option<u32>) -> MatchKey {
        MatchKey {
            luck: depth.filter(|&d| d > 0),
            ..self
        }
    }

    /// Each player's clock per game: index 0 A's, 1 B's.
    pub fn clocks(&self) -> [Duration; 2] {
        let a = self.clock_ms;
        [a, self.clock_b_ms.unwrap_or(a)].map(Duration::from_millis)
    }

    /// The clocks in words: `30 s`, or `30 s (A) / 3 s (B)` with time odds.
    pub fn clock_text(&self) -> String {
        let [a, b] = self.clocks().map(|c| c.as_secs_f64());
        if a == b {
            format!("{a} s")
        } else {
            format!("{a} s (A) / {b} s (B)")
        }
    }
}

/// One player's part in a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Side {
    /// `A` or `B`: which of the match's players.
    pub player: char,
    /// The player's short label (bot name, or command without the program's directories).
    pub name: String,
    /// Seconds of its clock it used.
    pub seconds: f64,
    /// Its CodeCup points: 120 + S as Order, 280 - S as Chaos, 0 after a forfeit.
    pub points: u32,
}

/// How a game ended, as records write it (`normal`, `forfeit`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Termination {
    /// Both players played every move.
    Normal,
    /// A player forfeited and the jury finished the game for it.
    Forfeit,
}

/// A forfeit as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForfeitRecord {
    /// `order` or `chaos`.
    pub role: String,
    /// The kind of fault.
    pub reason: FaultKind,
    /// What happened.
    pub detail: String,
    /// The turn (chip number) on which it happened; the jury played the rest.
    pub turn: usize,
}

/// Everything about one game, written as one JSON line as soon as it ends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The match settings.
    #[serde(rename = "match")]
    pub key: MatchKey,
    /// Deal number, from 0.
    pub deal: u32,
    /// 0 when player A is Order, 1 when player B is Order (same chips either way).
    pub game: u8,
    /// The seed of this deal's chip order.
    pub deal_seed: u64,
    /// Order's side.
    pub order: Side,
    /// Chaos's side.
    pub chaos: Side,
    /// The moves, one entry per decision: Chaos's as colour and cell (`3Bc`, the chance draw
    /// folded in), Order's as `BcBg` or `pass`. Cells in CodeCup notation.
    pub moves: Vec<String>,
    /// The final board (board text).
    pub board: String,
    /// Order's score S.
    pub score: u32,
    /// Order's luck in the draws ([`crate::luck`]), where the match measures it: how much the
    /// chips drawn were worth over the bag's average, by a search of the match's luck depth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub luck: Option<f64>,
    /// How the game ended.
    pub termination: Termination,
    /// The forfeits, if any.
    pub forfeits: Vec<ForfeitRecord>,
    /// Where the match's SPRT stood once this game was counted (matches run with one only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtStatus>,
}

impl GameRecord {
    /// Builds the record of a game of deal `deal` (game 0: A is Order; game 1: B is Order),
    /// valuing Order's luck in the draws where the key asks for it (a small search per draw,
    /// on the thread that played the game).
    pub fn new(
        key: &MatchKey,
        deal: u32,
        game: u8,
        deal_seed: u64,
        outcome: &GameOutcome,
    ) -> GameRecord {
        let score = outcome.score();
        let side = |role: Role| {
            let player = if (game == 0) == (role == Role::Order) {
                0
            } else {
                1
            };
            let points = match (outcome.forfeited(role), role) {
                (true, _) => 0,
                (false, Role::Order) => 120 + score,
                (false, Role::Chaos) => 280u32.saturating_sub(score),
            };
            Side {
                player: ['A', 'B'][player],
                name: key.players[player].short_label(),
                seconds: outcome.time_used[role.index()].as_secs_f64(),
                points,
            }
        };
        GameRecord {
            key: key.clone(),
            deal,
            game,
            deal_seed,
            order: side(Role::Order),
            chaos: side(Role::Chaos),
            moves: format_moves(&outcome.moves),
            board: outcome.position.board().to_string(),
            score,
            // To a ten-thousandth of a point, which JSON carries exactly: a resumed match reads
            // back the very numbers its test counted.
            luck: key.luck.map(|depth| {
                let luck = crate::luck::game_luck(outcome.position.size(), &outcome.moves, depth);
                (luck * 1e4).round() / 1e4
            }),
            termination: if outcome.forfeits.is_empty() {
                Termination::Normal
            } else {
                Termination::Forfeit
            },
            forfeits: outcome
                .forfeits
                .iter()
                .map(|f| ForfeitRecord {
                    role: f.role.name().to_owned(),
                    reason: f.fault.kind,
                    detail: f.fault.detail.clone(),
                    turn: f.turn,
                })
                .collect(),
            sprt: None,
        }
    }

    /// Order's score less its luck in the draws, where measured: the players' share of the
    /// score, with the score's expectation ([`crate::luck`]); the score where not measured.
    pub fn skill_score(&self) -> f64 {
        f64::from(self.score) - self.luck.unwrap_or(0.0)
    }

    /// The side of player `A` (index 0) or `B` (index 1).
    pub fn side_of(&self, player: usize) -> (Role, &Side) {
        if (self.game == 0) == (player == 0) {
            (Role::Order, &self.order)
        } else {
            (Role::Chaos, &self.chaos)
        }
    }
}

/// Writes moves as recorded: each draw folded into the placement that follows it.
pub fn format_moves(moves: &[Move]) -> Vec<String> {
    moves
        .iter()
        .filter(|m| !matches!(m, Move::Draw(_)))
        .map(Move::to_string)
        .collect()
}

/// Reads recorded moves back into moves with the chance draws.
pub fn parse_moves(entries: &[String]) -> Result<Vec<Move>, entropy_core::ParseError> {
    let mut moves = Vec::with_capacity(entries.len() * 3 / 2 + 1);
    for entry in entries {
        let mv: Move = entry.parse()?;
        if let Move::Place { colour, .. } = mv {
            moves.push(Move::Draw(colour));
        }
        moves.push(mv);
    }
    Ok(moves)
}

/// The records of a JSON lines file, and what was wrong with the lines that could not be read.
#[derive(Debug, Default)]
pub struct RecordFile {
    /// The records read, in file order: the compressed part's first ([`crate::store`]).
    pub records: Vec<GameRecord>,
    /// How many of the records came from the compressed part.
    pub sealed: usize,
    /// Problems, one per bad line (`FILE line N: ...`). A half-written last line is one of
    /// these.
    pub problems: Vec<String>,
    /// Whether any problem is in the compressed part, which no resumed match rewrites.
    pub sealed_problems: bool,
}

/// Reads a record's game lines, from both its parts ([`crate::store`]); a missing record is an
/// empty one.
pub fn read_records(path: &Path) -> std::io::Result<RecordFile> {
    let mut out = RecordFile::default();
    let sealed_path = crate::store::RecordPaths::new(path).sealed;
    for (part, text) in crate::store::read_parts(path)?.unwrap_or_default() {
        let sealed = part == sealed_path;
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<GameRecord>(line) {
                Ok(record) => out.records.push(record),
                Err(e) => {
                    out.problems
                        .push(format!("{} line {}: {e}", part.display(), i + 1));
                    out.sealed_problems |= sealed;
                }
            }
        }
        if sealed {
            out.sealed = out.records.len();
        }
    }
    Ok(out)
}

/// The games of one match's record: an error if the record is missing, holds no game or holds
/// games of more than one match. Unreadable lines (a game cut off mid-write) are returned as
/// problems; the record is left as it is.
pub fn read_match(path: &Path) -> Result<(Vec<GameRecord>, Vec<String>), String> {
    if !crate::store::RecordPaths::new(path).exists() {
        return Err(format!("{}: no such file", path.display()));
    }
    let file = read_records(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let Some(first) = file.records.first() else {
        return Err(format!("{} holds no game record", path.display()));
    };
    if let Some(other) = file.records.iter().find(|r| r.key != first.key) {
        return Err(format!(
            "{} holds games of two matches ({} vs {} at {}, and {} vs {} at {}); \
             summarise each match's games from a file of their own",
            path.display(),
            first.key.players[0],
            first.key.players[1],
            first.key.clock_text(),
            other.key.players[0],
            other.key.players[1],
            other.key.clock_text()
        ));
    }
    Ok((file.records, file.problems))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::shuffled_bag;
    use crate::game::play_game;
    use crate::player::BuiltinPlayer;
    use entropy_core::{Position, Size};

    #[test]
    fn a_record_round_trips_through_json_and_replays() {
        let key = MatchKey {
            players: [
                PlayerSpec::Builtin("greedy".into()),
                PlayerSpec::Builtin("random".into()),
            ],
            seed: 1,
            clock_ms: 30_000,
            clock_b_ms: None,
            size: 7,
            luck: Some(1),
        };
        let deal = shuffled_bag(Size::SEVEN, 5);
        let mut a = BuiltinPlayer::new("greedy", 1).unwrap();
        let mut b = BuiltinPlayer::new("random", 2).unwrap();
        let outcome = play_game(
            Size::SEVEN,
            &deal,
            [Duration::from_secs(30); 2],
            1,
            &mut b,
            &mut a,
        );
        let record = GameRecord::new(&key, 0, 1, 5, &outcome);
        assert_eq!((record.order.player, record.chaos.player), ('B', 'A'));
        assert_eq!(record.order.points, 120 + record.score);
        let json = serde_json::to_string(&record).unwrap();
        assert!(!json.contains('\n'));
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, record);
        assert!(record.luck.is_some() && json.contains("\"luck\":1"));
        // Records from before luck was measured have no such fields, and read back without it.
        let before = GameRecord {
            key: MatchKey {
                luck: None,
                ..key.clone()
            },
            luck: None,
            ..record.clone()
        };
        let old = serde_json::to_string(&before).unwrap();
        assert!(!old.contains("luck"), "{old}");
        let old: GameRecord = serde_json::from_str(&old).unwrap();
        assert_eq!((old.key.luck, old.luck), (None, None));
        let moves = parse_moves(&back.moves).unwrap();
        assert_eq!(moves, outcome.moves);
        let mut replay = Position::new(Size::SEVEN);
        for mv in moves {
            replay.play(mv).unwrap();
        }
        assert_eq!(replay.score(), record.score);
        assert_eq!(replay.board().to_string(), record.board);
    }
}
